import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { createApp } from '../../api/app.js';
import { createHttpServer } from '../../api/httpServer.js';
import { loadConfig } from '../../api/config.js';
import { upsertUser } from '../../api/db/bootstrap.js';
import { createKnex } from '../../api/db/knex.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { PASSWORD, TestClient } from '../helpers/app.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcpProxy.js';

/**
 * The database goes away under load (a TCP proxy between the app and PostgreSQL drops every connection and refuses
 * new ones for 3 s), then comes back. PGlite runs inside the process, so this is a PostgreSQL test.
 */
const skip = !process.env.TEST_DATABASE_URL;
(skip ? describe.skip : describe)(`database outage [postgres]${skip ? ' (skipped: TEST_DATABASE_URL not set)' : ''}`, () => {
  let testDb: TestDb;
  let proxy: TcpProxy;
  let server: Server;
  let appDb: ReturnType<typeof createKnex>;
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    testDb = await createTestDb('postgres');
    const url = new URL(testDb.url!);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    appDb = createKnex({ databaseUrl: url.toString(), poolMax: 10, log: () => undefined });
    const config = loadConfig({ DATA_DIR: '/tmp/ls-outage', SESSION_SECRET: 'outage-secret-'.padEnd(40, 'x'), LOG_LEVEL: 'silent', LOGIN_LIMIT_PER_IP: '100000' });
    const { app } = createApp({ db: appDb, config, log: () => undefined });
    server = await new Promise<Server>((resolve) => {
      const s = createHttpServer(app).listen(0, '127.0.0.1', () => resolve(s));
    });
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await new Promise((r) => server?.close(r));
    await appDb?.destroy();
    await proxy?.close();
    await testDb?.drop();
  });

  it('answers 503 database_unavailable quickly while it is gone, never exits, and recovers within 1 s with sessions intact', async () => {
    await upsertUser(testDb.db, { email: 'outage@example.com', password: PASSWORD, role: 'root' });
    const clients = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const c = new TestClient(server);
        await c.login('outage@example.com', PASSWORD);
        return c;
      }),
    );
    type Sample = { start: number; end: number; status: number; code?: string; retryAfter?: string };
    const samples: Sample[] = [];
    let running = true;
    const { u_id } = await testDb.db('users').where('u_email', 'outage@example.com').first('u_id');
    // a record by id too: its read runs on a pooled connection without knex's runner (api/db/firstRow.ts)
    const urls = ['/api/1/auth/me', '/api/1/users?range=[0,9]&sort=["u_email","ASC"]', '/api/1/accounts', `/api/1/users/${u_id}`];
    const loops = clients.map(async (c, i) => {
      for (let n = 0; running; n++) {
        const start = Date.now();
        const res = await c.get(urls[(i + n) % urls.length]);
        samples.push({ start, end: Date.now(), status: res.status, code: res.body?.code, retryAfter: res.headers['retry-after'] });
        if (res.status !== 200) await new Promise((r) => setTimeout(r, 20));
      }
    });
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    await sleep(1000);
    const cutAt = Date.now();
    await proxy.cut();
    await sleep(1500);
    const page = await request(server).get('/login'); // a visitor's page needs no database
    expect(page.status).toBe(200);
    await sleep(1500);
    const restoredAt = Date.now();
    await proxy.restore();
    await sleep(2500);
    running = false;
    await Promise.all(loops);

    const before = samples.filter((s) => s.end < cutAt);
    const during = samples.filter((s) => s.start > cutAt + 200 && s.end < restoredAt);
    const after = samples.filter((s) => s.start > restoredAt + 1000);
    expect(before.length).toBeGreaterThan(10);
    expect(before.every((s) => s.status === 200)).toBe(true);
    expect(during.length).toBeGreaterThan(10);
    for (const s of during) expect({ status: s.status, code: s.code, retryAfter: s.retryAfter }).toEqual({ status: 503, code: 'database_unavailable', retryAfter: '2' });
    expect(Math.max(...during.map((s) => s.end - s.start))).toBeLessThan(1000); // quick, never hanging
    const firstOk = samples.find((s) => s.start >= restoredAt && s.status === 200);
    expect(firstOk).toBeDefined();
    expect(firstOk!.end - restoredAt).toBeLessThan(1000);
    expect(after.length).toBeGreaterThan(10);
    expect(after.filter((s) => s.status !== 200)).toEqual([]);
    // the same sessions still work, and nothing escaped as an unhandled rejection
    for (const c of clients) expect((await c.get('/api/1/auth/me')).status).toBe(200);
    expect(unhandled).toEqual([]);
  });
});
