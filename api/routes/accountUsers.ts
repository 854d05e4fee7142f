import type { Request } from 'express';
import type { ResourceHooks } from '../crud/adapter.js';
import { ctx } from '../context.js';
import { ApiError } from '../errors.js';
import { requirePermission } from '../middleware/auth.js';
import { accountOf } from '../models/scope.js';
import { parseListQuery, runList, sendList } from '../crud/list.js';
import { users } from '../../resources/users.js';
import { USER_COLUMNS } from '../services/users.js';
import { addMembership } from '../console/members.js';

const MEMBER_COLUMNS = ['au_id', 'au_userid', 'au_accountid', 'au_role', 'au_external_id', 'au_created_at', 'u_email', 'u_first_name', 'u_last_name'];

/** Setting a role other than member needs account_members set_role in that account. */
async function assertMayGrant(req: Request, role: unknown): Promise<void> {
  if (role === undefined || role === 'member') return;
  if (!(await ctx(req).permissions.can(req.accountRole, 'account_members', 'set_role')))
    throw new ApiError(403, 'forbidden', 'You may not set member roles', { au_role: 'error_forbidden' });
}

/**
 * accountUsers (entry_account_users): the entry admin's view of an account's members at /accounts/{a}/users,
 * addressed by user id (/accounts/{a}/users/{userId}); served by the generic pipeline with these hooks.
 */
export const accountUsersHooks: ResourceHooks = {
  idColumn: 'au_userid',
  query: (db, req) => db('account_users').join('users', 'u_id', 'au_userid').select(MEMBER_COLUMNS).where('au_accountid', accountOf(req)),
  async create(trx, data, req) {
    await assertMayGrant(req, data.au_role);
    return (await addMembership(trx, accountOf(req), data)).au_userid;
  },
  async update(trx, id, data, req, existing) {
    if (data.au_role !== undefined && data.au_role !== existing.au_role) await assertMayGrant(req, data.au_role);
    if (Object.keys(data).length)
      await trx('account_users')
        .where({ au_accountid: accountOf(req), au_userid: id })
        .update(data);
  },
  async remove(trx, id, req) {
    await trx('account_users')
      .where({ au_accountid: accountOf(req), au_userid: id })
      .del();
  },
  routes(router) {
    // Users not yet linked to the account: the member form's picker (searchable, pageable like any list).
    router.get('/unlinked', requirePermission('entry_account_users', 'create'), async (req, res) => {
      const { db } = ctx(req);
      const query = parseListQuery(req, users, 'u_id');
      const base = () =>
        db('users')
          .select(USER_COLUMNS)
          .whereNotExists(db('account_users').select(db.raw('1')).whereRaw('au_userid = users.u_id').andWhere('au_accountid', accountOf(req)));
      const { rows, total } = await runList(db, base, query, users, 'u_id', ctx(req).config.listMaxRows);
      sendList(
        res,
        'users',
        query,
        rows.map((r) => ({ ...r, id: r.u_id })),
        total,
      );
    });
  },
};
