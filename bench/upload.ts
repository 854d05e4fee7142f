// Upload benchmark: a 1 GB file through the local driver's signed PUT endpoint, against the same disk's plain write
// speed measured in the same run. The server runs in a child process (the real app: PGlite, sessions, the storage
// route) and its resident memory is sampled from /proc while the upload streams.
//
//   npx tsx bench/upload.ts [--mb 1024] [--runs 3] [--dir <directory on the disk to test>]
//   (BENCH_PROF=1 writes a CPU profile of the server to /tmp/ls-prof)
//
// Pass: the server's RSS grows by less than 64 MB in every run, and the upload reaches at least 50% of the plain
// write speed (median of the per-run ratios). Both sides write with fsync before close, as the upload endpoint does;
// they alternate, so a busy machine slows both.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const SECRET = 'bench-upload-secret-'.padEnd(48, 'x');
const CHUNK = 4 * 1024 * 1024;
const MEMORY_LIMIT_MB = 64;
const SPEED_RATIO = 0.5;

/** Child: the app on a free port, printing its port once ready. */
async function serve(): Promise<void> {
  const { loadConfig } = await import('../api/config.js');
  const { createApp } = await import('../api/app.js');
  const { createHttpServer } = await import('../api/httpServer.js');
  const { openDatabase, prepareDatabase } = await import('../api/db/bootstrap.js');
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const db = openDatabase(config);
  await prepareDatabase(db);
  const { app } = createApp({ db, config, log: () => undefined });
  const server = createHttpServer(app).listen(0, '127.0.0.1', () => {
    process.stdout.write(`ready ${(server.address() as { port: number }).port}\n`);
  });
  process.on('SIGTERM', () => {
    server.close();
    void db.destroy().finally(() => process.exit(0));
  });
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** 4 MB of random bytes that starts like a PNG, so the type check accepts it; repeated to the wanted size. */
function payload(): Buffer {
  const buf = crypto.randomBytes(CHUNK);
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64').copy(buf);
  return buf;
}

async function plainWrite(file: string, bytes: number, data: Buffer): Promise<number> {
  const start = performance.now();
  const out = fs.createWriteStream(file, { flags: 'wx', flush: true, highWaterMark: 1 << 20 });
  for (let sent = 0; sent < bytes; sent += CHUNK) {
    if (!out.write(data.subarray(0, Math.min(CHUNK, bytes - sent)))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
  return performance.now() - start;
}

async function upload(port: number, url: string, bytes: number, data: Buffer, child: ChildProcess): Promise<{ ms: number; peakRss: number }> {
  let peakRss = rssMb(child.pid!);
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(child.pid!))), 20);
  const start = performance.now();
  const u = new URL(url);
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'PUT', path: u.pathname + u.search, headers: { 'Content-Length': bytes } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    (async () => {
      for (let sent = 0; sent < bytes; sent += CHUNK) {
        if (!req.write(data.subarray(0, Math.min(CHUNK, bytes - sent)))) await once(req, 'drain');
      }
      req.end();
    })().catch(reject);
  });
  const ms = performance.now() - start;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, rssMb(child.pid!));
  if (status !== 200) throw new Error(`upload answered ${status}`);
  return { ms, peakRss };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { mb: { type: 'string', default: '1024' }, runs: { type: 'string', default: '3' }, dir: { type: 'string' } } });
  const bytes = Number(values.mb) * 1024 * 1024;
  const runs = Number(values.runs);
  const base = values.dir ? path.resolve(values.dir) : os.tmpdir();
  const dataDir = fs.mkdtempSync(path.join(base, 'ls-bench-upload-'));
  const { signUpload } = await import('../api/storage/signing.js');
  const { objectKey, newFilesPath } = await import('../api/storage/keys.js');

  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/ls-prof'] : []), '--import', 'tsx', fileURLToPath(import.meta.url), '--serve'],
    {
      env: { ...process.env, DATA_DIR: dataDir, SESSION_SECRET: SECRET, STORAGE_DRIVER: 'local', STORAGE_MAX_FILE_BYTES: String(bytes * 2) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /ready (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code})`)));
  });

  const data = payload();
  const signed = () => {
    const id = crypto.randomUUID();
    const key = objectKey(newFilesPath(), id);
    const qs = signUpload(SECRET, { key, expires: Math.floor(Date.now() / 1000) + 3600, maxBytes: bytes * 2 });
    return { key, url: `http://127.0.0.1:${port}/storage/${key}?${qs}` };
  };
  const storageFile = (key: string) => path.join(dataDir, 'storage', key);

  console.log(`Upload benchmark: ${values.mb} MB through PUT /storage/<key> (local driver), ${runs} runs, disk under ${base}`);
  console.log(`node ${process.version}, ${os.cpus().length} CPUs, ${Math.round(os.totalmem() / 2 ** 30)} GB RAM`);
  try {
    // Warm-up: a small upload loads every module the route uses, so the baseline RSS is the steady state.
    for (let i = 0; i < 3; i++) {
      const w = signed();
      await upload(port, w.url, 8 * 1024 * 1024, data, child);
      fs.rmSync(storageFile(w.key));
    }
    const ratios: number[] = [];
    const growths: number[] = [];
    const speeds: { disk: number; upload: number }[] = [];
    for (let r = 1; r <= runs; r++) {
      const plain = path.join(dataDir, `plain-${r}.bin`);
      const diskMs = await plainWrite(plain, bytes, data);
      fs.rmSync(plain);
      await new Promise((res) => setTimeout(res, 500));
      const before = rssMb(child.pid!);
      const s = signed();
      const up = await upload(port, s.url, bytes, data, child);
      const stored = fs.statSync(storageFile(s.key)).size;
      if (stored !== bytes) throw new Error(`stored ${stored} bytes, sent ${bytes}`);
      fs.rmSync(storageFile(s.key));
      const disk = bytes / 2 ** 20 / (diskMs / 1000);
      const upl = bytes / 2 ** 20 / (up.ms / 1000);
      speeds.push({ disk, upload: upl });
      ratios.push(upl / disk);
      growths.push(up.peakRss - before);
      console.log(
        `  run ${r}: disk ${disk.toFixed(0)} MB/s, upload ${upl.toFixed(0)} MB/s (${((upl / disk) * 100).toFixed(0)}%), ` +
          `server RSS ${before.toFixed(0)} MB -> peak ${up.peakRss.toFixed(0)} MB (+${(up.peakRss - before).toFixed(1)} MB)`,
      );
    }
    const ratio = median(ratios);
    const growth = median(growths);
    const maxGrowth = Math.max(...growths);
    console.log(
      `median: disk ${median(speeds.map((s) => s.disk)).toFixed(0)} MB/s, upload ${median(speeds.map((s) => s.upload)).toFixed(0)} MB/s, ` +
        `ratio ${(ratio * 100).toFixed(0)}% (need >= ${SPEED_RATIO * 100}%); RSS growth median ${growth.toFixed(1)} MB, max ${maxGrowth.toFixed(1)} MB (need < ${MEMORY_LIMIT_MB} MB)`,
    );
    const ok = ratio >= SPEED_RATIO && maxGrowth < MEMORY_LIMIT_MB;
    console.log(ok ? 'PASS' : 'FAIL');
    process.exitCode = ok ? 0 : 1;
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit').catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--serve')) await serve();
else await main();
