// The SQL of the leads list and statistics on PostgreSQL, measured inside the database (issue 18): for each case the
// PostgreSQL CPU per call (the backend's utime + stime from /proc, so the machine's load blurs it far less than wall
// time), the buffers and the plan's first nodes, alternating the forms compared round by round.
//   npx tsx bench/leads-sql.ts --db <database made by bench/leads.ts --keep> [--rounds 5]
// The database must be on this machine (the backend's /proc entry is read). Cases:
//   - q searches sorted by capture time: a prefix only old leads match ("oldfi"), one only new leads match ("newm"),
//     a common one ("ann"), a two-word one, a rare e-mail; the page as shipped (runList) against the search written as
//     a condition on each row (the form before issue 18);
//   - list pages of the common filters (runList, totals counted: the cache is emptied before each call);
//   - the leads statistics for a year by each grouping.
// The fixture's leads of the first 20,000 capture times get the first name "Oldfirst", the first 2,000 and the last
// 2,000 the last names "Oldfield" and "Newman" (once; the benchmark sets them when missing).
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import type { Knex } from 'knex';

const { values } = parseArgs({ options: { db: { type: 'string' }, rounds: { type: 'string', default: '5' }, only: { type: 'string' } } });
const baseUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
if (!baseUrl || !values.db) {
  console.log('skipped: set BENCH_DATABASE_URL and --db (a database made by bench/leads.ts --keep)');
  process.exit(0);
}
const url = new URL(baseUrl);
url.pathname = `/${values.db}`;

const { createKnex } = await import('../api/db/knex.js');
const { runList, applyFilters } = await import('../api/crud/list.js');
const { totalsFor } = await import('../api/crud/totals.js');
const { scoped } = await import('../api/models/scope.js');
const { leads } = await import('../resources/leads.js');
const { leadStats } = await import('../api/console/stats.js');

// One connection: every statement of a call runs on the backend whose CPU is read.
const db: Knex = createKnex({ databaseUrl: url.toString(), poolMax: 1 });
const pid = Number((await db.raw('select pg_backend_pid() as pid')).rows[0].pid);
const ticks = 100; // USER_HZ
const cpuMs = () => {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / ticks;
};

const accountId: string = (await db('accounts').where('a_name', 'Bench leads').first('a_id')).a_id;
const events: string[] = (await db('events').where('ev_accountid', accountId).orderBy('ev_name').pluck('ev_id')).map(String);
const owners: string[] = (await db('users').where('u_email', 'like', 'staff%@bench.example').orderBy('u_email').pluck('u_id')).map(String);
if (!(await db('leads').where('ld_last_name', 'Oldfield').first('ld_id'))) {
  await db.raw('alter table leads disable trigger user');
  await db.raw(`update leads set ld_first_name = 'Oldfirst' where ld_id in (select ld_id from leads where ld_accountid = ? order by ld_captured_at limit 20000)`, [accountId]);
  await db.raw(`update leads set ld_last_name = 'Oldfield' where ld_id in (select ld_id from leads where ld_accountid = ? order by ld_captured_at limit 2000)`, [accountId]);
  await db.raw(`update leads set ld_last_name = 'Newman' where ld_id in (select ld_id from leads where ld_accountid = ? order by ld_captured_at desc limit 2000)`, [accountId]);
  await db.raw('alter table leads enable trigger user');
  await db.raw('vacuum analyze'); // every table: the trash check's plan needs the events' statistics too
}
await db.raw('analyze');

const base = () => scoped(db, leads, accountId).select('leads.*');
type Sort = { field: string; order: 'ASC' | 'DESC' };
const listQuery = (filter: Record<string, unknown>, sort: Sort = { field: 'ld_captured_at', order: 'DESC' }, start = 0) => {
  const equals: Record<string, unknown[]> = {};
  const ranges: { field: string; op: '>=' | '<'; value: string }[] = [];
  let q: string | undefined;
  for (const [k, v] of Object.entries(filter)) {
    if (k === 'q') q = String(v);
    else if (k === 'captured_from') ranges.push({ field: 'ld_captured_at', op: '>=', value: String(v) });
    else if (k === 'captured_to') ranges.push({ field: 'ld_captured_at', op: '<', value: String(v) });
    else equals[k] = [v];
  }
  return { paged: true, start, end: start + 24, sort, q, equals, ranges };
};

/** The page as a condition on each row (before issue 18): rows of the sort order tested against q, and its bounded count. */
async function pageAsCondition(query: ReturnType<typeof listQuery>) {
  const dir = query.sort.order.toLowerCase() as 'asc' | 'desc';
  const rows = applyFilters(base(), query, leads, 'ld_id').orderBy(query.sort.field, dir);
  if (query.sort.field !== 'ld_captured_at') rows.orderBy('ld_captured_at', dir);
  rows.orderBy('ld_id', dir);
  const counted = db.from(applyFilters(base(), query, leads, 'ld_id').clearSelect().select(db.raw('1')).limit(10_001).as('b')).count({ n: '*' });
  await rows.offset(query.start).limit(25);
  await counted;
}

async function measure(label: string, forms: [string, () => Promise<unknown>][], rounds: number) {
  const cpu = new Map<string, number[]>(forms.map(([f]) => [f, []]));
  const wall = new Map<string, number[]>(forms.map(([f]) => [f, []]));
  for (let r = 0; r < rounds; r++)
    for (const [form, fn] of r % 2 ? [...forms].reverse() : forms) {
      totalsFor(db).entries.clear();
      const c0 = cpuMs();
      const t0 = performance.now();
      await fn();
      wall.get(form)!.push(performance.now() - t0);
      cpu.get(form)!.push(cpuMs() - c0);
    }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const parts = forms.map(([f]) => `${f}: PG CPU ${med(cpu.get(f)!).toFixed(0)} ms, wall ${med(wall.get(f)!).toFixed(1)} ms`);
  console.log(`  ${label.padEnd(44)} ${parts.join(' | ')}`);
}

const rounds = Number(values.rounds);
const byCapture = (order: 'ASC' | 'DESC' = 'DESC'): Sort => ({ field: 'ld_captured_at', order });
const searches: [string, Record<string, unknown>, Sort?][] = [
  ['q "oldfi" (20,000 oldest leads), newest first', { q: 'oldfi' }],
  ['q "oldfie" (2,000 oldest leads), newest first', { q: 'oldfie' }],
  ['q "newm" (2,000 newest leads), oldest first', { q: 'newm' }, byCapture('ASC')],
  ['q "newm", newest first', { q: 'newm' }],
  ['q "ann" (common: 38,000), newest first', { q: 'ann' }],
  ['q "eva bos" (two words), newest first', { q: 'eva bos' }],
  ['q "cleo.turing.1" (e-mail), newest first', { q: 'cleo.turing.1' }],
  ['q "oldfi" in an event, by last name', { q: 'oldfi', ld_eventid: events[3] }, { field: 'ld_last_name', order: 'ASC' }],
];
const lists: [string, Record<string, unknown>, Sort?, number?][] = [
  ['everything, newest first', {}],
  ['event, newest first', { ld_eventid: events[3] }],
  ['event, page 10', { ld_eventid: events[3] }, undefined, 225],
  ['event + source scan', { ld_eventid: events[1], ld_source: 'scan' }],
  ['event, by last name', { ld_eventid: events[3] }, { field: 'ld_last_name', order: 'ASC' }],
  ['owner', { ld_ownerid: owners[4] }],
  ['transcription pending', { ld_transcription_status: 'pending' }],
  ['invalid', { ld_is_valid: false }],
];
const only = values.only;
const load = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`database ${values.db}, ${rounds} rounds, load ${load()}`);
if (!only || only === 'search') {
  console.log('q searches (page of 25 + total, totals not reused), median per call:');
  for (const [label, filter, sort] of searches) {
    const query = listQuery(filter, sort);
    await measure(
      label,
      [
        ['as shipped', () => runList(db, base, query, leads, 'ld_id')],
        ['q as a condition', () => pageAsCondition(query)],
      ],
      rounds,
    );
  }
}
if (!only || only === 'list') {
  console.log('list pages (page of 25 + total, totals not reused), median per call:');
  for (const [label, filter, sort, start] of lists) await measure(label, [['as shipped', () => runList(db, base, listQuery(filter, sort, start), leads, 'ld_id')]], rounds);
}
if (!only || only === 'stats') {
  console.log('leads statistics, a year (2026-01-01 to 2026-12-31), median per call:');
  for (const group of ['day', 'week', 'event', 'owner', 'source', 'status', 'valid'] as const)
    await measure(`by ${group}`, [['as shipped', () => leadStats(db, { accountId, from: '2026-01-01', to: '2026-12-31' }, group)]], rounds);
}
console.log(`load at the end ${load()}`);
await db.destroy();
