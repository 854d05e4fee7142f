// The event day (issue 18) on PostgreSQL: every kind of client at once against a million leads, with one and with two
// API processes on the same database.
// npx tsx bench/event-day.ts [--seconds 120] [--leads 1000000] [--processes 1|2|both] [--reuse] [--db name] [--keep]
//                            [--port N] [--dist] [--json file] [--node-flags="--flag …"] (Node options for the servers, to compare one)
//                            [--pool-max N] (DATABASE_POOL_MAX of each server; the server's default when not given)
// Quick: --seconds 20 --leads 50000. Needs BENCH_DATABASE_URL or TEST_DATABASE_URL (a server where the user may create
// databases, on this machine: the database backends' CPU is read from /proc).
//
// The fixture, set-based (INSERT … SELECT FROM generate_series; the history triggers left out for it): one account
// with 40 organisers (admins of the account), 100 booth devices (members, each a signed-in phone), 10 past events and
// `--leads` leads over a year (the oldest 2,000 named Oldfield: a prefix only old leads match), today's event with its
// registration page (form, style) and a badge-scan integration, and a group of 8 carousels × 10 slides whose one code
// 100 totems share. `--reuse` keeps it between runs (in `--db`, default ls_bench_event_day) and finds it again.
//
// A run: the shipped server (api/server.ts, or dist/api/server.js with --dist; request logs on at LOG_LEVEL=info, written
// to a file; TRUST_PROXY=1 so each client has its own address) on one port, or two processes on two ports that the
// clients alternate between request by request (a load balancer without sticky sessions). A fake badge provider over
// HTTPS (scripts/fake-badge-provider.ts, its self-signed certificate trusted through INTEGRATIONS_CA_FILE). Clients are
// on loopback, on keep-alive agents bounded per kind:
//   - 40 organisers: a leads list page (filter + sort), a `q` search (one in five `oldfi`, sorted by capture time), or
//     the statistics, then 1–3 s of reading;
//   - 100 booth phones: a lead every 3–9 s with its own ld_client_id, three in ten after a badge scan; one in 20 posts
//     is dropped by the network (the socket closed after sending) and resent with the same client id until answered,
//     one in 33 is sent twice at once (a resend race);
//   - visitors: 4 a second (Poisson) open the registration page and register 0.5–2 s later, at most 40 at once;
//   - 100 totems: the manifest on start (no ETag: the start-of-day burst) and then every 5–15 s with If-None-Match,
//     a batch of 3 plays every 20 s, their status every 60 s; an operator edits a slide every 30 s (so polls are mostly
//     304 and sometimes a new manifest).
// Every client starts at once: the first 10 s are reported as the start-of-day burst, the rest as the steady state.
// After the mix: leads answered vs stored per client id (nothing lost, nothing doubled), registrations answered vs
// stored; with two processes, whether sessions (a sign-out on one seen by the other), the manifest cache (an edit
// through one seen by the other) and rate limits (the registration limit per address, hit on both) agree; then the
// server's CPU per signed-in GET /users/{id} and per leads list page, one kind at a time. Server RSS (VmRSS) is sampled
// every 0.5 s, server CPU read from /proc/<pid>/stat, the database backends' CPU summed over this database's backends.
// Prints a table per run and writes everything as JSON; exits 1 when a goal of the issue's table is missed (listed).
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import type { Knex } from 'knex';
import pg from 'pg';
import { startFakeBadgeProvider, BADGES } from '../scripts/fake-badge-provider.js';
import { seedCarouselGroup } from './support/carouselFixture.js';
import { benchDatabase, benchServerUrl } from './support/database.js';
import { insertLeads } from './support/leadsFixture.js';
import { cpuMs, loadAverage, rssMb } from './support/proc.js';
import { seedRegistrationEvent, visitorAddress, visitorAnswers } from './support/registrationFixture.js';
import { signIn, type BenchSession } from './support/session.js';
import { freePort, startShippedServer, type ShippedServer } from './support/shippedServer.js';
import { median, percentile } from './support/stats.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '120' },
    leads: { type: 'string', default: '1000000' },
    processes: { type: 'string', default: 'both' },
    reuse: { type: 'boolean', default: false },
    db: { type: 'string' },
    keep: { type: 'boolean', default: false },
    port: { type: 'string', default: '0' },
    dist: { type: 'boolean', default: false },
    json: { type: 'string' },
    burst: { type: 'string', default: '10' },
    'node-flags': { type: 'string', default: '' },
    'pool-max': { type: 'string' },
  },
});

const ORGANISERS = 40;
const DEVICES = 100;
const TOTEMS = 100;
const VISITORS_PER_SECOND = 4;
const VISITORS_AT_ONCE = 40;
const OLD_EVENTS = 10;
const OLDEST = { count: 2_000, lastName: 'Oldfield' };
const PASSWORD = 'bench-password';
const ROOT_EMAIL = 'root@bench.example';
const ACCOUNT = 'Event day';
const CODE = 'EVENTDAY';
const SESSION_SECRET = 'bench-event-day-'.padEnd(48, 'x');
/** Goals of issue 18, per run. */
/** The CPU phase after the mix: requests of each kind, and how long the servers' idle CPU is measured first. */
const CPU_GETS = 3000;
const CPU_LISTS = 1500;
const IDLE_MS = 5000;
const GOALS = { listP95: 150, leadCreateP95: 100, registrationP95: 150, manifestP95: 30, rssGrowthMb: 100, cpuUserGetMs: 0.5, cpuListMs: 1 };

// ---- the fixture ----------------------------------------------------------------------------------------------------

interface Fixture {
  accountId: string;
  todayId: string;
  oldEvents: string[];
  organisers: { id: string; email: string }[];
  devices: { id: string; email: string }[];
  code: string;
  slides: { sl_id: string; sl_carouselid: string }[];
  integrationId: string;
}

async function buildFixture(db: Knex, total: number): Promise<void> {
  const { upsertUser } = await import('../api/db/bootstrap.js');
  const { hashPassword } = await import('../api/services/passwords.js');
  const t0 = Date.now();
  await upsertUser(db, { email: ROOT_EMAIL, password: PASSWORD, role: 'root' });
  const [account] = await db('accounts').insert({ a_name: ACCOUNT }).returning('a_id');
  const a = account.a_id as string;
  // Everyone with the same password: one hash for all.
  const hash = await hashPassword(PASSWORD);
  await db.raw(
    `insert into users (u_email, u_first_name, u_last_name, u_password, u_role, u_is_verified, u_is_enabled)
     select kind || g || '@bench.example', initcap(kind), 'No ' || g, ?, 'member', true, true
       from (values ('organiser', ?::int), ('booth', ?::int)) k(kind, n), generate_series(1, k.n) g`,
    [hash, ORGANISERS, DEVICES],
  );
  await db.raw(
    `insert into account_users (au_accountid, au_userid, au_role)
     select ?, u_id, case when u_email like 'organiser%' then 'admin' else 'member' end from users where u_email ~ '^(organiser|booth)[0-9]+@bench\\.example$'`,
    [a],
  );
  await db.raw(
    `insert into events (ev_accountid, ev_title, ev_name, ev_access_type, ev_start_date)
     select ?, 'Fair ' || g, 'fair-' || lpad(g::text, 2, '0'), 'open', date '2026-01-01' + (g - 1) * 36 from generate_series(1, ?::int) g`,
    [a, OLD_EVENTS],
  );
  const { eventId, formId } = await seedRegistrationEvent(db, a);
  await db('events')
    .where('ev_id', eventId)
    .update({ ev_title: 'Event day', ev_start_date: new Date().toISOString().slice(0, 10) });
  // The booth phones fill the same form as the visitors.
  await db('event_forms').insert({ ef_accountid: a, ef_eventid: eventId, ef_formid: formId, ef_order: 0 });
  const [integration] = await db('integrations')
    .insert({ in_accountid: a, in_name: 'badges', in_title: 'Badges', in_type: 'badge_scan', in_api_url: 'https://127.0.0.1:1/scan', in_secret: 'set-per-run' })
    .returning('in_id');
  await db('event_integrations').insert({ ei_accountid: a, ei_eventid: eventId, ei_integrationid: integration.in_id, ei_external_event_id: 'expo-2026' });
  const oldEvents = (await db('events').where('ev_accountid', a).where('ev_name', 'like', 'fair-%').orderBy('ev_name').pluck('ev_id')) as string[];
  const owners = (await db('users').where('u_email', 'like', 'booth%@bench.example').orderBy('u_email').pluck('u_id')) as string[];
  await insertLeads(db, { accountId: a, events: oldEvents, owners, total, oldest: OLDEST, withoutTriggers: true, batch: 250_000, mixed: true });
  await seedCarouselGroup(db, a, 8, 10, CODE);
  const seeded = Date.now() - t0;
  await db.raw('vacuum analyze');
  await db.raw('create table bench_event_day (leads int not null, made_at timestamptz not null default now())');
  await db('bench_event_day').insert({ leads: total });
  console.log(
    `fixture: ${total.toLocaleString('en')} leads, ${ORGANISERS} organisers, ${DEVICES} devices in ${(seeded / 1000).toFixed(1)} s (+ vacuum analyze ${((Date.now() - t0 - seeded) / 1000).toFixed(1)} s; load ${loadAverage()})`,
  );
}

async function readFixture(db: Knex): Promise<Fixture> {
  const accountId = (await db('accounts').where('a_name', ACCOUNT).first('a_id')).a_id as string;
  const users = (pattern: string) => db('users').where('u_email', 'like', pattern).orderByRaw('length(u_email), u_email').select('u_id as id', 'u_email as email');
  return {
    accountId,
    todayId: (await db('events').where({ ev_accountid: accountId, ev_name: 'bench-expo' }).first('ev_id')).ev_id,
    oldEvents: (await db('events').where('ev_accountid', accountId).where('ev_name', 'like', 'fair-%').orderBy('ev_name').pluck('ev_id')) as string[],
    organisers: await users('organiser%@bench.example'),
    devices: await users('booth%@bench.example'),
    code: CODE,
    slides: await db('slides').where('sl_accountid', accountId).orderBy(['sl_carouselid', 'sl_order']).select('sl_id', 'sl_carouselid'),
    integrationId: (await db('integrations').where({ in_accountid: accountId, in_name: 'badges' }).first('in_id')).in_id,
  };
}

// ---- HTTP on loopback -----------------------------------------------------------------------------------------------

interface Answer {
  /** 0: no answer (a network error); -1: dropped on purpose after sending. */
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
  ms: number;
}

/** A body as the browser reads it: decompressed. */
function decode(bytes: Buffer, encoding: string | undefined): string {
  if (encoding === 'br') return zlib.brotliDecompressSync(bytes).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(bytes).toString('utf8');
  if (encoding === 'deflate') return zlib.inflateSync(bytes).toString('utf8');
  return bytes.toString('utf8');
}

/**
 * One request on `agent`. `dropAfterMs`: the socket is closed that long after the body went out (a network drop);
 * `statusOnly`: the answer's body is not wanted.
 */
function send(
  agent: http.Agent,
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
  { dropAfterMs, statusOnly = false }: { dropAfterMs?: number; statusOnly?: boolean } = {},
): Promise<Answer> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const done = (status: number, text = '', h: http.IncomingHttpHeaders = {}) => resolve({ status, body: text, headers: h, ms: performance.now() - t0 });
    const req = http.request(
      url,
      { method, agent, headers: body ? { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : headers },
      (res) => {
        if (statusOnly) {
          // the body is read off the socket and dropped, not decoded: the CPU phase asks only for the status, and the
          // load generator shares the machine's two cores with the servers it measures
          res.resume();
          res.on('end', () => done(res.statusCode!));
          res.on('error', () => done(0));
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          let text: string;
          try {
            text = decode(Buffer.concat(chunks), res.headers['content-encoding']);
          } catch {
            return done(0); // a body that does not decode: no usable answer
          }
          done(res.statusCode!, text, res.headers);
        });
        res.on('error', () => done(0));
      },
    );
    req.on('error', () => done(dropAfterMs === undefined ? 0 : -1));
    req.setTimeout(60_000, () => req.destroy());
    req.end(body);
    if (dropAfterMs !== undefined) setTimeout(() => req.destroy(), dropAfterMs);
  });
}

interface Sample {
  /** Start, ms after the run's start. */
  t: number;
  ms: number;
  status: number;
}

/** What answers each kind of request counts as right. */
const KINDS: Record<string, number[]> = {
  'leads list': [200],
  'q search': [200],
  'q oldfi': [200],
  statistics: [200],
  'lead create': [200, 201],
  'badge scan': [200],
  'registration page': [200],
  registration: [201],
  manifest: [200, 304],
  'play events': [200],
  'player status': [204],
  'slide edit': [200],
};

class Recorder {
  samples = new Map<string, Sample[]>(Object.keys(KINDS).map((k) => [k, []]));
  constructor(readonly t0: number) {}
  add(kind: string, started: number, a: Answer) {
    this.samples.get(kind)!.push({ t: started - this.t0, ms: a.ms, status: a.status });
  }
}

interface KindFigures {
  requests: number;
  errors: number;
  ge500: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  statuses: Record<string, number>;
}

function figures(kind: string, xs: Sample[]): KindFigures {
  const ok = KINDS[kind];
  const ms = xs.map((s) => s.ms);
  const statuses: Record<string, number> = {};
  for (const s of xs) statuses[s.status || 'none'] = (statuses[s.status || 'none'] ?? 0) + 1;
  return {
    requests: xs.length,
    errors: xs.filter((s) => !ok.includes(s.status)).length,
    ge500: xs.filter((s) => s.status >= 500).length,
    p50: median(ms),
    p95: percentile(ms, 95),
    p99: percentile(ms, 99),
    max: ms.length ? Math.max(...ms) : NaN,
    statuses,
  };
}

// ---- one run --------------------------------------------------------------------------------------------------------

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)];
const q = (o: unknown) => encodeURIComponent(JSON.stringify(o));

interface RunResult {
  processes: number;
  load: { start: string; end: string };
  seconds: number;
  steady: Record<string, KindFigures>;
  burst: Record<string, KindFigures>;
  manifestNotModifiedShare: number;
  firstManifests: { median: number; max: number };
  leads: {
    clientIds: number;
    answered: number;
    stored: number;
    lost: number;
    duplicated: number;
    otherId: number;
    drops: number;
    resends: number;
    races: number;
    racesBothAnswered: number;
    racesOneLead: number;
    storedUnanswered: number;
  };
  registrations: { answered: number; stored: number; lost: number; skippedArrivals: number };
  servers: { pid: number; rssStartMb: number; rssPeakMb: number; rssPeakAtS: number; rssEndMb: number; cpuMs: number }[];
  cpu: { requests: number; serverMsPerRequest: number; databaseMsPerRequest: number; databaseBackends: number; loadGeneratorMsPerRequest: number };
  /** The database's own counts of work (pg_stat_database) per request of the mix: what it did, not what it cost. */
  databaseWork: DatabaseWork;
  /** Net of the servers' idle CPU (userGet, listPage) and as measured (…Raw); the idle rate; jobs still waiting when it began. */
  cpuPerKind: {
    userGet: number;
    listPage: number;
    userGetRaw: number;
    listPageRaw: number;
    idleMsPerSecond: number;
    jobsLeftWaiting: number;
    userGetRequests: number;
    listRequests: number;
  };
  agreement?: { sessionSignOutSeenMs: number | null; manifestEditSeenMs: number[]; rateLimit: { created: number; limited: number; limit: number } };
  misses: string[];
}

/**
 * CPU of this database's client backends, from /proc, sampled every second: a backend there at the start counts from
 * its CPU then, one that appears later from 0 (it began after the start); what a backend used after its last sample
 * before it ended is lost (the pool keeps its connections, so that is little).
 */
interface DatabaseWork {
  /** Transactions committed or rolled back (one a statement outside a transaction). */
  transactions: number;
  /** Shared buffers read (hit + read): the pages a query touched. */
  buffers: number;
  /** Rows returned by scans and fetched through indexes. */
  rows: number;
}

/** pg_stat_database's counters of this database (flushed by each backend at most once a second: a run's totals). */
async function databaseWork(client: pg.Client): Promise<DatabaseWork> {
  const { rows } = await client.query<{ transactions: string; buffers: string; rows: string }>(
    `select xact_commit + xact_rollback as transactions, blks_hit + blks_read as buffers, tup_returned + tup_fetched as rows
       from pg_stat_database where datname = current_database()`,
  );
  return { transactions: Number(rows[0].transactions), buffers: Number(rows[0].buffers), rows: Number(rows[0].rows) };
}

class DatabaseCpu {
  private seen = new Map<number, { base: number; last: number }>();
  private work0?: DatabaseWork;
  private timer?: NodeJS.Timeout;
  constructor(private readonly client: pg.Client) {}
  private async sample(starting = false) {
    const { rows } = await this.client.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()",
    );
    for (const { pid } of rows) {
      const now = cpuMs(pid);
      if (Number.isNaN(now)) continue;
      const s = this.seen.get(pid);
      if (s) s.last = now;
      else this.seen.set(pid, { base: starting ? now : 0, last: now });
    }
  }
  async start() {
    this.seen.clear();
    this.work0 = await databaseWork(this.client);
    await this.sample(true);
    this.timer = setInterval(() => void this.sample().catch(() => undefined), 1000);
  }
  async stop(): Promise<{ ms: number; backends: number; work: DatabaseWork }> {
    clearInterval(this.timer);
    await this.sample();
    let ms = 0;
    for (const s of this.seen.values()) ms += s.last - s.base;
    // The backends flush their counters at most once a second: wait for the last second's.
    await sleep(1100);
    const end = await databaseWork(this.client);
    const work = { transactions: end.transactions - this.work0!.transactions, buffers: end.buffers - this.work0!.buffers, rows: end.rows - this.work0!.rows };
    return { ms, backends: this.seen.size, work };
  }
}

async function run(processes: number, fx: Fixture, dbUrl: string, options: { seconds: number; burstMs: number; port: number; dist: boolean }): Promise<RunResult> {
  const runId = crypto.randomBytes(3).toString('hex');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-bench-event-day-'));
  const misses: string[] = [];
  let keepLogs = false;
  const provider = await startFakeBadgeProvider();
  const certFile = path.join(dataDir, 'provider-cert.pem');
  fs.writeFileSync(certFile, provider.cert);
  const admin = new pg.Client({ connectionString: dbUrl });
  await admin.connect();
  // The bench's own database: this run's provider, and no sign-in counters left from earlier runs.
  await admin.query('update integrations set in_api_url = $1, in_secret = $2 where in_id = $3', [provider.url, 'fake-badge-secret', fx.integrationId]);
  await admin.query("delete from rate_limits where rl_key like 'login:%'");
  const servers: ShippedServer[] = [];
  const loadStart = loadAverage();
  try {
    for (let i = 0; i < processes; i++) {
      const port = options.port ? options.port + i : await freePort();
      servers.push(
        await startShippedServer(
          port,
          {
            NODE_ENV: 'production',
            DATABASE_URL: dbUrl,
            DATA_DIR: dataDir,
            SESSION_SECRET,
            LOG_LEVEL: 'info',
            TRUST_PROXY: '1',
            SMTP_URL: '',
            PUBLIC_URL: `http://127.0.0.1:${port}`,
            INTEGRATIONS_ALLOW_PRIVATE: '1',
            INTEGRATIONS_CA_FILE: certFile,
            ...(values['pool-max'] ? { DATABASE_POOL_MAX: values['pool-max'] } : {}),
          },
          path.join(dataDir, `server-${i + 1}.log`),
          options.dist,
          values['node-flags'].split(/\s+/).filter(Boolean),
        ),
      );
    }
    let turn = 0;
    const base = () => servers[turn++ % servers.length].base;
    const api = (p: string) => `${base()}/api/1${p}`;
    const a = `/accounts/${fx.accountId}`;

    // Sessions: each phone and organiser from an address of its own, signed in before the day starts.
    const signInAll = async (people: { email: string }[], net: number) => {
      const out: (BenchSession & { ip: string })[] = new Array(people.length);
      let next = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let i = next++; i < people.length; i = next++) {
            const ip = `172.${net}.${i >> 8}.${i & 255}`;
            out[i] = { ...(await signIn(servers[i % servers.length].base, people[i].email, PASSWORD, { 'x-forwarded-for': ip })), ip };
          }
        }),
      );
      return out;
    };
    const organisers = await signInAll(fx.organisers, 16);
    const devices = await signInAll(fx.devices, 17);
    const [root] = await signInAll([{ email: ROOT_EMAIL }], 18);

    const agents = {
      organisers: new http.Agent({ keepAlive: true, maxSockets: ORGANISERS }),
      devices: new http.Agent({ keepAlive: true, maxSockets: DEVICES }),
      visitors: new http.Agent({ keepAlive: true, maxSockets: VISITORS_AT_ONCE }),
      totems: new http.Agent({ keepAlive: true, maxSockets: TOTEMS }),
      operator: new http.Agent({ keepAlive: true, maxSockets: 2 }),
    };
    const json = { accept: 'application/json', 'accept-encoding': 'gzip, deflate, br' };
    const as = (s: BenchSession & { ip: string }) => ({ ...json, cookie: s.cookie, 'x-csrf-token': s.csrf, 'x-forwarded-for': s.ip });

    const dbCpu = new DatabaseCpu(admin);
    await dbCpu.start();
    const serverCpu0 = servers.map((s) => cpuMs(s.pid));
    const generatorCpu0 = process.cpuUsage();
    const rss = servers.map((s) => ({ start: rssMb(s.pid), peak: rssMb(s.pid), peakAtS: 0, end: NaN }));
    // The peak and when it came (seconds into the run: within options.burstMs it is the start-of-day burst's).
    const rssTimer = setInterval(
      () =>
        servers.forEach((s, i) => {
          const now = rssMb(s.pid);
          if (now > rss[i].peak) Object.assign(rss[i], { peak: now, peakAtS: (performance.now() - t0) / 1000 });
        }),
      500,
    );
    const t0 = performance.now();
    const endAt = t0 + options.seconds * 1000;
    const running = () => performance.now() < endAt;
    const nap = (ms: number) => sleep(Math.min(ms, endAt - performance.now()));
    const rec = new Recorder(t0);
    const timed = async (kind: string, agent: http.Agent, url: string, method: string, headers: Record<string, string>, body?: string) => {
      const started = performance.now();
      const answer = await send(agent, url, method, headers, body);
      rec.add(kind, started, answer);
      return answer;
    };

    // ---- organisers
    const sorts: [string, string][] = [
      ['ld_captured_at', 'DESC'],
      ['ld_captured_at', 'ASC'],
      ['ld_last_name', 'ASC'],
      ['ld_email', 'ASC'],
    ];
    const filters = (): Record<string, unknown> => {
      const r = Math.random();
      if (r < 0.3) return { ld_eventid: fx.todayId };
      if (r < 0.5) return { ld_eventid: pick(fx.oldEvents) };
      if (r < 0.6) return { ld_eventid: pick(fx.oldEvents), ld_source: pick(['scan', 'card', 'manual']) };
      if (r < 0.75) return { ld_ownerid: pick(fx.devices).id };
      if (r < 0.85) return { ld_source: pick(['scan', 'registration']) };
      const day = new Date(Date.UTC(2026, 0, 1) + Math.floor(Math.random() * 330) * 86_400_000).toISOString().slice(0, 10);
      return { captured_from: day, captured_to: day };
    };
    const organiser = async (s: BenchSession & { ip: string }) => {
      const headers = as(s);
      while (running()) {
        const r = Math.random();
        if (r < 0.65) {
          const start = 25 * Math.floor(Math.random() * 3);
          await timed('leads list', agents.organisers, api(`${a}/leads?filter=${q(filters())}&sort=${q(pick(sorts))}&range=${q([start, start + 24])}`), 'GET', headers);
        } else if (r < 0.82) {
          const old = Math.random() < 0.2;
          const term = old ? 'oldfi' : pick(['ann', 'eva', 'han', 'bos', 'lov', 'tur', 'kim', 'vos']);
          await timed(
            old ? 'q oldfi' : 'q search',
            agents.organisers,
            api(`${a}/leads?filter=${q({ q: term })}&sort=${q(['ld_captured_at', 'DESC'])}&range=${q([0, 24])}`),
            'GET',
            headers,
          );
        } else {
          const group = pick(['day', 'day', 'event', 'source', 'owner']);
          await timed('statistics', agents.organisers, api(`${a}/stats/leads?from=2026-01-01&to=2026-12-31&group=${group}`), 'GET', headers);
        }
        await nap(1000 + Math.random() * 2000);
      }
    };

    // ---- booth phones
    type Outcome = { ids: Set<string>; answered: boolean };
    const outcomes = new Map<string, Outcome>();
    const counts = { drops: 0, resends: 0, races: 0, racesBothAnswered: 0, racesOneLead: 0 };
    const codes = Object.keys(BADGES);
    const postLead = async (headers: Record<string, string>, clientId: string, body: string) => {
      const o: Outcome = { ids: new Set(), answered: false };
      outcomes.set(clientId, o);
      const take = (ans: Answer) => {
        if (ans.status === 200 || ans.status === 201) {
          o.answered = true;
          o.ids.add(JSON.parse(ans.body).ld_id);
        }
      };
      const r = Math.random();
      if (r < 0.05) {
        counts.drops++;
        await send(agents.devices, api(`${a}/leads`), 'POST', headers, body, { dropAfterMs: Math.random() * 30 });
      } else if (r < 0.08) {
        counts.races++;
        const pair = await Promise.all([0, 1].map(() => timed('lead create', agents.devices, api(`${a}/leads`), 'POST', headers, body)));
        pair.forEach(take);
        if (pair.every((p) => p.status === 200 || p.status === 201)) {
          counts.racesBothAnswered++;
          if (o.ids.size === 1) counts.racesOneLead++;
        }
        if (o.answered) return;
      } else {
        take(await timed('lead create', agents.devices, api(`${a}/leads`), 'POST', headers, body));
      }
      // Not answered (dropped, or a network error): the offline queue sends it again with the same client id.
      // It waits as long as a 503's Retry-After asks (the app's queue does), else 0.2–0.8 s.
      for (let attempt = 0, wait = 0; !o.answered && attempt < 10; attempt++) {
        await sleep(Math.max(wait, 200 + Math.random() * 600));
        counts.resends++;
        const ans = await timed('lead create', agents.devices, api(`${a}/leads`), 'POST', headers, body);
        take(ans);
        wait = Number(ans.headers['retry-after'] ?? 0) * 1000;
        if (ans.status >= 400 && ans.status < 500) break; // refused: sending it again changes nothing
      }
    };
    const device = async (s: BenchSession & { ip: string }, i: number) => {
      const headers = as(s);
      for (let n = 0; running(); n++) {
        let answers: Record<string, unknown> = {
          email: `lead${n}.d${i}-${runId}@booth.example`,
          first_name: pick(['Ann', 'Eva', 'Kim', 'Tom']),
          last_name: `Booth${i}`,
          company: `Company ${n % 40}`,
        };
        let extra: Record<string, unknown> = { ld_source: 'manual' };
        if (Math.random() < 0.3) {
          const code = pick(codes);
          const scan = await timed('badge scan', agents.devices, api(`${a}/events/${fx.todayId}/scan`), 'POST', headers, JSON.stringify({ code }));
          if (scan.status === 200) {
            answers = { ...answers, ...JSON.parse(scan.body).answers };
            extra = { ld_source: 'scan', ld_badge_code: code };
          }
        }
        const clientId = `ed-${runId}-${i}-${n}`;
        await postLead(headers, clientId, JSON.stringify({ ld_eventid: fx.todayId, ld_client_id: clientId, ld_answers: answers, ld_consent_news: n % 2 === 0, ...extra }));
        await nap(3000 + Math.random() * 6000);
      }
    };

    // ---- visitors
    const registered = new Set<string>();
    let visitorSeq = 0;
    let visitorsNow = 0;
    let skippedArrivals = 0;
    const visitor = async (n: number) => {
      const ip = visitorAddress(n);
      const page = await timed('registration page', agents.visitors, api(`/register/${fx.todayId}`), 'GET', { ...json, 'x-forwarded-for': ip });
      const token = /ls\.csrf-token=([^;]+)/.exec(String(page.headers['set-cookie'] ?? ''))?.[1];
      if (!token) return;
      await sleep(500 + Math.random() * 1500);
      const answer = await timed(
        'registration',
        agents.visitors,
        api(`/register/${fx.todayId}`),
        'POST',
        { ...json, 'x-forwarded-for': ip, cookie: `ls.csrf-token=${token}`, 'x-csrf-token': decodeURIComponent(token) },
        JSON.stringify({ answers: visitorAnswers(n, runId), consent_news: n % 3 === 0, website: '' }),
      );
      if (answer.status === 201) registered.add(JSON.parse(answer.body).ld_id);
    };
    const visitors = async () => {
      const pending: Promise<void>[] = [];
      while (running()) {
        await nap(-Math.log(1 - Math.random()) * (1000 / VISITORS_PER_SECOND));
        if (!running()) break;
        if (visitorsNow >= VISITORS_AT_ONCE) {
          skippedArrivals++;
          continue;
        }
        visitorsNow++;
        pending.push(visitor(++visitorSeq).finally(() => visitorsNow--));
      }
      await Promise.all(pending);
    };

    // ---- totems and the operator
    const firstManifests: number[] = [];
    const totem = async () => {
      let etag: string | undefined;
      const poll = async () => {
        const ans = await timed('manifest', agents.totems, api(`/play/${fx.code}`), 'GET', { 'accept-encoding': 'gzip, deflate, br', ...(etag ? { 'if-none-match': etag } : {}) });
        if (ans.status === 200) etag = String(ans.headers.etag);
        return ans;
      };
      firstManifests.push((await poll()).ms);
      const polls = async () => {
        while (running()) {
          await nap(5000 + Math.random() * 10_000);
          if (running()) await poll();
        }
      };
      const plays = async () => {
        await nap(Math.random() * 20_000);
        while (running()) {
          const events = Array.from({ length: 3 }, () => {
            const slide = pick(fx.slides);
            return { id: crypto.randomUUID(), kind: 'play', at: new Date().toISOString(), carousel_id: slide.sl_carouselid, slide_id: slide.sl_id };
          });
          await timed('play events', agents.totems, api(`/play/${fx.code}/events`), 'POST', json, JSON.stringify({ events }));
          await nap(20_000);
        }
      };
      const status = async () => {
        const since = new Date().toISOString();
        await nap(Math.random() * 60_000);
        while (running()) {
          await timed(
            'player status',
            agents.totems,
            api(`/play/${fx.code}/status`),
            'POST',
            json,
            JSON.stringify({ version: 'bench', width: 1080, height: 1920, online_since: since, last_error: null }),
          );
          await nap(60_000);
        }
      };
      await Promise.all([polls(), plays(), status()]);
    };
    const editLags: number[] = [];
    const operator = async () => {
      // every 30 s (a quick run: four edits in all)
      for (let k = 0; running(); k++) {
        await nap(Math.min(30_000, (options.seconds * 1000) / 4));
        if (!running()) break;
        const via = servers[k % servers.length];
        const other = servers[(k + 1) % servers.length];
        const etagOf = async (s: ShippedServer) => String((await send(agents.operator, `${s.base}/api/1/play/${fx.code}`, 'GET', {})).headers.etag);
        const before = servers.length > 1 ? await etagOf(other) : '';
        const edit = await send(agents.operator, `${via.base}/api/1${a}/slides/${pick(fx.slides).sl_id}`, 'PUT', as(root), JSON.stringify({ sl_subtitle: `Edited ${runId} ${k}` }));
        rec.add('slide edit', performance.now() - edit.ms, edit);
        if (servers.length > 1 && edit.status === 200) {
          const edited = performance.now();
          while ((await etagOf(other)) === before && performance.now() - edited < 5000) await sleep(25);
          editLags.push(performance.now() - edited);
        }
      }
    };

    console.log(`\n== ${processes} process${processes > 1 ? 'es' : ''}: ${options.seconds} s (load ${loadStart}; logs in ${dataDir})`);
    await Promise.all([...organisers.map((s) => organiser(s)), ...devices.map((s, i) => device(s, i)), visitors(), ...Array.from({ length: TOTEMS }, () => totem()), operator()]);
    const mixed = performance.now() - t0;
    clearInterval(rssTimer);
    servers.forEach((s, i) => {
      rss[i].end = rssMb(s.pid);
      if (rss[i].end > rss[i].peak) Object.assign(rss[i], { peak: rss[i].end, peakAtS: mixed / 1000 });
    });
    const serverCpu = servers.reduce((sum, s, i) => sum + cpuMs(s.pid) - serverCpu0[i], 0);
    const generator = process.cpuUsage(generatorCpu0);
    const database = await dbCpu.stop();
    const loadEnd = loadAverage();

    // ---- nothing lost, nothing doubled
    const stored = new Map<string, string[]>();
    for (const row of (
      await admin.query<{ ld_client_id: string; ids: string[] }>(
        'select ld_client_id, array_agg(ld_id::text) ids from leads where ld_accountid = $1 and ld_client_id like $2 group by ld_client_id',
        [fx.accountId, `ed-${runId}-%`],
      )
    ).rows)
      stored.set(row.ld_client_id, row.ids);
    let answered = 0;
    let lost = 0;
    let otherId = 0;
    for (const [clientId, o] of outcomes) {
      if (!o.answered) continue;
      answered++;
      const ids = stored.get(clientId);
      if (!ids) lost++;
      else if (o.ids.size !== 1 || !o.ids.has(ids[0])) otherId++;
    }
    const duplicated = [...stored.values()].filter((ids) => ids.length > 1).length;
    const storedRegistrations = new Set(
      (
        await admin.query<{ id: string }>("select ld_id::text id from leads where ld_eventid = $1 and ld_source = 'registration' and ld_email like $2", [
          fx.todayId,
          `visitor%-${runId}@bench.example`,
        ])
      ).rows.map((r) => r.id),
    );
    const registrationsLost = [...registered].filter((id) => !storedRegistrations.has(id)).length;

    // ---- two processes: do they agree?
    let agreement: RunResult['agreement'];
    if (servers.length > 1) {
      const [one, two] = servers;
      const probe = await signIn(one.base, fx.devices[0].email, PASSWORD, { 'x-forwarded-for': '172.19.0.1' });
      const me = (s: ShippedServer) => send(agents.operator, `${s.base}/api/1/auth/me`, 'GET', { cookie: probe.cookie });
      if ((await me(two)).status !== 200) misses.push('two processes: a session made on one is not signed in on the other');
      await send(agents.operator, `${one.base}/api/1/auth/logout`, 'POST', { cookie: probe.cookie, 'x-csrf-token': probe.csrf }, '{}');
      const out = performance.now();
      let seen: number | null = null;
      while (performance.now() - out < 5000) {
        if ((await me(two)).status === 401) {
          seen = performance.now() - out;
          break;
        }
        await sleep(25);
      }
      // The registration limit per address, hit on both processes in turn: the shared counter stops it at the limit.
      const limit = 20;
      const ip = `198.18.${crypto.randomInt(256)}.${crypto.randomInt(256)}`;
      let created = 0;
      let limited = 0;
      for (let i = 0; i <= limit; i++) {
        const s = servers[i % 2];
        const page = await send(agents.visitors, `${s.base}/api/1/register/${fx.todayId}`, 'GET', { 'x-forwarded-for': ip });
        const token = /ls\.csrf-token=([^;]+)/.exec(String(page.headers['set-cookie'] ?? ''))![1];
        const ans = await send(
          agents.visitors,
          `${s.base}/api/1/register/${fx.todayId}`,
          'POST',
          { 'x-forwarded-for': ip, cookie: `ls.csrf-token=${token}`, 'x-csrf-token': decodeURIComponent(token) },
          JSON.stringify({ answers: visitorAnswers(1_000_000 + i, `limit-${runId}`), website: '' }),
        );
        if (ans.status === 201) created++;
        else if (ans.status === 429) limited++;
      }
      agreement = { sessionSignOutSeenMs: seen, manifestEditSeenMs: editLags, rateLimit: { created, limited, limit } };
      if (seen === null || seen > 1000) misses.push(`two processes: a sign-out on one was ${seen === null ? 'not seen in 5 s' : `seen after ${seen.toFixed(0)} ms`} on the other`);
      if (editLags.some((l) => l > 1000)) misses.push(`two processes: a manifest edit through one was seen by the other after ${Math.max(...editLags).toFixed(0)} ms (> 1 s)`);
      if (created !== limit || limited !== 1) misses.push(`two processes: the registration limit of ${limit} per address let ${created} through and refused ${limited}`);
    }

    // ---- CPU per request, one kind at a time, as shipped (request logs on)
    // The mix leaves work behind (the registrations' mails on the job queue, in every process): it is done first, and
    // the servers' CPU with no request at all (timers, the job queue's polling) is measured over a few seconds, so
    // that each kind's figure is what its requests cost (the idle rate times the phase's length taken off). Both the
    // raw and the net figure are reported; the goals are judged on the net one.
    const drainUntil = Date.now() + 60_000;
    let waitingJobs = 0;
    for (;;) {
      waitingJobs = Number((await admin.query("select count(*)::int n from pgboss.job where state in ('created', 'retry', 'active') and start_after <= now()")).rows[0].n);
      if (waitingJobs === 0 || Date.now() > drainUntil) break;
      await sleep(250);
    }
    await sleep(1000);
    const idleCpu0 = servers.reduce((sum, s) => sum + cpuMs(s.pid), 0);
    const idleT0 = performance.now();
    await sleep(IDLE_MS);
    const idleRate = (servers.reduce((sum, s) => sum + cpuMs(s.pid), 0) - idleCpu0) / (performance.now() - idleT0); // ms of CPU per ms
    const cpuPer = async (count: number, url: (i: number) => string, headers: Record<string, string>) => {
      const before = servers.reduce((sum, s) => sum + cpuMs(s.pid), 0);
      const t0 = performance.now();
      let next = 0;
      let bad = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let i = next++; i < count; i = next++) if ((await send(agents.organisers, url(i), 'GET', headers, undefined, { statusOnly: true })).status !== 200) bad++;
        }),
      );
      if (bad) misses.push(`CPU phase: ${bad} of ${count} answers were not 200`);
      const spent = servers.reduce((sum, s) => sum + cpuMs(s.pid), 0) - before;
      return { raw: spent / count, net: (spent - idleRate * (performance.now() - t0)) / count };
    };
    const people = [...fx.organisers, ...fx.devices];
    const userGet = await cpuPer(CPU_GETS, (i) => api(`/users/${people[i % people.length].id}`), as(root));
    const listPage = await cpuPer(
      CPU_LISTS,
      (i) =>
        api(`${a}/leads?filter=${q({ ld_eventid: fx.oldEvents[i % fx.oldEvents.length] })}&sort=${q(['ld_captured_at', 'DESC'])}&range=${q([(i % 4) * 25, (i % 4) * 25 + 24])}`),
      as(organisers[0]),
    );
    for (const agent of Object.values(agents)) agent.destroy();

    // ---- figures
    const steady: Record<string, KindFigures> = {};
    const burst: Record<string, KindFigures> = {};
    let total = 0;
    for (const [kind, xs] of rec.samples) {
      total += xs.length;
      steady[kind] = figures(
        kind,
        xs.filter((s) => s.t >= options.burstMs),
      );
      burst[kind] = figures(
        kind,
        xs.filter((s) => s.t < options.burstMs),
      );
    }
    const manifests = rec.samples.get('manifest')!.filter((s) => s.t >= options.burstMs);
    const result: RunResult = {
      processes,
      load: { start: loadStart, end: loadEnd },
      seconds: mixed / 1000,
      steady,
      burst,
      manifestNotModifiedShare: manifests.filter((s) => s.status === 304).length / Math.max(1, manifests.length),
      firstManifests: { median: median(firstManifests), max: Math.max(...firstManifests) },
      leads: {
        clientIds: outcomes.size,
        answered,
        stored: stored.size,
        lost,
        duplicated,
        otherId,
        storedUnanswered: [...stored.keys()].filter((id) => !outcomes.get(id)?.answered).length,
        ...counts,
      },
      registrations: { answered: registered.size, stored: storedRegistrations.size, lost: registrationsLost, skippedArrivals },
      servers: servers.map((s, i) => ({ pid: s.pid, rssStartMb: rss[i].start, rssPeakMb: rss[i].peak, rssPeakAtS: rss[i].peakAtS, rssEndMb: rss[i].end, cpuMs: NaN })),
      cpu: {
        requests: total,
        serverMsPerRequest: serverCpu / total,
        databaseMsPerRequest: database.ms / total,
        databaseBackends: database.backends,
        loadGeneratorMsPerRequest: (generator.user + generator.system) / 1000 / total,
      },
      databaseWork: {
        transactions: database.work.transactions / total,
        buffers: database.work.buffers / total,
        rows: database.work.rows / total,
      },
      cpuPerKind: {
        userGet: userGet.net,
        listPage: listPage.net,
        userGetRaw: userGet.raw,
        listPageRaw: listPage.raw,
        idleMsPerSecond: idleRate * 1000,
        jobsLeftWaiting: waitingJobs,
        userGetRequests: CPU_GETS,
        listRequests: CPU_LISTS,
      },
      agreement,
      misses,
    };
    result.servers.forEach((s, i) => (s.cpuMs = cpuMs(servers[i].pid) - serverCpu0[i]));

    // ---- goals
    const all = [...rec.samples.entries()].flatMap(([, xs]) => xs);
    const ge500 = all.filter((s) => s.status >= 500).length;
    if (ge500) misses.push(`${ge500} answers ≥ 500`);
    if (lost || registrationsLost) misses.push(`leads lost: ${lost} from devices, ${registrationsLost} registrations`);
    if (duplicated || otherId) misses.push(`leads duplicated: ${duplicated} client ids stored twice, ${otherId} answered with another lead`);
    const p95 = (kind: string, goal: number, label: string) => {
      const v = steady[kind].p95;
      if (!(v <= goal)) misses.push(`p95 ${label} ${v.toFixed(0)} ms > ${goal} ms`);
    };
    p95('leads list', GOALS.listP95, 'leads list page (filter + sort)');
    p95('lead create', GOALS.leadCreateP95, 'lead create from a device');
    p95('registration', GOALS.registrationP95, 'registration');
    p95('manifest', GOALS.manifestP95, 'manifest poll');
    for (const s of result.servers)
      if (s.rssPeakMb - s.rssStartMb > GOALS.rssGrowthMb) misses.push(`server ${s.pid} RSS grew ${(s.rssPeakMb - s.rssStartMb).toFixed(0)} MB > ${GOALS.rssGrowthMb} MB`);
    if (userGet.net > GOALS.cpuUserGetMs) misses.push(`server CPU per GET /users/{id} ${userGet.net.toFixed(2)} ms > ${GOALS.cpuUserGetMs} ms`);
    if (listPage.net > GOALS.cpuListMs) misses.push(`server CPU per leads list page ${listPage.net.toFixed(2)} ms > ${GOALS.cpuListMs} ms`);
    report(result);
    if (ge500 || process.env.BENCH_KEEP_LOGS) keepLogs = true;
    return result;
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await provider.close();
    await admin.end();
    // The request logs stay when an answer was ≥ 500 (what failed, with its request id), or with BENCH_KEEP_LOGS=1.
    if (keepLogs) console.log(`  server logs kept in ${dataDir}`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---- the report ------------------------------------------------------------------------------------------------------

function report(r: RunResult) {
  const f = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '–');
  const table = (title: string, rows: Record<string, KindFigures>) => {
    console.log(`\n  ${title}`);
    console.log(
      `  ${'kind'.padEnd(18)} ${'requests'.padStart(8)} ${'errors'.padStart(6)} ${'≥500'.padStart(5)} ${'p50'.padStart(7)} ${'p95'.padStart(7)} ${'p99'.padStart(7)} ${'max'.padStart(7)}  answers`,
    );
    for (const [kind, x] of Object.entries(rows)) {
      if (!x.requests) continue;
      const statuses = Object.entries(x.statuses)
        .map(([s, n]) => `${s}×${n}`)
        .join(' ');
      console.log(
        `  ${kind.padEnd(18)} ${String(x.requests).padStart(8)} ${String(x.errors).padStart(6)} ${String(x.ge500).padStart(5)} ${f(x.p50).padStart(7)} ${f(x.p95).padStart(7)} ${f(x.p99).padStart(7)} ${f(x.max).padStart(7)}  ${statuses}`,
      );
    }
  };
  table(`start-of-day burst (the first ${values.burst} s; ms)`, r.burst);
  console.log(
    `  first manifests (100 totems at once, no ETag; the cache as the start left it: warmed with the codes seen in the last 15 min): median ${f(r.firstManifests.median)} ms, max ${f(r.firstManifests.max)} ms`,
  );
  table(`steady state (after ${values.burst} s; ms)`, r.steady);
  console.log(`  manifest polls answered 304: ${f(r.manifestNotModifiedShare * 100, 1)}%`);
  const l = r.leads;
  console.log(
    `\n  leads from devices: ${l.clientIds} client ids, ${l.answered} answered 200/201, ${l.stored} stored; lost ${l.lost}, stored twice ${l.duplicated}, answered with another lead ${l.otherId}`,
  );
  console.log(
    `    ${l.storedUnanswered} stored but never answered (every try after the first failed); ${l.drops} posts dropped by the network and ${l.resends} resends; ${l.races} simultaneous resend races, ${l.racesBothAnswered} with both answered, ${l.racesOneLead} of those one lead for both`,
  );
  const g = r.registrations;
  console.log(`  registrations: ${g.answered} answered 201, ${g.stored} stored, lost ${g.lost}; arrivals turned away at ${VISITORS_AT_ONCE} at once: ${g.skippedArrivals}`);
  for (const s of r.servers)
    console.log(
      `  server ${s.pid}: RSS ${f(s.rssStartMb)} → peak ${f(s.rssPeakMb)} (at ${f(s.rssPeakAtS)} s) → end ${f(s.rssEndMb)} MB (+${f(s.rssPeakMb - s.rssStartMb, 1)} MB), CPU ${f(s.cpuMs / 1000, 1)} s`,
    );
  console.log(
    `  CPU per request over the mix (${r.cpu.requests} requests): server ${f(r.cpu.serverMsPerRequest, 2)} ms, PostgreSQL ${f(r.cpu.databaseMsPerRequest, 2)} ms (${r.cpu.databaseBackends} backends), load generator ${f(r.cpu.loadGeneratorMsPerRequest, 2)} ms`,
    `  PostgreSQL's work per request (pg_stat_database): ${f(r.databaseWork.transactions, 2)} transactions, ${f(r.databaseWork.buffers, 0)} buffers, ${f(r.databaseWork.rows, 0)} rows`,
  );
  console.log(
    `  server CPU one kind at a time, request logs on, net of idle (${f(r.cpuPerKind.idleMsPerSecond, 1)} ms/s with no request; ${r.cpuPerKind.jobsLeftWaiting} jobs still waiting): GET /users/{id} ${f(r.cpuPerKind.userGet, 2)} ms (goal ≤ ${GOALS.cpuUserGetMs}; raw ${f(r.cpuPerKind.userGetRaw, 2)}), leads list page ${f(r.cpuPerKind.listPage, 2)} ms (goal ≤ ${GOALS.cpuListMs}; raw ${f(r.cpuPerKind.listPageRaw, 2)})`,
  );
  if (r.agreement) {
    const ag = r.agreement;
    console.log(
      `  across processes: a sign-out seen by the other after ${ag.sessionSignOutSeenMs === null ? 'never' : `${f(ag.sessionSignOutSeenMs)} ms`}; manifest edits seen after ${ag.manifestEditSeenMs.map((x) => f(x)).join(', ') || '–'} ms; registration limit ${ag.rateLimit.limit}: ${ag.rateLimit.created} created, ${ag.rateLimit.limited} refused`,
    );
  }
  console.log(`  load average ${r.load.start} → ${r.load.end} (2 cores, shared with other work)`);
  console.log(r.misses.length ? `  goals missed:\n${r.misses.map((m) => `    - ${m}`).join('\n')}` : '  every goal met');
}

// ---- main -----------------------------------------------------------------------------------------------------------

async function main() {
  if (!benchServerUrl()) {
    console.log('skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL server');
    return;
  }
  const total = Number(values.leads);
  const runs = values.processes === 'both' ? [1, 2] : [Number(values.processes)];
  if (runs.some((n) => n !== 1 && n !== 2) || !(total > OLDEST.count)) throw new Error('--processes 1|2|both, --leads above 2000');
  const keep = values.reuse || values.keep;
  const database = (await benchDatabase('ls_bench_event_day', values.reuse ? (values.db ?? 'ls_bench_event_day') : values.db))!;
  const results: RunResult[] = [];
  try {
    const { createKnex } = await import('../api/db/knex.js');
    const { prepareDatabase } = await import('../api/db/bootstrap.js');
    const db = createKnex({ databaseUrl: database.url });
    await prepareDatabase(db);
    const made = (await db.schema.hasTable('bench_event_day')) ? Number((await db('bench_event_day').first('leads'))?.leads) : 0;
    if (database.reused && made === total) console.log(`reusing ${database.name} (${total.toLocaleString('en')} leads)`);
    else if (database.reused && made) throw new Error(`${database.name} holds a fixture of ${made} leads, not ${total}: drop it or name another with --db`);
    else await buildFixture(db, total);
    const fx = await readFixture(db);
    await db.destroy();
    for (const processes of runs)
      results.push(await run(processes, fx, database.url, { seconds: Number(values.seconds), burstMs: Number(values.burst) * 1000, port: Number(values.port), dist: values.dist }));
  } finally {
    if (keep) {
      await database.keep();
      console.log(`\nkept database ${database.name} (--reuse${database.name === 'ls_bench_event_day' ? '' : ` --db ${database.name}`} uses it again)`);
    } else await database.drop();
  }
  const out = values.json ?? path.join(os.tmpdir(), `event-day-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(out, JSON.stringify({ leads: total, seconds: Number(values.seconds), cpus: os.cpus().length, goals: GOALS, runs: results }, null, 2));
  console.log(`\nfigures as JSON: ${out}`);
  const missed = results.flatMap((r) => r.misses.map((m) => `${r.processes} process${r.processes > 1 ? 'es' : ''}: ${m}`));
  if (missed.length) {
    console.log(`goals missed:\n${missed.map((m) => `  - ${m}`).join('\n')}`);
    process.exitCode = 1;
  }
}

await main();
