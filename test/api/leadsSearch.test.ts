import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { qs, startApp, type Signed, type TestApp } from '../helpers/app.js';
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
