// Server CPU per request, as shipped (issue 18): the compiled server (node dist/api/server.js, what `npm start` runs,
// NODE_ENV=production as in the image) on PostgreSQL, with its request log on (LOG_LEVEL=info, JSON lines on a pipe)
// and off (silent), signed in, keep-alive, a few connections.
//
// npx tsx bench/cpu-per-request.ts [--requests 3000] [--connections 4] [--rounds 5] [--leads 10000]
//                                  [--servers dist/api/server.js,/other/checkout/dist/api/server.js] [--logs info,silent]
//                                  (a server may carry Node flags after @: dist/api/server.js@--max-semi-space-size=32)
//                                  [--port 3650] [--profile <dir>] [--db-prefix ls_bench_cpu] [--kinds get,leads] [--spread]
// Needs BENCH_DATABASE_URL or TEST_DATABASE_URL (a server where the user may create databases: the benchmark makes its
// own database and drops it). Build the server first (`npm run build:server`); the script refuses a dist/ older than
// the sources under api/ and resources/.
//
// Every server named by --servers (checkouts to compare: their dist/api/server.js) runs at every log level of --logs,
// all at once on the same database, as child processes. Each round sends --requests requests of each kind to every
// server in turn (the order rotates from round to round), reading the server's CPU time (utime + stime of the whole
// process, /proc/<pid>/stat) before and after each batch: the CPU it spent per request, which other work on the
// machine blurs far less than a rate or a latency. Kinds:
//   get:   GET /api/1/users/{id} as root (a random one of 1,000 users);
//   leads: the console's leads list page as the account's superadmin member: GET /api/1/accounts/{a}/leads with
//          filter {}, 25 rows newest first, a random page among the first 20 (the totals reused, as the console pages).
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '3000' },
    connections: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '5' },
    leads: { type: 'string', default: '10000' },
    servers: { type: 'string', default: 'dist/api/server.js' },
    logs: { type: 'string', default: 'info,silent' },
    port: { type: 'string', default: '3650' },
    profile: { type: 'string' },
    'db-prefix': { type: 'string', default: 'ls_bench_cpu' },
    kinds: { type: 'string', default: 'get,leads' },
    spread: { type: 'boolean', default: false },
  },
});

const ROOT = path.resolve(import.meta.dirname, '..');
const CLOCK_TICK_MS = 10; // USER_HZ = 100 on Linux

/** CPU time (user + system, every thread) the process has used, in ms. */
function cpuMs(pid: number): number {
  const { user, system } = cpuSplitMs(pid);
  return user + system;
}

/** The same, split: user time and system time (the kernel's work for the process: socket writes and reads, loopback TCP). */
function cpuSplitMs(pid: number): { user: number; system: number } {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]) * CLOCK_TICK_MS, system: Number(fields[12]) * CLOCK_TICK_MS };
}

const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The newest modification time of a file under `dir` (recursively). */
function newest(dir: string): number {
  let t = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
  }
  return t;
}

function checkBuilt(serverJs: string): void {
  if (!fs.existsSync(serverJs)) throw new Error(`${serverJs} is missing: run npm run build:server in its checkout`);
  const checkout = path.resolve(path.dirname(serverJs), '..', '..');
  const sources = Math.max(newest(path.join(checkout, 'api')), newest(path.join(checkout, 'resources')));
  if (sources > fs.statSync(serverJs).mtimeMs) throw new Error(`${serverJs} is older than the sources of ${checkout}: run npm run build:server there`);
}

interface Server {
  label: string;
  child: ChildProcess;
  base: string;
  /** Lines the server wrote on stdout (its JSON log). */
  lines: () => number;
}

async function startServer(serverJs: string, logLevel: string, port: number, databaseUrl: string, label: string, flags: string[] = []): Promise<Server> {
  const profile = values.profile ? [`--cpu-prof`, `--cpu-prof-dir=${path.resolve(values.profile)}`, `--cpu-prof-name=${label.replace(/[^\w.-]+/g, '_')}.cpuprofile`] : [];
  const child = spawn(process.execPath, [...flags, ...profile, serverJs], {
    cwd: path.resolve(path.dirname(serverJs), '..', '..'),
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      LOG_LEVEL: logLevel,
      SESSION_SECRET: 'bench-'.padEnd(40, 'x'),
      DATA_DIR: `/tmp/ls-bench-cpu-${port}`,
      ADMIN_EMAIL: 'root@bench.example',
      ADMIN_PASSWORD: 'bench-password',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let lines = 0;
  child.stdout!.on('data', (d: Buffer) => {
    for (let i = d.indexOf(10); i !== -1; i = d.indexOf(10, i + 1)) lines++;
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += String(d)));
  const base = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`${label} exited ${code}: ${stderr.slice(-2000)}`))));
  const deadline = Date.now() + 120_000;
  for (;;) {
    const up = await Promise.race([
      fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      ),
      exited,
    ]);
    if (up) break;
    if (Date.now() > deadline) throw new Error(`${label} did not start`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { label, child, base, lines: () => lines };
}

async function signIn(base: string, email: string): Promise<string> {
  const first = await fetch(`${base}/api/1/auth/me`);
  const csrf = /ls\.csrf-token=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')![1];
  const login = await fetch(`${base}/api/1/auth/web`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': decodeURIComponent(csrf), Cookie: `ls.csrf-token=${csrf}` },
    body: JSON.stringify({ u_email: email, u_password: 'bench-password' }),
  });
  if (login.status !== 200) throw new Error(`sign-in of ${email} failed: ${login.status} ${await login.text()}`);
  const set = login.headers.getSetCookie().join(';');
  return `ls.sid=${/ls\.sid=([^;]+)/.exec(set)![1]}; ls.csrf-token=${/ls\.csrf-token=([^;]+)/.exec(set)![1]}`;
}

/** `amount` requests over `connections` keep-alive connections; throws on any answer but 200. */
async function burst(base: string, amount: number, next: () => string, cookie: string, connections = Number(values.connections)): Promise<void> {
  const result = await autocannon({
    url: base,
    connections,
    amount,
    // What a browser sends with the console's fetches.
    headers: { Cookie: cookie, Accept: 'application/json', 'Accept-Encoding': 'gzip, deflate, br' },
    requests: [{ setupRequest: (r) => ({ ...r, path: next() }) }],
  });
  if (result.non2xx || result.errors || result.timeouts) throw new Error(`${base}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
}

async function seed(url: string): Promise<{ userIds: string[]; accountId: string }> {
  const { createKnex } = await import('../api/db/knex.js');
  const { prepareDatabase, upsertUser } = await import('../api/db/bootstrap.js');
  const db = createKnex({ databaseUrl: url });
  try {
    await prepareDatabase(db);
    await upsertUser(db, { email: 'root@bench.example', password: 'bench-password', role: 'root' });
    const { user: owner } = await upsertUser(db, { email: 'owner@bench.example', password: 'bench-password', firstName: 'Olga', lastName: 'Owner' });
    await db.raw(
      `insert into users (u_email, u_first_name, u_last_name) select 'user' || g || '@bench.example', 'First' || (g % 1000), 'Last' || (g % 777) from generate_series(1, 1000) g`,
    );
    const [account] = await db('accounts').insert({ a_name: 'Bench CPU' }).returning('a_id');
    const accountId = account.a_id as string;
    await db('account_users').insert({ au_accountid: accountId, au_userid: owner.u_id, au_role: 'superadmin' });
    await db.raw(
      `insert into account_users (au_accountid, au_userid, au_role) select ?, u_id, 'member' from users where u_email like 'user_@bench.example' or u_email like 'user1_@bench.example'`,
      [accountId],
    );
    await db.raw(
      `insert into events (ev_accountid, ev_title, ev_name, ev_access_type, ev_start_date) select ?, 'Event ' || g, 'event-' || g, 'open', date '2026-01-01' + g * 30 from generate_series(1, 10) g`,
      [accountId],
    );
    // Leads as bench/leads.ts makes them: 10 events, owners among the members, answers of a booth form, every source.
    await db.raw(
      `with ev as (select array_agg(ev_id order by ev_name) ids from events where ev_accountid = ?),
            ow as (select array_agg(au_userid order by au_userid) ids from account_users where au_accountid = ?)
       insert into leads (ld_accountid, ld_eventid, ld_email, ld_first_name, ld_last_name, ld_ownerid, ld_captured_by, ld_answers,
                          ld_is_valid, ld_transcription_status, ld_source, ld_badge_code, ld_consent_news, ld_captured_at, ld_rating, ld_tags)
       select ?, ev.ids[1 + g % 10], 'lead' || g || '@example.com', 'First' || (g % 97), 'Last' || (g % 89),
              ow.ids[1 + g % array_length(ow.ids, 1)], ow.ids[1 + g % array_length(ow.ids, 1)],
              jsonb_build_object('company', 'Company ' || (g % 5000), 'interests', jsonb_build_array('software', 'hardware'), 'budget', (g % 10) * 5, 'newsletter', g % 2 = 0),
              g % 10 <> 0, 'none', (array['registration','scan','card','manual','download'])[1 + g % 5],
              case when g % 5 = 1 then 'B' || g end, g % 3 = 0,
              timestamptz '2026-01-01 00:00:00+00' + g * interval '31 seconds', case when g % 4 = 0 then 1 + g % 5 end,
              case when g % 3 = 0 then array['hot', 'follow-up'] else '{}'::text[] end
         from generate_series(1, ?) g, ev, ow`,
      [accountId, accountId, accountId, Number(values.leads)],
    );
    await db.raw('vacuum analyze');
    const userIds = (await db('users').where('u_email', 'like', 'user%@bench.example').select('u_id')).map((r) => r.u_id as string);
    return { userIds, accountId };
  } finally {
    await db.destroy();
  }
}

async function main() {
  const baseUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!baseUrl) {
    console.log('skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL server');
    return;
  }
  // A server may carry Node flags after an @ (dist/api/server.js@--max-semi-space-size=32): the same build run two ways.
  const serverSpecs = values.servers.split(',').map((s) => {
    const [file, flags = ''] = s.split('@');
    return { file: path.resolve(ROOT, file), flags: flags.split(' ').filter(Boolean), name: s };
  });
  serverSpecs.forEach((spec) => checkBuilt(spec.file));
  const levels = values.logs.split(',');
  const name = `${values['db-prefix']}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const servers: Server[] = [];
  try {
    const { userIds, accountId } = await seed(url.toString());
    let port = Number(values.port);
    for (const spec of serverSpecs)
      for (const level of levels) {
        const label = `${serverSpecs.length > 1 ? `${path.relative(ROOT, spec.name) || spec.name} ` : ''}${level}`;
        servers.push(await startServer(spec.file, level, port++, url.toString(), label, spec.flags));
      }
    // One session each (stored in the database, so good on every server).
    const rootCookie = await signIn(servers[0].base, 'root@bench.example');
    const ownerCookie = await signIn(servers[0].base, 'owner@bench.example');
    const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
    const page = () => {
      const start = 25 * Math.floor(Math.random() * 20);
      return `/api/1/accounts/${accountId}/leads?filter=${encodeURIComponent('{}')}&range=${encodeURIComponent(JSON.stringify([start, start + 24]))}&sort=${encodeURIComponent('["ld_captured_at","DESC"]')}`;
    };
    const wanted = new Set(values.kinds.split(','));
    const kinds = [
      { name: 'get', kind: 'GET /users/{id}', next: () => `/api/1/users/${pick(userIds)}`, cookie: rootCookie },
      { name: 'leads', kind: 'leads list page', next: page, cookie: ownerCookie },
    ].filter((k) => wanted.has(k.name));
    const amount = Number(values.requests);
    const rounds = Number(values.rounds);
    console.log(
      `PostgreSQL, ${Number(values.leads).toLocaleString('en')} leads, ${servers.length} servers (${servers.map((s) => s.label).join(' | ')}), ${amount} requests of each kind per round, ${values.connections} keep-alive connections, ${rounds} rounds; load average ${loadavg()}`,
    );
    // Idle: what a server spends with no request (the job queue's polling), to see it is negligible.
    const idle0 = servers.map((s) => cpuMs(s.child.pid!));
    await new Promise((r) => setTimeout(r, 5000));
    console.log(`idle CPU over 5 s: ${servers.map((s, i) => `${s.label} ${cpuMs(s.child.pid!) - idle0[i]} ms`).join(', ')}`);
    for (const s of servers) for (const k of kinds) await burst(s.base, Math.ceil(amount / 2), k.next, k.cookie); // warm-up: JIT, plans, caches
    const results = new Map<string, number[]>();
    const systemShare = new Map<string, number[]>();
    const linesPerRequest = new Map<string, number[]>();
    for (let r = 0; r < rounds; r++) {
      const order = servers.map((_, i) => servers[(i + r) % servers.length]);
      const row: string[] = [];
      for (const s of order)
        for (const k of kinds) {
          const lines0 = s.lines();
          const cpu0 = cpuSplitMs(s.child.pid!);
          await burst(s.base, amount, k.next, k.cookie);
          const cpu1 = cpuSplitMs(s.child.pid!);
          const spent = cpu1.user + cpu1.system - cpu0.user - cpu0.system;
          const perRequest = (spent * 1000) / amount; // µs
          const key = `${s.label} · ${k.kind}`;
          results.set(key, [...(results.get(key) ?? []), perRequest]);
          systemShare.set(key, [...(systemShare.get(key) ?? []), spent > 0 ? (cpu1.system - cpu0.system) / spent : 0]);
          linesPerRequest.set(key, [...(linesPerRequest.get(key) ?? []), (s.lines() - lines0) / amount]);
          row.push(`${key} ${perRequest.toFixed(0)} µs`);
        }
      if (values.spread && servers.length > 1)
        // --spread: the same requests shared by every server at once (the connections split between them), as a load
        // balancer spreads them over processes: the CPU of all of them per request.
        for (const k of kinds) {
          const cpu0 = servers.map((s) => cpuSplitMs(s.child.pid!));
          const share = Math.ceil(amount / servers.length);
          const connections = Math.max(1, Math.round(Number(values.connections) / servers.length));
          await Promise.all(servers.map((s) => burst(s.base, share, k.next, k.cookie, connections)));
          const cpu1 = servers.map((s) => cpuSplitMs(s.child.pid!));
          const spent = cpu1.reduce((sum, c, i) => sum + c.user + c.system - cpu0[i].user - cpu0[i].system, 0);
          const system = cpu1.reduce((sum, c, i) => sum + c.system - cpu0[i].system, 0);
          const key = `all ${servers.length} at once · ${k.kind}`;
          results.set(key, [...(results.get(key) ?? []), (spent * 1000) / (share * servers.length)]);
          systemShare.set(key, [...(systemShare.get(key) ?? []), spent > 0 ? system / spent : 0]);
          linesPerRequest.set(key, [...(linesPerRequest.get(key) ?? []), 1]);
          row.push(`${key} ${((spent * 1000) / (share * servers.length)).toFixed(0)} µs`);
        }
      console.log(`round ${r + 1} (load ${loadavg()}): ${row.join(', ')}`);
    }
    console.log(`\nserver CPU per request, median of ${rounds} rounds (µs; each round's figures in brackets), the kernel's share of it, log lines per request:`);
    for (const [key, xs] of results)
      console.log(
        `  ${key.padEnd(48)} ${median(xs).toFixed(0).padStart(6)} µs  [${xs.map((x) => x.toFixed(0)).join(', ')}]  system ${(100 * median(systemShare.get(key)!)).toFixed(0)}%  ${median(linesPerRequest.get(key)!).toFixed(2)} lines/request`,
      );
    console.log(`load average at the end: ${loadavg()} (2 cores)`);
  } finally {
    for (const s of servers) s.child.kill('SIGTERM');
    await Promise.all(servers.map((s) => new Promise((r) => (s.child.exitCode !== null ? r(null) : s.child.once('exit', r)))));
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

await main();
