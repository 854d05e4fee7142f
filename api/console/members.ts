import type { Request } from 'express';
import type { Knex } from 'knex';
import { ctx } from '../context.js';
import { ApiError } from '../errors.js';
import { scoped, accountOf } from '../models/scope.js';
import { assertEmailFree, emailWrite } from '../services/users.js';
import { members } from '../../resources/members.js';
import { ROLE_RANK, type Role } from '../../resources/permissions.js';
import { type ResourceHooks } from '../crud/adapter.js';

type Row = Record<string, unknown>;
const USER_FIELDS = ['u_email', 'u_first_name', 'u_last_name'] as const;
type UserField = (typeof USER_FIELDS)[number];

const rank = (role: unknown): number => ROLE_RANK[role as Role] ?? 0;

/**
 * Setting a role needs account_members set_role (a new member or invite may take the default, member, without it),
 * and nobody grants a role above their own in the account (root users act as root). `field` names the input the
 * error belongs to.
 */
export async function assertMayGrant(req: Request, role: unknown, { field = 'au_role', change = false } = {}): Promise<void> {
  const mine = req.accountRole;
  if (!mine || rank(role) > rank(mine)) throw new ApiError(403, 'forbidden', 'You cannot grant a role above your own', { [field]: 'error_role_above_own' });
  if ((change || role !== 'member') && !(await ctx(req).permissions.can(mine, 'account_members', 'set_role')))
    throw new ApiError(403, 'forbidden', 'You may not set member roles', { [field]: 'error_set_role_forbidden' });
}

/** Nobody edits or removes a member who ranks above them in the account. */
function assertNotAbove(req: Request, member: Row): void {
  if (rank(member.au_role) > rank(req.accountRole))
    throw new ApiError(403, 'forbidden', 'You cannot change a member whose role is above your own', { au_role: 'error_member_above_own' });
}

/** The three user fields live on the user (shared by every account it belongs to): account_users update, and never of a user above the caller. */
async function updateUser(trx: Knex.Transaction, req: Request, existing: Row, changes: [UserField, unknown][]): Promise<void> {
  const fieldsOf = (key: string) => Object.fromEntries(changes.map(([k]) => [k, key]));
  if (!(await ctx(req).permissions.can(req.accountRole, 'account_users', 'update'))) throw new ApiError(403, 'forbidden', 'You may not edit the user', fieldsOf('error_forbidden'));
  // A platform user (root, superadmin, admin) is not edited from an account below them: its e-mail is its sign-in.
  const user = await trx('users')
    .where('u_id', existing.au_userid as string)
    .first('u_role');
  if (rank(user?.u_role) > rank(req.accountRole)) throw new ApiError(403, 'forbidden', 'You cannot change a user whose role is above your own', fieldsOf('error_member_above_own'));
  const patch = Object.fromEntries(changes);
  if ('u_email' in patch) {
    if (typeof patch.u_email !== 'string' || patch.u_email === '') throw new ApiError(400, 'validation_failed', 'Please enter an email', { u_email: 'error_email_required' });
    await assertEmailFree(trx, patch.u_email, existing.au_userid as string);
  }
  // Names may be cleared; a null name is stored as '' like the user form does.
  for (const k of ['u_first_name', 'u_last_name'] as const) if (k in patch && patch[k] === null) patch[k] = '';
  await emailWrite(
    trx('users')
      .where('u_id', existing.au_userid as string)
      .update({ ...patch, u_updated_at: trx.fn.now() }),
  );
}

/**
 * A user joins an account (a root user's member form, the entry admin's member form): 400 when the user does not
 * exist, 409 member_already_exists when it is a member already; answers the membership's ids.
 */
export async function addMembership(trx: Knex.Transaction, accountId: string, data: Row): Promise<{ au_id: string; au_userid: string }> {
  const user = await trx('users')
    .where('u_id', data.au_userid as string)
    .first('u_id');
  if (!user) throw new ApiError(400, 'validation_failed', 'The user does not exist', { au_userid: 'error_user_not_found' });
  const inserted = await trx('account_users')
    .insert({ au_userid: data.au_userid, au_role: data.au_role, au_external_id: data.au_external_id ?? null, au_accountid: accountId })
    .onConflict(['au_accountid', 'au_userid'])
    .ignore()
    .returning(['au_id', 'au_userid']);
  if (!inserted.length) throw new ApiError(409, 'member_already_exists', 'A member with the same email address already exists', { au_userid: 'error_member_already_exists' });
  return inserted[0];
}

/**
 * members (account-console.md): the account's memberships with the user's names and e-mail; id = au_id. A role is
 * set only with set_role and never above the caller's own; the user's fields need account_users update; members join
 * through invites, and a root user may also pick an existing user.
 */
export const membersHooks: ResourceHooks = {
  query: (db, req) =>
    scoped(db, members, accountOf(req))
      .join('users', 'u_id', 'au_userid')
      .select('account_users.*', 'users.u_email', 'users.u_first_name', 'users.u_last_name', 'users.u_is_verified'),

  async create(trx, data, req) {
    if (req.user!.u_role !== 'root') throw new ApiError(403, 'forbidden', 'Members join through invites', { au_userid: 'error_members_join_by_invite' });
    await assertMayGrant(req, data.au_role);
    return (await addMembership(trx, accountOf(req), data)).au_id;
  },

  async update(trx, id, data, req, existing) {
    const own: Row = {};
    const userChanges: [UserField, unknown][] = [];
    for (const [k, v] of Object.entries(data)) {
      if (USER_FIELDS.includes(k as UserField)) {
        if (v !== existing[k] && !(v === null && existing[k] === '')) userChanges.push([k as UserField, v]);
      } else if (v !== existing[k]) own[k] = v;
    }
    if (!Object.keys(own).length && !userChanges.length) return;
    assertNotAbove(req, existing);
    if (own.au_role !== undefined) await assertMayGrant(req, own.au_role, { change: true });
    if (userChanges.length) await updateUser(trx, req, existing, userChanges);
    if (Object.keys(own).length)
      await scoped(trx, members, accountOf(req))
        .where('au_id', id)
        .update({ ...own, au_updated_at: trx.fn.now() });
  },

  async remove(trx, id, req, existing) {
    assertNotAbove(req, existing);
    await scoped(trx, members, accountOf(req)).where('au_id', id).del();
  },
};
