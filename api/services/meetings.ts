import crypto from 'node:crypto';
import type { Knex } from 'knex';
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors.js';
import { hashToken } from './tokens.js';
import type { OutgoingMail } from '../mail/mailer.js';
import { enqueueMail } from '../mail/outbox.js';
import { commonVars, renderAccountTemplate, templateFor, varsFor, type MailLocale, type MailVars } from '../mail/accountTemplates.js';
import { HOLDING_STATUSES, MEETING_TRANSITIONS, type MeetingDecision, type MeetingStatus, type SlotGenerate } from '../../resources/meetings.js';
import { can } from '../../resources/permissions.js';
import type { MailTemplateName } from '../../resources/mailTemplates.js';

type Row = Record<string, unknown>;
type Db = Knex | Knex.Transaction;

export const DEFAULT_TIME_ZONE = 'Europe/Amsterdam';

// ---------------------------------------------------------------------------------------------------------------
// Local time in the account's zone (Intl only: no fixed offsets, so a day across a DST change comes out right)

const partsFormat = new Map<string, Intl.DateTimeFormat>();
/** The offset of `timeZone` from UTC at the instant `ms`, in milliseconds (Europe/Amsterdam in summer: +7,200,000). */
export function zoneOffsetMs(timeZone: string, ms: number): number {
  let f = partsFormat.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    partsFormat.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant of a wall-clock time (`date` YYYY-MM-DD, `minutes` after its midnight) in `timeZone`. A time that does
 * not exist (skipped by a spring-forward) comes out an hour later, as clocks show it; a repeated one (autumn) is the
 * later of the two (after the clocks went back).
 */
export function zonedTime(date: string, minutes: number, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  const local = Date.UTC(y, m - 1, d, 0, minutes);
  const first = local - zoneOffsetMs(timeZone, local);
  return new Date(local - zoneOffsetMs(timeZone, first));
}

/** "14 December 2026, 10:00" (or Dutch) in the zone: how the mails show a slot. */
export function localDateTime(d: Date | string, timeZone: string, locale: MailLocale): string {
  return new Intl.DateTimeFormat(locale === 'nl' ? 'nl-NL' : 'en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone }).format(new Date(d));
}

/** The account's ls_timezone (the settings' default when it has none stored). */
export async function accountTimeZone(db: Db, accountId: string): Promise<string> {
  const row = await db('account_settings').where('ls_accountid', accountId).first('ls_timezone');
  return (row?.ls_timezone as string | undefined) || DEFAULT_TIME_ZONE;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The slots of a day: `minutes` long, `gap_minutes` apart, the last ending by `to`, times in `timeZone`. */
export function daySlots(input: Pick<SlotGenerate, 'date' | 'from' | 'to' | 'minutes' | 'gap_minutes'>, timeZone: string): { start: Date; end: Date }[] {
  const out: { start: Date; end: Date }[] = [];
  const end = minutesOf(input.to);
  for (let at = minutesOf(input.from); at + input.minutes <= end; at += input.minutes + input.gap_minutes) {
    out.push({ start: zonedTime(input.date, at, timeZone), end: zonedTime(input.date, at + input.minutes, timeZone) });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Slots

export const slotOverlaps = () => new ApiError(409, 'slot_overlaps', 'This time overlaps another slot of the same host', { ms_start: 'error_slot_overlaps' });
export const slotFull = () => new ApiError(409, 'slot_full', 'This slot is fully booked, please pick another time', { ms_id: 'error_slot_full' });

/**
 * Serialises the slot writes of one account (a transaction-scoped advisory lock), so two overlapping slots written at
 * once cannot both pass the overlap check.
 */
export async function lockAccountSlots(trx: Knex.Transaction, accountId: string): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`meeting_slots:${accountId}`]);
}

/**
 * 409 slot_overlaps when one of `slots` overlaps a stored slot of the same host (anywhere in the account: a person is
 * in one place at a time) or, for a slot without a host, a stored slot without a host of the same event. Touching
 * slots (one ends when the next starts) do not overlap.
 */
export async function assertNoOverlap(
  trx: Knex.Transaction,
  accountId: string,
  slots: { start: Date | string; end: Date | string; hostId: string | null; eventId: string }[],
  exceptId?: string,
): Promise<void> {
  for (const s of slots) {
    const q = trx('meeting_slots').where('ms_accountid', accountId).where('ms_start', '<', new Date(s.end)).where('ms_end', '>', new Date(s.start)).first('ms_id');
    if (s.hostId) q.where('ms_hostid', s.hostId);
    else q.whereNull('ms_hostid').where('ms_eventid', s.eventId);
    if (exceptId) q.whereNot('ms_id', exceptId);
    if (await q) throw slotOverlaps();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Meetings: booking under the slot's row lock

/** The meetings that hold a place in their slot: requested (until they expire) and accepted. */
export function holding(db: Db): Knex.QueryBuilder {
  return db('meetings')
    .whereIn('meetings.mg_status', HOLDING_STATUSES as MeetingStatus[])
    .where((w) => w.whereNot('meetings.mg_status', 'requested').orWhereNull('meetings.mg_expires_at').orWhere('meetings.mg_expires_at', '>', db.fn.now()));
}

/** Those of one slot. */
export const holdingIn = (db: Db, slotId: string): Knex.QueryBuilder => holding(db).where('meetings.mg_slotid', slotId);

export const newMeetingToken = () => crypto.randomBytes(32).toString('base64url');
export const meetingLink = (app: AppContext, token: string) => `${app.config.publicUrl}/meetings/${encodeURIComponent(token)}`;

export interface Booking {
  accountId: string;
  slotId: string;
  /** The event the slot must belong to (the public page's): another event's slot is refused like an unknown one. */
  eventId?: string;
  leadId: string | null;
  hostId?: string | null;
  message?: string | null;
  status?: 'requested' | 'accepted';
  locale?: MailLocale;
  expiryHours: number;
}

/**
 * Books a place in a slot, in the caller's transaction: the slot's row is locked (SELECT … FOR UPDATE), the meetings
 * holding a place counted, and the meeting inserted only while that count is below the capacity, so concurrent
 * requests queue on the lock and never overbook (409 slot_full). A slot that has begun is not bookable (400).
 */
export async function bookSlot(trx: Knex.Transaction, b: Booking): Promise<{ meetingId: string; token: string; slot: Row }> {
  const slotQuery = trx('meeting_slots').where({ ms_id: b.slotId, ms_accountid: b.accountId }).forUpdate().first();
  if (b.eventId) slotQuery.where('ms_eventid', b.eventId);
  const slot: Row | undefined = await slotQuery;
  if (!slot) throw new ApiError(400, 'validation_failed', 'This slot does not exist', { ms_id: 'error_slot_invalid' });
  if (new Date(slot.ms_start as string).getTime() <= Date.now())
    throw new ApiError(400, 'validation_failed', 'This slot has already begun', { ms_id: 'error_slot_past', mg_slotid: 'error_slot_past' });
  const taken = await holdingIn(trx, b.slotId).count({ n: '*' }).first();
  if (Number(taken?.n ?? 0) >= Number(slot.ms_capacity)) throw slotFull();
  const token = newMeetingToken();
  const status = b.status ?? 'requested';
  const [row] = await trx('meetings')
    .insert({
      mg_accountid: b.accountId,
      mg_eventid: slot.ms_eventid,
      mg_slotid: slot.ms_id,
      mg_leadid: b.leadId,
      mg_hostid: b.hostId ?? slot.ms_hostid ?? null,
      mg_status: status,
      mg_message: b.message ?? null,
      mg_expires_at: status === 'requested' ? trx.raw(`now() + make_interval(hours => ?)`, [b.expiryHours]) : null,
      mg_decided_at: status === 'accepted' ? trx.fn.now() : null,
      mg_token_hash: hashToken(token),
      mg_locale: b.locale ?? 'en',
    })
    .returning(['mg_id']);
  return { meetingId: row.mg_id as string, token, slot };
}

/**
 * The visitor as a lead of the event: the lead of that event with this e-mail (any case, not in the trash), else a
 * new one with source `meeting` (under a transaction lock of the event and address, so requests at once make one).
 */
export async function leadForVisitor(
  trx: Knex.Transaction,
  event: { ev_id: string; ev_accountid: string },
  visitor: { email: string; first_name?: string | null; last_name?: string | null },
): Promise<string> {
  // Two requests of one new address at once make one lead: the second waits here until the first commits.
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`meeting_lead:${event.ev_id}:${visitor.email.toLowerCase()}`]);
  const existing = await trx('leads')
    .where({ ld_accountid: event.ev_accountid, ld_eventid: event.ev_id })
    .whereRaw('lower(ld_email) = lower(?)', [visitor.email])
    .whereNull('ld_deleted_at')
    .orderBy('ld_captured_at')
    .first('ld_id');
  if (existing) return existing.ld_id as string;
  const [row] = await trx('leads')
    .insert({
      ld_accountid: event.ev_accountid,
      ld_eventid: event.ev_id,
      ld_email: visitor.email,
      ld_first_name: visitor.first_name ?? null,
      ld_last_name: visitor.last_name ?? null,
      ld_source: 'meeting',
    })
    .returning(['ld_id']);
  return row.ld_id as string;
}

export const meetingInvalid = () => new ApiError(400, 'meeting_invalid', 'This meeting link is unknown or has already been used', { token: 'error_meeting_invalid' });
export const statusInvalid = (from: string, to: string) =>
  new ApiError(400, 'validation_failed', `A meeting that is ${from} cannot become ${to}`, { mg_status: 'error_meeting_status_invalid' });

/** Whether a meeting may go from one status to another (the same status is no change). */
export const canMove = (from: MeetingStatus, to: MeetingStatus) => from === to || MEETING_TRANSITIONS[from].includes(to);

/** The mail a status change sends the visitor (and what its calendar file says). */
export function mailForChange(from: MeetingStatus, to: MeetingStatus): MeetingMailKind | undefined {
  if (from === to) return undefined;
  if (to === 'accepted') return 'accepted';
  if (to === 'declined') return 'declined';
  if (to === 'cancelled') return 'cancelled';
  return undefined;
}

/**
 * Moves a meeting to a new status in the caller's transaction, refusing a move the transitions do not allow (400).
 * A cancel of an accepted meeting raises the calendar sequence (its METHOD:CANCEL must outrank the invitation).
 * Answers the mail to send once committed, if any.
 */
export async function changeStatus(trx: Knex.Transaction, existing: Row, to: MeetingStatus, hostId?: string | null): Promise<MeetingMailKind | undefined> {
  const from = existing.mg_status as MeetingStatus;
  if (!canMove(from, to)) throw statusInvalid(from, to);
  if (from === to) return undefined;
  const changes: Row = { mg_status: to, mg_updated_at: trx.fn.now() };
  if (from === 'requested') changes.mg_decided_at = trx.fn.now();
  if (to === 'accepted' && !existing.mg_hostid && hostId) changes.mg_hostid = hostId;
  if (to === 'cancelled' && from === 'accepted') changes.mg_sequence = trx.raw('mg_sequence + 1');
  const [moved] = await trx('meetings').where({ mg_id: existing.mg_id, mg_status: from }).update(changes).returning(['mg_id']);
  // Another answer came first (the link and the console at once): the stored status decides.
  if (!moved) throw statusInvalid(from, to);
  return mailForChange(from, to);
}

// ---------------------------------------------------------------------------------------------------------------
// What a meeting reads like (the link's page, the mails)

const MEETING_VIEW_COLUMNS = [
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
  'mg_created_at',
  'mg_locale',
  'mg_sequence',
  'ms_start',
  'ms_end',
  'ms_location',
  'ms_capacity',
  'ev_title',
  'ev_start_date',
  'ev_end_date',
  'ld_email',
  'ld_first_name',
  'ld_last_name',
  'a_id',
  'a_name',
  'host.u_email as host_email',
  'host.u_first_name as host_first_name',
  'host.u_last_name as host_last_name',
];

function meetingView(db: Db): Knex.QueryBuilder {
  return db('meetings')
    .join('meeting_slots', 'ms_id', 'mg_slotid')
    .join('events', 'ev_id', 'mg_eventid')
    .join('accounts', 'a_id', 'mg_accountid')
    .leftJoin('leads', 'ld_id', 'mg_leadid')
    .leftJoin('users as host', 'host.u_id', 'mg_hostid')
    .select(MEETING_VIEW_COLUMNS);
}

const isToken = (token: unknown): token is string => typeof token === 'string' && token.length >= 16 && token.length <= 200;
const fullName = (first: unknown, last: unknown, fallback: unknown = '') => [first, last].filter((v) => typeof v === 'string' && v.trim()).join(' ') || String(fallback ?? '');

/** GET /meeting/{token}: the meeting, its slot, the event and the visitor. */
export function publicMeeting(row: Row): Row {
  return {
    mg_id: row.mg_id,
    mg_status: row.mg_status,
    mg_message: row.mg_message,
    mg_expires_at: row.mg_expires_at,
    mg_decided_at: row.mg_decided_at,
    mg_created_at: row.mg_created_at,
    slot: { ms_id: row.mg_slotid, ms_start: row.ms_start, ms_end: row.ms_end, ms_location: row.ms_location },
    event: { ev_id: row.mg_eventid, ev_title: row.ev_title, ev_start_date: row.ev_start_date, ev_end_date: row.ev_end_date },
    visitor: { ld_id: row.mg_leadid, ld_email: row.ld_email, ld_first_name: row.ld_first_name, ld_last_name: row.ld_last_name },
    host: row.mg_hostid ? { u_id: row.mg_hostid, u_first_name: row.host_first_name, u_last_name: row.host_last_name } : null,
    account: { a_id: row.a_id, a_name: row.a_name },
  };
}

/** The meeting of a link's token, whatever its status; undefined for an unknown token. */
export async function findMeetingByToken(db: Knex, token: unknown): Promise<Row | undefined> {
  if (!isToken(token)) return undefined;
  return meetingView(db).where('mg_token_hash', hashToken(token)).first();
}

export async function findMeeting(db: Db, id: string): Promise<Row | undefined> {
  return meetingView(db).where('mg_id', id).first();
}

/**
 * The host's answer by the mailed link: a request still open (not expired) becomes accepted or declined, once; a
 * used, expired or unknown token answers 400 meeting_invalid. The visitor's mail goes out after the commit.
 */
export async function decideByToken(app: AppContext, token: unknown, decision: MeetingDecision): Promise<Row> {
  if (!isToken(token)) throw meetingInvalid();
  const id = await app.db.transaction(async (trx) => {
    const existing = await trx('meetings')
      .where({ mg_token_hash: hashToken(token), mg_status: 'requested' })
      .where((w) => w.whereNull('mg_expires_at').orWhere('mg_expires_at', '>', trx.fn.now()))
      .forUpdate()
      .first();
    if (!existing) throw meetingInvalid();
    await changeStatus(trx, existing, decision);
    return existing.mg_id as string;
  });
  await mailMeeting(app, id, decision);
  return (await findMeeting(app.db, id))!;
}

// ---------------------------------------------------------------------------------------------------------------
// Mails and the calendar file

export type MeetingMailKind = 'request' | 'accepted' | 'declined' | 'cancelled' | 'reminder';
const TEMPLATE_OF: Record<MeetingMailKind, MailTemplateName> = {
  request: 'meeting_request',
  accepted: 'meeting_accepted',
  declined: 'meeting_declined',
  cancelled: 'meeting_cancelled',
  reminder: 'meeting_reminder',
};

/**
 * THE one way a meeting mail leaves (request, accepted, declined, cancelled, reminder): on the durable mail queue
 * (api/mail/outbox.ts), retried while the relay refuses; a meeting's state never depends on a mail.
 */
export async function sendMeetingMail(app: AppContext, mail: OutgoingMail): Promise<void> {
  await enqueueMail(app, mail);
}

/**
 * The calendar file of a meeting (RFC 5545, written by ical-generator): METHOD:REQUEST for an accepted meeting,
 * METHOD:CANCEL (STATUS:CANCELLED) for a cancel; UID = mg_id, SEQUENCE = mg_sequence (a cancel raises it), start and
 * end in UTC, the slot's location, the host as organizer and the visitor as attendee.
 */
export function meetingIcs(app: AppContext, m: Row, method: 'REQUEST' | 'CANCEL'): string {
  const calendar = ical({
    prodId: { company: 'Leadstage', product: 'Meetings', language: 'EN' },
    method: method === 'REQUEST' ? ICalCalendarMethod.REQUEST : ICalCalendarMethod.CANCEL,
  });
  const organizerEmail = (m.host_email as string | null) ?? app.config.mailFrom.replace(/^.*<([^>]+)>.*$/, '$1').trim();
  const event = calendar.createEvent({
    id: String(m.mg_id),
    sequence: Number(m.mg_sequence ?? 0),
    start: new Date(m.ms_start as string),
    end: new Date(m.ms_end as string),
    stamp: new Date(),
    summary: `${m.ev_title as string}: ${fullName(m.host_first_name, m.host_last_name, m.a_name)}`,
    location: (m.ms_location as string | null) ?? undefined,
    description: (m.mg_message as string | null) ?? undefined,
    organizer: { name: fullName(m.host_first_name, m.host_last_name, m.a_name), email: organizerEmail },
    status: method === 'REQUEST' ? ICalEventStatus.CONFIRMED : ICalEventStatus.CANCELLED,
  });
  if (m.ld_email) event.createAttendee({ email: String(m.ld_email), name: fullName(m.ld_first_name, m.ld_last_name) || undefined });
  return calendar.toString();
}

/** Who hears of a new request: the host, or every member of the account whose role holds account_meetings update. */
async function hostsOf(app: AppContext, m: Row): Promise<{ email: string; first: string | null; last: string | null }[]> {
  if (m.mg_hostid && m.host_email) return [{ email: String(m.host_email), first: m.host_first_name as string | null, last: m.host_last_name as string | null }];
  const matrix = await app.permissions.current();
  const members: Row[] = await app
    .db('account_users')
    .join('users', 'u_id', 'au_userid')
    .where('au_accountid', m.mg_accountid as string)
    .select('au_role', 'u_email', 'u_first_name', 'u_last_name');
  return members
    .filter((u) => can(u.au_role as string, 'account_meetings', 'update', matrix))
    .map((u) => ({ email: String(u.u_email), first: u.u_first_name as string | null, last: u.u_last_name as string | null }));
}

/**
 * Mails what happened to a meeting: `request` to the host(s) with the link (`token`), `accepted` (with the .ics
 * invitation), `declined` and `cancelled` (with the .ics cancel when it had been accepted) to the visitor, `reminder`
 * to both. Each through sendMeetingMail. Answers how many mails went out.
 */
export async function mailMeeting(app: AppContext, meetingId: string, kind: MeetingMailKind, extra: { token?: string; wasAccepted?: boolean } = {}): Promise<number> {
  const m = await findMeeting(app.db, meetingId);
  if (!m) return 0;
  const accountId = m.mg_accountid as string;
  const account = { a_id: accountId, a_name: m.a_name as string };
  const timeZone = await accountTimeZone(app.db, accountId);
  const hostName = fullName(m.host_first_name, m.host_last_name, m.host_email ?? m.a_name);
  const recipients: { email: string; first: string | null; last: string | null; locale: MailLocale; host: boolean }[] = [];
  const visitorLocale: MailLocale = m.mg_locale === 'nl' ? 'nl' : 'en';
  const visitor = m.ld_email
    ? { email: String(m.ld_email), first: m.ld_first_name as string | null, last: m.ld_last_name as string | null, locale: visitorLocale, host: false }
    : undefined;
  if (kind === 'request' || kind === 'reminder') for (const h of await hostsOf(app, m)) recipients.push({ ...h, locale: 'en', host: true });
  if (kind !== 'request' && visitor) recipients.push(visitor);
  let attachment: { method: 'REQUEST' | 'CANCEL' } | undefined;
  if (kind === 'accepted') attachment = { method: 'REQUEST' };
  if (kind === 'cancelled' && extra.wasAccepted) attachment = { method: 'CANCEL' };
  const ics = attachment ? meetingIcs(app, m, attachment.method) : undefined;
  const name = TEMPLATE_OF[kind];
  const link = extra.token ? meetingLink(app, extra.token) : undefined;
  let sent = 0;
  for (const r of recipients) {
    const vars: MailVars = {
      ...commonVars(app, account),
      first_name: r.first || r.email,
      last_name: r.last ?? '',
      visitor_first_name: (m.ld_first_name as string | null) ?? '',
      visitor_last_name: (m.ld_last_name as string | null) ?? '',
      visitor_email: (m.ld_email as string | null) ?? '',
      host_name: hostName,
      event_title: m.ev_title as string,
      meeting_start: localDateTime(m.ms_start as string, timeZone, r.locale),
      meeting_end: localDateTime(m.ms_end as string, timeZone, r.locale),
      time_zone: timeZone,
      location: (m.ms_location as string | null) ?? '',
      message: (m.mg_message as string | null) ?? '',
      link,
      expires_at: m.mg_expires_at ? localDateTime(m.mg_expires_at as string, timeZone, r.locale) : '',
    };
    const template = await templateFor(app.db, accountId, name, r.locale);
    const mail = renderAccountTemplate(template, varsFor(name, vars));
    await sendMeetingMail(app, {
      to: r.email,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      fromName: mail.fromName,
      replyTo: mail.replyTo,
      label: name,
      link: r.host ? link : undefined,
      attachments: ics
        ? [{ filename: attachment!.method === 'CANCEL' ? 'cancel.ics' : 'invite.ics', content: ics, contentType: `text/calendar; charset=utf-8; method=${attachment!.method}` }]
        : undefined,
    });
    sent++;
  }
  return sent;
}

// ---------------------------------------------------------------------------------------------------------------
// Timed work: claim first, then mail, so two processes never handle one row twice

/**
 * Requests nobody answered by mg_expires_at become `declined` (the contract's statuses have no "expired"; the host
 * did not take it, which is what declined tells the visitor), and the visitor is told. The conditional UPDATE …
 * RETURNING is the claim: a second process running at the same moment gets no rows. Answers how many expired.
 */
export async function expireMeetingRequests(app: AppContext, now: Date = new Date()): Promise<number> {
  const { rows } = await app.db.raw(
    `update meetings set mg_status = 'declined', mg_decided_at = ?, mg_updated_at = ?
      where mg_status = 'requested' and mg_expires_at <= ?
      returning mg_id`,
    [now, now, now],
  );
  for (const r of rows as Row[]) await mailMeeting(app, r.mg_id as string, 'declined');
  return rows.length;
}

/** Minutes before a meeting its reminder goes out. */
export const REMINDER_MINUTES = 60;

/**
 * Accepted meetings starting within the next hour that were not reminded yet: each is claimed by setting
 * mg_reminded_at (UPDATE … WHERE mg_reminded_at IS NULL RETURNING, so a second process gets no rows), then the host
 * and the visitor are mailed. Answers how many meetings were reminded.
 */
export async function sendMeetingReminders(app: AppContext, now: Date = new Date()): Promise<number> {
  const until = new Date(now.getTime() + REMINDER_MINUTES * 60_000);
  const { rows } = await app.db.raw(
    `update meetings set mg_reminded_at = ?
       from meeting_slots
      where ms_id = mg_slotid and mg_status = 'accepted' and mg_reminded_at is null and ms_start > ? and ms_start <= ?
      returning mg_id`,
    [now, now, until],
  );
  for (const r of rows as Row[]) await mailMeeting(app, r.mg_id as string, 'reminder');
  return rows.length;
}
