import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { qs, queriesOf, startApp, type Signed, type TestApp } from '../helpers/app.js';
import { insertEvent, insertLeads } from '../helpers/leadRows.js';

type Row = Record<string, unknown>;

/**
 * A search page (api/crud/list.ts runList): the first rows of the sort order tested against q when they fill the page,
 * else the rows q matches sorted. Either way the page is the one the whole list would give: checked against the rows
 * sorted here, for every sort direction, a search that fills pages (walk) and one that does not (matches sorted), and
 * a trashed event's leads left out by both.
 */
describeEachDb('leads search pages: the same rows whichever way the page is found', (kind) => {
  let t: TestApp;
  let root: Signed;
  let accountId: string;
  const stored: Row[] = [];

  beforeAll(async () => {
    t = await startApp(kind);
    root = await t.signedIn('root');
    accountId = (await t.account('Search pages')).a_id;
    const event = await insertEvent(t.db, accountId);
    const binned = await insertEvent(t.db, accountId);
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString();
    // 60 "Ann"s spread over time, 3 "Oldfield"s among the oldest, 2 "Newman"s among the newest, and "Ann"s of an
    // event in the trash.
    const rows: Row[] = [];
    for (let i = 0; i < 120; i++)
      rows.push({
        ld_first_name: i % 2 ? 'Ann' : 'Bob',
        ld_last_name: i < 3 ? 'Oldfield' : i >= 118 ? 'Newman' : `Smit${i % 7}`,
        ld_email: `p${i}@example.com`,
        // Equal capture times in pairs: the ties are ordered by the key.
        ld_captured_at: at(Math.floor(i / 2)),
      });
    await insertLeads(t.db, accountId, event.ev_id, rows);
    await insertLeads(
      t.db,
      accountId,
      binned.ev_id,
      [0, 1, 2].map((i) => ({ ld_first_name: 'Ann', ld_last_name: 'Oldfield', ld_email: `b${i}@example.com`, ld_captured_at: at(i) })),
    );
    await t.db('events').where('ev_id', binned.ev_id).update({ ev_deleted_at: t.db.fn.now() });
    stored.push(...(await t.db('leads').where('ld_eventid', event.ev_id).select('ld_id', 'ld_first_name', 'ld_last_name', 'ld_email', 'ld_captured_at')));
  });
  afterAll(() => t?.close());

  const matches = (q: string) => (r: Row) => [r.ld_first_name, r.ld_last_name, r.ld_email].some((v) => String(v).toLowerCase().startsWith(q));
  const expected = (q: string, order: 'ASC' | 'DESC', start: number, size: number) => {
    const sign = order === 'ASC' ? 1 : -1;
    const key = (r: Row) => new Date(r.ld_captured_at as string).getTime();
    return stored
      .filter(matches(q))
      .sort((a, b) => sign * (key(a) - key(b)) || sign * String(a.ld_id).localeCompare(String(b.ld_id)))
      .slice(start, start + size)
      .map((r) => r.ld_id);
  };

  for (const [q, label] of [
    ['ann', 'many matches (the walk fills the page)'],
    ['oldf', 'only the oldest (the matches sorted)'],
    ['newm', 'only the newest'],
    ['p11', 'a prefix of e-mails'],
  ] as const)
    it(`q "${q}": ${label}, both directions, first and later pages, with the total`, async () => {
      const all = stored.filter(matches(q)).length;
      expect(all).toBeGreaterThan(0);
      for (const order of ['DESC', 'ASC'] as const)
        for (const start of [0, 10, 20]) {
          const res = await root.get(`/api/1/accounts/${accountId}/leads?${qs({ filter: { q }, sort: ['ld_captured_at', order], range: [start, start + 9] })}`);
          expect(res.status).toBe(200);
          const want = expected(q, order, start, 10);
          expect(res.body.map((r: Row) => r.ld_id)).toEqual(want);
          expect(res.headers['content-range']).toBe(want.length ? `leads ${start}-${start + want.length - 1}/${all}` : `leads */${all}`);
        }
    });
});

/**
 * A filtered page no index serves in its order (api/crud/list.ts walkFor): an event and a source sorted by e-mail, a
 * day sorted by last name. The first WALK_ROWS rows of the sort order are walked under the index's own
 * conditions and the page taken from them when they fill it, else the matches are sorted; a combination no lead has
 * costs no walk of the table. Pages are checked against the rows sorted here, both directions, first and later pages.
 */
describeEachDb('leads pages of filters no index serves in their order: the same rows whichever way the page is found', (kind) => {
  let t: TestApp;
  let root: Signed;
  let accountId: string;
  let events: string[];
  const stored: Row[] = [];
  const sources = ['scan', 'card', 'manual'];

  beforeAll(async () => {
    t = await startApp(kind);
    root = await t.signedIn('root');
    accountId = (await t.account('Walked pages')).a_id;
    events = [(await insertEvent(t.db, accountId)).ev_id, (await insertEvent(t.db, accountId)).ev_id];
    // Event 0 has scans and cards, event 1 only manual leads: event 0 with "manual" matches nothing.
    for (const [e, count] of [
      [0, 90],
      [1, 40],
    ] as const)
      await insertLeads(
        t.db,
        accountId,
        events[e],
        Array.from({ length: count }, (_, i) => ({
          ld_email: `e${e}-${String((i * 37) % count).padStart(3, '0')}@example.com`,
          ld_last_name: `Name${String(i % 9)}`,
          ld_source: e === 1 ? 'manual' : sources[i % 2],
          ld_captured_at: new Date(Date.UTC(2026, 2, 1 + (i % 5), i % 24)).toISOString(),
        })),
      );
    stored.push(...(await t.db('leads').where('ld_accountid', accountId).select('ld_id', 'ld_eventid', 'ld_email', 'ld_last_name', 'ld_source', 'ld_captured_at')));
  });
  afterAll(() => t?.close());

  const time = (r: Row) => new Date(r.ld_captured_at as string).getTime();
  /** The list's order: the sort, then capture time in the same direction, then the key in that direction. */
  const sorted = (rows: Row[], field: string, order: 'ASC' | 'DESC') => {
    const sign = order === 'ASC' ? 1 : -1;
    const cmp = (a: unknown, b: unknown) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);
    return [...rows].sort((a, b) => sign * cmp(a[field], b[field]) || sign * (time(a) - time(b)) || sign * cmp(a.ld_id, b.ld_id));
  };
  const page = async (filter: Row, field: string, order: 'ASC' | 'DESC', start: number) => {
    const res = await root.get(`/api/1/accounts/${accountId}/leads?${qs({ filter, sort: [field, order], range: [start, start + 9] })}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res;
  };

  const cases: [string, Row, (r: Row) => boolean, string][] = [
    ['an event and a source, sorted by e-mail', { ld_source: 'scan' }, (r) => r.ld_source === 'scan', 'ld_email'],
    ['an event and a source no lead of it has', { ld_source: 'manual' }, (r) => r.ld_source === 'manual', 'ld_email'],
    [
      'a day sorted by last name',
      { captured_from: '2026-03-02', captured_to: '2026-03-02' },
      (r) => String(r.ld_captured_at).startsWith('2026-03-02') || new Date(r.ld_captured_at as string).toISOString().startsWith('2026-03-02'),
      'ld_last_name',
    ],
  ];
  for (const [label, extra, match, field] of cases)
    it(`${label}: both directions, first and later pages, with the total`, async () => {
      const filter = { ld_eventid: events[0], ...extra };
      const rows = stored.filter((r) => r.ld_eventid === events[0] && match(r));
      for (const order of ['ASC', 'DESC'] as const)
        for (const start of [0, 10, 30]) {
          const res = await page(filter, field, order, start);
          const want = sorted(rows, field, order)
            .slice(start, start + 10)
            .map((r) => r.ld_id);
          expect(
            res.body.map((r: Row) => r.ld_id),
            `${order} from ${start}`,
          ).toEqual(want);
          expect(res.headers['content-range']).toBe(want.length ? `leads ${start}-${start + want.length - 1}/${rows.length}` : `leads */${rows.length}`);
        }
    });

  it('the walk is bounded and used only where no index serves the order', async () => {
    const walks = (sqls: string[]) => sqls.filter((s) => /limit (\?|\$\d+|4000)\) as "leads"/i.test(s)).length;
    const sorts = (sqls: string[]) => sqls.filter((s) => /order by coalesce\("ld_email", "ld_email"\)/i.test(s)).length;
    // An event and a source sorted by e-mail, the page not filled by the walk: the matches sorted.
    const walked = await queriesOf(t.db, () => page({ ld_eventid: events[0], ld_source: 'card' }, 'ld_email', 'ASC', 40));
    expect(walks(walked)).toBe(1);
    expect(sorts(walked)).toBe(1);
    // A source no lead of the event has: walked, then the total (none) says there is nothing to sort.
    const none = await queriesOf(t.db, () => page({ ld_eventid: events[0], ld_source: 'manual' }, 'ld_email', 'ASC', 0));
    expect(walks(none)).toBe(1);
    expect(sorts(none)).toBe(0);
    // An event sorted by capture time: the index (event, captured) serves it, no walk.
    expect(walks(await queriesOf(t.db, () => page({ ld_eventid: events[0] }, 'ld_captured_at', 'DESC', 0)))).toBe(0);
  });
});
