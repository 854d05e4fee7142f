import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDb, describeEachDb, type TestDb } from '../helpers/db.js';
import { bigPng } from '../helpers/storage.js';
import { ROOT } from '../e2e/support/server.js';
import { tsxArgs } from '../helpers/tsxProcess.js';

const ADMIN = { email: 'root@shutdown.example.com', password: 'root-password-shutdown' };
/** The server's promise: requests in flight get 10 s; the test allows start-up noise on top. */
const GRACE_MS = 10_000;

type LogLine = Record<string, unknown> & { msg?: string; reqId?: string; level?: string };

/** The real server (`node --import tsx api/server.ts`, as the e2e tests start it) on a port it picks, logging at info. */
class ServerProcess {
  child!: ChildProcess;
  stdout = '';
  stderr = '';
  port = 0;
  exit!: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** Resolved once the process has exited and its stdout and stderr are read to the end (its last lines included). */
  closed!: Promise<void>;

  constructor(
    readonly dataDir: string,
    readonly databaseUrl: string,
  ) {}

  async start(): Promise<void> {
    this.child = spawn(process.execPath, tsxArgs('api/server.ts'), {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: '0',
        PUBLIC_URL: 'http://127.0.0.1',
        DATA_DIR: this.dataDir,
        DATABASE_URL: this.databaseUrl,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        SESSION_SECRET: 'shutdown-session-secret-'.padEnd(48, 'x'),
        SMTP_URL: '',
        LOG_LEVEL: 'info',
        METRICS_TOKEN: '',
        METRICS_PORT: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (d) => (this.stdout += d));
    this.child.stderr!.on('data', (d) => (this.stderr += d));
    this.exit = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })));
    this.closed = new Promise((resolve) => this.child.once('close', () => resolve()));
    const listening = await this.waitFor((l) => typeof l.port === 'number', 90_000);
    this.port = listening.port as number;
  }

  lines(): LogLine[] {
    return this.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as LogLine);
  }

  async waitFor(match: (l: LogLine) => boolean, ms = 10_000): Promise<LogLine> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.lines().find(match);
      if (found) return found;
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        // Its last lines (written in a batch at exit, api/log.ts) may still be on their way: read them before judging.
        await this.closed;
        const last = this.lines().find(match);
        if (last) return last;
        const { code, signal } = await this.exit;
        throw new Error(`server exited (code ${code}, signal ${signal}):\n${this.stdout}\n${this.stderr}`);
      }
      if (Date.now() > deadline) throw new Error(`no such log line in time:\n${this.stdout}\n${this.stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }
}

/** fetch with a cookie jar and the CSRF header, like the admin. */
class Browser {
  cookies = new Map<string, string>();
  constructor(private baseUrl: string) {}

  async send(method: string, url: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { Cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
    const csrf = this.cookies.get('ls.csrf-token');
    if (csrf) headers['X-CSRF-Token'] = decodeURIComponent(csrf);
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(this.baseUrl + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      this.cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
    return res;
  }
}

/** A PUT that announces `total` bytes and sends only what the test writes, when it writes it. */
function slowPut(url: string, total: number) {
  const u = new URL(url);
  const req = http.request({ host: u.hostname, port: u.port, method: 'PUT', path: u.pathname + u.search, headers: { 'Content-Length': total } });
  const response = new Promise<{ status: number; body: string; requestId?: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body, requestId: res.headers['x-request-id'] as string | undefined }));
    });
    req.on('error', reject);
  });
  response.catch(() => undefined); // awaited by the test; a write failing first must not leave it unhandled
  const write = (chunk: Buffer) => new Promise<void>((resolve, reject) => req.write(chunk, (e) => (e ? reject(e) : resolve())));
  return { write, end: () => req.end(), response };
}

function connect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeEachDb('graceful shutdown of the real server', (kind) => {
  let testDb: TestDb | undefined;
  let server: ServerProcess;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-shutdown-'));
    // PostgreSQL: a fresh database the server migrates itself; PGlite: its files under DATA_DIR.
    if (kind === 'postgres') testDb = await createTestDb('postgres');
    server = new ServerProcess(dataDir, testDb?.url ?? '');
    await server.start();
  });
  afterAll(async () => {
    if (server?.child && server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await server.exit;
    }
    await testDb?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // Left open on purpose: the shutdown below must close it (idle) and still exit within its grace.
  let idle: net.Socket | undefined;

  it("keeps an idle keep-alive connection open past Node's default 5 s: a proxy's next request on it is answered", async () => {
    idle = net.connect(server.port, '127.0.0.1');
    let received = '';
    let closed = false;
    idle.on('data', (d) => (received += String(d)));
    idle.on('close', () => (closed = true));
    const ask = async () => {
      received = '';
      idle!.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
      for (let i = 0; i < 100 && !/\r\n\r\n[\s\S]*\S/.test(received); i++) await sleep(20);
      return received;
    };
    expect(await ask()).toMatch(/^HTTP\/1\.1 200 /);
    await sleep(6000); // Node's default keepAliveTimeout (5 s) would have closed it by now
    expect(closed).toBe(false);
    expect(await ask()).toMatch(/^HTTP\/1\.1 200 /);
  }, 20_000);

  it('on SIGTERM refuses new connections, finishes the upload in flight (2xx, stored), closes the pool and exits 0', async () => {
    const browser = new Browser(server.baseUrl);
    await browser.send('GET', '/api/1/auth/me');
    const login = await browser.send('POST', '/api/1/auth/web', { u_email: ADMIN.email, u_password: ADMIN.password });
    expect(login.status).toBe(200);
    const id = crypto.randomUUID();
    const signed = await browser.send('POST', '/api/1/storage/sign', { ids: [id], destination: null });
    expect(signed.status).toBe(200);
    const [{ url, path: fsPath }] = (await signed.json()) as { url: string; path: string }[];

    // A signed upload whose bytes trickle in: the first part now, the rest only after the signal.
    const bytes = bigPng(96 * 1024);
    const upload = slowPut(server.baseUrl + url, bytes.length);
    await upload.write(bytes.subarray(0, 16 * 1024));
    const tmpDir = path.join(dataDir, 'storage', '.tmp');
    for (let i = 0; i < 200 && !(fs.existsSync(tmpDir) && fs.readdirSync(tmpDir).length); i++) await sleep(50);
    expect(fs.readdirSync(tmpDir)).toHaveLength(1); // the server is receiving it

    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    await server.waitFor((l) => typeof l.msg === 'string' && l.msg.startsWith('shutting down'));
    expect(await connect(server.port)).toBe('ECONNREFUSED');

    for (let sent = 16 * 1024; sent < bytes.length; sent += 16 * 1024) {
      await sleep(150);
      await upload.write(bytes.subarray(sent, sent + 16 * 1024));
    }
    upload.end();
    const res = await upload.response;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ code: 'ok', size: bytes.length });
    expect(fs.readFileSync(path.join(dataDir, 'storage', fsPath.slice(1), id)).equals(bytes)).toBe(true);

    const exit = await server.exit;
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.at - signalledAt).toBeLessThan(GRACE_MS);

    // Logs: JSON lines only; the upload's line carries the id the client got, without the URL's signature.
    const lines = server.lines();
    const put = lines.find((l) => l.reqId === res.requestId);
    expect(put).toMatchObject({ level: 'info', msg: 'request completed', res: { statusCode: 200 } });
    expect((put!.req as { method: string; url: string }).method).toBe('PUT');
    expect((put!.req as { url: string }).url).toMatch(/signature=\[redacted\]$/);
    expect(server.stdout).not.toContain(new URL(url, server.baseUrl).searchParams.get('signature'));
    for (const l of lines.filter((x) => x.req)) expect(l.reqId, JSON.stringify(l)).toMatch(/^[0-9a-f-]{36}$/);
    const done = lines.find((l) => l.msg === 'shut down');
    expect(done).toMatchObject({ level: 'info', forced: false });
    expect(lines.indexOf(put!)).toBeLessThan(lines.indexOf(done!));
  });
});
