// The server as it ships (api/server.ts: request logs, job workers, graceful shutdown), in a child process of its own
// on a port, as `npm start` runs it: `node dist/api/server.js` when built, else through tsx.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export { freePort } from '../../test/e2e/support/server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ShippedServer {
  child: ChildProcess;
  pid: number;
  base: string;
  /** SIGTERM, then waits for the exit (SIGKILL after 15 s). */
  stop(): Promise<void>;
}

/**
 * Starts the server on `port` with `env` over this process's environment; its stdout and stderr (the JSON request log
 * at LOG_LEVEL=info) go to `logFile`. `dist`: the compiled server (npm run build:server) instead of tsx; `nodeFlags`:
 * Node's options before it (to compare a setting; none as shipped). Resolves once
 * it answers GET /api/1/auth/me.
 */
export async function startShippedServer(port: number, env: Record<string, string>, logFile: string, dist = false, nodeFlags: string[] = []): Promise<ShippedServer> {
  // tsx as a loader of this node, not its CLI (which runs the server in a second process): the child's pid is the server's.
  const entry = [...nodeFlags, ...(dist ? [path.join(ROOT, 'dist', 'api', 'server.js')] : ['--import', 'tsx', 'api/server.ts'])];
  if (dist && !fs.existsSync(entry.at(-1)!)) throw new Error(`${entry.at(-1)} is missing: npm run build:server first`);
  const log = fs.openSync(logFile, 'a');
  // As shipped: npm start and the image give the server MALLOC_ARENA_MAX=2 (scripts/start.mjs, Dockerfile).
  const child = spawn(process.execPath, entry, {
    cwd: ROOT,
    env: { MALLOC_ARENA_MAX: '2', ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 120_000; ;) {
    if (child.exitCode !== null) throw new Error(`the server on port ${port} exited (${child.exitCode}); see ${logFile}`);
    const up = await fetch(`${base}/api/1/auth/me`).then(
      (r) => r.status === 401,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`the server on port ${port} did not answer in 120 s; see ${logFile}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    child,
    pid: child.pid!,
    base,
    stop: async () => {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
