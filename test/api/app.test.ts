import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { startApp, withGrant, type Signed, type TestApp } from '../helpers/app.js';
import { createRecord } from '../helpers/console.js';
import { events } from '../../resources/events.js';
import { todayUtc } from '../../api/routes/accountSummary.js';

/** YYYY-MM-DD `days` away from today (UTC). */
const day = (days: number) => todayUtc(new Date(Date.now() + days * 86400_000));

/** GET /api/1/app/events: the capture app's event picker (active events of the caller's accounts, with its bits). */
describeEachDb('capture app: events', (kind) => {
  let t: TestApp;
  let root: Signed;
  let member: Signed;
  let outsider: Signed;
  let a: string;
  let b: string;
  let other: string;
  const titles = new Map<string, string>();

  beforeAll(async () => {
    t = await startApp(kind);
    root = await t.signedIn('root');
    member = await t.signedIn('member');
    outsider = await t.signedIn('member');
    a = (await t.account('Booth Alpha')).a_id;
    b = (await t.account('booth beta')).a_id;
    other = (await t.account('Not Mine')).a_id;
    await t.member(a, member.userId, 'member');
    await t.member(b, member.userId, 'admin');
    await t.member(b, root.userId, 'member'); // root's own membership in B, as member

    const make = async (account: string, title: string, fields: Record<string, unknown>) => {
      const ev = await createRecord(root, account, events, { ev_title: title, ...fields });
      titles.set(String(ev.ev_id), title);
      return String(ev.ev_id);
    };
    await make(a, 'Open ended', { ev_is_enabled: true, ev_start_date: null, ev_end_date: null });
    await make(a, 'Today only', { ev_is_enabled: true, ev_start_date: day(0), ev_end_date: day(0), ev_consent_text: 'Our own opt-in' });
    await make(a, 'Disabled', { ev_is_enabled: false, ev_start_date: day(-1), ev_end_date: day(1) });
    await make(a, 'Later', { ev_is_enabled: true, ev_start_date: day(1), ev_end_date: day(3) });
    await make(a, 'Over', { ev_is_enabled: true, ev_start_date: day(-5), ev_end_date: day(-1) });
    await make(b, 'Beta started', { ev_is_enabled: true, ev_start_date: day(-2), ev_end_date: null });
    await make(other, 'Elsewhere', { ev_is_enabled: true, ev_start_date: null, ev_end_date: null });
  });
  afterAll(() => t?.close());

  const get = (client: Signed | ReturnType<TestApp['client']>) => client.get('/api/1/app/events');

  it('needs a session', async () => {
    const res = await get(t.client());
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('not_logged_in');
  });

  it("lists the active events of the caller's accounts only, with account name, role and app bits", async () => {
    const res = await get(member);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    expect(res.body.today).toBe(day(0));
    // accounts by name, case-insensitive; each with the caller's role and bits from the permission matrix
    expect(res.body.accounts).toEqual([
      {
        id: a,
        a_id: a,
        a_name: 'Booth Alpha',
        role: 'member',
        permissions: expect.objectContaining({ app_general: 7, account_leads: 15, account_handoffs: 7, account_members: 15, account_meetings: 15 }),
      },
      { id: b, a_id: b, a_name: 'booth beta', role: 'admin', permissions: expect.objectContaining({ app_general: 15, account_leads: 15 }) },
    ]);
    // events grouped by account in the accounts' order, by title inside one
    expect(res.body.events.map((e: { ev_title: string }) => e.ev_title)).toEqual(['Open ended', 'Today only', 'Beta started']);
    const today = res.body.events.find((e: { ev_title: string }) => e.ev_title === 'Today only');
    expect(today).toMatchObject({ a_id: a, a_name: 'Booth Alpha', ev_accountid: a, ev_consent_text: 'Our own opt-in', ev_start_date: day(0), ev_end_date: day(0) });
    expect(today.id).toBe(today.ev_id);
    // nothing beyond what the picker needs (no access code)
    expect(Object.keys(today).sort()).toEqual(
      ['a_id', 'a_name', 'ev_accountid', 'ev_consent_text', 'ev_end_date', 'ev_id', 'ev_is_enabled', 'ev_name', 'ev_start_date', 'ev_title', 'id'].sort(),
    );
  });

  it('a root user sees its own memberships, acting as root in them; not every account of the platform', async () => {
    const res = await get(root);
    expect(res.status).toBe(200);
    expect(res.body.accounts).toEqual([{ id: b, a_id: b, a_name: 'booth beta', role: 'root', permissions: expect.objectContaining({ app_general: 15 }) }]);
    expect(res.body.events.map((e: { ev_title: string }) => e.ev_title)).toEqual(['Beta started']);
  });

  it('no membership: no accounts and no events (the app says there are no active events)', async () => {
    const res = await get(outsider);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ today: day(0), accounts: [], events: [] });
  });

  it('follows the stored permission matrix (ops may change a grant)', async () => {
    await withGrant(t, 'member', 'app_general', 1, async () => {
      const res = await get(member);
      expect(res.body.accounts[0].permissions.app_general).toBe(1);
    });
    expect((await get(member)).body.accounts[0].permissions.app_general).toBe(7);
  });

  it('an event that stops being active leaves the picker', async () => {
    const id = [...titles].find(([, title]) => title === 'Open ended')![0];
    await t
      .db('events')
      .where('ev_id', id)
      .update({ ev_end_date: day(-1), ev_start_date: day(-3) });
    const res = await get(member);
    expect(res.body.events.map((e: { ev_title: string }) => e.ev_title)).toEqual(['Today only', 'Beta started']);
  });
});
