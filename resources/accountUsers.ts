import { z } from 'zod';
import { optionalText, role, uuid } from './fields.js';
import type { ResourceDeclaration } from './types.js';

/** A user's membership of an account (spec: account member link). REST: /accounts/{id}/users. */
export interface AccountUser {
  au_id: string;
  au_userid: string;
  au_accountid: string;
  au_role: 'root' | 'superadmin' | 'admin' | 'member';
  au_external_id: string | null;
  u_email: string;
  u_first_name: string;
  u_last_name: string;
}

export const accountUserCreate = z.object({
  au_userid: uuid,
  au_role: role.default('member'),
  au_external_id: optionalText(200),
});

/** The user cannot change on edit (the picker is disabled); only role and external id. */
export const accountUserUpdate = z
  .object({ au_role: role.optional(), au_external_id: optionalText(200) })
  .transform((v) => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)));

export const accountUsers: ResourceDeclaration = {
  name: 'accountUsers',
  path: 'users',
  table: 'account_users',
  primaryKey: 'au_id',
  // Entry admin member screens are gated by entry_account_users; set_role by account_members.
  group: 'entry_account_users',
  grants: { root: 15, superadmin: 0, admin: 0, member: 0 },
  tenancy: 'account',
  accountKey: 'au_accountid',
  operations: { list: 'read', get: 'read', create: 'create', update: 'update', delete: 'delete' },
  create: accountUserCreate,
  update: accountUserUpdate,
  search: ['u_email', 'u_first_name', 'u_last_name'],
  sortable: ['u_email', 'u_first_name', 'u_last_name', 'au_role'],
  defaultSort: { field: 'u_email', order: 'ASC' },
  filterable: ['au_role'],
  listColumns: ['u_first_name', 'u_last_name', 'u_email', 'au_role'],
  joined: { u_email: 'users', u_first_name: 'users', u_last_name: 'users' },
};
