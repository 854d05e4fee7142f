import crypto from 'node:crypto';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { ctx } from '../context.js';
import { ApiError, notFound, validate } from '../errors.js';
import { rejectNulBytes } from '../crud/input.js';
import { accountTimeZone, bookSlot, decideByToken, findMeetingByToken, holding, leadForVisitor, mailMeeting, meetingInvalid, publicMeeting } from '../services/meetings.js';
import { meetingAcceptSchema, meetingRequestSchema } from '../../resources/meetings.js';
import { isUuid } from '../../resources/checks.js';
import { PUBLIC_STYLE_FIELDS, publicStyle, todayUtc } from '../services/registration.js';
import { styleAssetUrls } from '../services/collectionPage.js';

type Row = Record<string, unknown>;

/** Above a budget: 429 too_many_attempts with Retry-After. */
function refuse(res: Response, resetAt: Date): never {
  res.setHeader('Retry-After', String(Math.max(1, Math.ceil((resetAt.getTime() - Date.now()) / 1000))));
  throw new ApiError(429, 'too_many_attempts', 'Too many attempts, please wait a few minutes and try again');
}

/** The meeting link's page: a per-address budget like the handoff page's (rate_limits table, every process). */
const tokenLimited: RequestHandler = async (req, res, next) => {
  const app = ctx(req);
  const { windowSeconds, loginPerIp } = app.config.rateLimit;
  const hit = await app.limiter.hit(`meeting:ip:${req.ip}`, windowSeconds);
  if (hit.points > loginPerIp) refuse(res, hit.resetAt);
  next();
};

/**
 * The event a visitor may book: enabled, of an enabled account, not in the trash, not over (its end date, UTC, not
 * passed). Anything else answers 404, as an unknown id does.
 */
async function bookableEvent(req: Request): Promise<Row> {
  const id = String(req.params.eventId);
  if (!isUuid(id)) throw notFound('Event not found');
  const event: Row | undefined = await ctx(req)
    .db('events')
    .join('accounts', 'a_id', 'ev_accountid')
    .where('ev_id', id.toLowerCase())
    .whereNull('ev_deleted_at')
    .where({ ev_is_enabled: true, a_is_enabled: true })
    .first('ev_id', 'ev_accountid', 'ev_title', 'ev_start_date', 'ev_end_date', 'ev_description', 'a_name');
  if (!event || (event.ev_end_date && String(event.ev_end_date) < todayUtc())) throw notFound('Event not found');
  return event;
}

/** The event's slots still to come with a free place, in order, with how many places are left. */
async function freeSlots(req: Request, event: Row): Promise<Row[]> {
  const db = ctx(req).db;
  const taken = holding(db).count('*').whereRaw('meetings.mg_slotid = meeting_slots.ms_id');
  const rows: Row[] = await db('meeting_slots')
    .leftJoin('users as host', 'host.u_id', 'ms_hostid')
    .where({ ms_accountid: event.ev_accountid, ms_eventid: event.ev_id })
    .where('ms_start', '>', db.fn.now())
    .select('ms_id', 'ms_start', 'ms_end', 'ms_location', 'ms_capacity', 'ms_hostid', 'host.u_first_name as host_first_name', 'host.u_last_name as host_last_name')
    .select(db.raw('(?)::integer as taken', [taken]))
    .orderBy([{ column: 'ms_start' }, { column: 'ms_id' }]);
  return rows
    .filter((r) => Number(r.taken) < Number(r.ms_capacity))
    .map(({ taken, host_first_name, host_last_name, ...r }) => ({
      ...r,
      free: Number(r.ms_capacity) - Number(taken),
      host: r.ms_hostid ? { u_first_name: host_first_name ?? null, u_last_name: host_last_name ?? null } : null,
    }));
}

/** The host's page shows the slot in the stand's local time: the account's ls_timezone as `time_zone`. */
async function withTimeZone(req: Request, meeting: Row): Promise<Row> {
  const account = meeting.account as { a_id: string };
  return { ...meeting, time_zone: await accountTimeZone(ctx(req).db, account.a_id) };
}

const localeOf = (req: Request, asked: unknown): 'en' | 'nl' => (asked === 'en' || asked === 'nl' ? asked : req.acceptsLanguages('en', 'nl') === 'nl' ? 'nl' : 'en');

/**
 * The public side of meetings (platform-and-flows.md 5), no session:
 * - `GET /meet/{eventId}` → `{event, account, time_zone, slots}`: the event and its free slots to come; an unknown, disabled, ended or
 *   trashed event (or one of a disabled account) answers 404.
 * - `POST /meet/{eventId} {ms_id, email, first_name, last_name, message, website, lang}` (CSRF like every write;
 *   MEETING_LIMIT_PER_IP requests per address per window, whatever the event) → 201 `{mg_id, id}`. The visitor becomes a lead of the
 *   event (the existing one of that e-mail, else a new one with source `meeting`), the slot is booked under its row
 *   lock (409 slot_full), the host is mailed the link. A filled honeypot answers the same 201 and stores nothing.
 * - `GET /meeting/{token}` and `POST /meeting/accept {token, decision}`: the host's link (with the account's
 *   `time_zone`); used, expired or unknown → 400 meeting_invalid.
 */
export function publicMeetingsRouter(): Router {
  const router = Router();

  router.get('/meet/:eventId', async (req, res) => {
    const event = await bookableEvent(req);
    const { db } = ctx(req);
    // The event's form style, as the registration page has it (the newest style of the event): colours, fonts, logo,
    // and its custom CSS as the registration page's stylesheet.
    const style = ((await db('form_styles')
      .where({ st_accountid: event.ev_accountid, st_eventid: event.ev_id })
      .orderBy([{ column: 'st_updated_at', order: 'desc' }, { column: 'st_id' }])
      .first([...PUBLIC_STYLE_FIELDS, 'st_custom_css'])) ?? null) as Record<string, unknown> | null;
    res.json({
      event: {
        ev_id: event.ev_id,
        id: event.ev_id,
        ev_title: event.ev_title,
        ev_start_date: event.ev_start_date,
        ev_end_date: event.ev_end_date,
        ev_description: event.ev_description,
      },
      account: { a_name: event.a_name },
      // The account's ls_timezone: the page shows the slots in the stand's local time.
      time_zone: await accountTimeZone(ctx(req).db, event.ev_accountid as string),
      slots: await freeSlots(req, event),
      style: publicStyle(style),
      style_assets: await styleAssetUrls(db, event.ev_accountid as string, style),
      stylesheet: typeof style?.st_custom_css === 'string' && style.st_custom_css.trim() ? `/api/1/register/${event.ev_id}/style.css` : null,
    });
  });

  router.post('/meet/:eventId', async (req, res) => {
    const app = ctx(req);
    const event = await bookableEvent(req);
    const hit = await app.limiter.hit(`meet:ip:${req.ip}`, app.config.meetings.windowSeconds);
    if (hit.points > app.config.meetings.perIp) refuse(res, hit.resetAt);
    rejectNulBytes(req.body);
    const body = validate(meetingRequestSchema, req.body ?? {});
    const honeypot = body.website !== undefined && body.website !== null && body.website !== '' && body.website !== false;
    if (honeypot) {
      // A robot filled the field people never see: the same answer as a success, nothing stored, no mail sent.
      const id = crypto.randomUUID();
      res.status(201).json({ mg_id: id, id });
      return;
    }
    const booked = await app.db.transaction(async (trx) => {
      const leadId = await leadForVisitor(trx, event as { ev_id: string; ev_accountid: string }, body);
      return bookSlot(trx, {
        accountId: event.ev_accountid as string,
        eventId: event.ev_id as string,
        slotId: body.ms_id,
        leadId,
        message: body.message ?? null,
        status: 'requested',
        locale: localeOf(req, body.lang),
        expiryHours: app.config.meetings.expiryHours,
      });
    });
    await mailMeeting(app, booked.meetingId, 'request', { token: booked.token });
    res.status(201).json({ mg_id: booked.meetingId, id: booked.meetingId });
  });

  router.post('/meeting/accept', tokenLimited, async (req, res) => {
    const body = validate(meetingAcceptSchema, req.body);
    res.json(await withTimeZone(req, publicMeeting(await decideByToken(ctx(req), body.token, body.decision))));
  });

  router.get('/meeting/:token', tokenLimited, async (req, res) => {
    const row = await findMeetingByToken(ctx(req).db, String(req.params.token));
    if (!row) throw meetingInvalid();
    res.json(await withTimeZone(req, publicMeeting(row)));
  });

  return router;
}
