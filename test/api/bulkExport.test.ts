import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApp, type Signed, type TestApp } from '../helpers/app.js';
import { describeEachDb } from '../helpers/db.js';
import { EXPORT_BATCH } from '../../api/crud/export.js';

/** platform-and-flows.md section 1: export of the whole filter and bulk actions, on every list (events here). */
describeEachDb('export and bulk on every list', (kind) => {
  let t: TestApp;
  let accountId: string;
  const as: Record<'root' | 'superadmin' | 'member', Signed> = {} as never;
  const path = (rest = '') => `/api/1/accounts/${accountId}/events${rest}`;
  const q = (o: Record<string, unknown>) =>
    Object.entries(o)
      .map(([k, v]) => `${k}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`)
      .join('&');
  const rowsOf = (csv: string) =>
    csv
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');

  beforeAll(async () => {
    t = await startApp(kind);
    ({ a_id: accountId } = await t.account('Bulky'));
    as.root = await t.signedIn('root');
    for (const role of ['superadmin', 'member'] as const) {
      as[role] = await t.signedIn('member', `${role}@bulk.example.com`);
      await t.member(accountId, as[role].userId, role);
    }
    // More rows than one export batch, some sharing a sort value and some without one (nulls sort last ascending).
    const n = EXPORT_BATCH + 150;
    await t.db.raw(
      `insert into events (ev_accountid, ev_title, ev_name, ev_access_type, ev_start_date, ev_is_enabled)
       select ?, 'Event ' || lpad(g::text, 5, '0'), 'event-' || g, 'open', case when g % 7 = 0 then null else date '2027-01-01' + (g % 40) end, g % 2 = 0
         from generate_series(1, ?) g`,
      [accountId, n],
    );
    await t.db('events').insert({ ev_accountid: accountId, ev_title: '=HYPERLINK("http://evil")', ev_name: 'formula', ev_access_type: 'restricted', ev_access_code: 'c' });
  });
  afterAll(() => t?.close());

  it("exports the whole filter in the sort, every row once, with labels in the caller's language and formulas neutralised", async () => {
    const res = await as.member.get(`${path('/export.csv')}?${q({ sort: ['ev_start_date', 'ASC'], lang: 'nl' })}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const lines = rowsOf(res.text);
    expect(lines[0]).toBe('Titel,Naam,Ingeschakeld,Begindatum,Einddatum,Toegang');
    const body = lines.slice(1);
    expect(body).toHaveLength(EXPORT_BATCH + 151);
    expect(new Set(body.map((l) => l.split(',')[1])).size).toBe(body.length);
    const starts = body.map((l) => l.split(',')[3]);
    const filled = starts.filter(Boolean);
    expect(filled).toEqual([...filled].sort());
    expect(starts.indexOf('')).toBe(filled.length); // the empty ones last
    expect(body.some((l) => l.split(',')[2] === 'ja')).toBe(true);
    expect(body).toContain(`"'=HYPERLINK(""http://evil"")",formula,ja,,,Besloten`);
  });

  it('exports descending with empty values first, and only what the filter selects', async () => {
    const desc = rowsOf((await as.member.get(`${path('/export.csv')}?${q({ sort: ['ev_start_date', 'DESC'], lang: 'en' })}`)).text).slice(1);
    expect(desc).toHaveLength(EXPORT_BATCH + 151);
    const starts = desc.map((l) => l.split(',')[3]);
    const firstFilled = starts.findIndex(Boolean);
    expect(starts.slice(0, firstFilled).every((s) => s === '')).toBe(true);
    expect(starts.slice(firstFilled)).toEqual([...starts.slice(firstFilled)].sort().reverse());
    const only = rowsOf((await as.member.get(`${path('/export.csv')}?${q({ filter: { q: 'Event 0001' }, lang: 'en' })}`)).text);
    expect(only[0]).toBe('Title,Name,Enabled,Start date,End date,Access');
    // q is a prefix: Event 00010 to Event 00019.
    expect(
      only
        .slice(1)
        .map((l) => l.split(',')[0])
        .sort(),
    ).toEqual(Array.from({ length: 10 }, (_, i) => `Event 0001${i}`));
    expect((await as.member.get(`${path('/export.csv')}?${q({ filter: { nope: 1 } })}`)).status).toBe(400);
    expect((await as.member.get(`${path('/export.csv')}?${q({ sort: ['ev_access_code', 'ASC'] })}`)).status).toBe(400);
  });

  it('bulk update of bulk fields on ids or on the whole filter; one transaction; each row checked like a single update', async () => {
    const ids = (await t.db('events').where({ ev_accountid: accountId, ev_is_enabled: true }).orderBy('ev_name').limit(3).pluck('ev_id')) as string[];
    const res = await as.superadmin.post(path('/bulk'), { action: 'update', ids, changes: { ev_is_enabled: false } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ count: 3 });
    expect(await t.db('events').whereIn('ev_id', ids).pluck('ev_is_enabled')).toEqual([false, false, false]);
    // Each change has its history entry, by the caller.
    expect(await t.db('history_by_record').whereIn('h_recordid', ids).where('h_action', 'update').pluck('h_userid')).toEqual([
      as.superadmin.userId,
      as.superadmin.userId,
      as.superadmin.userId,
    ]);

    const all = await as.superadmin.post(path('/bulk'), { action: 'update', filter: { q: 'Event 0002' }, changes: { ev_is_enabled: true } });
    expect(all.body).toEqual({ count: 10 });
  });

  it("refuses a bad target, a field that is not a bulk field, a refused row (nothing changes) and another account's id", async () => {
    const one = (await t.db('events').where({ ev_accountid: accountId, ev_name: 'event-1' }).first()).ev_id as string;
    expect((await as.superadmin.post(path('/bulk'), { action: 'update', changes: { ev_is_enabled: true } })).body.code).toBe('bulk_target_invalid');
    expect((await as.superadmin.post(path('/bulk'), { action: 'update', ids: [one], filter: {}, changes: { ev_is_enabled: true } })).body.code).toBe('bulk_target_invalid');
    const notBulk = await as.superadmin.post(path('/bulk'), { action: 'update', ids: [one], changes: { ev_title: 'Renamed' } });
    expect(notBulk.status).toBe(400);
    expect(notBulk.body).toMatchObject({ code: 'bulk_field_not_allowed', fields: { ev_title: 'error_bulk_field_not_allowed' } });
    expect((await as.superadmin.post(path('/bulk'), { action: 'archive', ids: [one] })).status).toBe(400);

    // A restricted event needs its access code; one without it is refused, and so is the whole call.
    const [bad] = await t
      .db('events')
      .insert({ ev_accountid: accountId, ev_title: 'No code', ev_name: 'no-code', ev_access_type: 'restricted', ev_access_code: 'x' })
      .returning('ev_id');
    await t.db('events').where('ev_id', bad.ev_id).update({ ev_access_code: null });
    const before = await t.db('events').where('ev_accountid', accountId).count({ n: '*' }).where('ev_is_enabled', false).first();
    const refused = await as.superadmin.post(path('/bulk'), { action: 'update', ids: [one, bad.ev_id], changes: { ev_is_enabled: false } });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('bulk_refused');
    expect(refused.body.reasons).toEqual([expect.objectContaining({ id: bad.ev_id, fields: { ev_access_code: 'error_access_code_required' } })]);
    expect(await t.db('events').where('ev_accountid', accountId).count({ n: '*' }).where('ev_is_enabled', false).first()).toEqual(before);

    const other = await t.account('Not bulky');
    const [foreign] = await t.db('events').insert({ ev_accountid: other.a_id, ev_title: 'Foreign', ev_name: 'foreign', ev_access_type: 'open' }).returning('ev_id');
    expect((await as.superadmin.post(path('/bulk'), { action: 'delete', ids: [one, foreign.ev_id] })).status).toBe(404);
    expect(await t.db('events').where('ev_id', one).first()).toBeTruthy();
  });

  it('bulk delete needs the delete bit, update the update bit; filter {} is every row', async () => {
    expect((await as.member.post(path('/bulk'), { action: 'update', filter: {}, changes: { ev_is_enabled: true } })).status).toBe(403);
    expect((await as.member.post(path('/bulk'), { action: 'delete', filter: {} })).status).toBe(403);
    const total = Number((await t.db('events').where('ev_accountid', accountId).count({ n: '*' }).first())!.n);
    const res = await as.superadmin.post(path('/bulk'), { action: 'delete', filter: { q: 'Event 0003' } });
    expect(res.body).toEqual({ count: 10 });
    const gone = await as.superadmin.post(path('/bulk'), { action: 'delete', filter: {} });
    expect(gone.body).toEqual({ count: total - 10 });
    expect(
      (await as.member.get(path('/export.csv'))).text
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n'),
    ).toHaveLength(1);
  });
});
