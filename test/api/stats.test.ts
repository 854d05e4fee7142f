import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { describeEachDb } from '../helpers/db.js';
import { queriesOf, startApp, uid, withGrant, type Signed, type TestApp } from '../helpers/app.js';
import { insertEvent, insertLeads } from '../helpers/leadRows.js';
import { statisticsAtOnce } from '../../api/console/stats.js';
import { poolOf } from '../../api/db/knex.js';
import { defaultStatsRange, mondayOf, parseStatsQuery, STATS_MAX_DAYS, utcDay } from '../../resources/statistics.js';

type Row = Record<string, unknown>;

describe('stats parameters (resources/statistics.ts)', () => {
  const today = '2026-11-22';
  const parse = (q: Row) => parseStatsQuery(q, ['day', 'week', 'event'], today);
  it('defaults: the last 30 days up to today, grouped by day, as JSON', () => {
    expect(parse({})).toEqual({ ok: true, query: { from: '2026-10-24', to: today, group: 'day', format: 'json' } });
    expect(defaultStatsRange(today)).toEqual({ from: '2026-10-24', to: today });
  });
  it('one end given: the other follows', () => {
    expect(parse({ to: '2026-03-31' })).toMatchObject({ query: { from: '2026-03-02', to: '2026-03-31' } });
    expect(parse({ from: '2026-11-01' })).toMatchObject({ query: { from: '2026-11-01', to: today } });
    expect(parse({ from: '2027-01-10' })).toMatchObject({ query: { from: '2027-01-10', to: '2027-02-08' } });
  });
  it('bad values name their field', () => {
    expect(parse({ from: '2026-02-30' })).toEqual({ ok: false, fields: { from: 'error_date_invalid' } });
    expect(parse({ to: 'yesterday', group: 'x' })).toEqual({ ok: false, fields: { to: 'error_date_invalid', group: 'error_stats_group_invalid' } });
    expect(parse({ from: ['2026-01-01', '2026-01-02'] })).toEqual({ ok: false, fields: { from: 'error_invalid_value' } });
    expect(parse({ from: '2026-05-02', to: '2026-05-01' })).toEqual({ ok: false, fields: { to: 'error_stats_range_invalid' } });
    expect(parse({ format: 'xml' })).toEqual({ ok: false, fields: { format: 'error_stats_format_invalid' } });
    expect(parse({ from: '2000-01-01', to: '2026-01-01' })).toEqual({ ok: false, fields: { to: 'error_stats_range_too_long' } });
    expect(parse({ from: '2026-01-01', to: utcDay(new Date(Date.parse('2026-01-01') + (STATS_MAX_DAYS - 1) * 86400_000)) }).ok).toBe(true);
  });
  it('weeks start on Monday', () => {
    expect(mondayOf('2026-11-22')).toBe('2026-11-16'); // a Sunday
    expect(mondayOf('2026-11-16')).toBe('2026-11-16');
    expect(mondayOf('2026-11-17')).toBe('2026-11-16');
  });
});

describeEachDb('statistics: leads and plays by group, zero-filled days, CSV equal to the JSON rows, rights', (kind) => {
  let t: TestApp;
  let root: Signed;
  let superadmin: Signed;
  let admin: Signed;
  let member: Signed;
  let a: string;
  let b: string;
  let expo: { ev_id: string; ev_title: string };
  let fair: { ev_id: string; ev_title: string };
  let ownerId: string;

  beforeAll(async () => {
    t = await startApp(kind);
    root = await t.signedIn('root');
    a = (await t.account(`Stats A ${uid()}`)).a_id;
    b = (await t.account(`Stats B ${uid()}`)).a_id;
    superadmin = await t.signedIn('member');
    await t.member(a, superadmin.userId, 'superadmin');
    admin = await t.signedIn('member');
    await t.member(a, admin.userId, 'admin');
    member = await t.signedIn('member');
    await t.member(a, member.userId, 'member');
    ownerId = superadmin.userId;
    await t.db('users').where('u_id', ownerId).update({ u_first_name: 'Olga', u_last_name: 'Owner' });
    expo = await insertEvent(t.db, a, { ev_title: '=Expo, "big"' });
    fair = await insertEvent(t.db, a, { ev_title: 'Fair' });
    const at = (iso: string) => new Date(iso);
    await insertLeads(t.db, a, expo.ev_id, [
      // 2026-03-02 (a Monday) twice, one of them at 23:59:59 UTC: still that day.
      { ld_captured_at: at('2026-03-02T08:00:00Z'), ld_source: 'scan', ld_ownerid: ownerId },
      { ld_captured_at: at('2026-03-02T23:59:59.999Z'), ld_source: 'card', ld_transcription_status: 'pending', ld_ownerid: ownerId },
      // The next day just after midnight UTC.
      { ld_captured_at: at('2026-03-03T00:00:00Z'), ld_source: 'scan', ld_is_valid: false },
      { ld_captured_at: at('2026-03-08T12:00:00Z'), ld_source: 'registration', ld_ownerid: member.userId },
      // Outside the range below.
      { ld_captured_at: at('2026-03-01T23:59:59Z'), ld_source: 'scan' },
      { ld_captured_at: at('2026-03-11T00:00:00Z'), ld_source: 'scan' },
    ]);
    await insertLeads(t.db, a, fair.ev_id, [
      { ld_captured_at: at('2026-03-09T09:00:00Z'), ld_source: 'manual', ld_transcription_status: 'done', ld_ownerid: ownerId },
      { ld_captured_at: at('2026-03-10T09:00:00Z'), ld_source: 'manual', ld_ownerid: ownerId },
    ]);
    // Account B's leads never count for A.
    const other = await insertEvent(t.db, b);
    await insertLeads(t.db, b, other.ev_id, [{ ld_captured_at: at('2026-03-05T10:00:00Z') }]);
  });
  afterAll(() => t?.close());

  const url = (params: Row, account = a, what = 'leads') => `/api/1/accounts/${account}/stats/${what}?${new URLSearchParams(params as Record<string, string>)}`;
  const range = { from: '2026-03-02', to: '2026-03-10' };
  const rowsOf = async (group: string, params: Row = range) => {
    const res = await root.get(url({ ...params, group }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const pairs = (rows: Row[]) => rows.map((r) => [r.key, r.label, r.count]);
  /** Statistics of this test's database waiting for the locked counts table (PostgreSQL). */
  const waitingOnCounts = async () =>
    (await t.db.raw("select count(*)::int n from pg_stat_activity where wait_event_type = 'Lock' and query like '%lead_counts%' and datname = current_database()")).rows[0]
      .n as number;

  it('the same question asked by several at once is computed once, each answered in full; another question apart', async () => {
    // PostgreSQL: the counts locked for a moment, so that all four questions arrive while the first is computed
    // (PGlite runs one query at a time, so there the answers alone are checked)
    const lock = kind === 'postgres' ? await t.db.transaction() : undefined;
    await lock?.raw('lock table lead_counts in access exclusive mode');
    let answers: Row[] = [];
    const sql = await queriesOf(t.db, async () => {
      const asked = Promise.all([rowsOf('day'), rowsOf('day'), rowsOf('day'), rowsOf('event')]);
      if (lock) {
        for (let i = 0; i < 100 && (await waitingOnCounts()) < 2; i++) await new Promise((r) => setTimeout(r, 20));
        await new Promise((r) => setTimeout(r, 200));
        await lock.commit();
      }
      answers = await asked;
    });
    const [one, two, three, byEvent] = answers;
    expect(two).toEqual(one);
    expect(three).toEqual(one);
    expect(one.totals).toEqual({ count: 6 });
    expect(byEvent.group).toBe('event');
    // one computation of the days and one of the events (each reads lead_counts), not four
    if (lock) expect(sql.filter((q) => /from "lead_counts"/.test(q))).toHaveLength(2);
    // nothing is kept once answered: asked again, it is computed again
    const again = await queriesOf(t.db, () => rowsOf('day'));
    expect(again.filter((q) => /from "lead_counts"/.test(q))).toHaveLength(1);
  });

  it('distinct questions at once: at most a third of the pool computes statistics, the rest wait their turn and are answered', async () => {
    const atOnce = statisticsAtOnce(poolOf(t.db)!.max);
    expect(atOnce).toBe(kind === 'postgres' ? 3 : 1); // the default pool of 10; PGlite's one connection
    // Six different ranges (nothing to share) while the counts are locked (PostgreSQL: PGlite runs one query at a time)
    const lock = kind === 'postgres' ? await t.db.transaction() : undefined;
    await lock?.raw('lock table lead_counts in access exclusive mode');
    const ranges = [2, 3, 4, 5, 6, 7].map((d) => ({ from: `2026-03-0${d}`, to: '2026-03-10' }));
    const asked = Promise.all(ranges.map((r) => rowsOf('day', r)));
    if (lock) {
      for (let i = 0; i < 100 && (await waitingOnCounts()) < atOnce; i++) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 300)); // time for a fourth to reach the database, were it let through
      expect(await waitingOnCounts()).toBe(atOnce);
      await lock.commit();
    }
    const answers = await asked;
    expect(answers.map((a) => a.from)).toEqual(ranges.map((r) => r.from));
    expect(answers[0].totals).toEqual({ count: 6 });
    expect(answers[5].totals).toEqual({ count: 3 });
  });

  it('by day: every day of the range, zeros included, in UTC; totals', async () => {
    const body = await rowsOf('day');
    expect(body).toMatchObject({ kind: 'leads', from: '2026-03-02', to: '2026-03-10', group: 'day', measures: ['count'], totals: { count: 6 } });
    expect(pairs(body.rows)).toEqual([
      ['2026-03-02', '2026-03-02', 2],
      ['2026-03-03', '2026-03-03', 1],
      ['2026-03-04', '2026-03-04', 0],
      ['2026-03-05', '2026-03-05', 0],
      ['2026-03-06', '2026-03-06', 0],
      ['2026-03-07', '2026-03-07', 0],
      ['2026-03-08', '2026-03-08', 1],
      ['2026-03-09', '2026-03-09', 1],
      ['2026-03-10', '2026-03-10', 1],
    ]);
    // One day, and a day with nothing.
    expect(pairs((await rowsOf('day', { from: '2026-03-03', to: '2026-03-03' })).rows)).toEqual([['2026-03-03', '2026-03-03', 1]]);
    expect(pairs((await rowsOf('day', { from: '2025-01-01', to: '2025-01-02' })).rows)).toEqual([
      ['2025-01-01', '2025-01-01', 0],
      ['2025-01-02', '2025-01-02', 0],
    ]);
  });

  it('by week: weeks start on Monday, every week of the range', async () => {
    const body = await rowsOf('week', { from: '2026-03-01', to: '2026-03-16' });
    // 2026-03-01 is a Sunday: its week starts 2026-02-23.
    expect(pairs(body.rows)).toEqual([
      ['2026-02-23', '2026-02-23', 1],
      ['2026-03-02', '2026-03-02', 4],
      ['2026-03-09', '2026-03-09', 3],
      ['2026-03-16', '2026-03-16', 0],
    ]);
  });

  it('by event, owner, source, status and validity', async () => {
    expect(pairs((await rowsOf('event')).rows)).toEqual([
      [expo.ev_id, '=Expo, "big"', 4],
      [fair.ev_id, 'Fair', 2],
    ]);
    const owners = (await rowsOf('owner')).rows;
    // The most first; a member without names by e-mail; leads without an owner last among equals (no label).
    expect(pairs(owners)).toEqual([
      [ownerId, 'Olga Owner', 4],
      [member.userId, expect.stringMatching(/^member.*@example\.com$/), 1],
      [null, null, 1],
    ]);
    expect(pairs((await rowsOf('source')).rows)).toEqual([
      ['registration', 'registration', 1],
      ['scan', 'scan', 2],
      ['card', 'card', 1],
      ['manual', 'manual', 2],
      ['download', 'download', 0],
      ['meeting', 'meeting', 0],
    ]);
    expect(pairs((await rowsOf('status')).rows)).toEqual([
      ['none', 'none', 4],
      ['pending', 'pending', 1],
      ['postponed', 'postponed', 0],
      ['done', 'done', 1],
    ]);
    expect(pairs((await rowsOf('valid')).rows)).toEqual([
      ['valid', 'valid', 5],
      ['invalid', 'invalid', 1],
    ]);
  });

  it('CSV: the same rows as the JSON, a header, UTF-8 with a BOM, formula cells neutralised, as a download', async () => {
    for (const group of ['day', 'week', 'event', 'owner', 'source', 'status', 'valid']) {
      const json = await rowsOf(group);
      const res = await root.get(url({ ...range, group, format: 'csv' }));
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="leads-by-${group}-2026-03-02-2026-03-10.csv"`);
      const text: string = res.text;
      expect(text.startsWith('\uFEFFkey,label,count\r\n')).toBe(true);
      const parsed = Papa.parse<string[]>(text.slice(1).trimEnd(), { newline: '\r\n' });
      expect(parsed.errors).toEqual([]);
      const [header, ...lines] = parsed.data;
      expect(header).toEqual(['key', 'label', 'count']);
      // The formula guard: a cell starting with = gets a leading '.
      const unguard = (v: string) => (/^'[=+\-@\t\r]/.test(v) ? v.slice(1) : v);
      expect(lines.map((l) => [unguard(l[0]), unguard(l[1]), Number(l[2])])).toEqual(json.rows.map((r: Row) => [r.key ?? '', r.label ?? '', r.count]));
      if (group === 'event') expect(text).toContain(`${expo.ev_id},"'=Expo, ""big"""`);
    }
  });

  it('plays with none reported: every day (or week) of the range at zero, no carousel, slide or code rows; as JSON and CSV', async () => {
    for (const group of ['day', 'week', 'carousel', 'slide', 'code']) {
      const res = await root.get(url({ ...range, group }, a, 'plays'));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ kind: 'plays', ...range, group, measures: ['plays', 'hotspot_taps', 'qr_shows'], totals: { plays: 0, hotspot_taps: 0, qr_shows: 0 } });
      if (group === 'day' || group === 'week') {
        expect(res.body.rows.map((r: Row) => r.key)).toEqual(
          group === 'day'
            ? ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10']
            : ['2026-03-02', '2026-03-09'],
        );
        for (const row of res.body.rows) expect(row).toMatchObject({ plays: 0, hotspot_taps: 0, qr_shows: 0 });
      } else expect(res.body.rows).toEqual([]);
    }
    const csv = await root.get(url({ ...range, group: 'carousel', format: 'csv' }, a, 'plays'));
    expect(csv.text).toBe('\uFEFFkey,label,plays,hotspot_taps,qr_shows\r\n');
    expect((await root.get(url({ group: 'event' }, a, 'plays'))).body.fields).toEqual({ group: 'error_stats_group_invalid' });
  });

  it('default range: the last 30 days up to today', async () => {
    const res = await root.get(`/api/1/accounts/${a}/stats/leads`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...defaultStatsRange(), group: 'day' });
    expect(res.body.rows).toHaveLength(30);
    expect(res.body.rows[29].key).toBe(utcDay(new Date()));
  });

  it('bad parameters: 400 stats_query_invalid with the field', async () => {
    const cases: [Row, Row][] = [
      [{ group: 'month' }, { group: 'error_stats_group_invalid' }],
      [{ from: '2026-13-01' }, { from: 'error_date_invalid' }],
      [{ from: '2026-03-10', to: '2026-03-01' }, { to: 'error_stats_range_invalid' }],
      [{ from: '1990-01-01', to: '2026-01-01' }, { to: 'error_stats_range_too_long' }],
      [{ format: 'pdf' }, { format: 'error_stats_format_invalid' }],
    ];
    for (const [params, fields] of cases) {
      const res = await root.get(url(params));
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.body).toMatchObject({ code: 'stats_query_invalid', fields });
    }
    const twice = await root.get(`/api/1/accounts/${a}/stats/leads?from=2026-01-01&from=2026-01-02`);
    expect(twice.status).toBe(400);
    expect(twice.body.fields).toEqual({ from: 'error_invalid_value' });
  });

  it('rights: root, superadmin and admin read; a member 403; outsiders and unknown accounts 404; signed out 401', async () => {
    for (const reader of [root, superadmin, admin]) {
      expect((await reader.get(url(range))).status).toBe(200);
      expect((await reader.get(url({ ...range, format: 'csv' }))).status).toBe(200);
      expect((await reader.get(url(range, a, 'plays'))).status).toBe(200);
    }
    for (const what of ['leads', 'plays']) {
      const res = await member.get(url(range, a, what));
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
      expect((await member.get(url({ ...range, format: 'csv' }, a, what))).status).toBe(403);
    }
    const outsider = await t.signedIn('member');
    await t.member(b, outsider.userId, 'superadmin');
    expect((await outsider.get(url(range))).status).toBe(404);
    expect((await root.get(url(range, '6f1c1f9e-3b0c-4c4e-9a55-0d7d8c1b2a3f'))).status).toBe(404);
    expect((await t.client().get(url(range))).status).toBe(401);
    // The grant is data: ops may give members the read bit.
    await withGrant(t, 'member', 'account_statistics', 1, async () => {
      expect((await member.get(url(range))).status).toBe(200);
    });
    // Account B's superadmin sees B's lead only.
    const inB = await outsider.get(url({ ...range, group: 'source' }, b));
    expect(inB.body.totals.count).toBe(1);
  });

  it('a week from a Sunday start (mondayOf agrees with the database)', async () => {
    const body = await rowsOf('week', { from: '2026-03-08', to: '2026-03-08' });
    expect(body.rows.map((r: Row) => r.key)).toEqual([mondayOf('2026-03-08')]);
    expect(body.rows[0].count).toBe(1);
  });
});
