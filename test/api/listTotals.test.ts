import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { qs, queriesOf as queriesOfDb, startApp, uid, type Signed, type TestApp } from '../helpers/app.js';
import { SEARCH_ESTIMATE_TRUSTED_PAST } from '../../api/crud/list.js';
import { leads } from '../../resources/leads.js';

describeEachDb('list totals and the unpaged cap', (kind) => {
  let t: TestApp;
  let root: Signed;
  beforeAll(async () => {
    t = await startApp(kind, { listMaxRows: 5 });
    root = await t.signedIn('root');
  });
  afterAll(() => t?.close());

  const queriesOf = (fn: () => Promise<unknown>) => queriesOfDb(t.db, fn);
  const counts = (sqls: string[]) => sqls.filter((s) => /count\(\*\)/i.test(s)).length;

  it('pages of the same filter reuse the total; a write makes the next page count again; totals stay exact', async () => {
    const p = uid();
    await t.db('users').insert(Array.from({ length: 30 }, (_, i) => ({ u_email: `${p}${String(i).padStart(2, '0')}@example.com` })));
    const page = (start: number) => root.get(`/api/1/users?${qs({ range: [start, start + 9], sort: ['u_email', 'ASC'], filter: { q: p } })}`);
    let res: Awaited<ReturnType<typeof page>> | undefined;
    expect(counts(await queriesOf(async () => (res = await page(0))))).toBe(1);
    expect(res!.headers['content-range']).toBe('users 0-9/30');
    expect(counts(await queriesOf(async () => (res = await page(10))))).toBe(0); // reused
    expect(res!.headers['content-range']).toBe('users 10-19/30');
    // a new user matching the filter: the cached total is dropped, the next full page counts again
    const created = await root.post('/api/1/users', {
      u_email: `${p}99@example.com`,
      u_first_name: 'N',
      u_last_name: 'N',
      u_role: 'member',
      u_is_verified: true,
      u_is_enabled: true,
      u_password: 'a-long-enough-password',
      u_password_confirm: 'a-long-enough-password',
    });
    expect(created.body).toMatchObject({ u_email: `${p}99@example.com` });
    expect(counts(await queriesOf(async () => (res = await page(10))))).toBe(1);
    expect(res!.headers['content-range']).toBe('users 10-19/31');
    // the last page is exact without any count once the total is known (and would be even if it were not)
    res = await page(30);
    expect(res.headers['content-range']).toBe('users 30-30/31');
    // another filter has its own total
    const other = await root.get(`/api/1/users?${qs({ range: [0, 9], sort: ['u_email', 'ASC'], filter: { q: `${p}0` } })}`);
    expect(other.headers['content-range']).toBe('users 0-9/10');
  });

  it('a write to a table the list does not depend on keeps its total; an estimated total survives writes for its time', async () => {
    const p = uid();
    await t.db('users').insert(Array.from({ length: 12 }, (_, i) => ({ u_email: `${p}${String(i).padStart(2, '0')}@example.com` })));
    const page = (start: number) => root.get(`/api/1/users?${qs({ range: [start, start + 4], sort: ['u_email', 'ASC'], filter: { q: p } })}`);
    expect(counts(await queriesOf(() => page(0)))).toBe(1);
    // Leads depend on users (their owners), users not on leads or events.
    const account = (await t.account(`Totals ${uid()}`)).a_id;
    const [event] = await t.db('events').insert({ ev_accountid: account, ev_title: 'Totals', ev_name: uid(), ev_access_type: 'open' }).returning('ev_id');
    expect(counts(await queriesOf(() => page(5)))).toBe(0);
    await t.db('users').where('u_email', `${p}00@example.com`).update({ u_first_name: 'Changed' });
    expect(counts(await queriesOf(() => page(5)))).toBe(1);

    // Past exactTotalUpTo (leads: 10,000) the total is the planner's estimate: a write to leads does not count it again.
    const lead = (i: number) => ({ ld_accountid: account, ld_eventid: event.ev_id, ld_email: `${i}@example.com` });
    for (let i = 0; i < 10_050; i += 2_000) await t.db('leads').insert(Array.from({ length: Math.min(2_000, 10_050 - i) }, (_, j) => lead(i + j)));
    await t.db.raw('analyze leads');
    const leadsPage = (start: number) =>
      root.get(`/api/1/accounts/${account}/leads?${qs({ range: [start, start + 24], sort: ['ld_captured_at', 'DESC'], filter: { ld_eventid: event.ev_id } })}`);
    let res: Awaited<ReturnType<typeof leadsPage>> | undefined;
    expect(counts(await queriesOf(async () => (res = await leadsPage(0))))).toBe(1);
    expect(res!.headers['x-total-estimated']).toBe('true');
    await t.db('leads').insert(lead(99_999));
    expect(counts(await queriesOf(async () => (res = await leadsPage(25))))).toBe(0);
    expect(res!.headers['x-total-estimated']).toBe('true');
    // An exact total of the same table is counted again after that write.
    const fewPage = () => root.get(`/api/1/accounts/${account}/leads?${qs({ range: [0, 0], filter: { q: '1@example.com' } })}`);
    expect(counts(await queriesOf(() => fewPage()))).toBe(1);
    expect(counts(await queriesOf(() => fewPage()))).toBe(0);
    await t.db('leads').insert(lead(99_998));
    expect(counts(await queriesOf(() => fewPage()))).toBe(1);
  });

  it('a search the planner puts far past exactTotalUpTo answers its estimate without counting; a narrower one is counted', async () => {
    const account = (await t.account(`Search totals ${uid()}`)).a_id;
    const [event] = await t.db('events').insert({ ev_accountid: account, ev_title: 'Search totals', ev_name: uid(), ev_access_type: 'open' }).returning('ev_id');
    // Three times SEARCH_ESTIMATE_TRUSTED_PAST times the leads' exactTotalUpTo (10,000 today), all named Widely: a
    // first name the statistics hold as a common value, so the planner knows "wide" matches them (its estimate also
    // weighs this account's share of the table). Their e-mails, unique, start with "wide" too.
    const total = 60_000;
    expect(total, 'the fixture must lie far past the estimate threshold').toBeGreaterThanOrEqual(3 * SEARCH_ESTIMATE_TRUSTED_PAST * leads.exactTotalUpTo!);
    for (let i = 0; i < total; i += 5_000)
      await t
        .db('leads')
        .insert(Array.from({ length: 5_000 }, (_, j) => ({ ld_accountid: account, ld_eventid: event.ev_id, ld_email: `wide${i + j}@example.com`, ld_first_name: 'Widely' })));
    // The events too: the list leaves out leads of events in the trash (an anti-join the planner estimates from them).
    await t.db.raw('analyze leads');
    await t.db.raw('analyze events');
    const search = (q: string) => root.get(`/api/1/accounts/${account}/leads?${qs({ range: [0, 24], sort: ['ld_captured_at', 'DESC'], filter: { q } })}`);
    let res: Awaited<ReturnType<typeof search>> | undefined;
    // Every lead matches: the planner's estimate is the answer, and nothing is counted.
    let sqls = await queriesOf(async () => (res = await search('wide')));
    expect(res!.status).toBe(200);
    expect(res!.body).toHaveLength(25);
    expect(counts(sqls), String(res!.headers['content-range'])).toBe(0);
    expect(sqls.some((sql) => /^explain/i.test(sql))).toBe(true);
    expect(res!.headers['x-total-estimated']).toBe('true');
    const estimated = Number(/\/(\d+)$/.exec(res!.headers['content-range'] as string)![1]);
    expect(estimated).toBeGreaterThan(SEARCH_ESTIMATE_TRUSTED_PAST * leads.exactTotalUpTo!);
    // wide44, wide440–449, wide4400–4499 and wide44000–44999: 1,111 leads, counted exactly.
    sqls = await queriesOf(async () => (res = await search('wide44')));
    expect(counts(sqls)).toBe(1);
    expect(res!.headers['x-total-estimated']).toBeUndefined();
    expect(res!.headers['content-range']).toBe('leads 0-24/1111');
  }, 120_000);

  it('an unpaged list answers at most LIST_MAX_ROWS rows and says how many there are', async () => {
    const total = Number((await t.db('users').count({ n: '*' }).first())!.n);
    expect(total).toBeGreaterThan(5);
    const res = await root.get('/api/1/users');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(5);
    expect(res.headers['content-range']).toBe(`users 0-4/${total}`);
    const accounts = await root.get('/api/1/accounts'); // under the cap: every row, exact
    expect(accounts.headers['content-range']).toMatch(/^accounts (\*|0-\d+)\/\d+$/);
  });
});
