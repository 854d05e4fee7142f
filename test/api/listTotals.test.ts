import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { qs, queriesOf as queriesOfDb, startApp, uid, type Signed, type TestApp } from '../helpers/app.js';

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
