import { z } from 'zod';
import { email, name, role } from './fields.js';
import type { ResourceDeclaration } from './types.js';

export interface User {
  u_id: string;
  u_first_name: string;
  u_last_name: string;
  u_email: string;
  u_role: 'root' | 'superadmin' | 'admin' | 'member';
  u_is_verified: boolean;
  u_is_enabled: boolean;
  u_created_at?: string;
  u_updated_at?: string;
}

const base = {
  u_first_name: name(100).default(''),
  u_last_name: name(100).default(''),
  u_email: email,
  u_role: role.default('member'),
  u_is_verified: z.boolean({ error: 'error_invalid_value' }).default(false),
  u_is_enabled: z.boolean({ error: 'error_invalid_value' }).default(true),
};

const password = () =>
  z
    .string()
    .max(1024, { error: 'error_too_long' })
    .optional()
    .nullable()
    .transform((v) => v ?? '');

export type PasswordFields = { u_password?: string | null; u_password_confirm?: string | null };

/** Spec point 5: if either password field is filled both rules apply; errors show on both fields for a mismatch. */
export function checkPasswords(min: number, required: boolean) {
  return (v: PasswordFields, ctx: z.RefinementCtx) => {
    const pw = v.u_password ?? '';
    const confirm = v.u_password_confirm ?? '';
    if (!required && pw === '' && confirm === '') return;
    if (pw.length < min) ctx.addIssue({ code: 'custom', message: 'error_password_too_short', path: ['u_password'] });
    if (pw !== confirm) {
      ctx.addIssue({ code: 'custom', message: 'error_passwords_do_not_match', path: ['u_password_confirm'] });
      if (pw.length >= min) ctx.addIssue({ code: 'custom', message: 'error_passwords_do_not_match', path: ['u_password'] });
    }
  };
}

export function userSchemas(passwordMinLength: number) {
  const create = z.object({ ...base, u_password: password(), u_password_confirm: password() }).superRefine(checkPasswords(passwordMinLength, true));
  const update = z
    .object({
      // Not base.*.optional(): zod 4 applies a default under optional, which would blank a name on a partial update.
      u_first_name: name(100).optional(),
      u_last_name: name(100).optional(),
      u_email: email.optional(),
      u_role: role.optional(),
      u_is_verified: z.boolean({ error: 'error_invalid_value' }).optional(),
      u_is_enabled: z.boolean({ error: 'error_invalid_value' }).optional(),
      u_password: password(),
      u_password_confirm: password(),
    })
    .superRefine(checkPasswords(passwordMinLength, false));
  return { create, update };
}

export const DEFAULT_PASSWORD_MIN_LENGTH = 12;

export const users: ResourceDeclaration = {
  name: 'users',
  table: 'users',
  primaryKey: 'u_id',
  group: 'entry_users',
  history: true,
  grants: { root: 31, superadmin: 0, admin: 0, member: 0 },
  tenancy: 'global',
  operations: { list: 'read', get: 'read', create: 'create', update: 'update', delete: 'delete' },
  ...userSchemas(DEFAULT_PASSWORD_MIN_LENGTH),
  search: ['u_email', 'u_first_name', 'u_last_name'],
  sortable: ['u_email', 'u_first_name', 'u_last_name', 'u_role', 'u_created_at', 'u_is_verified', 'u_is_enabled'],
  defaultSort: { field: 'u_email', order: 'ASC' },
  filterable: ['u_role', 'u_is_verified', 'u_is_enabled'],
  listColumns: ['u_first_name', 'u_last_name', 'u_email', 'u_role'],
  hidden: ['u_password'],
};
