// Chaos: the real server under load while PostgreSQL itself restarts (`pg_ctlcluster <version> main restart`).
// npx tsx bench/chaos.ts [--seconds 20] [--restart-at 5]   (needs BENCH_DATABASE_URL or TEST_DATABASE_URL on the local
// cluster, and the right to restart it: run it as root on a development machine, never next to other work.)
//
// It starts `api/server.ts` in a child process on a database of its own, signs 20 clients in, and keeps them asking
// GET /api/1/auth/me (session + user) and a users page in a loop. At --restart-at seconds it restarts the cluster. It
// reports: answers by status during the outage, the longest answer, the seconds from the restart command's return to
// the first 200 again, whether the server process survived, and whether the sessions made before still work.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { signIn } from './support/session.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    'restart-at': { type: 'string', default: '5' },
    clients: { type: 'string', default: '20' },
    'down-seconds': { type: 'string', default: '0' },
  },
});
// --down-seconds N: stop the cluster, wait N seconds, start it (a longer outage than a restart).
const down = Number(values['down-seconds']);
const baseUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
if (!baseUrl) {
  console.log('skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to the local PostgreSQL cluster');
  process.exit(0);
}
const version = fs.existsSync('/etc/postgresql') ? fs.readdirSync('/etc/postgresql')[0] : undefined;
if (!version || process.getuid?.() !== 0) {
  console.log('skipped: needs root and a local cluster under /etc/postgresql (pg_ctlcluster)');
  process.exit(0);
}

const name = `ls_chaos_${crypto.randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: baseUrl });
await admin.connect();
await admin.query(`create database ${name}`);
await admin.end();
const dbUrl = new URL(baseUrl);
dbUrl.pathname = `/${name}`;

const port = await new Promise<number>((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => {
    const p = (s.address() as net.AddressInfo).port;
    s.close(() => resolve(p));
  });
});
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-chaos-'));
const server = spawn(process.execPath, [path.resolve('node_modules/tsx/dist/cli.mjs'), 'api/server.ts'], {
  env: {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: dbUrl.toString(),
    ADMIN_EMAIL: 'chaos@example.com',
    ADMIN_PASSWORD: 'chaos-password',
    LOG_LEVEL: 'silent',
    LOGIN_LIMIT_PER_IP: '100000',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
let exited: number | null = null;
server.on('exit', (code) => (exited = code ?? -1));
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  if (exited !== null) throw new Error('server exited at start');
  if (
    await fetch(`${base}/api/1/auth/me`).then(
      () => true,
      () => false,
    )
  )
    break;
  await new Promise((r) => setTimeout(r, 200));
}

const cookies = await Promise.all(Array.from({ length: Number(values.clients) }, async () => (await signIn(base, 'chaos@example.com', 'chaos-password')).cookie));

type Sample = { start: number; end: number; status: number };
const samples: Sample[] = [];
const t0 = Date.now();
const stopAt = t0 + Number(values.seconds) * 1000;
const urls = ['/api/1/auth/me', '/api/1/users?range=[0,24]&sort=["u_email","ASC"]'];
const loops = cookies.map(async (cookie, i) => {
  for (let n = 0; Date.now() < stopAt; n++) {
    const start = Date.now();
    const status = await fetch(base + urls[(i + n) % 2], { headers: { cookie }, signal: AbortSignal.timeout(15000) }).then(
      async (r) => (await r.arrayBuffer(), r.status),
      () => 0,
    );
    samples.push({ start, end: Date.now(), status });
    if (status !== 200) await new Promise((r) => setTimeout(r, 50));
  }
});
await new Promise((r) => setTimeout(r, Number(values['restart-at']) * 1000));
const restartStart = Date.now();
const ctl = (action: string) => spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', action], { encoding: 'utf8' });
let restart: ReturnType<typeof ctl>;
if (down > 0) {
  restart = ctl('stop');
  await new Promise((r) => setTimeout(r, down * 1000));
  if (restart.status === 0) restart = ctl('start');
} else {
  restart = ctl('restart');
}
const restartEnd = Date.now();
if (restart.status !== 0) console.log(`restart failed: ${restart.stderr}`);
await Promise.all(loops);

const during = samples.filter((s) => s.end >= restartStart && s.start <= restartEnd);
const byStatus = (xs: Sample[]) =>
  Object.entries(xs.reduce<Record<string, number>>((m, s) => ((m[s.status] = (m[s.status] ?? 0) + 1), m), {}))
    .map(([k, v]) => `${k === '0' ? 'no answer' : k}: ${v}`)
    .join(', ');
const firstOk = samples.filter((s) => s.start >= restartEnd && s.status === 200).sort((a, b) => a.end - b.end)[0];
const failedAfter = samples.filter((s) => firstOk && s.start > firstOk.end + 1000 && s.status !== 200).length;
const stillSignedIn = (await Promise.all(cookies.map((cookie) => fetch(`${base}/api/1/auth/me`, { headers: { cookie } }).then((r) => r.status)))).filter((s) => s === 200).length;
console.log(`PostgreSQL ${version} ${down > 0 ? `stopped for ${down} s` : 'restart'} under load: ${cookies.length} clients, ${samples.length} requests in ${values.seconds} s`);
console.log(`  restart command took            ${((restartEnd - restartStart) / 1000).toFixed(2)} s`);
console.log(`  answers during the restart      ${byStatus(during)}`);
console.log(`  longest answer during it        ${Math.max(0, ...during.map((s) => s.end - s.start))} ms`);
console.log(`  first 200 after the restart     ${firstOk ? ((firstOk.end - restartEnd) / 1000).toFixed(2) : 'never'} s after the command returned`);
console.log(`  non-200 answers 1 s after that  ${failedAfter}`);
console.log(`  server process                  ${exited === null ? 'still running' : `exited with ${exited}`}`);
console.log(`  sessions still signed in        ${stillSignedIn}/${cookies.length}`);
console.log(`  answers overall                 ${byStatus(samples)}`);
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
const cleanup = new pg.Client({ connectionString: baseUrl });
await cleanup.connect();
await cleanup.query(`drop database if exists ${name} with (force)`);
await cleanup.end();
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(exited === null && firstOk && stillSignedIn === cookies.length && failedAfter === 0 ? 0 : 1);
