import crypto from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { describeEachDb } from '../helpers/db.js';
import { MISSING, qs, startApp, uid, type Signed, type TestApp } from '../helpers/app.js';
import { deliveredMailsTo, linkIn, type ParsedMail } from '../helpers/mail.js';
import { insertEvent, insertLead } from '../helpers/leadRows.js';
import { expireMeetingRequests, sendMeetingReminders, zonedTime } from '../../api/services/meetings.js';
import { createKnex } from '../../api/db/knex.js';
import type { AppContext } from '../../api/context.js';

type Row = Record<string, unknown>;

const HOUR = 3600_000;

/** The calendar file of a mail, parsed by ical.js (a real RFC 5545 parser). */
function calendarOf(mail: ParsedMail) {
  const ics = mail.attachments.find((a) => a.filename.endsWith('.ics'));
  if (!ics) throw new Error(`no .ics in ${mail.file}`);
  const component = new ICAL.Component(ICAL.parse(ics.content));
  const vevent = component.getFirstSubcomponent('vevent')!;
  const event = new ICAL.Event(vevent);
  return {
    attachment: ics,
    method: component.getFirstPropertyValue('method'),
    uid: event.uid,
    sequence: event.sequence,
    start: event.startDate.toJSDate().toISOString(),
    end: event.endDate.toJSDate().toISOString(),
    startIsUtc: event.startDate.zone?.tzid === 'UTC',
    location: event.location,
    status: vevent.getFirstPropertyValue('status'),
    attendees: vevent.getAllProperties('attendee').map((p) => String(p.getFirstValue()).toLowerCase()),
  };
}

describeEachDb('meetings: slots, generate, booking under concurrency, the public page and the link, mails with .ics, expiry, reminders, stats', (kind) => {
  let t: TestApp;
  let owner: Signed; // superadmin of A
  let host: Signed; // member of A, a host
  let other: Signed; // superadmin of B
  let a: string;
  let b: string;
  let event: { ev_id: string; ev_title: string };
  let eventB: { ev_id: string; ev_title: string };
  let hostEmail: string;

  beforeAll(async () => {
    // Every test request comes from 127.0.0.1: a high budget of meeting requests unless a test sets its own.
    t = await startApp(kind, { meetings: { perIp: 100_000, windowSeconds: 900, expiryHours: 48 } });
    a = (await t.account(`Harbour ${uid()}`)).a_id;
    b = (await t.account(`Dune ${uid()}`)).a_id;
    owner = await t.signedIn('member');
    await t.member(a, owner.userId, 'superadmin');
    host = await t.signedIn('member');
    await t.member(a, host.userId, 'member');
    await t.db('users').where('u_id', host.userId).update({ u_first_name: 'Hanna', u_last_name: 'Host' });
    hostEmail = (await t.db('users').where('u_id', host.userId).first('u_email')).u_email;
    other = await t.signedIn('member');
    await t.member(b, other.userId, 'superadmin');
    event = await insertEvent(t.db, a, { ev_title: 'Harbour Expo', ev_is_enabled: true });
    eventB = await insertEvent(t.db, b, { ev_title: 'Dune Fair', ev_is_enabled: true });
  });
  afterAll(() => t?.close());

  const slots = (account = a) => `/api/1/accounts/${account}/meeting-slots`;
  const meetingsPath = (account = a) => `/api/1/accounts/${account}/meetings`;
  const at = (ms: number) => new Date(ms).toISOString();
  /** A slot straight in the database (no overlap check: each test takes its own host or event). */
  const insertSlot = async (values: Row = {}, eventId = event.ev_id, account = a) => {
    // Whole minutes, as slots are (a calendar file keeps seconds only).
    const start = Math.floor(Date.now() / 60_000) * 60_000 + 5 * 86400_000 + Math.floor(Math.random() * 1000) * HOUR;
    const [row] = await t
      .db('meeting_slots')
      .insert({ ms_accountid: account, ms_eventid: eventId, ms_start: new Date(start), ms_end: new Date(start + HOUR / 2), ms_location: 'Stand 12', ...values })
      .returning('*');
    return row as Row & { ms_id: string };
  };
  const book = (eventId: string, body: Row, client = t.client()) => client.post(`/api/1/meet/${eventId}`, body);
  const tokenOf = (mail: ParsedMail) => decodeURIComponent(new URL(linkIn(mail, '/meetings/')).pathname.split('/').pop()!);

  it('slots: create and read with the declared fields; end after start and at most 8 hours (400); a host must be a member (400); overlaps of one host 409 on create and update', async () => {
    const start = Date.parse('2030-05-01T08:00:00Z');
    const created = await owner.post(slots(), { ms_eventid: event.ev_id, ms_start: at(start), ms_end: at(start + HOUR / 2), ms_hostid: host.userId, ms_location: 'Stand 1' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ ms_eventid: event.ev_id, ms_capacity: 1, ms_hostid: host.userId, ms_location: 'Stand 1' });
    expect(new Date(created.body.ms_start).toISOString()).toBe(at(start));

    const before = await owner.post(slots(), { ms_eventid: event.ev_id, ms_start: at(start), ms_end: at(start - 1000) });
    expect(before.status).toBe(400);
    expect(before.body.fields).toEqual({ ms_end: 'error_slot_end_before_start' });
    const long = await owner.post(slots(), { ms_eventid: event.ev_id, ms_start: at(start), ms_end: at(start + 8 * HOUR + 60_000) });
    expect(long.status).toBe(400);
    expect(long.body.fields).toEqual({ ms_end: 'error_slot_too_long' });
    expect((await owner.post(slots(), { ms_eventid: event.ev_id, ms_start: at(start + 9 * HOUR), ms_end: at(start + 17 * HOUR) })).status).toBe(201);
    const stranger = await owner.post(slots(), { ms_eventid: event.ev_id, ms_start: at(start), ms_end: at(start + HOUR), ms_hostid: other.userId });
    expect(stranger.status).toBe(400);
    expect(stranger.body.fields).toEqual({ ms_hostid: 'error_reference_invalid' });

    // The same host, overlapping: 409; touching (starting when the other ends) is fine; another host may overlap.
    const overlap = await owner.post(slots(), { ms_eventid: event.ev_id, ms_start: at(start + HOUR / 4), ms_end: at(start + HOUR), ms_hostid: host.userId });
    expect(overlap.status).toBe(409);
    expect(overlap.body.code).toBe('slot_overlaps');
    const next = await host.post(slots(), { ms_eventid: event.ev_id, ms_start: at(start + HOUR / 2), ms_end: at(start + HOUR), ms_hostid: host.userId });
    expect(next.status).toBe(201);
    expect((await owner.post(slots(), { ms_eventid: event.ev_id, ms_start: at(start), ms_end: at(start + HOUR), ms_hostid: owner.userId })).status).toBe(201);
    const moved = await owner.put(`${slots()}/${next.body.id}`, { ms_start: at(start + HOUR / 4) });
    expect(moved.status).toBe(409);
    expect(moved.body.code).toBe('slot_overlaps');
    // Moving a slot over itself is no overlap.
    expect((await owner.put(`${slots()}/${next.body.id}`, { ms_end: at(start + HOUR + HOUR / 4) })).status).toBe(200);
    const bad = await owner.put(`${slots()}/${next.body.id}`, { ms_end: at(start) });
    expect(bad.status).toBe(400);

    // Tenancy: another account's slot is 404 there, and its list does not show it.
    expect((await other.get(`${slots(b)}/${created.body.id}`)).status).toBe(404);
    expect((await other.put(`${slots(b)}/${created.body.id}`, { ms_location: 'x' })).status).toBe(404);
    expect((await other.get(`${slots(a)}/${created.body.id}`)).status).toBe(404);
    expect(((await other.get(slots(b))).body as Row[]).some((r) => r.ms_id === created.body.id)).toBe(false);
    // An event of another account is no reference.
    const foreign = await owner.post(slots(), { ms_eventid: eventB.ev_id, ms_start: at(start), ms_end: at(start + HOUR) });
    expect(foreign.status).toBe(400);
  });

  it("generate: a day of slots in the account's ls_timezone, DST-correct; overlaps 409 and nothing stored; bad input 400 with fields", async () => {
    const hostless = await insertEvent(t.db, a, { ev_title: 'Generated', ev_is_enabled: true });
    const gen = (body: Row) => owner.post(`${slots()}/generate`, { ms_eventid: hostless.ev_id, minutes: 30, gap_minutes: 10, ...body });
    // The day before summer time: Amsterdam is UTC+1.
    const winter = await gen({ date: '2026-03-28', from: '09:00', to: '11:00', ms_location: 'Room A', ms_capacity: 2 });
    expect(winter.status, JSON.stringify(winter.body)).toBe(201);
    expect((winter.body as Row[]).map((s) => new Date(s.ms_start as string).toISOString())).toEqual([
      '2026-03-28T08:00:00.000Z',
      '2026-03-28T08:40:00.000Z',
      '2026-03-28T09:20:00.000Z',
    ]);
    expect(winter.body[0]).toMatchObject({ ms_location: 'Room A', ms_capacity: 2, ms_hostid: null, ms_eventid: hostless.ev_id });
    expect(new Date(winter.body[2].ms_end).toISOString()).toBe('2026-03-28T09:50:00.000Z');
    // The day the clocks go forward (02:00 → 03:00): 09:00 is UTC+2 now.
    const dst = await gen({ date: '2026-03-29', from: '09:00', to: '10:00', gap_minutes: 0 });
    expect((dst.body as Row[]).map((s) => new Date(s.ms_start as string).toISOString())).toEqual(['2026-03-29T07:00:00.000Z', '2026-03-29T07:30:00.000Z']);
    // Across the change itself: 01:00–04:00 local holds 01:00, 03:00 (02:00 does not exist: 03:00 CEST) and 03:00 is 01:00Z.
    expect(zonedTime('2026-03-29', 60, 'Europe/Amsterdam').toISOString()).toBe('2026-03-29T00:00:00.000Z');
    expect(zonedTime('2026-03-29', 180, 'Europe/Amsterdam').toISOString()).toBe('2026-03-29T01:00:00.000Z');
    // The autumn change: 09:00 is UTC+1 again.
    expect(zonedTime('2026-10-25', 540, 'Europe/Amsterdam').toISOString()).toBe('2026-10-25T08:00:00.000Z');

    // Overlapping the winter slots (hostless, same event): 409 and none of the day is stored.
    const count = async () => Number((await t.db('meeting_slots').where('ms_eventid', hostless.ev_id).count({ n: '*' }).first())!.n);
    const stored = await count();
    const clash = await gen({ date: '2026-03-28', from: '08:00', to: '12:00', minutes: 60, gap_minutes: 0 });
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('slot_overlaps');
    expect(await count()).toBe(stored);

    // Bad input: 400 with the fields, nothing stored.
    for (const [body, fields] of [
      [{ date: '2026-02-30', from: '09:00', to: '10:00' }, { date: 'error_date_invalid' }],
      [
        { date: '2026-04-01', from: '9:00', to: '25:00' },
        { from: 'error_time_invalid', to: 'error_time_invalid' },
      ],
      [{ date: '2026-04-01', from: '10:00', to: '09:00' }, { to: 'error_time_range_invalid' }],
      [{ date: '2026-04-01', from: '09:00', to: '10:00', minutes: 2 }, { minutes: 'error_number_too_small' }],
      [{ date: '2026-04-01', from: '09:00', to: '09:20' }, { minutes: 'error_no_slots_fit' }],
      [{ date: '2026-04-01', from: '09:00', to: '10:00', ms_hostid: other.userId }, { ms_hostid: 'error_reference_invalid' }],
      [{ date: '2026-04-01', from: '09:00', to: '10:00', ms_eventid: eventB.ev_id }, { ms_eventid: 'error_reference_invalid' }],
    ] as [Row, Row][]) {
      const res = await gen(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.fields).toEqual(fields);
    }
    expect(await count()).toBe(stored);

    // Another zone: New York (UTC-4 on that day); an unknown zone is refused.
    expect((await owner.put(`/api/1/accounts/${a}/settings`, { ls_timezone: 'Mars/Olympus' })).body.fields).toEqual({ ls_timezone: 'error_timezone_invalid' });
    expect((await owner.put(`/api/1/accounts/${a}/settings`, { ls_timezone: 'America/New_York' })).status).toBe(200);
    const ny = await gen({ date: '2026-04-02', from: '09:00', to: '09:30' });
    expect(new Date(ny.body[0].ms_start).toISOString()).toBe('2026-04-02T13:00:00.000Z');
    expect((await owner.get(`/api/1/accounts/${a}/settings`)).body.ls_timezone).toBe('America/New_York');
    await owner.put(`/api/1/accounts/${a}/settings`, { ls_timezone: 'Europe/Amsterdam' });
    // Another account's generate cannot name this event (its own event ids only).
    expect((await other.post(`${slots(b)}/generate`, { ms_eventid: hostless.ev_id, date: '2026-04-01', from: '09:00', to: '10:00', minutes: 30 })).status).toBe(400);
  });

  for (const capacity of [1, 3]) {
    it(`capacity ${capacity}: 20 visitors asking for one slot at once get exactly ${capacity} × 201 and ${20 - capacity} × 409 slot_full`, async () => {
      const ev = await insertEvent(t.db, a, { ev_title: `Rush ${capacity}`, ev_is_enabled: true });
      const slot = await insertSlot({ ms_capacity: capacity }, ev.ev_id);
      const visitors = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const c = t.client();
          await c.get('/api/1/auth/me'); // the CSRF cookie
          return c;
        }),
      );
      const answers = await Promise.all(visitors.map((c, i) => book(ev.ev_id, { ms_id: slot.ms_id, email: `rush${capacity}-${i}@example.com`, first_name: `V${i}` }, c)));
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201).length).toBe(capacity);
      expect(statuses.filter((s) => s === 409).length).toBe(20 - capacity);
      for (const r of answers.filter((x) => x.status === 409)) expect(r.body.code).toBe('slot_full');
      expect(Number((await t.db('meetings').where('mg_slotid', slot.ms_id).count({ n: '*' }).first())!.n)).toBe(capacity);
      // The full slot is no longer offered.
      expect(((await t.client().get(`/api/1/meet/${ev.ev_id}`)).body.slots as Row[]).some((s) => s.ms_id === slot.ms_id)).toBe(false);
    });
  }

  it('the public page: the event and its free slots; unknown, disabled, trashed or ended events 404; honeypot, CSRF and bad input', async () => {
    const ev = await insertEvent(t.db, a, { ev_title: 'Open Day', ev_is_enabled: true });
    const free = await insertSlot({ ms_capacity: 2, ms_hostid: host.userId }, ev.ev_id);
    await insertSlot({ ms_start: new Date(Date.now() - 2 * HOUR), ms_end: new Date(Date.now() - HOUR) }, ev.ev_id); // past
    const page = await t.client().get(`/api/1/meet/${ev.ev_id}`);
    expect(page.status).toBe(200);
    expect(page.body.event).toMatchObject({ ev_id: ev.ev_id, ev_title: 'Open Day' });
    expect(page.body.time_zone).toBe('Europe/Amsterdam');
    expect(page.body.slots).toHaveLength(1);
    expect(page.body.slots[0]).toMatchObject({ ms_id: free.ms_id, ms_capacity: 2, free: 2, ms_location: 'Stand 12', host: { u_first_name: 'Hanna', u_last_name: 'Host' } });
    // No form style for the event yet: the page's own look.
    expect(page.body).toMatchObject({ style: null, style_assets: {}, stylesheet: null });
    // With one, the page takes the event's form style like the registration page: its fields and its custom CSS.
    const styled = await owner.post(`/api/1/accounts/${a}/form-styles`, {
      st_title: `Meet style ${uid()}`,
      st_eventid: ev.ev_id,
      st_custom_css: ':root { --ls-form-accent: #aa0055; }',
    });
    expect(styled.status, JSON.stringify(styled.body)).toBe(201);
    const withStyle = (await t.client().get(`/api/1/meet/${ev.ev_id}`)).body;
    expect(withStyle.style).not.toBeNull();
    expect(withStyle.style).not.toHaveProperty('st_custom_css');
    expect(withStyle.style).not.toHaveProperty('st_title');
    expect(withStyle.stylesheet).toBe(`/api/1/register/${ev.ev_id}/style.css`);
    const css = await t.client().get(withStyle.stylesheet);
    expect(css.text).toBe(':root { --ls-form-accent: #aa0055; }');

    // The page itself (the public form build): served with its CSP for an id, a 404 page for a malformed one.
    const html = await t.client().get(`/meet/${ev.ev_id}`);
    expect(html.status).toBe(200);
    expect(html.headers['content-security-policy']).toContain("script-src 'self'");
    expect((await t.client().get('/meet/not-a-uuid')).status).toBe(404);
    for (const id of [MISSING, 'not-a-uuid']) expect((await t.client().get(`/api/1/meet/${id}`)).status).toBe(404);
    const disabled = await insertEvent(t.db, a, { ev_is_enabled: false });
    const trashed = await insertEvent(t.db, a, { ev_is_enabled: true, ev_deleted_at: new Date() });
    const ended = await insertEvent(t.db, a, { ev_is_enabled: true, ev_end_date: '2020-01-01' });
    for (const e of [disabled, trashed, ended]) {
      expect((await t.client().get(`/api/1/meet/${e.ev_id}`)).status).toBe(404);
      expect((await book(e.ev_id, { ms_id: free.ms_id, email: 'x@example.com' })).status).toBe(404);
    }

    // A slot of another event of the same account is no slot of this page.
    const elsewhere = await insertSlot({}, event.ev_id);
    const wrong = await book(ev.ev_id, { ms_id: elsewhere.ms_id, email: 'wrong@example.com' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields).toMatchObject({ ms_id: 'error_slot_invalid' });
    const noMail = await book(ev.ev_id, { ms_id: free.ms_id, email: '' });
    expect(noMail.status).toBe(400);
    expect(noMail.body.fields).toEqual({ email: 'error_required' });
    expect((await book(ev.ev_id, { ms_id: free.ms_id, email: 'not-an-address' })).body.fields).toEqual({ email: 'error_email_invalid' });
    expect((await t.client().post(`/api/1/meet/${ev.ev_id}`, { ms_id: free.ms_id, email: 'a@example.com' }, { csrf: false })).status).toBe(403);

    const meetingsBefore = Number((await t.db('meetings').count({ n: '*' }).first())!.n);
    const leadsBefore = Number((await t.db('leads').count({ n: '*' }).first())!.n);
    await t.context.jobs.drain();
    const mailsBefore = t.outbox().length;
    const robot = await book(ev.ev_id, { ms_id: free.ms_id, email: 'robot@example.com', website: 'http://spam.example' });
    expect(robot.status).toBe(201);
    expect(robot.body.mg_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number((await t.db('meetings').count({ n: '*' }).first())!.n)).toBe(meetingsBefore);
    expect(Number((await t.db('leads').count({ n: '*' }).first())!.n)).toBe(leadsBefore);
    await t.context.jobs.drain();
    expect(t.outbox().length).toBe(mailsBefore);
    // Nothing was booked: the page still offers both places.
    expect((await t.client().get(`/api/1/meet/${ev.ev_id}`)).body.slots[0].free).toBe(2);
  });

  it('book → the lead (new with source meeting, else the existing one) → the host mailed a link → accept by the link → the visitor gets the .ics (METHOD:REQUEST, UID = mg_id, UTC times, location); a used or unknown token 400 meeting_invalid', async () => {
    const ev = await insertEvent(t.db, a, { ev_title: 'Harbour Summit', ev_is_enabled: true });
    const slot = await insertSlot({ ms_capacity: 2, ms_hostid: host.userId, ms_location: 'Hall 3, stand 12' }, ev.ev_id);
    const existing = await insertLead(t.db, a, ev.ev_id, { ld_email: 'Known@Example.com', ld_source: 'scan' });
    const visitor = t.client();
    const res = await book(ev.ev_id, { ms_id: slot.ms_id, email: 'vera@example.com', first_name: 'Vera', last_name: 'Visitor', message: 'About the new range' }, visitor);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.mg_id as string;
    const stored = await t.db('meetings').where('mg_id', id).first();
    expect(stored).toMatchObject({ mg_status: 'requested', mg_slotid: slot.ms_id, mg_eventid: ev.ev_id, mg_hostid: host.userId, mg_message: 'About the new range' });
    // Expires in 48 hours (MEETING_EXPIRY_HOURS).
    expect(Math.abs(new Date(stored.mg_expires_at).getTime() - Date.now() - 48 * HOUR)).toBeLessThan(60_000);
    const lead = await t.db('leads').where('ld_id', stored.mg_leadid).first();
    expect(lead).toMatchObject({ ld_email: 'vera@example.com', ld_first_name: 'Vera', ld_last_name: 'Visitor', ld_source: 'meeting', ld_eventid: ev.ev_id, ld_accountid: a });
    // The same address again (any case) is the lead of that event already there.
    const again = await book(ev.ev_id, { ms_id: slot.ms_id, email: 'known@example.com' });
    expect(again.status).toBe(201);
    expect((await t.db('meetings').where('mg_id', again.body.mg_id).first()).mg_leadid).toBe(existing.ld_id);

    // One new address asking twice at once is one lead.
    const roomy = await insertSlot({ ms_capacity: 5 }, ev.ev_id);
    const twice = await Promise.all([0, 1].map(() => book(ev.ev_id, { ms_id: roomy.ms_id, email: 'twin@example.com' })));
    expect(twice.map((r) => r.status)).toEqual([201, 201]);
    expect(Number((await t.db('leads').where('ld_eventid', ev.ev_id).whereRaw("lower(ld_email) = 'twin@example.com'").count({ n: '*' }).first())!.n)).toBe(1);

    const mails = (await deliveredMailsTo(t, hostEmail)).filter((m) => m.text.includes('Vera Visitor'));
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain('Meeting request from Vera Visitor');
    expect(mails[0].text).toContain('Hello Hanna,');
    expect(mails[0].text).toContain('Harbour Summit');
    expect(mails[0].text).toContain('Hall 3, stand 12');
    const token = tokenOf(mails[0]);
    expect(linkIn(mails[0], '/meetings/').startsWith(`${t.config.publicUrl}/meetings/`)).toBe(true);
    expect(stored.mg_token_hash).toBe(crypto.createHash('sha256').update(token).digest('hex'));

    const view = await t.client().get(`/api/1/meeting/${encodeURIComponent(token)}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      mg_id: id,
      mg_status: 'requested',
      mg_message: 'About the new range',
      slot: { ms_id: slot.ms_id, ms_location: 'Hall 3, stand 12' },
      event: { ev_id: ev.ev_id, ev_title: 'Harbour Summit' },
      visitor: { ld_email: 'vera@example.com', ld_first_name: 'Vera', ld_last_name: 'Visitor' },
      // The host's page shows the slot in the account's zone (ls_timezone, default Europe/Amsterdam).
      time_zone: 'Europe/Amsterdam',
    });
    expect(view.body).not.toHaveProperty('mg_token_hash');

    const accepted = await t.client().post('/api/1/meeting/accept', { token, decision: 'accepted' });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.mg_status).toBe('accepted');
    expect(accepted.body.time_zone).toBe('Europe/Amsterdam');
    const confirm = await deliveredMailsTo(t, 'vera@example.com');
    expect(confirm).toHaveLength(1);
    expect(confirm[0].subject).toContain('Your meeting at Harbour Summit is confirmed');
    const cal = calendarOf(confirm[0]);
    expect(cal.attachment.contentType).toMatch(/^text\/calendar/);
    expect(cal.attachment.contentType).toContain('method=REQUEST');
    expect(cal).toMatchObject({ method: 'REQUEST', uid: id, sequence: 0, location: 'Hall 3, stand 12', status: 'CONFIRMED', startIsUtc: true });
    expect(cal.start).toBe(new Date(slot.ms_start as string).toISOString());
    expect(cal.end).toBe(new Date(slot.ms_end as string).toISOString());
    expect(cal.attendees).toContain('mailto:vera@example.com');
    expect(cal.attachment.content).toMatch(/DTSTART:\d{8}T\d{6}Z/);

    // Used: 400 meeting_invalid; the page still shows the answer. Unknown and malformed tokens: 400 too.
    for (const r of [
      await t.client().post('/api/1/meeting/accept', { token, decision: 'declined' }),
      await t.client().post('/api/1/meeting/accept', { token: crypto.randomBytes(32).toString('base64url'), decision: 'accepted' }),
      await t.client().post('/api/1/meeting/accept', { token: 'x', decision: 'accepted' }),
      await t.client().get(`/api/1/meeting/${crypto.randomBytes(32).toString('base64url')}`),
    ]) {
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('meeting_invalid');
    }
    expect((await t.client().get(`/api/1/meeting/${encodeURIComponent(token)}`)).body.mg_status).toBe('accepted');
    expect((await t.client().post('/api/1/meeting/accept', { token, decision: 'maybe' })).status).toBe(400);
    expect(await deliveredMailsTo(t, 'vera@example.com')).toHaveLength(1);
  });

  it('decline by the link mails the visitor (in Dutch when asked in Dutch); a slot without a host mails every member with the update bit', async () => {
    const ev = await insertEvent(t.db, a, { ev_title: 'Dock Days', ev_is_enabled: true });
    const slot = await insertSlot({}, ev.ev_id);
    const ownerEmail = (await t.db('users').where('u_id', owner.userId).first('u_email')).u_email;
    const beforeOwner = (await deliveredMailsTo(t, ownerEmail)).length;
    const beforeHost = (await deliveredMailsTo(t, hostEmail)).length;
    const res = await book(ev.ev_id, { ms_id: slot.ms_id, email: 'daan@example.com', first_name: 'Daan', lang: 'nl' });
    expect(res.status).toBe(201);
    expect((await deliveredMailsTo(t, ownerEmail)).length).toBe(beforeOwner + 1);
    expect((await deliveredMailsTo(t, hostEmail)).length).toBe(beforeHost + 1);
    const token = tokenOf((await deliveredMailsTo(t, hostEmail)).at(-1)!);
    const declined = await t.client().post('/api/1/meeting/accept', { token, decision: 'declined' });
    expect(declined.body.mg_status).toBe('declined');
    const [mail] = await deliveredMailsTo(t, 'daan@example.com');
    expect(mail.subject).toBe('Je afspraakverzoek op Dock Days kon niet worden geaccepteerd');
    expect(mail.text).toContain('Hallo Daan,');
    expect(mail.attachments).toEqual([]);
    // Declined frees the place.
    expect((await t.client().get(`/api/1/meet/${ev.ev_id}`)).body.slots.map((s: Row) => s.ms_id)).toContain(slot.ms_id);
  });

  it("an account's own template of a meeting mail is sent instead of the built-in one; its preview has sample values", async () => {
    const tpl = await owner.post(`/api/1/accounts/${a}/mail-templates`, {
      mt_name: 'meeting_declined',
      mt_subject: 'Sorry {{visitor_first_name}}, {{event_title}} is full',
      mt_text: 'No room at {{location}} on {{meeting_start}} ({{time_zone}}).',
    });
    expect(tpl.status).toBe(201);
    const preview = await owner.get(`/api/1/accounts/${a}/mail-templates/${tpl.body.id}/preview`);
    expect(preview.body.subject).toBe('Sorry Vera, Sample Expo is full');
    const ev = await insertEvent(t.db, a, { ev_title: 'Own Words Fair', ev_is_enabled: true });
    const slot = await insertSlot(
      { ms_hostid: host.userId, ms_location: 'Pier 4', ms_start: new Date('2031-01-15T09:00:00Z'), ms_end: new Date('2031-01-15T09:30:00Z') },
      ev.ev_id,
    );
    await book(ev.ev_id, { ms_id: slot.ms_id, email: 'owen@example.com', first_name: 'Owen' });
    const token = tokenOf((await deliveredMailsTo(t, hostEmail)).at(-1)!);
    await t.client().post('/api/1/meeting/accept', { token, decision: 'declined' });
    const [mail] = await deliveredMailsTo(t, 'owen@example.com');
    expect(mail.subject).toBe('Sorry Owen, Own Words Fair is full');
    // 09:00Z in January is 10:00 in Amsterdam.
    expect(mail.text).toBe('No room at Pier 4 on 15 January 2031 at 10:00 (Europe/Amsterdam).');
    await t.db('mail_templates').where('mt_id', tpl.body.id).del();
  });

  it('the console: create books under the same rule (409 slot_full), a PUT of mg_status moves along the transitions (400 otherwise); a cancel of an accepted meeting sends METHOD:CANCEL with a higher SEQUENCE', async () => {
    const ev = await insertEvent(t.db, a, { ev_title: 'Console Fair', ev_is_enabled: true });
    const slot = await insertSlot({ ms_hostid: host.userId, ms_location: 'Booth 7' }, ev.ev_id);
    const lead = await insertLead(t.db, a, ev.ev_id, { ld_email: 'carla@example.com', ld_first_name: 'Carla' });
    const created = await host.post(meetingsPath(), { mg_eventid: ev.ev_id, mg_slotid: slot.ms_id, mg_leadid: lead.ld_id, mg_message: 'Booked at the stand' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ mg_status: 'requested', mg_hostid: host.userId, ld_email: 'carla@example.com', ms_location: 'Booth 7' });
    expect(created.body).not.toHaveProperty('mg_token_hash');
    const full = await host.post(meetingsPath(), { mg_eventid: ev.ev_id, mg_slotid: slot.ms_id, mg_leadid: lead.ld_id });
    expect(full.status).toBe(409);
    expect(full.body.code).toBe('slot_full');
    // The slot of another event is not this event's.
    const mismatch = await host.post(meetingsPath(), { mg_eventid: event.ev_id, mg_slotid: slot.ms_id });
    expect(mismatch.status).toBe(400);

    const id = created.body.id as string;
    const put = (status: string) => host.put(`${meetingsPath()}/${id}`, { mg_status: status });
    expect((await put('done')).status).toBe(400);
    expect((await put('accepted')).body.mg_status).toBe('accepted');
    const invite = calendarOf((await deliveredMailsTo(t, 'carla@example.com')).at(-1)!);
    expect(invite).toMatchObject({ method: 'REQUEST', uid: id, sequence: 0, location: 'Booth 7' });
    const back = await put('requested');
    expect(back.status).toBe(400);
    expect(back.body.fields).toEqual({ mg_status: 'error_meeting_status_invalid' });
    expect((await put('cancelled')).body.mg_status).toBe('cancelled');
    const cancel = (await deliveredMailsTo(t, 'carla@example.com')).at(-1)!;
    expect(cancel.subject).toContain('is cancelled');
    const cal = calendarOf(cancel);
    expect(cal).toMatchObject({ method: 'CANCEL', uid: id, sequence: 1, status: 'CANCELLED' });
    expect(cal.attachment.contentType).toContain('method=CANCEL');
    expect((await put('accepted')).status).toBe(400);
    // Cancelled frees the slot: it can be booked again.
    expect((await host.post(meetingsPath(), { mg_eventid: ev.ev_id, mg_slotid: slot.ms_id, mg_status: 'accepted', mg_leadid: lead.ld_id })).status).toBe(201);

    // A slot that holds meetings is not deleted (409); the list filters by status; another account: 404.
    const del = await owner.delete(`${slots()}/${slot.ms_id}`);
    expect(del.status).toBe(409);
    expect(del.body.code).toBe('slot_has_meetings');
    const list = await owner.get(`${meetingsPath()}?${qs({ filter: { mg_status: 'cancelled', mg_eventid: ev.ev_id } })}`);
    expect((list.body as Row[]).map((r) => r.mg_id)).toEqual([id]);
    expect((await other.get(`${meetingsPath(b)}/${id}`)).status).toBe(404);
    expect((await other.put(`${meetingsPath(b)}/${id}`, { mg_status: 'done' })).status).toBe(404);
    expect((await other.get(`${meetingsPath(a)}/${id}`)).status).toBe(404);
  });

  it('expiry: requests unanswered by mg_expires_at become declined, once, with one mail, even with two runs at once; the link no longer works', async () => {
    const ev = await insertEvent(t.db, a, { ev_title: 'Late Fair', ev_is_enabled: true });
    const slot = await insertSlot({ ms_hostid: host.userId }, ev.ev_id);
    const res = await book(ev.ev_id, { ms_id: slot.ms_id, email: 'eli@example.com', first_name: 'Eli' });
    const token = tokenOf((await deliveredMailsTo(t, hostEmail)).at(-1)!);
    // Not yet due: nothing happens.
    expect(await expireMeetingRequests(t.context, new Date())).toBe(0);
    const due = new Date(Date.now() + 49 * HOUR);
    // Every request of the earlier tests is due by then too: each is claimed by exactly one of the two runs.
    const waiting = Number((await t.db('meetings').where('mg_status', 'requested').where('mg_expires_at', '<=', due).count({ n: '*' }).first())!.n);
    expect(waiting).toBeGreaterThanOrEqual(1);
    const second = t.url ? createKnex({ databaseUrl: t.url }) : undefined;
    const elsewhere: AppContext = second ? { ...t.context, db: second } : t.context;
    const runs = await Promise.all([expireMeetingRequests(t.context, due), expireMeetingRequests(elsewhere, due)]).finally(() => second?.destroy());
    expect(runs.reduce((x, y) => x + y, 0)).toBe(waiting);
    expect(await expireMeetingRequests(t.context, due)).toBe(0);
    expect((await t.db('meetings').where('mg_id', res.body.mg_id).first()).mg_status).toBe('declined');
    expect(await deliveredMailsTo(t, 'eli@example.com')).toHaveLength(1);
    expect((await deliveredMailsTo(t, 'eli@example.com'))[0].subject).toContain('could not be accepted');
    expect((await t.client().post('/api/1/meeting/accept', { token, decision: 'accepted' })).body.code).toBe('meeting_invalid');
    // An expired request no longer holds its place, even before the job runs.
    const slot2 = await insertSlot({ ms_hostid: host.userId }, ev.ev_id);
    const first = await book(ev.ev_id, { ms_id: slot2.ms_id, email: 'fay@example.com' });
    await t
      .db('meetings')
      .where('mg_id', first.body.mg_id)
      .update({ mg_expires_at: new Date(Date.now() - 1000) });
    expect((await book(ev.ev_id, { ms_id: slot2.ms_id, email: 'gus@example.com' })).status).toBe(201);
  });

  it('reminders: accepted meetings starting within 60 minutes, each reminded once across two runs at once (host and visitor one mail each)', async () => {
    const ev = await insertEvent(t.db, a, { ev_title: 'Soon Expo', ev_is_enabled: true });
    const soon = await insertSlot({ ms_hostid: host.userId, ms_start: new Date(Date.now() + 30 * 60_000), ms_end: new Date(Date.now() + 60 * 60_000) }, ev.ev_id);
    const later = await insertSlot({ ms_hostid: host.userId, ms_start: new Date(Date.now() + 3 * HOUR), ms_end: new Date(Date.now() + 4 * HOUR) }, ev.ev_id);
    const lead = await insertLead(t.db, a, ev.ev_id, { ld_email: 'rita@example.com', ld_first_name: 'Rita' });
    const lead2 = await insertLead(t.db, a, ev.ev_id, { ld_email: 'otto@example.com' });
    const mk = (slotId: string, leadId: string, status = 'accepted') =>
      t.db('meetings').insert({ mg_accountid: a, mg_eventid: ev.ev_id, mg_slotid: slotId, mg_leadid: leadId, mg_hostid: host.userId, mg_status: status });
    await mk(soon.ms_id, lead.ld_id);
    await mk(later.ms_id, lead2.ld_id);
    const hostBefore = (await deliveredMailsTo(t, hostEmail)).length;
    // Two processes: on PostgreSQL a second context with a pool of its own on the same database.
    const second = t.url ? createKnex({ databaseUrl: t.url }) : undefined;
    const elsewhere: AppContext = second ? { ...t.context, db: second } : t.context;
    const runs = await Promise.all([sendMeetingReminders(t.context), sendMeetingReminders(elsewhere)]).finally(() => second?.destroy());
    expect(runs.reduce((x, y) => x + y, 0)).toBe(1);
    expect(await sendMeetingReminders(t.context)).toBe(0);
    expect(await deliveredMailsTo(t, 'rita@example.com')).toHaveLength(1);
    expect((await deliveredMailsTo(t, 'rita@example.com'))[0].subject).toContain('Reminder: your meeting at Soon Expo');
    expect((await deliveredMailsTo(t, hostEmail)).length).toBe(hostBefore + 1);
    expect(await deliveredMailsTo(t, 'otto@example.com')).toHaveLength(0);
    // Two hours on, the later one is due, once.
    expect(await sendMeetingReminders(t.context, new Date(Date.now() + 2.5 * HOUR))).toBe(1);
    expect(await deliveredMailsTo(t, 'otto@example.com')).toHaveLength(1);
  });

  it('stats: GET …/stats/meetings by day (zeros included), status (every status) and host; bad parameters 400; a member 403', async () => {
    const s = await t.account(`Stats ${uid()}`);
    const boss = await t.signedIn('member');
    await t.member(s.a_id, boss.userId, 'superadmin');
    const ev = await insertEvent(t.db, s.a_id, { ev_is_enabled: true });
    const day = (d: string, h: number) => new Date(`${d}T${String(h).padStart(2, '0')}:00:00Z`);
    const slotAt = async (start: Date, hostId: string | null) =>
      (
        await t
          .db('meeting_slots')
          .insert({ ms_accountid: s.a_id, ms_eventid: ev.ev_id, ms_start: start, ms_end: new Date(start.getTime() + HOUR / 2), ms_capacity: 5, ms_hostid: hostId })
          .returning('ms_id')
      )[0].ms_id as string;
    const s1 = await slotAt(day('2026-06-01', 9), boss.userId);
    const s2 = await slotAt(day('2026-06-03', 23), null);
    const add = (slotId: string, status: string, hostId: string | null) =>
      t.db('meetings').insert({ mg_accountid: s.a_id, mg_eventid: ev.ev_id, mg_slotid: slotId, mg_status: status, mg_hostid: hostId });
    await add(s1, 'accepted', boss.userId);
    await add(s1, 'done', boss.userId);
    await add(s2, 'requested', null);
    const stats = (params: Row) => boss.get(`/api/1/accounts/${s.a_id}/stats/meetings?${new URLSearchParams(params as Record<string, string>)}`);
    const byDay = await stats({ from: '2026-06-01', to: '2026-06-04', group: 'day' });
    expect(byDay.status).toBe(200);
    expect(byDay.body).toMatchObject({ kind: 'meetings', group: 'day', measures: ['count'], totals: { count: 3 } });
    expect(byDay.body.rows.map((r: Row) => [r.key, r.count])).toEqual([
      ['2026-06-01', 2],
      ['2026-06-02', 0],
      ['2026-06-03', 1],
      ['2026-06-04', 0],
    ]);
    const byStatus = await stats({ from: '2026-06-01', to: '2026-06-04', group: 'status' });
    expect(byStatus.body.rows.map((r: Row) => [r.key, r.count])).toEqual([
      ['requested', 1],
      ['accepted', 1],
      ['declined', 0],
      ['cancelled', 0],
      ['done', 1],
      ['no_show', 0],
    ]);
    const byHost = await stats({ from: '2026-06-01', to: '2026-06-04', group: 'host' });
    expect(byHost.body.rows.map((r: Row) => [r.key, r.count])).toEqual([
      [boss.userId, 2],
      [null, 1],
    ]);
    expect((await stats({ from: '2026-06-02', to: '2026-06-02', group: 'status' })).body.totals).toEqual({ count: 0 });
    const csv = await stats({ from: '2026-06-01', to: '2026-06-02', group: 'day', format: 'csv' });
    expect(csv.text).toContain('key,label,count');
    const bad = await stats({ group: 'week' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'stats_query_invalid', fields: { group: 'error_stats_group_invalid' } });
    const member = await t.signedIn('member');
    await t.member(s.a_id, member.userId, 'member');
    expect((await member.get(`/api/1/accounts/${s.a_id}/stats/meetings`)).status).toBe(403);
    expect((await other.get(`/api/1/accounts/${s.a_id}/stats/meetings`)).status).toBe(404);
  });

  it('MEETING_LIMIT_PER_IP: past the budget of an address, 429 too_many_attempts with Retry-After, nothing stored', async () => {
    const ev = await insertEvent(t.db, a, { ev_title: 'Limited', ev_is_enabled: true });
    const slot = await insertSlot({ ms_capacity: 50 }, ev.ev_id);
    await t.db('rate_limits').del();
    const budget = t.config.meetings.perIp;
    t.config.meetings.perIp = 3;
    try {
      for (let i = 0; i < 3; i++) expect((await book(ev.ev_id, { ms_id: slot.ms_id, email: `lim${i}@example.com` })).status).toBe(201);
      const over = await book(ev.ev_id, { ms_id: slot.ms_id, email: 'lim3@example.com' });
      expect(over.status).toBe(429);
      expect(over.body.code).toBe('too_many_attempts');
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number((await t.db('meetings').where('mg_slotid', slot.ms_id).count({ n: '*' }).first())!.n)).toBe(3);
    } finally {
      t.config.meetings.perIp = budget;
    }
  });

  it('rights: a member of the account has all of account_meetings (15); a stranger sees nothing (404); signed out 401', async () => {
    const slot = await insertSlot({}, event.ev_id);
    expect((await host.get(`${slots()}/${slot.ms_id}`)).status).toBe(200);
    expect((await host.put(`${slots()}/${slot.ms_id}`, { ms_capacity: 4 })).body.ms_capacity).toBe(4);
    expect((await host.delete(`${slots()}/${slot.ms_id}`)).status).toBe(200);
    expect((await other.get(slots(a))).status).toBe(404);
    expect((await t.client().get(slots(a))).status).toBe(401);
    expect((await t.client().get(meetingsPath(a))).status).toBe(401);
    const rows = await t.db('permission_grants').where('pg_group', 'account_meetings').select('pg_role', 'pg_bits');
    expect(Object.fromEntries(rows.map((r) => [r.pg_role, r.pg_bits]))).toEqual({ root: 15, superadmin: 15, admin: 15, member: 15 });
  });
});
