// Leads at scale (issue 9), on PostgreSQL: a million leads in one account, then through the real HTTP API
//   - a filtered, sorted list page (25 rows): p50/p95 over the contract's filters (goal p95 ≤ 50 ms);
//   - an export of 100,000 leads as CSV: rows/s (goal ≥ 20,000) and the server's RSS growth (goal ≤ 100 MB).
// npx tsx bench/leads.ts [--leads 1000000] [--rounds 10] [--exports 3] [--keep]
// Needs BENCH_DATABASE_URL or TEST_DATABASE_URL: a server where the user may create databases (the benchmark makes
// its own and drops it, unless --keep). The server runs as a child process (api/server's app, DATABASE_POOL_MAX 10).
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { insertLeads } from './support/leadsFixture.js';
import { loadAverage, rssMb } from './support/proc.js';
import { signIn } from './support/session.js';
import { percentile } from './support/stats.js';

const { values } = parseArgs({
  options: {
    leads: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '10' },
    exports: { type: 'string', default: '3' },
    keep: { type: 'boolean', default: false },
    child: { type: 'string' },
    url: { type: 'string' },
    db: { type: 'string' },
  },
});

function startServer(url: string): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--child', 'api', '--url', url], {
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /ready (\d+)/.exec(String(d));
      if (m) resolve({ child, base: `http://127.0.0.1:${m[1]}` });
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
}

const pct = percentile;
const median = (xs: number[]) => pct(xs, 50);
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function main() {
  const baseUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!baseUrl) {
    console.log('skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL server');
    return;
  }
  const total = Number(values.leads);
  const name = values.db ?? `ls_bench_leads_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const reuse = Boolean(values.db) && (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  if (!reuse) await admin.query(`create database ${name}`);
  let server: ChildProcess | undefined;
  try {
    const { createKnex } = await import('../api/db/knex.js');
    const { prepareDatabase, upsertUser } = await import('../api/db/bootstrap.js');
    const db = createKnex({ databaseUrl: url.toString() });
    await prepareDatabase(db);
    let accountId: string;
    if (!reuse) {
      const t0 = Date.now();
      await upsertUser(db, { email: 'root@bench.example', password: 'bench-password', role: 'root' });
      const [account] = await db('accounts').insert({ a_name: 'Bench leads' }).returning('a_id');
      accountId = account.a_id;
      await db.raw(`insert into users (u_email, u_first_name, u_last_name) select 'staff' || g || '@bench.example', 'Staff', 'Member ' || g from generate_series(1, 20) g`);
      await db.raw(`insert into account_users (au_accountid, au_userid, au_role) select ?, u_id, 'member' from users where u_email like 'staff%@bench.example'`, [accountId]);
      await db.raw(
        `insert into events (ev_accountid, ev_title, ev_name, ev_access_type, ev_start_date) select ?, 'Event ' || g, 'event-' || g, 'open', date '2026-01-01' + g * 30 from generate_series(1, 10) g`,
        [accountId],
      );
      // The leads, in one statement: 10 events of 100,000, owners among 20 members, a year of capture times, every
      // source, a tenth invalid, a few thousand cards waiting for transcription, answers of a booth form.
      await insertLeads(db, {
        accountId,
        events: (await db('events').where('ev_accountid', accountId).orderBy('ev_name').pluck('ev_id')) as string[],
        owners: (await db('users').where('u_email', 'like', 'staff%@bench.example').orderBy('u_email').pluck('u_id')) as string[],
        total,
      });
      const seeded = Date.now() - t0;
      await db.raw('vacuum analyze'); // every table: the trash check's plan needs the events' statistics too
      console.log(`seeded ${total.toLocaleString('en')} leads in ${(seeded / 1000).toFixed(1)} s (+ vacuum analyze ${((Date.now() - t0 - seeded) / 1000).toFixed(1)} s)`);
    } else {
      accountId = (await db('accounts').where('a_name', 'Bench leads').first('a_id')).a_id;
      await db.raw('analyze');
      console.log(`reusing ${name}`);
    }
    const events: string[] = (await db('events').where('ev_accountid', accountId).orderBy('ev_name').select('ev_id')).map((r) => r.ev_id);
    const owners: string[] = (await db('users').where('u_email', 'like', 'staff%@bench.example').orderBy('u_email').select('u_id')).map((r) => r.u_id);
    const perEvent = Number((await db('leads').where('ld_eventid', events[0]).count({ n: '*' }).first())?.n);
    const size = (await db.raw(`select pg_size_pretty(pg_total_relation_size('leads')) s`)).rows[0].s;
    await db.destroy();
    console.log(`leads table with indexes: ${size}; ${perEvent.toLocaleString('en')} leads in the first event`);

    const api = await startServer(url.toString());
    server = api.child;
    const { cookie } = await signIn(api.base, 'root@bench.example', 'bench-password');
    const get = async (path: string) => {
      const t0 = performance.now();
      const res = await fetch(`${api.base}${path}`, { headers: { Cookie: cookie } });
      const body = await res.text();
      const took = performance.now() - t0;
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 200)}`);
      return { took, res, body };
    };

    // ---- list pages ---------------------------------------------------------------------------------------------
    const leadsPath = `/api/1/accounts/${accountId}/leads`;
    const page = (filter: Record<string, unknown>, sort: [string, string] = ['ld_captured_at', 'DESC'], start = 0) =>
      `${leadsPath}?filter=${encodeURIComponent(JSON.stringify(filter))}&sort=${encodeURIComponent(JSON.stringify(sort))}&range=${encodeURIComponent(JSON.stringify([start, start + 24]))}`;
    const cases: [string, Record<string, unknown>, [string, string]?, number?][] = [
      ['everything, newest first', {}],
      ['everything, page 3', {}, undefined, 50],
      ['everything, oldest first', {}, ['ld_captured_at', 'ASC']],
      ['event', { ld_eventid: events[3] }],
      ['event, page 10', { ld_eventid: events[3] }, undefined, 225],
      ['event, by last name', { ld_eventid: events[3] }, ['ld_last_name', 'ASC']],
      ['event, by e-mail desc', { ld_eventid: events[5] }, ['ld_email', 'DESC']],
      ['event + source scan', { ld_eventid: events[1], ld_source: 'scan' }],
      ['source card', { ld_source: 'card' }],
      ['owner', { ld_ownerid: owners[4] }],
      ['owner, by first name', { ld_ownerid: owners[6] }, ['ld_first_name', 'ASC']],
      ['transcription pending', { ld_transcription_status: 'pending' }],
      ['transcription postponed, oldest first', { ld_transcription_status: 'postponed' }, ['ld_captured_at', 'ASC']],
      ['transcription done', { ld_transcription_status: 'done' }],
      ['invalid', { ld_is_valid: false }],
      ['valid, by source', { ld_is_valid: true }, ['ld_source', 'ASC']],
      ['captured one day', { captured_from: '2026-06-01', captured_to: '2026-06-01' }],
      ['captured a week, event', { ld_eventid: events[2], captured_from: '2026-03-01', captured_to: '2026-03-07' }],
      ['captured from a time', { captured_from: '2026-12-01T08:00:00Z' }],
      ['search first name "ann"', { q: 'ann' }],
      ['search last name "lovel"', { q: 'lovel' }],
      ['search e-mail "cleo.turing.1"', { q: 'cleo.turing.1' }],
      ['search two words "eva bos"', { q: 'eva bos' }],
      ['search in event "han"', { ld_eventid: events[7], q: 'han' }],
      ['event + owner + pending', { ld_eventid: events[0], ld_ownerid: owners[0], ld_transcription_status: 'pending' }],
    ];
    const rounds = Number(values.rounds);
    await get(page({})); // warm-up: JIT, plans, connections
    // Warm: the totals of the app's reuse are real (the console pages through one filter); cold: each request's
    // filter is made unique by a captured_to far in the future, so every total is counted.
    const warm: number[] = [];
    const cold: number[] = [];
    const byCase = new Map<string, number[]>();
    const warmByCase = new Map<string, number[]>();
    let unique = 0;
    for (let r = 0; r < rounds; r++) {
      for (const [label, filter, sort, start] of cases) {
        const w = await get(page(filter, sort, start));
        warm.push(w.took);
        warmByCase.set(label, [...(warmByCase.get(label) ?? []), w.took]);
        const stamp = new Date(Date.UTC(2030, 0, 1) + ++unique * 1000).toISOString();
        const c = await get(page({ ...filter, captured_to: stamp }, sort, start));
        cold.push(c.took);
        byCase.set(label, [...(byCase.get(label) ?? []), c.took]);
        if (r === 0 && JSON.parse(w.body).length === 0 && label !== 'captured from a time') console.log(`  (no rows: ${label})`);
      }
    }
    console.log(`\nlist page, 25 rows, ${cases.length} filters × ${rounds} rounds (${warm.length} requests each way):`);
    console.log(`  totals reused as the app does: p50 ${ms(median(warm))}, p95 ${ms(pct(warm, 95))}, max ${ms(Math.max(...warm))}`);
    console.log(`  every total counted:           p50 ${ms(median(cold))}, p95 ${ms(pct(cold, 95))}, max ${ms(Math.max(...cold))}`);
    console.log('  per filter, median / max (totals reused | every total counted):');
    for (const [label, xs] of byCase) {
      const w = warmByCase.get(label)!;
      console.log(`    ${label.padEnd(40)} ${ms(median(w)).padStart(9)} / ${ms(Math.max(...w)).padStart(9)}  | ${ms(median(xs)).padStart(9)} / ${ms(Math.max(...xs))}`);
    }

    // ---- export ---------------------------------------------------------------------------------------------------
    const exportPath = `/api/1/accounts/${accountId}/events/${events[0]}/leads/export.csv`;
    console.log(`\nexport of one event (${perEvent.toLocaleString('en')} leads), ${values.exports} runs:`);
    const rates: number[] = [];
    const growths: number[] = [];
    for (let i = 0; i < Number(values.exports); i++) {
      const base = rssMb(api.child.pid!);
      let peak = base;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(api.child.pid!))), 20);
      const t0 = performance.now();
      const res = await fetch(`${api.base}${exportPath}`, { headers: { Cookie: cookie } });
      let rows = -1; // the header line
      let bytes = 0;
      let firstByte = 0;
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        if (!firstByte) firstByte = performance.now() - t0;
        bytes += chunk.length;
        const text = decoder.decode(chunk, { stream: true });
        for (let k = text.indexOf('\n'); k !== -1; k = text.indexOf('\n', k + 1)) rows++;
      }
      const took = (performance.now() - t0) / 1000;
      clearInterval(sampler);
      if (res.status !== 200 || rows !== perEvent) throw new Error(`export: status ${res.status}, ${rows} rows`);
      rates.push(rows / took);
      growths.push(peak - base);
      console.log(
        `  run ${i + 1}: ${rows.toLocaleString('en')} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB of CSV in ${took.toFixed(2)} s = ${Math.round(rows / took).toLocaleString('en')} rows/s; first byte after ${ms(firstByte)}; server RSS ${base.toFixed(0)} → ${peak.toFixed(0)} MB (+${(peak - base).toFixed(1)} MB)`,
      );
    }
    console.log(`  median ${Math.round(median(rates)).toLocaleString('en')} rows/s (goal ≥ 20,000); RSS growth max +${Math.max(...growths).toFixed(1)} MB (goal ≤ 100 MB)`);
    const load = loadAverage();
    console.log(`\nload average at the end: ${load} (2 cores)`);
  } finally {
    server?.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 1000));
    if (!values.keep) await admin.query(`drop database if exists ${name} with (force)`);
    else console.log(`kept database ${name} (--db ${name} reuses it)`);
    await admin.end();
  }
}

if (values.child === 'api') {
  const { loadConfig } = await import('../api/config.js');
  const { createApp } = await import('../api/app.js');
  const { createHttpServer } = await import('../api/httpServer.js');
  const { openDatabase } = await import('../api/db/bootstrap.js');
  const config = loadConfig({ ...process.env, DATABASE_URL: values.url, LOG_LEVEL: 'silent', SESSION_SECRET: 'bench-'.padEnd(40, 'x'), DATA_DIR: '/tmp/ls-bench-leads' });
  const db = openDatabase(config);
  const { app } = createApp({ db, config, log: () => undefined });
  const server = createHttpServer(app).listen(0, '127.0.0.1', () => console.log(`ready ${(server.address() as { port: number }).port}`));
  process.on('SIGINT', () => process.exit(0));
} else {
  await main();
}
