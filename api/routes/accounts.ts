import type { ResourceHooks } from '../crud/adapter.js';
import { PLATFORM_STAFF_ROLES } from '../../resources/permissions.js';

/**
 * accounts (entry_accounts): tenants, served by the generic pipeline. Platform staff see every account; a member sees
 * the accounts it belongs to.
 */
export const accountsHooks: ResourceHooks = {
  query(db, req) {
    const q = db('accounts').select('accounts.*');
    if (!PLATFORM_STAFF_ROLES.includes(req.user!.u_role)) {
      q.whereExists(db('account_users').select(db.raw('1')).whereRaw('au_accountid = accounts.a_id').andWhere('au_userid', req.user!.u_id));
    }
    return q;
  },
};
