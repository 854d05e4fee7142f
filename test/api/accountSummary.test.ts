import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { MISSING, startApp, type Signed, type TestApp } from '../helpers/app.js';
import { accountPath, createRecord } from '../helpers/console.js';
import { events, isEventActive } from '../../resources/events.js';
import { todayUtc } from '../../api/routes/accountSummary.js';

/** YYYY-MM-DD `days` away from today (UTC). */
const day = (days: number) => todayUtc(new Date(Date.now() + days * 86400_000));

/** GET /accounts/{a}/summary: the console home page's figures (active events, members, pending invites). */
describeEachDb('account summary', (kind) => {
  let t: TestApp;
  let root: Signed;
  let member: Signed;
  let superadminOutside: Signed;
  let a: string;
  let b: string;

  beforeAll(async () => {
    t = await startApp(kind);
    root = await t.signedIn('root');
    member = await t.signedIn('member');
    superadminOutside = await t.signedIn('superadmin');
    a = (await t.account('Summary A')).a_id;
    b = (await t.account('Summary B')).a_id;
    await t.member(a, member.userId, 'member');
  });
  afterAll(() => t?.close());

  const summary = (client: Signed, account: string) => client.get(`/api/1/accounts/${account}/summary`);

  it('counts active events (enabled, today within the dates, open-ended when a date is empty), members and pending invites', async () => {
    const cases = [
      { ev_is_enabled: true, ev_start_date: null, ev_end_date: null }, // open-ended: active
      { ev_is_enabled: true, ev_start_date: day(0), ev_end_date: day(0) }, // today only: active
      { ev_is_enabled: true, ev_start_date: day(-3), ev_end_date: null }, // started: active
      { ev_is_enabled: true, ev_start_date: null, ev_end_date: day(2) }, // not over: active
      { ev_is_enabled: false, ev_start_date: day(-1), ev_end_date: day(1) }, // disabled
      { ev_is_enabled: true, ev_start_date: day(1), ev_end_date: day(3) }, // later
      { ev_is_enabled: true, ev_start_date: day(-5), ev_end_date: day(-1) }, // over
    ];
    for (const c of cases) await createRecord(root, a, events, c);
    // Another account's events do not count.
    await createRecord(root, b, events, { ev_is_enabled: true, ev_start_date: null, ev_end_date: null });
    const expected = cases.filter((c) => isEventActive(c, todayUtc())).length;
    expect(expected).toBe(4);

    const invite = (email: string) => root.post(accountPath(a, 'invites'), { iv_email: email });
    expect((await invite('one@summary.example.com')).status).toBe(201);
    expect((await invite('two@summary.example.com')).status).toBe(201);
    const revoked = await invite('three@summary.example.com');
    expect((await root.delete(`${accountPath(a, 'invites')}/${revoked.body.id}`)).status).toBeLessThan(300);
    // A pending invite whose time is up is no longer pending.
    const stale = await invite('four@summary.example.com');
    await t
      .db('invites')
      .where('iv_id', stale.body.id)
      .update({ iv_expires_at: new Date(Date.now() - 1000) });

    const res = await summary(member, a);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ active_events: 4, members: 1, pending_invites: 2 });
    // Root acts as root in every account.
    expect((await summary(root, b)).body).toEqual({ active_events: 1, members: 0, pending_invites: 0 });
  });

  it('a member of another account, staff outside the account, an unknown account and no session get no figures', async () => {
    expect((await summary(member, b)).status).toBe(404);
    expect((await summary(superadminOutside, a)).status).toBe(404);
    expect((await summary(root, MISSING)).status).toBe(404);
    expect((await summary(root, 'not-a-uuid')).status).toBe(404);
    expect((await t.client().get(`/api/1/accounts/${a}/summary`)).status).toBe(401);
  });
});
