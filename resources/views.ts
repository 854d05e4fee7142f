import { z } from 'zod';
import { defineAccountResource, schemaFor } from './define.js';
import type { Fields } from './types.js';

/**
 * A saved view of a list (platform-and-flows.md 1, "saved views"): a title for a list's filter, sort and columns. Every
 * member keeps views of their own (vw_ownerid, set by the server to the caller); a shared one (vw_shared) shows in the
 * list of everyone in the account who may open that list. The API's hooks (api/console/views.ts) keep the rules the
 * fields cannot: own + shared only, owner-only changes, sharing with the list's update bit, and vw_resource, vw_sort,
 * vw_columns and vw_filter held to the named resource's declaration. No menu item: managed from each list's Views menu.
 */
const PLAIN: Fields = {
  vw_resource: { kind: 'identifier', required: true, createOnly: true, list: true, filter: true, sort: true },
  vw_title: { kind: 'text', required: true, max: 200, list: true, sort: true },
  vw_filter: { kind: 'json', default: {}, formHidden: true },
  vw_shared: { kind: 'boolean', default: false, list: true, filter: true },
  vw_ownerid: { kind: 'reference', reference: 'members', referenceKey: 'au_userid', readOnly: true, filled: 'server', list: true, filter: true },
};

/** A list's sort as react-admin's data provider sends it: [field, "ASC" | "DESC"]; null: the list's default. */
export const isViewSort = (v: unknown): boolean =>
  v === null || (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && v[0].length > 0 && v[0].length <= 100 && (v[1] === 'ASC' || v[1] === 'DESC'));

/** The columns shown, in order: field names, at least one; null: the declaration's list fields. */
export const isViewColumns = (v: unknown): boolean =>
  v === null || (Array.isArray(v) && v.length > 0 && v.length <= 100 && v.every((c) => typeof c === 'string' && c.length > 0 && c.length <= 100) && new Set(v).size === v.length);

/** The field rules, plus the two array fields the kind table has no kind for (json is an object there). */
function viewSchema(mode: 'create' | 'update') {
  const state = z.object({
    vw_sort: z.unknown().refine(isViewSort, { error: 'error_invalid_value' }).optional(),
    vw_columns: z.unknown().refine(isViewColumns, { error: 'error_invalid_value' }).optional(),
  });
  return z.intersection(schemaFor(PLAIN, mode), state).transform((v: Record<string, unknown>) => {
    const out = Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined));
    if (mode === 'create') {
      out.vw_sort ??= null;
      out.vw_columns ??= null;
    }
    return out;
  });
}

export const views = defineAccountResource({
  name: 'views',
  table: 'views',
  prefix: 'vw',
  group: 'account_views',
  // Every member keeps views of their own; who may change which view is the hooks' rule (the owner only).
  grants: { root: 15, superadmin: 15, admin: 15, member: 15 },
  icon: 'bookmark',
  menu: false,
  fields: {
    ...PLAIN,
    vw_sort: { kind: 'json', formHidden: true },
    vw_columns: { kind: 'json', formHidden: true },
  },
  title: 'vw_title',
  defaultSort: { field: 'vw_title', order: 'ASC' },
  create: viewSchema('create'),
  update: viewSchema('update'),
  labels: {
    en: {
      name_one: 'View',
      name_other: 'Views',
      fields: { vw_resource: 'List', vw_title: 'Name', vw_filter: 'Filter', vw_shared: 'Shared', vw_ownerid: 'Owner', vw_sort: 'Sort', vw_columns: 'Columns' },
    },
    nl: {
      name_one: 'Weergave',
      name_other: 'Weergaven',
      fields: { vw_resource: 'Lijst', vw_title: 'Naam', vw_filter: 'Filter', vw_shared: 'Gedeeld', vw_ownerid: 'Eigenaar', vw_sort: 'Sortering', vw_columns: 'Kolommen' },
    },
  },
});
