// Statistics over 1,000,000 leads on PostgreSQL: GET /api/1/accounts/{a}/stats/leads for a year grouped by day (the
// goal: at most 200 ms), through HTTP as the console asks for it, median and p95 of 20 runs; the other groupings for
// comparison, and the plan of the day query. Needs PostgreSQL: BENCH_DATABASE_URL or TEST_DATABASE_URL (a server where
// the user may create databases; the benchmark makes its own database and drops it).
//   npx tsx bench/stats.ts [--leads 1000000] [--runs 20]
import { parseArgs } from 'node:util';
import { startApp } from '../test/helpers/app.js';

const { values } = parseArgs({ options: { leads: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '20' } } });
const leads = Number(values.leads);
const runs = Number(values.runs);
const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!url) {
  console.log('stats: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to a PostgreSQL server)');
  process.exit(0);
}
process.env.TEST_DATABASE_URL = url;

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => sorted(xs)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)];

const t = await startApp('postgres');
try {
  const account = (await t.account('Bench Events')).a_id;
  const other = (await t.account('Other Events')).a_id;
  const owners: string[] = [];
  for (let i = 0; i < 20; i++) {
    const u = await t.user(`owner${i}@bench.example`);
    await t.member(account, u.u_id);
    owners.push(u.u_id);
  }
  const events: string[] = [];
  for (let i = 0; i < 12; i++) {
    const [ev] = await t
      .db('events')
      .insert({ ev_accountid: account, ev_title: `Expo ${i + 1}`, ev_name: `expo-${i + 1}`, ev_access_type: 'open' })
      .returning('ev_id');
    events.push(ev.ev_id);
  }
  const [otherEvent] = await t.db('events').insert({ ev_accountid: other, ev_title: 'Elsewhere', ev_name: 'elsewhere', ev_access_type: 'open' }).returning('ev_id');

  // One statement per batch: the year 2026 spread at random over the account's events and owners, with names,
  // e-mails, sources and statuses like real leads (every index of the table is maintained, as in production).
  const seedStart = performance.now();
  const batch = 250_000;
  for (let done = 0; done < leads; done += batch) {
    await t.db.raw(
      `insert into leads (ld_accountid, ld_eventid, ld_ownerid, ld_captured_by, ld_first_name, ld_last_name, ld_email, ld_source,
                          ld_transcription_status, ld_is_valid, ld_captured_at)
       select ?, (?::uuid[])[1 + g % 12], (?::uuid[])[1 + g % 20], (?::uuid[])[1 + g % 20], 'First' || (g % 1000), 'Last' || (g % 777),
              'lead' || g || '@bench.example', (array['registration','scan','card','manual','download'])[1 + g % 5],
              (array['none','none','pending','postponed','done'])[1 + (g / 5) % 5], g % 17 <> 0,
              timestamptz '2026-01-01 00:00:00+00' + random() * interval '365 days'
       from generate_series(?::integer, ?::integer) g`,
      [account, events, owners, owners, done + 1, Math.min(leads, done + batch)],
    );
  }
  // Another account's leads, which the queries must skip through the index.
  await t.db.raw(
    `insert into leads (ld_accountid, ld_eventid, ld_captured_at) select ?, ?, timestamptz '2026-01-01 00:00:00+00' + random() * interval '365 days' from generate_series(1, ?) g`,
    [other, otherEvent.ev_id, Math.round(leads / 10)],
  );
  await t.db.raw('vacuum analyze leads');
  console.log(
    `seeded ${leads.toLocaleString('en')} leads (+${Math.round(leads / 10).toLocaleString('en')} in another account) in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
  );

  const root = await t.signedIn('root');
  const base = `/api/1/accounts/${account}/stats/leads?from=2026-01-01&to=2026-12-31`;
  const cases: [string, string][] = [
    ['year by day', `${base}&group=day`],
    ['year by day, CSV', `${base}&group=day&format=csv`],
    ['year by week', `${base}&group=week`],
    ['year by event', `${base}&group=event`],
    ['year by owner', `${base}&group=owner`],
    ['year by source', `${base}&group=source`],
    ['year by status', `${base}&group=status`],
    ['year by validity', `${base}&group=valid`],
    ['30 days by day', `/api/1/accounts/${account}/stats/leads?from=2026-06-01&to=2026-06-30&group=day`],
  ];
  console.log(`postgres: ${runs} runs each (after 2 warm-up runs), through HTTP`);
  const results: Record<string, { median: number; p95: number }> = {};
  for (const [name, path] of cases) {
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < runs + 2; i++) {
      const s = performance.now();
      const res = await root.get(path);
      const ms = performance.now() - s;
      if (res.status !== 200) throw new Error(`${name}: ${res.status} ${res.text}`);
      if (i >= 2) times.push(ms);
      rows = res.body?.rows?.length ?? res.text.trim().split('\n').length - 1;
      if (name === 'year by day' && i === 0 && res.body.totals.count !== leads) throw new Error(`year by day counted ${res.body.totals.count}, not ${leads}`);
    }
    results[name] = { median: median(times), p95: p95(times) };
    console.log(`  ${name.padEnd(18)} median ${median(times).toFixed(1).padStart(6)} ms  p95 ${p95(times).toFixed(1).padStart(6)} ms  (${rows} rows)`);
  }

  // The plan of the day query, as the route runs it (captured from knex), to show the index it uses.
  const captured: { sql: string; bindings: unknown[] }[] = [];
  const listen = (q: { sql: string; bindings: unknown[] }) => captured.push(q);
  t.db.on('query', listen);
  await root.get(`${base}&group=day`);
  t.db.removeListener('query', listen);
  const day = captured.find((q) => q.sql.includes('generate_series'));
  if (day) {
    // knex reports the SQL in the driver's own form ($1, $2…); back to knex's placeholders, in order.
    const plan = await t.db.raw(`explain (analyze, buffers) ${day.sql.replace(/\$\d+/g, '?')}`, day.bindings as never);
    const lines: string[] = plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']);
    console.log('  plan of the year-by-day query:');
    for (const line of lines) if (/Scan|Aggregate|Execution Time|Workers/.test(line)) console.log(`    ${line.trim()}`);
  }
  const goal = results['year by day'].median <= 200;
  console.log(
    `year by day over ${leads.toLocaleString('en')} leads: median ${results['year by day'].median.toFixed(1)} ms, p95 ${results['year by day'].p95.toFixed(1)} ms (goal 200 ms: ${goal ? 'met' : 'NOT met'})`,
  );
} finally {
  await t.close();
}
process.exit(0);
