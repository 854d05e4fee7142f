import { z } from 'zod';
import { isUuid } from './fields.js';
import type { ResourceDeclaration } from './types.js';

/** A media-library folder (spec point 3). A null parent is the root level. */
export interface Folder {
  fo_id: string;
  fo_title: string;
  fo_parentid: string | null;
  fo_created_at?: string;
  fo_updated_at?: string;
}

// Control characters (including newlines) make no sense in a title; slashes and dots are fine:
// a title is only ever shown, never used as a path.
// eslint-disable-next-line no-control-regex -- control characters are what this refuses
const CONTROL_RE = /[\u0000-\u001f\u007f]/;

export const folderTitle = z
  .string({ error: 'error_title_required' })
  .trim()
  .min(1, { error: 'error_title_required' })
  .max(200, { error: 'error_too_long' })
  .refine((v) => !CONTROL_RE.test(v), { error: 'error_title_invalid' });

/** A folder id, or null for the root level. */
export const parentId = z
  .string({ error: 'error_uuid_invalid' })
  .refine(isUuid, { error: 'error_uuid_invalid' })
  .transform((v) => v.toLowerCase())
  .nullable();

export const folderCreate = z.object({
  fo_title: folderTitle,
  fo_parentid: parentId.optional().transform((v) => v ?? null),
});

/** Rename and/or move; an omitted field is left as it is, fo_parentid null moves to the root. */
export const folderUpdate = z.object({
  fo_id: z
    .string({ error: 'error_uuid_invalid' })
    .refine(isUuid, { error: 'error_uuid_invalid' })
    .transform((v) => v.toLowerCase()),
  fo_title: folderTitle.optional(),
  fo_parentid: parentId.optional(),
});

export const folders: ResourceDeclaration = {
  name: 'folders',
  table: 'folders',
  primaryKey: 'fo_id',
  group: 'entry_files',
  grants: { root: 15, superadmin: 0, admin: 0, member: 0 },
  tenancy: 'global',
  operations: { list: 'read', get: 'read', create: 'create', update: 'update', delete: 'delete' },
  create: folderCreate,
  update: folderUpdate,
  search: ['fo_title'],
  sortable: ['fo_title', 'fo_created_at'],
  defaultSort: { field: 'fo_title', order: 'ASC' },
  filterable: ['fo_parentid'],
  listColumns: ['fo_title'],
};
