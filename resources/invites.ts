import { z } from 'zod';
import { defineAccountResource } from './define.js';
import { name } from './fields.js';
import { checkPasswords } from './users.js';
import { ROLES, staffAndMembers } from './roles.js';

export const INVITE_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;
/** An invite link is valid this long. */
export const INVITE_TTL_DAYS = 7;

/** An invitation to join the account (account-console.md: invites). Delete = revoke. */
export const invites = defineAccountResource({
  name: 'invites',
  table: 'invites',
  prefix: 'iv',
  group: 'account_invites',
  grants: staffAndMembers(15, 0),
  icon: 'forward_to_inbox',
  fields: {
    iv_email: { kind: 'email', required: true, requiredMessage: 'error_email_required', list: true, sort: true, createOnly: true },
    iv_first_name: { kind: 'text', max: 100, list: true, sort: true },
    iv_last_name: { kind: 'text', max: 100, list: true, sort: true },
    iv_role: { kind: 'enum', options: ROLES, required: true, default: 'member', list: true, filter: true },
    iv_status: { kind: 'enum', options: INVITE_STATUSES, default: 'pending', readOnly: true, list: true, filter: true, sort: true },
    iv_expires_at: { kind: 'datetime', required: true, readOnly: true, list: true, sort: true },
    iv_invited_by: { kind: 'reference', reference: 'members', referenceKey: 'au_userid', readOnly: true },
  },
  search: ['iv_email', 'iv_first_name', 'iv_last_name'],
  defaultSort: { field: 'iv_created_at', order: 'DESC' },
  title: 'iv_email',
  labels: {
    en: {
      name_one: 'Invite',
      name_other: 'Invites',
      fields: {
        iv_email: 'E-mail',
        iv_first_name: 'First name',
        iv_last_name: 'Last name',
        iv_role: 'Role',
        iv_status: 'Status',
        iv_expires_at: 'Expires',
        iv_invited_by: 'Invited by',
      },
      options: {
        iv_role: { root: 'Root', superadmin: 'Superadmin', admin: 'Admin', member: 'Member' },
        iv_status: { pending: 'Pending', accepted: 'Accepted', revoked: 'Revoked', expired: 'Expired' },
      },
    },
    nl: {
      name_one: 'Uitnodiging',
      name_other: 'Uitnodigingen',
      fields: {
        iv_email: 'E-mail',
        iv_first_name: 'Voornaam',
        iv_last_name: 'Achternaam',
        iv_role: 'Rol',
        iv_status: 'Status',
        iv_expires_at: 'Verloopt',
        iv_invited_by: 'Uitgenodigd door',
      },
      options: {
        iv_role: { root: 'Root', superadmin: 'Superadmin', admin: 'Beheerder', member: 'Lid' },
        iv_status: { pending: 'Open', accepted: 'Aangenomen', revoked: 'Ingetrokken', expired: 'Verlopen' },
      },
    },
  },
});

/**
 * POST /invite/accept (account-console.md: invites). A new user gives names and a password (spec 5: at least
 * `passwordMinLength` characters, confirmation matching, errors on both fields); names left empty take the invite's.
 * An existing user, signed in as the invited address, sends the token only.
 */
export function inviteAcceptSchema(passwordMinLength: number, newUser: boolean) {
  const base = z.object({
    token: z.string({ error: 'error_token_invalid' }).min(1, { error: 'error_token_invalid' }).max(200, { error: 'error_token_invalid' }),
    u_first_name: name(100)
      .optional()
      .nullable()
      .transform((v) => v ?? ''),
    u_last_name: name(100)
      .optional()
      .nullable()
      .transform((v) => v ?? ''),
    u_password: z.string({ error: 'error_password_too_short' }).max(1024, { error: 'error_too_long' }).optional().nullable(),
    u_password_confirm: z.string({ error: 'error_passwords_do_not_match' }).max(1024, { error: 'error_too_long' }).optional().nullable(),
  });
  return newUser ? base.superRefine(checkPasswords(passwordMinLength, true)) : base;
}
export type InviteAccept = z.output<ReturnType<typeof inviteAcceptSchema>>;
