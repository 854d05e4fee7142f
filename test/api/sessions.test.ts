import request from 'supertest';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { secondProcess, queriesOf as queriesOfDb, startApp, PASSWORD, type TestApp } from '../helpers/app.js';
import { pruneSessions, SIGNED_IN_TTL_MS } from '../../api/middleware/session.js';

const count = async (t: TestApp, table: string) => Number((await t.db(table).count({ n: '*' }).first())!.n);

describeEachDb('sessions: visitors write nothing, one read per request, renewal once a minute', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind);
  });
  afterAll(() => t?.close());

  it('1,000 cookie-less GETs (pages, API, guest token) add no row to any table', async () => {
    const tables = ['sessions', 'tokens', 'rate_limits', 'users', 'accounts'];
    const before = await Promise.all(tables.map((n) => count(t, n)));
    const urls = ['/login', '/api/1/auth/me', '/api/1/auth/guest-token', '/accounts', '/api/1/users'];
    for (let i = 0; i < 1000; i += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, (_, j) => request(t.server).get(urls[(i + j) % urls.length])));
      for (const res of batch) {
        expect(res.status).toBeLessThan(500);
        // every visitor gets the CSRF cookie, none a session cookie
        const cookies = ((res.headers['set-cookie'] as unknown as string[]) ?? []).join(';');
        expect(cookies).toContain('ls.csrf-token=');
        expect(cookies).not.toContain('ls.sid=');
      }
    }
    expect(await Promise.all(tables.map((n) => count(t, n)))).toEqual(before);
    // 1,000 requests: about 4 s alone on PGlite, past Vitest's 30 s once in a whole run on a loaded machine
  }, 120_000);

  it("a visitor's CSRF token lets it sign in; afterwards that token is refused and a new one is bound to the session", async () => {
    const u = await t.user(`csrf-${Date.now()}@example.com`, 'member');
    const c = t.client();
    await c.get('/api/1/auth/me');
    const visitorToken = c.csrf!;
    await c.login(u.u_email, PASSWORD);
    expect(c.csrf).not.toBe(visitorToken);
    const withOld = await request(t.server).post('/api/1/auth/logout').set('Cookie', c.cookieHeader().replace(c.csrf!, visitorToken)).set('X-CSRF-Token', visitorToken);
    expect(withOld.status).toBe(403);
    expect(withOld.body.code).toBe('csrf_invalid');
    // a token of another session is refused too
    const other = await t.signedIn('member');
    const crossed = await request(t.server).post('/api/1/auth/logout').set('Cookie', c.cookieHeader().replace(c.csrf!, other.csrf!)).set('X-CSRF-Token', other.csrf!);
    expect(crossed.status).toBe(403);
    expect((await c.get('/api/1/auth/me')).status).toBe(200);
  });

  const queriesOf = (fn: () => Promise<unknown>) => queriesOfDb(t.db, fn);

  it('an authenticated GET reads its session and user in one join, then from the cache: no read beyond its own query', async () => {
    const c = await t.signedIn('root');
    const target = await t.user(`target-${Date.now()}@example.com`);
    const url = `/api/1/users/${target.u_id}`;
    await c.get(url); // grants cached
    t.context.sessionCache.invalidate();
    const cold = await queriesOf(async () => expect((await c.get(url)).status).toBe(200));
    expect(cold).toHaveLength(2); // session + user in one join, then the user asked for
    expect(cold[0]).toMatch(/from "sessions" inner join "users"/);
    const warm = await queriesOf(async () => expect((await c.get(url)).status).toBe(200));
    expect(warm).toHaveLength(1);
    expect(warm[0]).toMatch(/from "users" where "u_id" = /);
  });

  it('a cached session ends at once when its user is disabled, demoted, deleted, signs out or changes password', async () => {
    const root = await t.signedIn('root');
    const victim = await t.signedIn('superadmin');
    expect((await victim.get('/api/1/accounts')).status).toBe(200); // cached now
    // demoted: the next request sees the new role
    expect((await root.put(`/api/1/users/${victim.userId}`, { u_role: 'member' })).status).toBe(200);
    expect((await victim.get('/api/1/auth/me')).body.user.u_role).toBe('member');
    // disabled: signed out
    expect((await root.put(`/api/1/users/${victim.userId}`, { u_is_enabled: false })).status).toBe(200);
    expect((await victim.get('/api/1/auth/me')).status).toBe(401);
    // another client signs out: its cookie is dead even though it was cached a moment ago
    const other = await t.signedIn('member');
    const stolen = other.cookieHeader();
    expect((await other.get('/api/1/auth/me')).status).toBe(200);
    expect((await other.post('/api/1/auth/logout')).status).toBe(200);
    expect((await request(t.server).get('/api/1/auth/me').set('Cookie', stolen)).status).toBe(401);
    // a change made straight in the database (as ops would) also empties the cache
    const third = await t.signedIn('member');
    expect((await third.get('/api/1/auth/me')).status).toBe(200);
    await t.db('users').where('u_id', third.userId).update({ u_is_enabled: false });
    expect((await third.get('/api/1/auth/me')).status).toBe(401);
  });

  // PostgreSQL only: PGlite serves one process, so there is no other process to hear it.
  if (kind === 'postgres')
    it('another process hears of the change at once (PostgreSQL LISTEN/NOTIFY)', async () => {
      const { server: server2, close } = await secondProcess(t);
      try {
        const victim = await t.signedIn('member');
        const viaSecond = () => request(server2).get('/api/1/auth/me').set('Cookie', victim.cookieHeader());
        await expect.poll(async () => (await viaSecond()).status).toBe(200); // its listener is up, the session cached there
        expect((await viaSecond()).status).toBe(200);
        const root = await t.signedIn('root');
        expect((await root.put(`/api/1/users/${victim.userId}`, { u_is_enabled: false })).status).toBe(200); // in the first process
        await expect.poll(async () => (await viaSecond()).status, { timeout: 1000, interval: 20 }).toBe(401);
      } finally {
        await close();
      }
    });

  it('the expiry moves forward at most once a minute, and the cookie with it', async () => {
    const c = await t.signedIn('member');
    const row = () => t.db('sessions').where('s_userid', c.userId).first('s_id', 's_expires_at');
    const first = await row();
    const again = await c.get('/api/1/auth/me');
    expect(again.status).toBe(200);
    expect(new Date((await row()).s_expires_at).getTime()).toBe(new Date(first.s_expires_at).getTime());
    expect(((again.headers['set-cookie'] as unknown as string[]) ?? []).join(';')).not.toContain('ls.sid=');
    // two minutes later (moved back in the table): the next request renews it
    await t
      .db('sessions')
      .where('s_id', first.s_id)
      .update({ s_expires_at: new Date(Date.now() + SIGNED_IN_TTL_MS - 2 * 60_000) });
    t.context.sessionCache.invalidate(); // as if the cached copy had aged out
    const later = await c.get('/api/1/auth/me');
    expect(((later.headers['set-cookie'] as unknown as string[]) ?? []).join(';')).toMatch(/ls\.sid=[^;]+;.*Max-Age=604800/);
    await expect.poll(async () => new Date((await row()).s_expires_at).getTime()).toBeGreaterThan(Date.now() + SIGNED_IN_TTL_MS - 60_000);
  });

  it('an expired session is refused and deleted by the scheduled prune', async () => {
    const c = await t.signedIn('member');
    await t
      .db('sessions')
      .where('s_userid', c.userId)
      .update({ s_expires_at: new Date(Date.now() - 1000) });
    const live = await t.signedIn('member');
    const res = await c.get('/api/1/auth/me');
    expect(res.status).toBe(401);
    expect(c.cookies.has('ls.sid')).toBe(false);
    await pruneSessions(t.db);
    expect(await t.db('sessions').where('s_userid', c.userId).first()).toBeUndefined();
    expect(await t.db('sessions').where('s_userid', live.userId).first()).toBeDefined(); // a live one stays
  });

  it('a malformed or unknown session cookie is a visitor, not an error', async () => {
    for (const value of ['x', 'A'.repeat(43), '%00'.repeat(20), 'a'.repeat(5000)]) {
      const res = await request(t.server).get('/api/1/auth/me').set('Cookie', `ls.sid=${value}`);
      expect(res.status).toBe(401);
    }
  });

  it('GET /auth/logout ends the session only from our own pages; POST /auth/logout needs the CSRF header', async () => {
    const c = await t.signedIn('member');
    const crossSite = await c.get('/api/1/auth/logout', { headers: { 'Sec-Fetch-Site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.code).toBe('csrf_invalid');
    const noHint = await c.get('/api/1/auth/logout'); // an <img src> from an old browser: no Fetch Metadata, no header
    expect(noHint.status).toBe(403);
    expect((await c.get('/api/1/auth/me')).status).toBe(200); // still signed in
    const postNoCsrf = await c.post('/api/1/auth/logout', {}, { csrf: false });
    expect(postNoCsrf.status).toBe(403);
    expect((await c.get('/api/1/auth/me')).status).toBe(200);
    const sameOrigin = await c.get('/api/1/auth/logout', { headers: { 'Sec-Fetch-Site': 'same-origin' } });
    expect(sameOrigin.status).toBe(200);
    expect((await c.get('/api/1/auth/me')).status).toBe(401);
    expect(await t.db('sessions').where('s_userid', c.userId).first()).toBeUndefined();

    const d = await t.signedIn('member');
    expect((await d.post('/api/1/auth/logout')).status).toBe(200);
    expect((await d.get('/api/1/auth/me')).status).toBe(401);
  });
});
