import type { Knex } from 'knex';
import type { Request, Router } from 'express';
import { ctx } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { requirePermission } from '../middleware/auth.js';
import { accountOf, scoped } from '../models/scope.js';
import { invalid, parseBody } from '../crud/input.js';
import { checkReferences } from '../crud/rules.js';
import type { ResourceHooks } from '../crud/adapter.js';
import { accountTimeZone, assertNoOverlap, bookSlot, changeStatus, daySlots, holdingIn, lockAccountSlots, mailMeeting, type MeetingMailKind } from '../services/meetings.js';
import { meetingSlots, meetings, slotGenerateSchema, type MeetingStatus } from '../../resources/meetings.js';
import { events } from '../../resources/events.js';
import { leads } from '../../resources/leads.js';
import { resourceNamed } from '../../resources/index.js';

type Row = Record<string, unknown>;

/** A member of the account (a host must be one): 400 with the field otherwise. */
async function assertMember(trx: Knex.Transaction, accountId: string, userId: unknown, field: string, decl = meetingSlots): Promise<void> {
  if (userId === null || userId === undefined) return;
  const member = await trx('account_users')
    .where({ au_accountid: accountId, au_userid: String(userId) })
    .first('au_id');
  if (!member) throw invalid(decl, { [field]: 'error_reference_invalid' });
}

/**
 * POST …/meeting-slots/generate {ms_eventid, date, from, to, minutes, gap_minutes, ms_location, ms_capacity,
 * ms_hostid}: the day's slots (`from`/`to` wall-clock times in the account's ls_timezone, each slot's start and end
 * worked out on its own, so a day across a DST change keeps its local times), all or nothing: one overlapping an
 * existing slot of the host answers 409 slot_overlaps and none is stored. Answers 201 with the slots, in order.
 */
function generateRoute(router: Router): void {
  router.post('/generate', requirePermission('account_meetings', 'create'), async (req, res) => {
    const body = parseBody(meetingSlots, slotGenerateSchema, req.body) as ReturnType<typeof slotGenerateSchema.parse>;
    const accountId = accountOf(req);
    const rows = await ctx(req).db.transaction(async (trx) => {
      const event = await scoped(trx, events, accountId).where('events.ev_id', body.ms_eventid).first('events.ev_id');
      if (!event) throw invalid(meetingSlots, { ms_eventid: 'error_reference_invalid' });
      await assertMember(trx, accountId, body.ms_hostid, 'ms_hostid');
      const slots = daySlots(body, await accountTimeZone(trx, accountId));
      if (!slots.length) throw invalid(meetingSlots, { minutes: 'error_no_slots_fit' });
      await lockAccountSlots(trx, accountId);
      await assertNoOverlap(
        trx,
        accountId,
        slots.map((s) => ({ ...s, hostId: body.ms_hostid ?? null, eventId: body.ms_eventid })),
      );
      return trx('meeting_slots')
        .insert(
          slots.map((s) => ({
            ms_accountid: accountId,
            ms_eventid: body.ms_eventid,
            ms_start: s.start,
            ms_end: s.end,
            ms_location: body.ms_location ?? null,
            ms_capacity: body.ms_capacity,
            ms_hostid: body.ms_hostid ?? null,
          })),
        )
        .returning('*');
    });
    res.status(201).json((rows as Row[]).sort((x, y) => new Date(x.ms_start as string).getTime() - new Date(y.ms_start as string).getTime()).map((r) => ({ ...r, id: r.ms_id })));
  });
}

/**
 * meeting-slots: the declaration's checks (end after start, ≤ 8 h), the host a member of the account, no overlap with
 * another slot of the host (409 slot_overlaps, under the account's slot lock), and a delete refused while the slot
 * holds requested or accepted meetings (409 slot_has_meetings: cancel them first, so the visitors hear of it).
 */
export const meetingSlotsHooks: ResourceHooks = {
  async prepare(trx, data, req, existing) {
    const accountId = accountOf(req);
    const record = { ...existing, ...data };
    await assertMember(trx, accountId, data.ms_hostid, 'ms_hostid');
    await lockAccountSlots(trx, accountId);
    await assertNoOverlap(
      trx,
      accountId,
      [{ start: record.ms_start as string, end: record.ms_end as string, hostId: (record.ms_hostid as string | null) ?? null, eventId: String(record.ms_eventid) }],
      existing?.ms_id as string | undefined,
    );
  },
  async remove(trx, id, req) {
    const held = await holdingIn(trx, id).first('mg_id');
    if (held) throw new ApiError(409, 'slot_has_meetings', 'This slot still holds requested or accepted meetings', { ms_id: 'error_slot_has_meetings' });
    await scoped(trx, meetingSlots, accountOf(req)).where('ms_id', id).del();
  },
  routes: generateRoute,
};

/** What a client sees of a meeting: the record, its slot's times and place, the visitor's and the host's names. */
const COLUMNS = [
  'mg_id',
  'mg_accountid',
  'mg_eventid',
  'mg_slotid',
  'mg_leadid',
  'mg_hostid',
  'mg_status',
  'mg_message',
  'mg_expires_at',
  'mg_decided_at',
  'mg_reminded_at',
  'mg_created_at',
  'mg_updated_at',
];

function meetingsQuery(db: Knex | Knex.Transaction, accountId: string): Knex.QueryBuilder {
  const inner = scoped(db, meetings, accountId)
    .join('meeting_slots', 'meeting_slots.ms_id', 'meetings.mg_slotid')
    .leftJoin('leads', 'leads.ld_id', 'meetings.mg_leadid')
    .leftJoin('users as host', 'host.u_id', 'meetings.mg_hostid')
    .select(
      ...COLUMNS.map((c) => `meetings.${c}`),
      'meeting_slots.ms_start',
      'meeting_slots.ms_end',
      'meeting_slots.ms_location',
      'leads.ld_first_name',
      'leads.ld_last_name',
      'leads.ld_email',
      'host.u_first_name as host_first_name',
      'host.u_last_name as host_last_name',
      'host.u_email as host_email',
    );
  return db.from(inner.as('meetings')).select('meetings.*');
}

const afterCommitMail = (req: Request, id: string, kind: MeetingMailKind | undefined, extra: { token?: string; wasAccepted?: boolean } = {}) =>
  kind
    ? async () => {
        await mailMeeting(ctx(req), id, kind, extra);
      }
    : undefined;

/**
 * meetings: create books the slot under its row lock (409 slot_full when it is taken), as `requested` (the host, or
 * every member with account_meetings update, is mailed the link) or `accepted` (the visitor gets the invitation); a
 * PUT of mg_status moves it along MEETING_TRANSITIONS (400 otherwise) and mails the visitor; accepting a meeting
 * without a host makes the caller its host.
 */
export const meetingsHooks: ResourceHooks = {
  query: (db, req) => meetingsQuery(db, accountOf(req)),

  async create(trx, data, req) {
    const app = ctx(req);
    const accountId = accountOf(req);
    await checkReferences(trx, meetings, data, accountId, resourceNamed);
    const status = (data.mg_status as MeetingStatus | undefined) ?? 'requested';
    if (status !== 'requested' && status !== 'accepted') throw invalid(meetings, { mg_status: 'error_meeting_status_invalid' });
    const slot = await scoped(trx, meetingSlots, accountId).where('meeting_slots.ms_id', String(data.mg_slotid)).first('meeting_slots.ms_eventid');
    if (!slot || slot.ms_eventid !== data.mg_eventid) throw invalid(meetings, { mg_slotid: 'error_reference_invalid' });
    if (data.mg_leadid) {
      const lead = await scoped(trx, leads, accountId).where('leads.ld_id', String(data.mg_leadid)).first('leads.ld_eventid');
      if (!lead) throw notFound('The lead does not exist');
    }
    const booked = await bookSlot(trx, {
      accountId,
      slotId: String(data.mg_slotid),
      leadId: (data.mg_leadid as string | null) ?? null,
      hostId: (data.mg_hostid as string | null) ?? null,
      message: (data.mg_message as string | null) ?? null,
      status,
      locale: 'en',
      expiryHours: app.config.meetings.expiryHours,
    });
    return {
      id: booked.meetingId,
      afterCommit: afterCommitMail(req, booked.meetingId, status === 'accepted' ? 'accepted' : 'request', { token: booked.token }),
    };
  },

  async update(trx, id, data, req) {
    const accountId = accountOf(req);
    await checkReferences(trx, meetings, data, accountId, resourceNamed);
    const { mg_status: status, ...rest } = data;
    const stored = await trx('meetings').where({ mg_id: id, mg_accountid: accountId }).forUpdate().first();
    if (!stored) throw notFound();
    // The stored row under its lock (the router's copy was read before the transaction).
    let mail: MeetingMailKind | undefined;
    const wasAccepted = stored.mg_status === 'accepted';
    if (Object.keys(rest).length)
      await trx('meetings')
        .where('mg_id', id)
        .update({ ...rest, mg_updated_at: trx.fn.now() });
    if (status !== undefined) mail = await changeStatus(trx, { ...stored, ...rest }, status as MeetingStatus, req.user?.u_id ?? null);
    return { afterCommit: afterCommitMail(req, id, mail, { wasAccepted }) };
  },
};
