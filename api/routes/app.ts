import { Router } from 'express';
import { ctx } from '../context.js';
import { requireUser } from '../middleware/auth.js';
import { accountRoleOf } from '../../resources/permissions.js';
import { isEventActive } from '../../resources/events.js';
import { todayUtc } from './accountSummary.js';

/** The groups the capture app decides its buttons by, with the caller's bits in each account. */
export const APP_GROUPS = ['app_general', 'account_leads', 'account_handoffs', 'account_members', 'account_events', 'account_event_forms', 'account_meetings'] as const;

const EVENT_COLUMNS = ['ev_id', 'ev_accountid', 'ev_title', 'ev_name', 'ev_start_date', 'ev_end_date', 'ev_is_enabled', 'ev_consent_text'] as const;

export interface AppAccount {
  id: string;
  a_id: string;
  a_name: string;
  /** The caller's role in the account (a root user acts as root). */
  role: string;
  /** Bits per group of APP_GROUPS, from the stored permission matrix. */
  permissions: Record<(typeof APP_GROUPS)[number], number>;
}

/**
 * GET /api/1/app/events: what the capture app's event picker offers. The accounts the caller is a member of (every
 * role; a root user only through its own memberships, so the picker of someone who can enter every account lists its
 * own booths rather than the whole platform), each with the caller's bits in the app's groups, and their active events
 * (enabled, today within the dates, open-ended when a date is empty; resources/events.ts isEventActive) ordered by
 * account and title. `today` is the UTC day the events were chosen on.
 */
export function appRouter(): Router {
  const r = Router();
  r.get('/events', requireUser, async (req, res) => {
    const { db, permissions } = ctx(req);
    const user = req.user!;
    const today = todayUtc();
    const memberships: { a_id: string; a_name: string; au_role: string }[] = await db('account_users')
      .join('accounts', 'a_id', 'au_accountid')
      .where('au_userid', user.u_id)
      .orderByRaw('lower(a_name), a_id')
      .select('a_id', 'a_name', 'au_role');
    const accountIds = memberships.map((m) => m.a_id);
    const rows = accountIds.length
      ? await db('events')
          .whereIn('ev_accountid', accountIds)
          .where('ev_is_enabled', true)
          .whereNull('ev_deleted_at')
          .where((q) => q.whereNull('ev_start_date').orWhere('ev_start_date', '<=', today))
          .where((q) => q.whereNull('ev_end_date').orWhere('ev_end_date', '>=', today))
          .orderByRaw('lower(ev_title), ev_id')
          .select(...EVENT_COLUMNS)
      : [];
    const accounts: AppAccount[] = [];
    for (const m of memberships) {
      const role = accountRoleOf(user.u_role, m.au_role) ?? m.au_role;
      const grants = await permissions.grants(role);
      const bits = Object.fromEntries(APP_GROUPS.map((g) => [g, grants[g] ?? 0])) as AppAccount['permissions'];
      accounts.push({ id: m.a_id, a_id: m.a_id, a_name: m.a_name, role, permissions: bits });
    }
    const names = new Map(accounts.map((a) => [a.a_id, a.a_name]));
    const order = new Map(accountIds.map((id, i) => [id, i]));
    const events = rows
      // The SQL above is the rule; the shared function is asked again so the two can never disagree.
      .filter((e) => isEventActive(e, today))
      .sort((x, y) => (order.get(x.ev_accountid) ?? 0) - (order.get(y.ev_accountid) ?? 0))
      .map((e) => ({ ...e, id: e.ev_id, a_id: e.ev_accountid, a_name: names.get(e.ev_accountid) }));
    res.json({ today, accounts, events });
  });
  return r;
}
