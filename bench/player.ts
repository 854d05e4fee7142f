// The player's manifest, GET /api/1/play/{code}, for a large group, and the cost of players polling it.
// npx tsx bench/player.ts [--carousels 20] [--slides 20] [--runs 30] [--players 100] [--rounds 10] [--pglite]
// PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set (its own database, dropped after), else PGlite.
//
// 1. A group of 20 carousels × 20 slides (400 slides) with 2 variants each and 5 layers per slide (2,000 layers:
//    images, videos, hotspots, QR codes of collections), about 450 assets. GET /play/{code} through HTTP: cold (a
//    write through the API between requests, which empties the manifest cache, so every request rebuilds it) and warm
//    (from the cache), median and p95, asked as Chromium asks over HTTPS (Accept-Encoding: gzip, deflate, br); and the
//    answer's size: JSON, brotli and gzip as sent. Goals: ≤ 50 ms, ≤ 300 KB gzip.
// 2. 100 players polling every 60 s with If-None-Match (every answer a 304): compressed in time, 100 polls spread over
//    1 s (one every 10 ms, each on a new connection, as a player 60 s later would be), repeated; the server child's CPU
//    (process.cpuUsage over IPC) per poll, scaled to 100 players / 60 s as a share of one core. Goal < 2 %.
import { fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import { seedCarouselGroup } from './support/carouselFixture.js';
import { median, percentile } from './support/stats.js';

const { values } = parseArgs({
  options: {
    carousels: { type: 'string', default: '20' },
    slides: { type: 'string', default: '20' },
    runs: { type: 'string', default: '30' },
    players: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '10' },
    pglite: { type: 'boolean', default: false },
    child: { type: 'boolean' },
    url: { type: 'string' },
    data: { type: 'string' },
  },
});

/** The server: the real app on the bench's database; answers its CPU use over IPC. */
async function child() {
  const { loadConfig } = await import('../api/config.js');
  const { createApp } = await import('../api/app.js');
  const { createHttpServer } = await import('../api/httpServer.js');
  const { openDatabase } = await import('../api/db/bootstrap.js');
  const config = loadConfig({ ...process.env, DATABASE_URL: values.url ?? '', LOG_LEVEL: 'silent', SESSION_SECRET: 'bench-'.padEnd(40, 'x'), DATA_DIR: values.data, SMTP_URL: '' });
  const db = openDatabase(config);
  const { app } = createApp({ db, config, log: () => undefined });
  const server = createHttpServer(app).listen(0, '127.0.0.1', () => process.send!({ ready: (server.address() as { port: number }).port }));
  process.on('message', (m: { cpu?: boolean }) => m.cpu && process.send!({ cpu: process.cpuUsage() }));
  process.on('disconnect', () => process.exit(0));
}

const p95 = (xs: number[]) => percentile(xs, 95);
const hex = (n: number) => crypto.randomBytes(n).toString('hex');
/** What Chromium (a totem's player) sends over HTTPS. */
const CHROMIUM = { 'accept-encoding': 'gzip, deflate, br, zstd' };

/** One GET on a new connection: status, raw body bytes, time to the last byte. */
function get(base: string, pathname: string, headers: Record<string, string> = {}): Promise<{ status: number; bytes: Buffer; ms: number; headers: http.IncomingHttpHeaders }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${pathname}`, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, bytes: Buffer.concat(chunks), ms: performance.now() - started, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

async function seed(db: import('knex').Knex, carouselCount: number, slidesPer: number) {
  const { upsertUser } = await import('../api/db/bootstrap.js');
  const [account] = await db('accounts').insert({ a_name: 'Bench Carousels' }).returning('a_id');
  const a = account.a_id as string;
  const { user } = await upsertUser(db, { email: 'root@bench.example', password: 'bench-password-1', role: 'root' });
  return { account: a, userId: user.u_id, ...(await seedCarouselGroup(db, a, carouselCount, slidesPer)) };
}

async function main() {
  const carouselCount = Number(values.carousels);
  const slidesPer = Number(values.slides);
  const runs = Number(values.runs);
  const players = Number(values.players);
  const rounds = Number(values.rounds);
  const pgBase = values.pglite ? undefined : process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-bench-player-'));
  const { createKnex } = await import('../api/db/knex.js');
  const { prepareDatabase } = await import('../api/db/bootstrap.js');
  let dbUrl: string | undefined;
  let dropDb: (() => Promise<void>) | undefined;
  if (pgBase) {
    const pg = (await import('pg')).default;
    const name = `ls_bench_${hex(4)}`;
    const admin = new pg.Client({ connectionString: pgBase });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(pgBase);
    url.pathname = `/${name}`;
    dbUrl = url.toString();
    dropDb = async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  }
  let server: ChildProcess | undefined;
  let failed = false;
  try {
    const db = dbUrl ? createKnex({ databaseUrl: dbUrl }) : createKnex({ pgliteDir: path.join(dataDir, 'db') });
    await prepareDatabase(db);
    const seeded = await seed(db, carouselCount, slidesPer);
    if (dbUrl) await db.raw('vacuum analyze');
    await db.destroy();
    console.log(`${dbUrl ? 'PostgreSQL' : 'PGlite'}: a group of ${carouselCount} carousels, ${seeded.slides.length} slides, ${seeded.layers} layers, ${seeded.assets} assets`);

    server = fork(import.meta.filename, ['--child', ...(dbUrl ? ['--url', dbUrl] : []), '--data', dataDir], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const port = await new Promise<number>((resolve, reject) => {
      server!.once('message', (m: { ready?: number }) => (m.ready ? resolve(m.ready) : reject(new Error('no port'))));
      server!.once('exit', (c) => reject(new Error(`server exited ${c}`)));
    });
    const base = `http://127.0.0.1:${port}`;
    const cpu = () =>
      new Promise<number>((resolve) => {
        server!.once('message', (m: { cpu: NodeJS.CpuUsage }) => resolve((m.cpu.user + m.cpu.system) / 1000));
        server!.send({ cpu: true });
      });

    // a session for the writes that empty the cache
    const { ApiClient } = await import('../test/e2e/support/api.js');
    const root = new ApiClient(base);
    await root.login('root@bench.example', 'bench-password-1');
    const write = async (i: number) => {
      const res = await root.call('PUT', `/accounts/${seeded.account}/slides/${seeded.slides[i % seeded.slides.length]}`, { sl_subtitle: `Edited ${i}` });
      if (res.status !== 200) throw new Error(`PUT slide: ${res.status} ${JSON.stringify(res.body)}`);
    };
    const manifestPath = `/api/1/play/${seeded.code}`;

    for (let i = 0; i < 3; i++) {
      await write(i);
      await get(base, manifestPath);
    }
    const cold: number[] = [];
    for (let i = 0; i < runs; i++) {
      await write(i + 3);
      const r = await get(base, manifestPath, CHROMIUM);
      if (r.status !== 200) throw new Error(`GET manifest: ${r.status}`);
      cold.push(r.ms);
    }
    const warm: number[] = [];
    for (let i = 0; i < runs; i++) warm.push((await get(base, manifestPath, CHROMIUM)).ms);
    const plain = await get(base, manifestPath);
    const zipped = await get(base, manifestPath, { 'accept-encoding': 'gzip' });
    const brotli = await get(base, manifestPath, CHROMIUM);
    if (zlib.gunzipSync(zipped.bytes).toString() !== plain.bytes.toString() || zlib.brotliDecompressSync(brotli.bytes).toString() !== plain.bytes.toString())
      throw new Error('the encodings differ');
    const etag = String(zipped.headers.etag);
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    console.log(`  cold (a write before each GET): median ${median(cold).toFixed(1)} ms, p95 ${p95(cold).toFixed(1)} ms (${runs} runs)`);
    console.log(`  warm (from the cache):          median ${median(warm).toFixed(1)} ms, p95 ${p95(warm).toFixed(1)} ms`);
    console.log(
      `  size: ${kb(plain.bytes.length)} JSON, ${kb(brotli.bytes.length)} brotli (${brotli.headers['content-encoding']}), ${kb(zipped.bytes.length)} gzip (${zipped.headers['content-encoding']})`,
    );
    if (median(cold) > 50) console.log('  goal missed: cold median ≤ 50 ms');
    if (zipped.bytes.length > 300 * 1024) {
      console.log('  goal missed: ≤ 300 KB gzip');
      failed = true;
    }

    // 100 players polling every 60 s, compressed: 100 polls spread over 1 s, each answered 304
    const polls = async () => {
      const started = performance.now();
      const pending: Promise<{ status: number }>[] = [];
      for (let i = 0; i < players; i++) {
        const due = started + (i * 1000) / players;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        pending.push(get(base, manifestPath, { ...CHROMIUM, 'if-none-match': etag }));
      }
      return Promise.all(pending);
    };
    await polls(); // warm-up
    const cpu0 = await cpu();
    let notModified = 0;
    for (let r = 0; r < rounds; r++) notModified += (await polls()).filter((p) => p.status === 304).length;
    const cpuMs = (await cpu()) - cpu0;
    const total = players * rounds;
    const perPoll = cpuMs / total;
    const share = (perPoll / 1000) * (players / 60) * 100;
    console.log(`  ${total} polls with If-None-Match (${notModified} answered 304): server CPU ${perPoll.toFixed(3)} ms per poll`);
    console.log(`  ${players} players every 60 s: ${share.toFixed(3)} % of one core (goal < 2 %)`);
    if (notModified !== total) failed = true;
    if (share >= 2) {
      console.log('  goal missed: < 2 % of a core');
      failed = true;
    }
  } finally {
    server?.disconnect();
    server?.kill('SIGINT');
    await dropDb?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  if (failed) process.exitCode = 1;
}

if (values.child) await child();
else await main();
