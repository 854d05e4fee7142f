import { Router } from 'express';
import type { Knex } from 'knex';
import { z } from 'zod';
import { ctx } from '../context.js';
import { requirePermission, requireUser } from '../middleware/auth.js';
import { parseListQuery, runList, sendList } from '../crud/list.js';
import type { ResourceDeclaration } from '../../resources/types.js';

/**
 * The caller's own handoffs across accounts (GET /handoffs, entry_handoffs read), as a list resource of its own:
 * sent (ho_created_by) and received (ho_to_userid), in accounts the caller is a member of (a root user: every
 * account), each with the lead's names, the event, the account's name and `direction` (received or sent).
 */
const OWN_HANDOFFS: ResourceDeclaration = {
  name: 'handoffs',
  table: 'handoffs',
  primaryKey: 'ho_id',
  group: 'entry_handoffs',
  tenancy: 'global',
  operations: { list: 'read' },
  create: z.never(),
  update: z.never(),
  search: ['ld_first_name', 'ld_last_name', 'ld_email'],
  sortable: ['ho_created_at', 'ho_decided_at', 'ho_status', 'a_name', 'ld_first_name', 'ld_last_name', 'ld_email', 'ev_title', 'direction'],
  defaultSort: { field: 'ho_created_at', order: 'DESC' },
  filterable: ['ho_status', 'ho_accountid', 'ho_leadid', 'direction'],
  listColumns: [],
};

function ownHandoffsQuery(db: Knex, user: { u_id: string; u_role: string }): Knex.QueryBuilder {
  const me = user.u_id;
  const inner = db('handoffs')
    .join('leads', 'leads.ld_id', 'handoffs.ho_leadid')
    .join('accounts', 'accounts.a_id', 'handoffs.ho_accountid')
    .leftJoin('events', 'events.ev_id', 'leads.ld_eventid')
    .leftJoin('users as rep', 'rep.u_id', 'handoffs.ho_to_userid')
    .leftJoin('users as sender', 'sender.u_id', 'handoffs.ho_created_by')
    .where((w) => w.where('handoffs.ho_to_userid', me).orWhere('handoffs.ho_created_by', me))
    .whereNull('leads.ld_deleted_at')
    .whereNull('events.ev_deleted_at')
    .select(
      'handoffs.ho_id',
      'handoffs.ho_accountid',
      'accounts.a_name',
      'handoffs.ho_leadid',
      'leads.ld_first_name',
      'leads.ld_last_name',
      'leads.ld_email',
      'events.ev_title',
      'handoffs.ho_status',
      'handoffs.ho_message',
      'handoffs.ho_to_userid',
      'rep.u_first_name as to_first_name',
      'rep.u_last_name as to_last_name',
      'rep.u_email as to_email',
      'handoffs.ho_created_by',
      'sender.u_first_name as sender_first_name',
      'sender.u_last_name as sender_last_name',
      'sender.u_email as sender_email',
      'handoffs.ho_created_at',
      'handoffs.ho_decided_at',
      db.raw(`case when handoffs.ho_to_userid = ? then 'received' else 'sent' end as direction`, [me]),
    );
  // Someone who left an account no longer sees its leads, here either (a root user acts as root everywhere).
  if (user.u_role !== 'root') inner.whereExists((q) => q.select(db.raw('1')).from('account_users').whereRaw('au_accountid = handoffs.ho_accountid').andWhere('au_userid', me));
  return db.from(inner.as('handoffs')).select('handoffs.*');
}

/** `GET /handoffs` (entry_handoffs read): the caller's own handoffs across accounts, with the list conventions. */
export function ownHandoffsRouter(): Router {
  const router = Router();

  router.get('/handoffs', requireUser, requirePermission(OWN_HANDOFFS.group, 'read'), async (req, res) => {
    const query = parseListQuery(req, OWN_HANDOFFS, OWN_HANDOFFS.primaryKey);
    const { db, config } = ctx(req);
    const { rows, total } = await runList(db, () => ownHandoffsQuery(db, req.user!), query, OWN_HANDOFFS, OWN_HANDOFFS.primaryKey, config.listMaxRows);
    sendList(
      res,
      OWN_HANDOFFS.name,
      query,
      rows.map((r) => ({ ...r, id: r.ho_id })),
      total,
    );
  });

  return router;
}
