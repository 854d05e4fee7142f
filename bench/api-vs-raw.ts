// API vs the raw driver on the same SQL, in the same run, 50 connections (autocannon), on PostgreSQL.
// npx tsx bench/api-vs-raw.ts [--users 100000] [--seconds 10] [--rounds 3] [--case GET|list]   (BENCH_LOG_LEVEL=info: with request logs)   (needs BENCH_DATABASE_URL or TEST_DATABASE_URL: a
// server where the user may create databases; the benchmark creates its own database and drops it)
//
// Two servers run as child processes with the same pool size (DATABASE_POOL_MAX, default 10):
//   api — the real app (sessions, CSRF cookie, permission check, serialisation), signed in as root;
//   raw — node:http + pg running exactly the SQL the API runs for the answer, and nothing else.
// Cases: GET /users/{id} (one row by key), and a list page (25 rows of a random page among the first 40, sorted by
// e-mail) where raw runs rows + count(*) every time, as a list without a reused total would.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import http from 'node:http';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { cpuMs } from './support/proc.js';
import { signIn } from './support/session.js';
import { median } from './support/stats.js';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    case: { type: 'string' },
    child: { type: 'string' },
    url: { type: 'string' },
  },
});
const POOL = Number(process.env.DATABASE_POOL_MAX || 10);
const USER_SQL =
  'select "u_id", "u_first_name", "u_last_name", "u_email", "u_role", "u_is_verified", "u_is_enabled", "u_created_at", "u_updated_at" from "users" where "u_id" = $1 limit 1';
const PAGE_SQL =
  'select "u_id", "u_first_name", "u_last_name", "u_email", "u_role", "u_is_verified", "u_is_enabled", "u_created_at", "u_updated_at" from "users" order by "u_email" asc, "u_id" asc limit 25 offset $1';
const COUNT_SQL = 'select count(*) as "n" from "users"';

if (values.child === 'raw') {
  const pool = new pg.Pool({ connectionString: values.url, max: POOL });
  pool.on('error', () => undefined); // the database is dropped at the end while connections are idle
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url!, 'http://x');
    let body: unknown;
    if (url.pathname.startsWith('/users/')) {
      body = (await pool.query(USER_SQL, [url.pathname.slice(7)])).rows[0];
    } else {
      const start = Number(url.searchParams.get('start'));
      const [rows, count] = await Promise.all([pool.query(PAGE_SQL, [start]), pool.query(COUNT_SQL)]);
      res.setHeader('Content-Range', `users ${start}-${start + rows.rows.length - 1}/${count.rows[0].n}`);
      body = rows.rows;
    }
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify(body));
  });
  server.listen(0, '127.0.0.1', () => console.log(`ready ${(server.address() as { port: number }).port}`));
} else if (values.child === 'api') {
  const { loadConfig } = await import('../api/config.js');
  const { createApp } = await import('../api/app.js');
  const { createHttpServer } = await import('../api/httpServer.js');
  const { openDatabase } = await import('../api/db/bootstrap.js');
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: values.url,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'silent',
    SESSION_SECRET: 'bench-'.padEnd(40, 'x'),
    DATA_DIR: '/tmp/ls-bench',
  });
  const db = openDatabase(config);
  const { app } = createApp({ db, config, log: () => undefined });
  const server = createHttpServer(app).listen(0, '127.0.0.1', () => console.log(`ready ${(server.address() as { port: number }).port}`));
  process.on('SIGINT', () => process.exit(0)); // BENCH_PROFILE=<dir>: the CPU profile is written on exit
} else {
  await main();
}

function startChild(kind: string, url: string): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_PROFILE && kind === 'api' ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.BENCH_PROFILE] : []),
      '--import',
      'tsx',
      import.meta.filename,
      '--child',
      kind,
      '--url',
      url,
    ],
    {
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /ready (\d+)/.exec(String(d));
      if (m) resolve({ child, base: `http://127.0.0.1:${m[1]}` });
    });
    child.on('exit', (code) => reject(new Error(`${kind} server exited ${code}`)));
  });
}

async function load(base: string, paths: () => string, headers: Record<string, string>): Promise<{ rps: number; p50: number; p99: number; errors: number }> {
  const result = await autocannon({
    url: base,
    connections: 50,
    duration: Number(values.seconds),
    headers,
    requests: [{ setupRequest: (r) => ({ ...r, path: paths() }) }],
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.non2xx + result.errors };
}

async function main() {
  const baseUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!baseUrl) {
    console.log('skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL server');
    return;
  }
  const name = `ls_bench_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const children: ChildProcess[] = [];
  try {
    const { createKnex } = await import('../api/db/knex.js');
    const { prepareDatabase, upsertUser } = await import('../api/db/bootstrap.js');
    const db = createKnex({ databaseUrl: url.toString() });
    await prepareDatabase(db);
    const users = Number(values.users);
    await db.raw(
      `insert into users (u_email, u_first_name, u_last_name) select 'user' || g || '@bench.example', 'First' || (g % 1000), 'Last' || (g % 777) from generate_series(1, ?) g`,
      [users],
    );
    await upsertUser(db, { email: 'root@bench.example', password: 'bench-password', role: 'root' });
    await db.raw('analyze users');
    const ids: string[] = (await db('users').select('u_id').orderByRaw('random()').limit(1000)).map((r) => r.u_id);
    await db.destroy();

    const api = await startChild('api', url.toString());
    const raw = await startChild('raw', url.toString());
    children.push(api.child, raw.child);
    const { cookie: session } = await signIn(api.base, 'root@bench.example', 'bench-password');
    // what a browser sends: its cookies back, and the encodings it takes (the API's compression decides per answer)
    const cookie = { Cookie: session, 'Accept-Encoding': 'gzip, deflate, br', Accept: 'application/json' };
    const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
    const pageStart = () => 25 * Math.floor(Math.random() * 40);

    console.log(`PostgreSQL, ${users} users, pool ${POOL}, 50 connections, ${values.seconds} s per case`);
    const cases: [string, () => Promise<Awaited<ReturnType<typeof load>>>, () => Promise<Awaited<ReturnType<typeof load>>>][] = [
      ['GET /users/{id}', () => load(api.base, () => `/api/1/users/${pick(ids)}`, cookie), () => load(raw.base, () => `/users/${pick(ids)}`, {})],
      [
        'list page (25 of 40 pages)',
        () =>
          load(
            api.base,
            () =>
              `/api/1/users?range=${encodeURIComponent(JSON.stringify([pageStart(), 0].map((x, i, a) => (i ? a[0] + 24 : x))))}&sort=${encodeURIComponent('["u_email","ASC"]')}`,
            cookie,
          ),
        () => load(raw.base, () => `/list?start=${pageStart()}`, {}),
      ],
    ];
    const rounds = Number(values.rounds);
    for (const [label, viaApi, viaRaw] of cases) {
      if (values.case && !label.startsWith(values.case)) continue; // --case GET | list
      await viaApi(); // warm both (JIT, plans, caches), then measure raw and API back to back, `rounds` times
      await viaRaw();
      const ratios: number[] = [];
      for (let i = 0; i < rounds; i++) {
        const r = await viaRaw();
        const cpu0 = cpuMs(api.child.pid!);
        const a = await viaApi();
        const cpu = cpuMs(api.child.pid!) - cpu0;
        if (a.errors || r.errors) throw new Error(`${label}: ${a.errors} API errors, ${r.errors} raw errors`);
        ratios.push(a.rps / r.rps);
        console.log(
          `  ${label.padEnd(28)} raw ${r.rps.toFixed(0).padStart(6)} req/s (p50 ${r.p50} ms, p99 ${r.p99} ms)   api ${a.rps.toFixed(0).padStart(6)} req/s (p50 ${a.p50} ms, p99 ${a.p99} ms)   ratio ${(a.rps / r.rps).toFixed(2)}   api CPU ${((cpu * 1000) / (a.rps * Number(values.seconds))).toFixed(0)} µs/req`,
        );
      }
      console.log(`  ${label.padEnd(28)} median ratio ${median(ratios).toFixed(2)} over ${rounds} rounds`);
    }
  } finally {
    for (const c of children) c.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 1500));
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
