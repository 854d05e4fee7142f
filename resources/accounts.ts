import { z } from 'zod';
import { optionalText, optionalUrl } from './fields.js';
import type { ResourceDeclaration } from './types.js';

export interface Account {
  a_id: string;
  a_name: string;
  a_email_domain: string | null;
  a_api_url: string | null;
  a_admin_url: string | null;
  a_storage_url: string | null;
  a_public_key: string | null;
  a_is_enabled: boolean;
  a_has_logo: boolean;
}

const DOMAIN_RE = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

const emailDomain = z
  .string()
  .trim()
  .transform((v) => v.replace(/^@/, '').toLowerCase())
  .refine((v) => v === '' || DOMAIN_RE.test(v), { error: 'error_domain_invalid' })
  .nullable()
  .transform((v) => (v ? v : null))
  .optional(); // a missing key stays missing: a partial update keeps the stored domain

const fields = {
  a_name: z.string({ error: 'error_name_required' }).trim().min(1, { error: 'error_name_required' }).max(200, { error: 'error_too_long' }),
  a_email_domain: emailDomain,
  a_api_url: optionalUrl,
  a_admin_url: optionalUrl,
  a_storage_url: optionalUrl,
  a_public_key: optionalText(10000),
  a_is_enabled: z.boolean({ error: 'error_invalid_value' }).default(true),
};

export const accountCreate = z.object(fields);
export const accountUpdate = z
  .object({
    ...fields,
    a_name: fields.a_name.optional(),
    a_is_enabled: z.boolean({ error: 'error_invalid_value' }).optional(),
  })
  .transform((v) => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)));

export const accounts: ResourceDeclaration = {
  name: 'accounts',
  table: 'accounts',
  primaryKey: 'a_id',
  group: 'entry_accounts',
  history: true,
  grants: { root: 15, superadmin: 15, admin: 5, member: 1 },
  tenancy: 'global',
  operations: { list: 'read', get: 'read', create: 'create', update: 'update', delete: 'delete' },
  create: accountCreate,
  update: accountUpdate,
  search: ['a_name'],
  sortable: ['a_name', 'a_email_domain', 'a_is_enabled', 'a_created_at'],
  defaultSort: { field: 'a_name', order: 'ASC' },
  filterable: ['a_is_enabled'],
  listColumns: ['a_name', 'a_email_domain', 'a_is_enabled'],
};
