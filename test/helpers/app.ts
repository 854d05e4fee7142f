import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import request from 'supertest';
import type { Knex } from 'knex';
import { createApp } from '../../api/app.js';
import { createHttpServer } from '../../api/httpServer.js';
import { createKnex } from '../../api/db/knex.js';
import { loadConfig, type Config } from '../../api/config.js';
import { upsertUser } from '../../api/db/bootstrap.js';
import type { AppContext } from '../../api/context.js';
import { createTestDb, type DbKind, type TestDb } from './db.js';

export const PASSWORD = 'correct-horse-battery';
/** A well-formed v4 id that no row has. */
export const MISSING = '6f1c1f9e-3b0c-4c4e-9a55-0d7d8c1b2a3f';
/** A lower-case alphanumeric prefix unique to one test (sorts the same under C and en_US collations). */
export const uid = () => `x${Math.random().toString(36).slice(2, 9)}`;

export type Signed = TestClient & { userId: string };
export interface Roles {
  root: Signed;
  superadmin: Signed;
  admin: Signed;
  member: Signed;
}

/** A list query string the way ra-data-simple-rest writes it: each parameter as JSON. */
export const qs = (params: Record<string, unknown>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`)
    .join('&');

/** The SQL statements `fn` makes the database handle run (knex's query events). */
export async function queriesOf(db: Knex, fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const listener = (q: { sql: string }) => seen.push(q.sql);
  db.on('query', listener);
  try {
    await fn();
  } finally {
    db.removeListener('query', listener);
  }
  return seen;
}

/**
 * A second API process on the test's PostgreSQL database, as a deployment of two runs: its own pool, caches and
 * LISTEN connection. PostgreSQL only (t.url); close() when done.
 */
export async function secondProcess(t: TestApp): Promise<{ server: Server; db: Knex; close(): Promise<void> }> {
  const db = createKnex({ databaseUrl: t.url!, log: () => undefined });
  const { app } = createApp({ db, config: t.config, log: () => undefined });
  const server = await new Promise<Server>((resolve) => {
    const s = createHttpServer(app).listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    server,
    db,
    async close() {
      await new Promise((r) => server.close(r));
      await db.destroy();
    },
  };
}

/** Temporarily changes one grant in the database matrix (as ops would) and restores it afterwards. */
export async function withGrant(t: TestApp, role: string, group: string, bits: number, fn: () => Promise<void>): Promise<void> {
  const old = await t.db('permission_grants').where({ pg_role: role, pg_group: group }).first();
  await t.db('permission_grants').insert({ pg_role: role, pg_group: group, pg_bits: bits }).onConflict(['pg_role', 'pg_group']).merge();
  await t.context.permissions.refresh();
  try {
    await fn();
  } finally {
    if (old) await t.db('permission_grants').where({ pg_role: role, pg_group: group }).update({ pg_bits: old.pg_bits });
    else await t.db('permission_grants').where({ pg_role: role, pg_group: group }).del();
    await t.context.permissions.refresh();
  }
}

/** One signed-in client per role (each a new user), for the permission cases of a resource's tests. */
export async function signedInRoles(t: TestApp): Promise<Roles> {
  return {
    root: await t.signedIn('root'),
    superadmin: await t.signedIn('superadmin'),
    admin: await t.signedIn('admin'),
    member: await t.signedIn('member'),
  };
}

export interface TestApp {
  kind: DbKind;
  app: import('express').Express;
  /** The PostgreSQL database's URL (PostgreSQL runs only), for a second process on the same data. */
  url?: string;
  db: Knex;
  config: Config;
  context: AppContext;
  server: Server;
  baseUrl: string;
  dataDir: string;
  client(): TestClient;
  /** A verified, enabled user with PASSWORD. */
  user(email: string, role?: string, extra?: Record<string, unknown>): Promise<{ u_id: string; u_email: string }>;
  /** A signed-in client for a new user of that role. */
  signedIn(role: string, email?: string): Promise<TestClient & { userId: string }>;
  account(name: string, extra?: Record<string, unknown>): Promise<{ a_id: string }>;
  member(accountId: string, userId: string, role?: string): Promise<void>;
  outbox(): { file: string; text: string }[];
  close(): Promise<void>;
}

export async function startApp(kind: DbKind, overrides: Partial<Config> = {}): Promise<TestApp> {
  const testDb: TestDb = await createTestDb(kind);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-test-'));
  const config = loadConfig(
    // Every test request comes from 127.0.0.1: a high per-address login limit unless a test sets its own.
    {
      DATA_DIR: dataDir,
      SESSION_SECRET: 'test-secret-'.padEnd(40, 'x'),
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'http://localhost:3000',
      LOGIN_LIMIT_PER_IP: '100000',
      // The job queue: workers (where a test starts them) poll twice a second, a failed job is retried after 1 s, 2 s…
      JOBS_POLL_MS: '500',
      JOBS_RETRY_DELAY_SECONDS: '1',
    },
    overrides,
  );
  const { app, context } = createApp({ db: testDb.db, config, log: process.env.TEST_LOG_500 ? (msg, err) => console.error(msg, err) : () => undefined });
  const server = await new Promise<Server>((resolve) => {
    const s = createHttpServer(app).listen(0, '127.0.0.1', () => resolve(s));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let n = 0;
  const t: TestApp = {
    kind,
    app,
    url: testDb.url,
    db: testDb.db,
    config,
    context,
    server,
    baseUrl,
    dataDir,
    client: () => new TestClient(server),
    async user(email, role = 'member', extra = {}) {
      const { user } = await upsertUser(testDb.db, { email, password: PASSWORD, role });
      if (Object.keys(extra).length) await testDb.db('users').where('u_id', user.u_id).update(extra);
      return user;
    },
    async signedIn(role, email) {
      const u = await t.user(email ?? `${role}${++n}-${Date.now()}@example.com`, role);
      const c = new TestClient(server) as TestClient & { userId: string };
      await c.login(u.u_email, PASSWORD);
      c.userId = u.u_id;
      return c;
    },
    async account(name, extra = {}) {
      const [row] = await testDb
        .db('accounts')
        .insert({ a_name: name, ...extra })
        .returning(['a_id']);
      return row;
    },
    async member(accountId, userId, role = 'member') {
      await testDb.db('account_users').insert({ au_accountid: accountId, au_userid: userId, au_role: role });
    },
    outbox() {
      const dir = path.join(dataDir, 'outbox');
      if (!fs.existsSync(dir)) return [];
      return fs
        .readdirSync(dir)
        .sort()
        .map((f) => ({ file: f, text: fs.readFileSync(path.join(dir, f), 'utf8') }));
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // Nothing to wait for when this app's queue never started (most tests); no grace for running jobs either.
      await context.jobs.stop(0);
      await testDb.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return t;
}

/** Finds the first link to `pathPrefix` in a raw .eml (quoted-printable soft breaks undone). */
export function linkFromMail(eml: string, pathPrefix: string): string | undefined {
  const text = eml.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const m = text.match(new RegExp(`https?://[^\\s"<>]*${pathPrefix.replace(/[/?]/g, (c) => `\\${c}`)}[^\\s"<>]*`));
  return m?.[0];
}

type Method = 'get' | 'post' | 'put' | 'delete';

/**
 * A browser-like client: keeps cookies, and sends the CSRF cookie back in X-CSRF-Token on state-changing calls
 * (unless told not to), like the admin's data provider.
 */
export class TestClient {
  cookies = new Map<string, string>();
  constructor(private server: Server) {}

  private store(res: request.Response) {
    const set = res.headers['set-cookie'] as unknown as string[] | undefined;
    for (const c of set ?? []) {
      const [pair, ...attrs] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = decodeURIComponent(pair.slice(i + 1));
      const expired = attrs.some((a) => /expires=Thu, 01 Jan 1970/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
  }

  get csrf(): string | undefined {
    return this.cookies.get('ls.csrf-token');
  }

  async send(method: Method, url: string, body?: unknown, opts: { csrf?: boolean; headers?: Record<string, string> } = {}) {
    // Like a browser: a page load (or any GET) comes first and hands out the CSRF cookie.
    if (method !== 'get' && opts.csrf !== false && !this.csrf) await this.send('get', '/api/1/auth/me');
    let req = request(this.server)[method](url).set('Cookie', this.cookieHeader());
    if (method !== 'get' && opts.csrf !== false && this.csrf) req = req.set('X-CSRF-Token', this.csrf);
    for (const [k, v] of Object.entries(opts.headers ?? {})) req = req.set(k, v);
    if (body !== undefined) req = typeof body === 'string' ? req.type('text/csv').send(body) : req.send(body as object);
    const res = await req;
    this.store(res);
    return res;
  }

  get(url: string, opts?: { headers?: Record<string, string> }) {
    return this.send('get', url, undefined, opts);
  }
  post(url: string, body?: unknown, opts?: { csrf?: boolean; headers?: Record<string, string> }) {
    return this.send('post', url, body ?? {}, opts);
  }
  put(url: string, body?: unknown, opts?: { csrf?: boolean; headers?: Record<string, string> }) {
    return this.send('put', url, body ?? {}, opts);
  }
  delete(url: string, opts?: { csrf?: boolean }) {
    return this.send('delete', url, undefined, opts);
  }

  /** A raw supertest request with this client's cookies and CSRF header (for multipart). */
  raw(method: Method, url: string) {
    return request(this.server)
      [method](url)
      .set('Cookie', this.cookieHeader())
      .set('X-CSRF-Token', this.csrf ?? '');
  }

  async login(email: string, password: string) {
    const res = await this.post('/api/1/auth/web', { u_email: email, u_password: password });
    if (res.status !== 200) throw new Error(`login failed for ${email}: ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  }
}
