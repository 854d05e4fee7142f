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
  const { openDatabase } = await import('../api/db/bootstrap.js');
  const config = loadConfig({ ...process.env, DATABASE_URL: values.url ?? '', LOG_LEVEL: 'silent', SESSION_SECRET: 'bench-'.padEnd(40, 'x'), DATA_DIR: values.data, SMTP_URL: '' });
  const db = openDatabase(config);
  const { app } = createApp({ db, config, log: () => undefined });
  const server = app.listen(0, '127.0.0.1', () => process.send!({ ready: (server.address() as { port: number }).port }));
  process.on('message', (m: { cpu?: boolean }) => m.cpu && process.send!({ cpu: process.cpuUsage() }));
  process.on('disconnect', () => process.exit(0));
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => sorted(xs)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)];
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
  const asset = (kind: 'image' | 'video', i: number) => ({
    as_accountid: a,
    as_title: `${kind} ${i}`,
    as_name: `${kind}-${i}`,
    as_fileid: crypto.randomUUID(),
    as_path: `/assets/${a}/2026/11`,
    as_filename: kind === 'image' ? `slide-${i}.jpg` : `clip-${i}.mp4`,
    as_type: kind === 'image' ? 'image/jpeg' : 'video/mp4',
    as_size: kind === 'image' ? 350_000 + i : 12_000_000 + i,
    as_sha256: hex(32),
    as_version: 1 + (i % 3),
    as_thumb_fileid: crypto.randomUUID(),
    as_thumb_type: 'image/jpeg',
  });
  const slideCount = carouselCount * slidesPer;
  const images: string[] = (
    await db('assets')
      .insert(Array.from({ length: slideCount + 6 }, (_, i) => asset('image', i)))
      .returning('as_id')
  ).map((r) => r.as_id);
  const videos: string[] = (
    await db('assets')
      .insert(Array.from({ length: Math.ceil(slideCount / 10) }, (_, i) => asset('video', i)))
      .returning('as_id')
  ).map((r) => r.as_id);
  const collections: string[] = (
    await db('collections')
      .insert(
        Array.from({ length: 5 }, (_, i) => ({ co_accountid: a, co_title: `Brochures ${i}`, co_name: `brochures-${i}`, co_token: crypto.randomBytes(16).toString('base64url') })),
      )
      .returning('co_id')
  ).map((r) => r.co_id);
  const carousels: string[] = (
    await db('carousels')
      .insert(Array.from({ length: carouselCount }, (_, i) => ({ c_accountid: a, c_title: `Carousel ${i + 1}`, c_name: `carousel-${i + 1}` })))
      .returning('c_id')
  ).map((r) => r.c_id);
  const variantRows = carousels.flatMap((c, i) => [
    {
      v_accountid: a,
      v_carouselid: c,
      v_title: 'Landscape',
      v_name: 'landscape',
      v_width: 1920,
      v_height: 1080,
      v_navigation_enabled: true,
      v_next_assetid: images[slideCount],
      v_next_x: 1800,
      v_next_y: 500,
      v_prev_assetid: images[slideCount + 1],
      v_prev_x: 20,
      v_prev_y: 500,
      v_home_assetid: images[slideCount + 2],
      v_home_x: 900,
      v_home_y: 980,
      v_screensaver_timeout_s: 120 + i,
    },
    { v_accountid: a, v_carouselid: c, v_title: 'Portrait', v_name: 'portrait', v_width: 1080, v_height: 1920, v_bgcolor: '#101820' },
  ]);
  const variants = (await db('variants').insert(variantRows).returning(['v_id', 'v_carouselid', 'v_name'])) as { v_id: string; v_carouselid: string; v_name: string }[];
  const variantOf = (c: string, name: string) => variants.find((v) => v.v_carouselid === c && v.v_name === name)!.v_id;
  const slideRows = carousels.flatMap((c, ci) =>
    Array.from({ length: slidesPer }, (_, si) => ({
      sl_accountid: a,
      sl_carouselid: c,
      sl_title: `Slide ${ci + 1}.${si + 1}`,
      sl_subtitle: 'A subtitle of a slide',
      sl_order: si,
      sl_duration_ms: si % 4 ? null : 10_000,
    })),
  );
  const slides = (await db('slides').insert(slideRows).returning(['sl_id', 'sl_carouselid'])) as { sl_id: string; sl_carouselid: string }[];
  // 5 layers a slide: landscape: a full-screen image, a hotspot to the next carousel, a QR code of a collection;
  // portrait: the image again and a video (or an iframe)
  const layerRows = slides.flatMap((s, i) => {
    const L = variantOf(s.sl_carouselid, 'landscape');
    const P = variantOf(s.sl_carouselid, 'portrait');
    const next = carousels[(carousels.indexOf(s.sl_carouselid) + 1) % carousels.length];
    const base = { ly_accountid: a, ly_slideid: s.sl_id };
    return [
      { ...base, ly_variantid: L, ly_type: 'image', ly_assetid: images[i], ly_order: 0, ly_width: 1920, ly_height: 1080, ly_title: 'Background' },
      { ...base, ly_variantid: L, ly_type: 'hotspot', ly_hotspot_carouselid: next, ly_order: 1, ly_x: 1500, ly_y: 800, ly_width: 300, ly_height: 200, ly_title: 'More' },
      {
        ...base,
        ly_variantid: L,
        ly_type: 'collectionqr',
        ly_collectionid: collections[i % collections.length],
        ly_order: 2,
        ly_x: 60,
        ly_y: 760,
        ly_width: 260,
        ly_height: 260,
        ly_qr_fg: '#000000',
        ly_qr_bg: '#ffffff',
      },
      { ...base, ly_variantid: P, ly_type: 'image', ly_assetid: images[i], ly_order: 0, ly_width: 1080, ly_height: 1920 },
      i % 10 === 0
        ? { ...base, ly_variantid: P, ly_type: 'video', ly_assetid: videos[i / 10], ly_order: 1, ly_y: 1200, ly_width: 1080, ly_height: 608, ly_loop: true }
        : { ...base, ly_variantid: P, ly_type: 'iframe', ly_iframe_url: `https://example.com/page/${i}`, ly_order: 1, ly_y: 1200, ly_width: 1080, ly_height: 608 },
    ];
  });
  for (let i = 0; i < layerRows.length; i += 500) await db('layers').insert(layerRows.slice(i, i + 500));
  const [group] = await db('carousel_groups').insert({ cg_accountid: a, cg_title: 'Hall 1', cg_standby_carouselid: carousels[0] }).returning('cg_id');
  await db('carousel_group_items').insert(carousels.map((c, i) => ({ gi_groupid: group.cg_id, gi_carouselid: c, gi_order: i })));
  const code = 'ACDEFGHJKMNP';
  await db('carousel_codes').insert({ cc_accountid: a, cc_groupid: group.cg_id, cc_code: code, cc_title: 'Totem 1' });
  return { account: a, code, slides: slides.map((s) => s.sl_id), layers: layerRows.length, assets: images.length + videos.length, userId: user.u_id };
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
