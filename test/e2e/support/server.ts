import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const DIST_INDEX = path.join(ROOT, 'admin', 'dist', 'index.html');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds admin/dist when it is missing or older than admin/src, resources/ or the Vite config (once per run). */
export function ensureAdminBuilt(): void {
  const sources = Math.max(
    newestMtime(path.join(ROOT, 'admin', 'src')),
    newestMtime(path.join(ROOT, 'resources')),
    fs.statSync(path.join(ROOT, 'admin', 'index.html')).mtimeMs,
    fs.statSync(path.join(ROOT, 'admin', 'vite.config.ts')).mtimeMs,
  );
  if (fs.existsSync(DIST_INDEX) && fs.statSync(DIST_INDEX).mtimeMs >= sources) return;
  const run = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'admin/vite.config.ts', '--logLevel', 'warn'], {
    cwd: ROOT,
    encoding: 'utf8',
    // Vitest sets NODE_ENV=test, which would make Vite bundle React's development builds.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (run.status !== 0) throw new Error(`admin build failed:\n${run.stdout}\n${run.stderr}`);
}

function freePort(): Promise<number> {
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
  /** Raw .eml files of the outbox, oldest first. */
  outbox(): { file: string; text: string }[];
  stop(): Promise<void>;
}

/** Starts the real server (`tsx api/server.ts`) on a free port with its own PGlite data directory. */
export async function startServer(env: Record<string, string> = {}): Promise<E2eServer> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-e2e-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const adminEmail = 'root@e2e.example.com';
  const adminPassword = 'root-password-e2e';
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'api/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      ADMIN_EMAIL: adminEmail,
      ADMIN_PASSWORD: adminPassword,
      SESSION_SECRET: 'e2e-session-secret-'.padEnd(48, 'x'),
      SMTP_URL: '',
      LOG_LEVEL: 'silent',
      ...env,
    },
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
      const res = await fetch(`${baseUrl}/api/1/auth/me`);
      if (res.status === 401) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start in time:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }

  return {
    baseUrl,
    dataDir,
    adminEmail,
    adminPassword,
    outbox() {
      const dir = path.join(dataDir, 'outbox');
      if (!fs.existsSync(dir)) return [];
      return fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.eml'))
        .sort()
        .map((file) => ({ file, text: fs.readFileSync(path.join(dir, file), 'utf8') }));
    },
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      fs.rmSync(dataDir, { recursive: true, force: true });
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
