import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { startApp, uid, type Signed, type TestApp } from '../helpers/app.js';
import { insertEvent, insertLeads } from '../helpers/leadRows.js';
import { answersFor, makeLeadEvent, type LeadEvent } from '../helpers/leads.js';

type Row = Record<string, unknown>;

/**
 * lead_counts (migration 20261128001800), which the statistics read, against the leads themselves: after every kind
 * of write (inserts of many rows, the API's create, bulk and single updates, trash, restore, purge, an event's trash
 * and purge, an owner deleted, leads moved to another day or event) the counts equal a recount of the live leads, and
 * every statistic equals the same grouping counted over the leads the list shows.
 */
describeEachDb('lead_counts: kept by the leads triggers, equal to a recount after every kind of write', (kind) => {
  let t: TestApp;
  let root: Signed;
  let a: string;
  let b: string;
  let fx: LeadEvent;
  let e1: { ev_id: string };
  let e2: { ev_id: string };
  const owners: string[] = [];
  const sources = ['registration', 'scan', 'card', 'manual'];
  const statuses = ['none', 'pending', 'done'];
  const day = (n: number) => new Date(Date.UTC(2026, 2, 1, 0, 0, 0) + n * 3_600_000 * 23).toISOString(); // every 23 h from 2026-03-01 (to 2026-05-26)

  beforeAll(async () => {
    t = await startApp(kind);
    root = await t.signedIn('root');
    a = (await t.account(`Counts A ${uid()}`)).a_id;
    b = (await t.account(`Counts B ${uid()}`)).a_id;
    for (let i = 0; i < 3; i++) {
      const s = await t.signedIn('member');
      await t.member(a, s.userId, 'admin');
      owners.push(s.userId);
    }
    fx = await makeLeadEvent(root, a);
    e1 = await insertEvent(t.db, a);
    e2 = await insertEvent(t.db, a);
    const rows = (n: number, salt: number) =>
      Array.from({ length: n }, (_, i) => ({
        ld_captured_at: day((i * 7 + salt) % 90),
        ld_ownerid: i % 4 === 3 ? null : owners[(i + salt) % 3],
        ld_source: sources[(i + salt) % 4],
        ld_transcription_status: statuses[i % 3],
        ld_is_valid: i % 5 !== 0,
        ld_email: `${uid()}@example.com`,
      }));
    await insertLeads(t.db, a, e1.ev_id, rows(120, 1));
    await insertLeads(t.db, a, e2.ev_id, rows(80, 2));
    const other = await insertEvent(t.db, b);
    await insertLeads(t.db, b, other.ev_id, rows(30, 3));
  });
  afterAll(() => t?.close());

  /** lead_counts of account `a` summed over their shards, without the zeros, as "dim|day|event|value" → n. */
  const kept = async () => {
    const rows: Row[] = await t
      .db('lead_counts')
      .where('lc_accountid', a)
      .groupBy('lc_dim', 'lc_day', 'lc_eventid', 'lc_value')
      .havingRaw('sum(lc_n) <> 0')
      .select('lc_dim', t.db.raw(`to_char(lc_day, 'YYYY-MM-DD') as day`), 'lc_eventid', 'lc_value', t.db.raw('sum(lc_n)::integer as n'));
    return Object.fromEntries(rows.map((r) => [`${r.lc_dim}|${r.day}|${r.lc_eventid}|${r.lc_value}`, Number(r.n)]));
  };
  /** The same counted from the live leads of `a`, by day and by month (`<dim>.month` on the month's first day). */
  const recount = async () => {
    const res = await t.db.raw(
      `select k.dim, to_char(case when k.monthly then date_trunc('month', x.day)::date else x.day end, 'YYYY-MM-DD') as day, l.ld_eventid as event,
              (array[coalesce(l.ld_ownerid::text, ''), l.ld_source, l.ld_transcription_status, l.ld_is_valid::text])[k.i] as value, count(*)::integer as n
         from leads l cross join lateral (select (l.ld_captured_at at time zone 'UTC')::date as day) x
              cross join (values (1, 'owner', false), (2, 'source', false), (3, 'status', false), (4, 'valid', false),
                                 (1, 'owner.month', true), (2, 'source.month', true), (3, 'status.month', true), (4, 'valid.month', true)) k(i, dim, monthly)
        where l.ld_accountid = ? and l.ld_deleted_at is null
        group by 1, 2, 3, 4`,
      [a],
    );
    const rows = (Array.isArray(res) ? res : res.rows) as Row[];
    return Object.fromEntries(rows.map((r) => [`${r.dim}|${r.day}|${r.event}|${r.value}`, Number(r.n)]));
  };
  const agree = async (what: string) => {
    const [k, r] = [await kept(), await recount()];
    expect(Object.keys(r).length, what).toBeGreaterThan(0);
    expect(k, what).toEqual(r);
  };

  /**
   * Every statistic of each range against the same grouping of the rows the leads list shows (root, every page): whole
   * months (read from the monthly rows but by day and week), days before, between and after whole months, and days
   * within one month (the daily rows alone).
   */
  const statsAgree = async (what: string) => {
    for (const range of [
      { from: '2026-03-01', to: '2026-04-30' },
      { from: '2026-03-10', to: '2026-05-12' },
      { from: '2026-04-03', to: '2026-04-20' },
    ])
      await statsOfRangeAgree(`${what} (${range.from} to ${range.to})`, range);
  };
  const statsOfRangeAgree = async (what: string, range: { from: string; to: string }) => {
    const listed: Row[] = [];
    for (let start = 0; ; start += 1000) {
      const res = await root.get(
        `/api/1/accounts/${a}/leads?filter=${encodeURIComponent(JSON.stringify({ captured_from: range.from, captured_to: range.to }))}&range=${encodeURIComponent(JSON.stringify([start, start + 999]))}`,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      listed.push(...res.body);
      if (res.body.length < 1000) break;
    }
    const tally = (key: (r: Row) => string) => {
      const m = new Map<string, number>();
      for (const r of listed) m.set(key(r), (m.get(key(r)) ?? 0) + 1);
      return m;
    };
    const expected: Record<string, Map<string, number>> = {
      day: tally((r) => String(r.ld_captured_at).slice(0, 10)),
      event: tally((r) => String(r.ld_eventid)),
      owner: tally((r) => String(r.ld_ownerid ?? null)),
      source: tally((r) => String(r.ld_source)),
      status: tally((r) => String(r.ld_transcription_status)),
      valid: tally((r) => (r.ld_is_valid ? 'valid' : 'invalid')),
    };
    for (const [group, counts] of Object.entries(expected)) {
      const res = await root.get(`/api/1/accounts/${a}/stats/leads?from=${range.from}&to=${range.to}&group=${group}`);
      expect(res.status).toBe(200);
      const answered = new Map<string, number>((res.body.rows as Row[]).filter((r) => Number(r.count) > 0).map((r) => [String(r.key), Number(r.count)]));
      expect(answered, `${what}: by ${group}`).toEqual(counts);
      expect(res.body.totals.count, `${what}: total by ${group}`).toBe(listed.length);
    }
  };

  it('after inserts of many rows at once (and another account untouched)', async () => {
    await agree('insert');
    await statsAgree('insert');
    expect(Number((await t.db('lead_counts').where('lc_accountid', b).where('lc_dim', 'valid').sum({ n: 'lc_n' }).first())?.n)).toBe(30);
  });

  it("after the API's creates, one at a time and twenty at once", async () => {
    const create = (i: number) => root.post(`/api/1/accounts/${a}/leads`, { ld_eventid: fx.event.id, ld_source: sources[i % 4], ld_answers: answersFor({ first_name: `C${i}` }) });
    expect((await create(0)).status).toBe(201);
    const many = await Promise.all(Array.from({ length: 20 }, (_, i) => create(i + 1)));
    expect(many.map((r) => r.status)).toEqual(Array(20).fill(201));
    await agree('create');
  });

  it('after bulk and single updates through the API, and updates by SQL of the place (day, event) and values', async () => {
    const bulk = await root.post(`/api/1/accounts/${a}/leads/bulk`, {
      action: 'update',
      filter: { ld_eventid: e1.ev_id, ld_source: 'scan' },
      changes: { ld_is_valid: false, ld_ownerid: owners[2] },
    });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    await agree('bulk update');
    const one = await t.db('leads').where({ ld_eventid: e2.ev_id }).first('ld_id');
    expect((await root.put(`/api/1/accounts/${a}/leads/${one.ld_id}`, { ld_is_valid: false })).status).toBe(200);
    await agree('single update');
    await t
      .db('leads')
      .where({ ld_eventid: e2.ev_id, ld_source: 'card' })
      .update({ ld_captured_at: t.db.raw(`ld_captured_at + interval '3 days'`) });
    await t.db('leads').where({ ld_eventid: e2.ev_id, ld_source: 'manual' }).update({ ld_eventid: e1.ev_id, ld_transcription_status: 'done' });
    await t.db('leads').where({ ld_accountid: a }).update({ ld_first_name: 'Unchanged counts' });
    await agree('moved');
    await statsAgree('moved');
  });

  it('after trash, restore and purge of leads, and the trash and purge of an event', async () => {
    const del = await root.post(`/api/1/accounts/${a}/leads/bulk`, { action: 'delete', filter: { ld_eventid: e1.ev_id, ld_source: 'registration' } });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    await agree('leads trashed');
    const trashed = await t.db('leads').where({ ld_eventid: e1.ev_id }).whereNotNull('ld_deleted_at').limit(3).pluck('ld_id');
    expect(trashed).toHaveLength(3);
    expect((await root.post(`/api/1/accounts/${a}/leads/${trashed[0]}/restore`)).status).toBe(200);
    expect((await root.delete(`/api/1/accounts/${a}/leads/${trashed[1]}/purge`)).status).toBe(200);
    await agree('restored and purged');
    // A live lead removed by SQL (no trash) is uncounted too.
    await t
      .db('leads')
      .where({ ld_id: (await t.db('leads').where({ ld_eventid: e2.ev_id }).whereNull('ld_deleted_at').first('ld_id')).ld_id })
      .delete();
    await agree('deleted');
    // The event in the trash: its counts stay (its leads are live) but no statistic shows them.
    expect((await root.delete(`/api/1/accounts/${a}/events/${e2.ev_id}`)).status).toBe(200);
    await statsAgree('event trashed');
    expect((await root.post(`/api/1/accounts/${a}/events/${e2.ev_id}/restore`)).status).toBe(200);
    await statsAgree('event restored');
    expect((await root.delete(`/api/1/accounts/${a}/events/${e2.ev_id}`)).status).toBe(200);
    expect((await root.delete(`/api/1/accounts/${a}/events/${e2.ev_id}/purge`)).status).toBe(200);
    expect(Number((await t.db('lead_counts').where('lc_eventid', e2.ev_id).count({ n: '*' }).first())?.n)).toBe(0);
    await agree('event purged');
    await statsAgree('event purged');
  });

  it("after an owner's user is deleted (the leads' owner set to null by the key)", async () => {
    await t.db('users').where('u_id', owners[0]).delete();
    await agree('owner gone');
    await statsAgree('owner gone');
  });

  it('ls_lead_counts_rebuild() recounts the same', async () => {
    const before = await kept();
    await t.db.raw('select ls_lead_counts_rebuild()');
    expect(await kept()).toEqual(before);
  });

  it("an account's deletion takes its counts along", async () => {
    await t.db('accounts').where('a_id', b).delete();
    expect(Number((await t.db('lead_counts').where('lc_accountid', b).count({ n: '*' }).first())?.n)).toBe(0);
  });
});
