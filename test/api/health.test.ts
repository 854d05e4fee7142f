import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../api/app.js';
import { createHttpServer } from '../../api/httpServer.js';
import { loadConfig, type Config } from '../../api/config.js';
import { upsertUser } from '../../api/db/bootstrap.js';
import { createKnex } from '../../api/db/knex.js';
import { createLogger } from '../../api/log.js';
import { S3Driver, storageOf } from '../../api/storage/index.js';
import { CHECK_TIMEOUT_MS } from '../../api/routes/health.js';
import { MISSING, PASSWORD, startApp, TestClient, type TestApp } from '../helpers/app.js';
import { createTestDb, describeEachDb, type DbKind, type TestDb } from '../helpers/db.js';
import { startS3, storageConfig, type S3Server } from '../helpers/storage.js';

const TOKEN = 'metrics-token-for-tests';
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const sessionRows = async (db: Knex) => Number((await db('sessions').count({ n: '*' }).first())?.n);

/** The value of one sample line of a Prometheus exposition, or undefined when there is no such line. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return undefined;
}

/** An app whose JSON log lines are kept in memory (the usual test apps log nothing). */
async function startLoggedApp(kind: DbKind, level: Config['logLevel'] = 'info') {
  const testDb = await createTestDb(kind);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-health-'));
  const config = loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: 'test-secret-'.padEnd(40, 'x'), LOG_LEVEL: level, PUBLIC_URL: 'http://localhost:3000' });
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger(config, { write: (s: string) => void lines.push(JSON.parse(s)) });
  const { app, context } = createApp({ db: testDb.db, config, logger });
  const server = await listen(app);
  return {
    db: testDb.db,
    context,
    server,
    lines,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await testDb.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function listen(app: import('express').Express): Promise<Server> {
  return new Promise((resolve) => {
    const s = createHttpServer(app).listen(0, '127.0.0.1', () => resolve(s));
  });
}

/** A TCP relay to PostgreSQL; close() shuts its port and cuts every relayed connection (the database is gone). */
async function startRelay(target: URL): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return {
    port: (relay.address() as AddressInfo).port,
    async close() {
      const closed = new Promise((resolve) => relay.close(resolve));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

describeEachDb('health, readiness and metrics', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { metricsToken: TOKEN });
  });
  afterAll(() => t?.close());

  it('GET /healthz answers 200 {status: ok}, sets no cookie and stores no session', async () => {
    const before = await sessionRows(t.db);
    const res = await request(t.server).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['x-request-id']).toMatch(UUID_RE);
    expect(await sessionRows(t.db)).toBe(before);
  });

  it('GET /readyz answers 200 with the database and the storage checked, sets no cookie and stores no session', async () => {
    const before = await sessionRows(t.db);
    const res = await request(t.server).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'ok', storage: 'ok' } });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await sessionRows(t.db)).toBe(before);
  });

  it('GET /readyz answers 503 naming the storage when the local storage directory is gone', async () => {
    const root = path.join(t.dataDir, 'storage');
    expect((await request(t.server).get('/readyz')).status).toBe(200); // the driver exists and its directory with it
    fs.rmSync(root, { recursive: true, force: true });
    try {
      const res = await request(t.server).get('/readyz');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'unavailable', checks: { database: 'ok', storage: 'failed' } });
    } finally {
      fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
    }
    expect((await request(t.server).get('/readyz')).status).toBe(200);
  });

  it('GET /readyz answers 503 "timeout" within the bound when no database connection comes free', async () => {
    const pool = (t.db.client as { pool: { max: number } }).pool;
    // Every connection of the pool busy in an open transaction: a `select 1` waits for one.
    const held = await Promise.all(Array.from({ length: pool.max }, () => t.db.transaction()));
    try {
      const started = Date.now();
      const res = await request(t.server).get('/readyz');
      const took = Date.now() - started;
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'unavailable', checks: { database: 'timeout', storage: 'ok' } });
      expect(took).toBeGreaterThanOrEqual(CHECK_TIMEOUT_MS - 50);
      expect(took).toBeLessThan(CHECK_TIMEOUT_MS + 1500);
    } finally {
      await Promise.all(held.map((trx) => trx.rollback()));
    }
    expect((await request(t.server).get('/readyz')).status).toBe(200);
  });

  it('GET /metrics: 401 without a token or with a wrong one', async () => {
    const none = await request(t.server).get('/metrics');
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('invalid_token');
    expect(none.headers['www-authenticate']).toBe('Bearer');
    const wrong = await request(t.server).get('/metrics').set('Authorization', `Bearer ${TOKEN}x`);
    expect(wrong.status).toBe(401);
    expect(wrong.text).not.toMatch(/http_request_duration_seconds/);
    const basic = await request(t.server)
      .get('/metrics')
      .set('Authorization', `Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}`);
    expect(basic.status).toBe(401);
  });

  it('GET /metrics with the token: request durations by route pattern (never the raw URL), pool, sessions, process', async () => {
    const root = await t.signedIn('root');
    const { a_id } = await t.account('Metrics Co');
    expect((await root.get(`/api/1/users/${MISSING}`)).status).toBe(404);
    expect((await root.get(`/api/1/users/${MISSING}`)).status).toBe(404);
    expect((await root.get(`/api/1/accounts/${a_id}/users/${MISSING}`)).status).toBe(404);
    expect((await root.get(`/api/1/accounts/${a_id}`)).status).toBe(200);
    expect((await request(t.server).get(`/api/1/no/such/${MISSING}`)).status).toBe(404);

    const before = await sessionRows(t.db);
    const res = await request(t.server).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await sessionRows(t.db)).toBe(before);
    const text = res.text;

    const count = (route: string, status: string) => sample(text, 'http_request_duration_seconds_count', { method: 'GET', route, status_code: status });
    expect(count('/api/1/users/:id', '404')).toBe(2);
    expect(count('/api/1/accounts/:accountId/users/:id', '404')).toBe(1);
    expect(count('/api/1/accounts/:id', '200')).toBe(1);
    expect(count('unmatched', '404')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'http_request_duration_seconds_bucket', { method: 'GET', route: '/api/1/users/:id', status_code: '404', le: '+Inf' })).toBe(2);
    expect(text).not.toContain(MISSING);
    expect(text).not.toContain(a_id);

    const unexpired = Number((await t.db('sessions').where('s_expires_at', '>', new Date()).count({ n: '*' }).first())?.n);
    expect(unexpired).toBeGreaterThan(0);
    expect(sample(text, 'sessions_active')).toBe(unexpired);
    const max = (t.db.client as { pool: { max: number } }).pool.max;
    expect(sample(text, 'db_pool_max_connections')).toBe(max);
    expect(sample(text, 'db_pool_connections', { state: 'used' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'db_pool_connections', { state: 'free' })).toBeLessThanOrEqual(max);
    expect(sample(text, 'db_pool_pending_acquires')).toBe(0);
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });

  it('echoes a safe X-Request-Id, replaces an unsafe one, and a 500 body carries the same id as its header', async () => {
    const kept = await request(t.server).get('/healthz').set('X-Request-Id', 'lb-7f3a.42:1');
    expect(kept.headers['x-request-id']).toBe('lb-7f3a.42:1');
    for (const unsafe of ['a b', 'x'.repeat(65), '{"level":"fatal"}']) {
      const res = await request(t.server).get('/healthz').set('X-Request-Id', unsafe);
      expect(res.headers['x-request-id'], unsafe).toMatch(UUID_RE);
    }

    const root = await t.signedIn('root');
    const fault = vi.spyOn(storageOf(t.context), 'signUpload').mockRejectedValueOnce(new Error('storage backend exploded'));
    try {
      const res = await root.post('/api/1/storage/sign', { ids: [crypto.randomUUID()], destination: null });
      expect(res.status).toBe(500);
      expect(res.body.code).toBe('unknown_error');
      expect(res.body.requestId).toMatch(UUID_RE);
      expect(res.body.requestId).toBe(res.headers['x-request-id']);
      expect(JSON.stringify(res.body)).not.toContain('exploded');
    } finally {
      fault.mockRestore();
    }
  });

  it('GET /readyz answers 503 naming the database once it is gone', async () => {
    // An app of its own: the database under it goes away (PostgreSQL: its port closes; PGlite: it is closed).
    const testDb: TestDb = await createTestDb(kind);
    const relay = kind === 'postgres' ? await startRelay(new URL(testDb.url!)) : undefined;
    let db: Knex = testDb.db;
    if (relay) {
      const url = new URL(testDb.url!);
      url.hostname = '127.0.0.1';
      url.port = String(relay.port);
      db = createKnex({ databaseUrl: url.toString() });
    }
    const { app } = createApp({ db, config: t.config, log: () => undefined });
    const server = await listen(app);
    try {
      expect((await request(server).get('/readyz')).body.checks.database).toBe('ok');
      // A request through the session middleware: its store has finished its start-up query before the cut.
      expect((await request(server).get('/api/1/auth/me')).status).toBe(401);
      if (relay) await relay.close();
      else await db.destroy();
      const res = await request(server).get('/readyz');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'unavailable', checks: { database: 'failed', storage: 'ok' } });
      expect((await request(server).get('/healthz')).status).toBe(200);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      if (relay) await db.destroy();
      await testDb.drop();
    }
  });

  it('logs JSON lines: the request id on every line of a request (also from services), no cookie, CSRF token or password', async () => {
    const l = await startLoggedApp(kind);
    try {
      const { user } = await upsertUser(l.db, { email: 'logged@example.com', password: PASSWORD, role: 'member' });
      const c = new TestClient(l.server);
      const login = await c.post('/api/1/auth/web', { u_email: 'logged@example.com', u_password: PASSWORD }, { headers: { 'X-Request-Id': 'login-1' } });
      expect(login.status).toBe(200);
      const me = await c.get('/api/1/auth/me', { headers: { 'X-Request-Id': 'me-1' } });
      expect(me.status).toBe(200);
      const reset = await c.post('/api/1/auth/forgot-password', { u_email: 'logged@example.com' }, { headers: { 'X-Request-Id': 'reset-1' } });
      expect(reset.status).toBe(200);
      await request(l.server).get('/healthz');
      await request(l.server).get('/users/resetpassword?token=secret-reset-token');

      const text = JSON.stringify(l.lines);
      const loginLine = l.lines.find((x) => x.reqId === 'login-1' && x.msg === 'request completed') as {
        req: { method: string; url: string; remoteAddress: string; headers?: unknown };
        res: { statusCode: number };
        responseTime: number;
        level: string;
      };
      expect(loginLine).toBeTruthy();
      expect(loginLine.level).toBe('info');
      expect(loginLine.req.method).toBe('POST');
      expect(loginLine.req.url).toBe('/api/1/auth/web');
      expect(loginLine.req.remoteAddress).toMatch(/127\.0\.0\.1/);
      expect(loginLine.res.statusCode).toBe(200);
      expect(typeof loginLine.responseTime).toBe('number');
      // No request headers (their cookies, CSRF token and authorization), only what a request is looked up by.
      expect(loginLine.req.headers).toBeUndefined();
      // A signed-in request's line names its user.
      const meLine = l.lines.find((x) => x.reqId === 'me-1' && x.msg === 'request completed');
      expect(meLine?.userId).toBe(user.u_id);
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(c.csrf!);
      expect(text).not.toContain(c.cookies.get('ls.sid')!);
      expect(text).not.toContain('secret-reset-token');

      // The mailer logs through AppContext.log deep inside the request: its line carries the request's id.
      const mailLine = l.lines.find((x) => typeof x.msg === 'string' && x.msg.startsWith('mail: resetpassword'));
      expect(mailLine?.reqId).toBe('reset-1');
      // Probes are not logged at info.
      expect(l.lines.some((x) => (x.req as { url?: string } | undefined)?.url === '/healthz')).toBe(false);

      const fault = vi.spyOn(l.context.limiter, 'hit').mockRejectedValueOnce(new Error('limiter store exploded'));
      try {
        const res = await c.post('/api/1/auth/forgot-password', { u_email: 'logged@example.com' });
        expect(res.status).toBe(500);
        const id = res.headers['x-request-id'];
        expect(res.body.requestId).toBe(id);
        const errorLine = l.lines.find((x) => x.reqId === id && x.level === 'error' && x.err) as { err: { message: string; stack: string } };
        expect(errorLine.err.message).toBe('limiter store exploded');
        expect(errorLine.err.stack).toMatch(/limiter store exploded\n\s+at /);
        const done = l.lines.find((x) => x.reqId === id && (x.res as { statusCode?: number } | undefined)?.statusCode === 500);
        expect(done?.level).toBe('error');
      } finally {
        fault.mockRestore();
      }
    } finally {
      await l.close();
    }
  });

  it('at LOG_LEVEL=warn no request line is written, yet a 500 is logged at error with the id of its answer', async () => {
    const l = await startLoggedApp(kind, 'warn');
    try {
      const ok = await request(l.server).get('/api/1/auth/me');
      expect(ok.headers['x-request-id']).toMatch(UUID_RE);
      expect(l.lines).toEqual([]);
      const fault = vi.spyOn(l.context.limiter, 'hit').mockRejectedValueOnce(new Error('limiter store exploded'));
      try {
        const c = new TestClient(l.server);
        const res = await c.post('/api/1/auth/forgot-password', { u_email: 'warn@example.com' });
        expect(res.status).toBe(500);
        expect(res.body.requestId).toBe(res.headers['x-request-id']);
        const errorLine = l.lines.find((x) => x.level === 'error') as { msg: string; err: { message: string } };
        expect(errorLine.msg).toContain(res.body.requestId);
        expect(errorLine.err.message).toBe('limiter store exploded');
      } finally {
        fault.mockRestore();
      }
    } finally {
      await l.close();
    }
  });
});

describe('metrics exposure (configuration, database-independent) [pglite]', () => {
  it('GET /metrics is 404 on the public port when no token is configured', async () => {
    const t = await startApp('pglite');
    try {
      const res = await request(t.server).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    } finally {
      await t.close();
    }
  });

  it('with METRICS_PORT, /metrics is served on that port only (404 on the public port even with the token)', async () => {
    const testDb = await createTestDb('pglite');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-health-'));
    const config = loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: 'x'.repeat(40), LOG_LEVEL: 'silent', METRICS_TOKEN: TOKEN, METRICS_PORT: '9464' });
    expect(config.metricsPort).toBe(9464);
    expect(config.metricsToken).toBe(TOKEN);
    const { app, metrics } = createApp({ db: testDb.db, config, log: () => undefined });
    const server = await listen(app);
    const internal = await metrics.listen(0, '127.0.0.1');
    try {
      expect((await request(server).get('/healthz')).status).toBe(200);
      const pub = await request(server).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
      expect(pub.status).toBe(404);
      const res = await request(internal).get('/metrics');
      expect(res.status).toBe(200);
      expect(sample(res.text, 'http_request_duration_seconds_count', { method: 'GET', route: '/healthz', status_code: '200' })).toBe(1);
      expect((await request(internal).get('/healthz')).status).toBe(404);
    } finally {
      await new Promise((resolve) => internal.close(resolve));
      await new Promise((resolve) => server.close(resolve));
      await testDb.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('readiness with S3 storage [pglite]', () => {
  let s3: S3Server | undefined;
  let t: TestApp;
  beforeAll(async () => {
    s3 = await startS3();
    t = await startApp('pglite', storageConfig('s3', s3));
  });
  afterAll(async () => {
    await storageOf(t.context).close();
    await t?.close();
    await s3?.close();
  });

  it('is ready while the bucket answers; a missing bucket fails the check', async () => {
    const ok = await request(t.server).get('/readyz');
    expect(ok.body).toEqual({ status: 'ok', checks: { database: 'ok', storage: 'ok' } });
    const missing = new S3Driver({ ...t.config.storage.s3, bucket: 'no-such-bucket' });
    try {
      await expect(missing.check()).rejects.toThrow();
    } finally {
      await missing.close();
    }
  });

  it('answers 503 naming the storage once the store is gone', async () => {
    await s3!.close();
    s3 = undefined;
    const res = await request(t.server).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'unavailable', checks: { database: 'ok', storage: 'failed' } });
  });
});
