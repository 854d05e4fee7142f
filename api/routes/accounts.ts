import { crudRouter } from '../crud/router.js';
import { accounts } from '../../resources/accounts.js';
import { PLATFORM_STAFF_ROLES } from '../../resources/permissions.js';

/** /accounts: tenants. Platform staff see every account; a member sees the accounts it belongs to. */
export function accountsRouter() {
  return crudRouter(accounts, {
    query(db, req) {
      const q = db('accounts').select('accounts.*');
      if (!PLATFORM_STAFF_ROLES.includes(req.user!.u_role)) {
        q.whereExists(db('account_users').select(db.raw('1')).whereRaw('au_accountid = accounts.a_id').andWhere('au_userid', req.user!.u_id));
      }
      return q;
    },
    async create(trx, data) {
      const [row] = await trx('accounts').insert(data).returning(['a_id']);
      return row.a_id;
    },
    async update(trx, id, data) {
      if (Object.keys(data).length)
        await trx('accounts')
          .where('a_id', id)
          .update({ ...data, a_updated_at: trx.fn.now() });
    },
    async remove(trx, id) {
      await trx('accounts').where('a_id', id).del();
    },
  });
}
