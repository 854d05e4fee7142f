import { defineAccountResource } from './define.js';
import { ROLES } from './roles.js';

/**
 * The account's memberships as the console sees them (account-console.md: members). The user's names and e-mail come
 * with the record; changing them needs account_users update. Members join through invites; a root user may also
 * pick an existing user.
 */
export const members = defineAccountResource({
  name: 'members',
  table: 'account_users',
  prefix: 'au',
  group: 'account_members',
  history: true,
  grants: { root: 31, superadmin: 15, admin: 7, member: 15 },
  icon: 'group',
  fields: {
    au_userid: { kind: 'reference', reference: 'users', required: true, createOnly: true },
    u_email: { kind: 'email', list: true, sort: true, joined: 'users' },
    u_first_name: { kind: 'text', max: 100, list: true, sort: true, joined: 'users' },
    u_last_name: { kind: 'text', max: 100, list: true, sort: true, joined: 'users' },
    au_role: { kind: 'enum', options: ROLES, required: true, default: 'member', list: true, filter: true, sort: true },
    au_external_id: { kind: 'text', max: 200, list: true },
    u_is_verified: { kind: 'boolean', readOnly: true, list: true, joined: 'users' },
  },
  search: ['u_email', 'u_first_name', 'u_last_name'],
  defaultSort: { field: 'u_email', order: 'ASC' },
  title: 'u_email',
  // "Mia Tester · mia@example.com" in pickers (an event's owner), toasts and confirmations.
  represent(r) {
    const name = [r.u_first_name, r.u_last_name].filter((v) => typeof v === 'string' && v.trim()).join(' ');
    const email = typeof r.u_email === 'string' ? r.u_email : '';
    return name && email ? `${name} · ${email}` : name || email;
  },
  labels: {
    en: {
      name_one: 'Member',
      name_other: 'Members',
      fields: {
        au_userid: 'User',
        u_email: 'E-mail',
        u_first_name: 'First name',
        u_last_name: 'Last name',
        au_role: 'Role',
        au_external_id: 'External ID',
        u_is_verified: 'Verified',
      },
      options: { au_role: { root: 'Root', superadmin: 'Superadmin', admin: 'Admin', member: 'Member' } },
    },
    nl: {
      name_one: 'Lid',
      name_other: 'Leden',
      fields: {
        au_userid: 'Gebruiker',
        u_email: 'E-mail',
        u_first_name: 'Voornaam',
        u_last_name: 'Achternaam',
        au_role: 'Rol',
        au_external_id: 'Externe ID',
        u_is_verified: 'Bevestigd',
      },
      options: { au_role: { root: 'Root', superadmin: 'Superadmin', admin: 'Beheerder', member: 'Lid' } },
    },
  },
});
