import { Router, type Request } from 'express';
import { ctx } from '../context.js';
import { notFound } from '../errors.js';
import { requireUser, resolveAccount } from '../middleware/auth.js';
import { scoped } from '../models/scope.js';
import { events } from '../../resources/events.js';
import { invites } from '../../resources/invites.js';
import { members } from '../../resources/members.js';

/** Today as YYYY-MM-DD in UTC: the day events are active on (isEventActive in resources/events.ts). */
export const todayUtc = (now = new Date()) => now.toISOString().slice(0, 10);

/**
 * The figures on the console's home page: active events (enabled and today within the dates, open-ended when a date
 * is empty), members, and pending invites whose time is not up. The same rule as isEventActive, in SQL.
 */
export async function accountSummary(req: Request, today = todayUtc()) {
  const { db } = ctx(req);
  const accountId = req.account!.a_id;
  const count = async (qb: ReturnType<typeof scoped>) => Number((await qb.count({ n: '*' }).first())?.n ?? 0);
  const [activeEvents, memberCount, pendingInvites] = await Promise.all([
    count(
      scoped(db, events, accountId)
        .where('ev_is_enabled', true)
        .where((q) => q.whereNull('ev_start_date').orWhere('ev_start_date', '<=', today))
        .where((q) => q.whereNull('ev_end_date').orWhere('ev_end_date', '>=', today)),
    ),
    count(scoped(db, members, accountId)),
    count(scoped(db, invites, accountId).where('iv_status', 'pending').where('iv_expires_at', '>', db.fn.now())),
  ]);
  return { active_events: activeEvents, members: memberCount, pending_invites: pendingInvites };
}

/**
 * GET /accounts/{accountId}/summary: readable by every member of the account (any role; root acts as root). Platform
 * staff who are not members do not see it, like any other account resource (404).
 */
export function accountSummaryRouter(): Router {
  const r = Router({ mergeParams: true });
  r.get('/summary', requireUser, resolveAccount(), async (req, res) => {
    if (!req.accountRole) throw notFound('Account not found');
    res.json(await accountSummary(req));
  });
  return r;
}
