import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import knexFactory, { type Knex } from 'knex';
import { createKnex } from '../../../api/db/knex';
import { createDatabase, seedPgliteDir } from '../../helpers/db';
import { tsxArgs } from '../../helpers/tsxProcess.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const DIST_INDEX = path.join(ROOT, 'admin', 'dist', 'index.html');
const DIST_PUBLIC_FORM = path.join(ROOT, 'admin', 'dist', 'public-form.html');
const DIST_CAPTURE_APP = path.join(ROOT, 'admin', 'dist', 'app.html');
const DIST_PLAYER = path.join(ROOT, 'admin', 'dist', 'player.html');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds admin/dist (the admin, the public form page, the capture app, the player) when missing or older than its sources (once per run). */
export function ensureAdminBuilt(): void {
  const sources = Math.max(
    newestMtime(path.join(ROOT, 'admin', 'src')),
    newestMtime(path.join(ROOT, 'resources')),
    ...['index.html', 'public-form.html', 'app.html', 'player.html', 'vite.config.ts', 'vite.public-form.config.ts', 'vite.app.config.ts', 'vite.player.config.ts'].map(
      (f) => fs.statSync(path.join(ROOT, 'admin', f)).mtimeMs,
    ),
  );
  const built = [DIST_INDEX, DIST_PUBLIC_FORM, DIST_CAPTURE_APP, DIST_PLAYER].every((f) => fs.existsSync(f) && fs.statSync(f).mtimeMs >= sources);
  if (built) return;
  for (const config of ['admin/vite.config.ts', 'admin/vite.public-form.config.ts', 'admin/vite.app.config.ts', 'admin/vite.player.config.ts']) {
    const run = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', config, '--logLevel', 'warn'], {
      cwd: ROOT,
      encoding: 'utf8',
      // Vitest sets NODE_ENV=test, which would make Vite bundle React's development builds.
      env: { ...process.env, NODE_ENV: 'production' },
    });
    if (run.status !== 0) throw new Error(`admin build (${config}) failed:\n${run.stdout}\n${run.stderr}`);
  }
}

/** A port nobody listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface E2eServer {
  baseUrl: string;
  dataDir: string;
  adminEmail: string;
  adminPassword: string;
  /** PostgreSQL: the server's database URL (a database of its own); undefined on PGlite. */
  databaseUrl?: string;
  /** Raw .eml files of the outbox, oldest first. */
  outbox(): { file: string; text: string }[];
  /**
   * Runs `fn` on the server's database. PostgreSQL is read while the server runs; PGlite serves one process, so the
   * server pauses: it stops, `fn` runs on the data directory, and it starts again on the same port and data (sessions
   * live in the database, so a browser stays signed in).
   */
  withDb<T>(fn: (db: Knex) => Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** When TEST_DATABASE_URL is set, run on a PostgreSQL database of its own (created here, dropped at stop). */
  postgres?: boolean;
}

const ADMIN_EMAIL = 'root@e2e.example.com';
const ADMIN_PASSWORD = 'root-password-e2e';

/** Spawns `node --import tsx api/server.ts` (test/helpers/tsxProcess.ts) and waits until it answers; answers the child and how to wait for its exit. */
async function spawnServer(port: number, env: Record<string, string>): Promise<{ child: ChildProcess; exited: Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, tsxArgs('api/server.ts'), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/1/auth/me`);
      if (res.status === 401) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start in time:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { child, exited };
}

async function stopChild(running: { child: ChildProcess; exited: Promise<void> }): Promise<void> {
  running.child.kill('SIGTERM');
  const timer = setTimeout(() => running.child.kill('SIGKILL'), 10_000);
  await running.exited;
  clearTimeout(timer);
}

/**
 * Starts the real server (`node --import tsx api/server.ts`) on a free port with its own data directory (PGlite, outbox, storage)
 * unless `env.DATA_DIR` names one (then that directory is the caller's and stays).
 */
export async function startServer(env: Record<string, string> = {}, options: StartOptions = {}): Promise<E2eServer> {
  const port = await freePort();
  const ownDataDir = !env.DATA_DIR;
  const dataDir = env.DATA_DIR || fs.mkdtempSync(path.join(os.tmpdir(), 'ls-e2e-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  let databaseUrl = env.DATABASE_URL || undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  if (!databaseUrl && options.postgres && process.env.TEST_DATABASE_URL) {
    const url = new URL(process.env.TEST_DATABASE_URL);
    const name = `ls_e2e_${crypto.randomBytes(5).toString('hex')}`;
    const admin = knexFactory({ client: 'pg', connection: url.toString(), pool: { min: 0, max: 1 } });
    await createDatabase(admin, name);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      try {
        await admin.raw(`drop database if exists ${name} with (force)`);
      } finally {
        await admin.destroy();
      }
    };
  }
  // A copy of this run's migrated template, so the server starts without migrating (PostgreSQL: createDatabase above).
  if (!databaseUrl) seedPgliteDir(path.join(dataDir, 'db'));
  const serverEnv: Record<string, string> = {
    NODE_ENV: 'production',
    PORT: String(port),
    PUBLIC_URL: baseUrl,
    DATABASE_URL: '',
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    SESSION_SECRET: 'e2e-session-secret-'.padEnd(48, 'x'),
    SMTP_URL: '',
    LOG_LEVEL: 'silent',
    // Queued mail (api/mail/outbox.ts) goes out within half a second rather than the default poll's two.
    JOBS_POLL_MS: '500',
    ...env,
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  let running: { child: ChildProcess; exited: Promise<void> } | null = await spawnServer(port, serverEnv);
  let live: Knex | undefined;
  const liveDb = () => (live ??= knexFactory({ client: 'pg', connection: databaseUrl!, pool: { min: 0, max: 2 } }));

  return {
    baseUrl,
    dataDir,
    adminEmail: ADMIN_EMAIL,
    adminPassword: ADMIN_PASSWORD,
    databaseUrl,
    outbox() {
      const dir = path.join(dataDir, 'outbox');
      if (!fs.existsSync(dir)) return [];
      return fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.eml'))
        .sort()
        .map((file) => ({ file, text: fs.readFileSync(path.join(dir, file), 'utf8') }));
    },
    async withDb(fn) {
      if (databaseUrl) return fn(liveDb());
      if (running) await stopChild(running);
      running = null;
      const db = createKnex({ pgliteDir: path.join(dataDir, 'db') });
      try {
        return await fn(db);
      } finally {
        await db.destroy();
        running = await spawnServer(port, serverEnv);
      }
    },
    async stop() {
      if (running) await stopChild(running);
      running = null;
      await live?.destroy();
      await dropDatabase?.();
      if (ownDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The first link to `pathPrefix` in an .eml (quoted-printable soft breaks and =3D undone). */
export function linkFromMail(eml: string, pathPrefix: string): string | undefined {
  const text = eml.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const m = text.match(new RegExp(`https?://[^\\s"<>]*${pathPrefix.replace(/[/?]/g, (c) => `\\${c}`)}[^\\s"<>]*`));
  return m?.[0];
}

/** Waits until a mail to `to` matching `pattern` is in the outbox. */
export async function waitForMail(server: E2eServer, to: string, pattern: RegExp, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = server
      .outbox()
      .reverse()
      .find((m) => m.text.toLowerCase().includes(to.toLowerCase()) && pattern.test(m.text));
    if (mail) return mail.text;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${pattern}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
