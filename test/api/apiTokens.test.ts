import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { describeEachDb } from '../helpers/db.js';
import { startApp, MISSING, type Signed, type TestApp } from '../helpers/app.js';
import { accountPath, sampleBody } from '../helpers/console.js';
import { events } from '../../resources/events.js';

const DAY = 24 * 3600 * 1000;
const TOKENS = '/api/1/auth/tokens';

/** A call with only `Authorization: Bearer <token>`: no cookie, no CSRF header. */
function bearer(t: TestApp, method: 'get' | 'post' | 'put' | 'delete', url: string, token: string, body?: object) {
  const req = request(t.server)[method](url).set('Authorization', `Bearer ${token}`);
  return body ? req.send(body) : req;
}

/** platform-and-flows.md section 2: personal API tokens and Bearer calls. */
describeEachDb('API tokens', (kind) => {
  let t: TestApp;
  let owner: Signed; // admin in A, member in B (platform role member)
  let plain: Signed; // member in A: no export_curl by the default grants
  let root: Signed;
  let a: string;
  let b: string;

  beforeAll(async () => {
    t = await startApp(kind);
    owner = await t.signedIn('member');
    plain = await t.signedIn('member');
    root = await t.signedIn('root');
    a = (await t.account('Token Alpha')).a_id;
    b = (await t.account('Token Beta')).a_id;
    await t.member(a, owner.userId, 'admin');
    await t.member(b, owner.userId, 'member');
    await t.member(a, plain.userId, 'member');
  });
  afterAll(() => t?.close());

  const create = (client: Signed, body: Record<string, unknown>) => client.post(TOKENS, body);
  async function tokenFor(client: Signed, body: Record<string, unknown> = {}) {
    const res = await create(client, { tk_title: 'script', tk_accountid: a, tk_role: 'admin', ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Record<string, string> & { token: string };
  }

  describe('managing tokens (session)', () => {
    it('needs a session; a session needs the CSRF header to create', async () => {
      expect((await t.client().get(TOKENS)).status).toBe(401);
      const res = await t.client().post(TOKENS, { tk_title: 'x', tk_accountid: a, tk_role: 'member' });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('not_logged_in');
      const noCsrf = await owner.post(TOKENS, { tk_title: 'x', tk_accountid: a, tk_role: 'member' }, { csrf: false });
      expect(noCsrf.status).toBe(403);
      expect(noCsrf.body.code).toBe('csrf_invalid');
    });

    it('creates a token: 201 with the secret once, 90 days by default, stored only as its SHA-256', async () => {
      const before = Date.now();
      const res = await create(owner, { tk_title: '  Nightly export ', tk_accountid: a, tk_role: 'member' });
      expect(res.status).toBe(201);
      const { token, ...record } = res.body;
      expect(token).toMatch(/^lst_[A-Za-z0-9_-]{43}$/);
      expect(record).toMatchObject({ id: record.tk_id, tk_title: 'Nightly export', tk_accountid: a, tk_role: 'member', tk_last_used_at: null, a_name: 'Token Alpha' });
      const expires = new Date(record.tk_expires_at).getTime();
      expect(expires).toBeGreaterThanOrEqual(before + 90 * DAY - 5000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 90 * DAY + 5000);
      expect(new Date(record.tk_created_at).getTime()).toBeGreaterThan(before - 5000);

      const row = await t.db('api_tokens').where('tk_id', record.tk_id).first();
      expect(row.tk_hash).toBe(crypto.createHash('sha256').update(token).digest('hex'));
      expect(row.tk_userid).toBe(owner.userId);
      // the secret is in no column, not even in part
      expect(JSON.stringify(Object.values(row))).not.toContain(token.slice(4, 24));

      // listed afterwards without the secret
      const list = await owner.get(TOKENS);
      expect(list.status).toBe(200);
      const listed = list.body.find((x: { tk_id: string }) => x.tk_id === record.tk_id);
      expect(listed).toEqual(record);
      expect(JSON.stringify(list.body)).not.toContain(token);
    });

    it('takes an expiry up to one year ahead', async () => {
      const at = new Date(Date.now() + 365 * DAY).toISOString();
      const res = await create(owner, { tk_title: 'yearly', tk_accountid: a, tk_role: 'admin', tk_expires_at: at });
      expect(res.status).toBe(201);
      expect(new Date(res.body.tk_expires_at).toISOString()).toBe(at);
    });

    it('validates the body: 400 with the field errors', async () => {
      const cases: [Record<string, unknown>, Record<string, string>][] = [
        [{ tk_accountid: a, tk_role: 'member' }, { tk_title: 'error_title_required' }],
        [{ tk_title: '   ', tk_accountid: a, tk_role: 'member' }, { tk_title: 'error_title_required' }],
        [{ tk_title: 'x'.repeat(101), tk_accountid: a, tk_role: 'member' }, { tk_title: 'error_too_long' }],
        [{ tk_title: 'x', tk_accountid: 'nope', tk_role: 'member' }, { tk_accountid: 'error_uuid_invalid' }],
        [{ tk_title: 'x', tk_accountid: a, tk_role: 'owner' }, { tk_role: 'error_role_invalid' }],
        [{ tk_title: 'x', tk_accountid: a, tk_role: 'member', tk_expires_at: new Date(Date.now() + 400 * DAY).toISOString() }, { tk_expires_at: 'error_expiry_too_far' }],
        [{ tk_title: 'x', tk_accountid: a, tk_role: 'member', tk_expires_at: new Date(Date.now() - DAY).toISOString() }, { tk_expires_at: 'error_expiry_past' }],
        [{ tk_title: 'x', tk_accountid: a, tk_role: 'member', tk_expires_at: 'next week' }, { tk_expires_at: 'error_expiry_invalid' }],
      ];
      for (const [body, fields] of cases) {
        const res = await create(owner, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body).toMatchObject({ code: 'validation_failed', fields });
        expect(res.body.message).toEqual(expect.any(String));
      }
    });

    it('needs app_general export_curl in that account: a member (default grants) gets 403', async () => {
      const res = await create(plain, { tk_title: 'x', tk_accountid: a, tk_role: 'member' });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
      // owner is a member in B: no export_curl there either
      expect((await create(owner, { tk_title: 'x', tk_accountid: b, tk_role: 'member' })).status).toBe(403);
      // an account the caller is not in, or that does not exist: the same answer
      expect((await create(plain, { tk_title: 'x', tk_accountid: b, tk_role: 'member' })).status).toBe(403);
      expect((await create(owner, { tk_title: 'x', tk_accountid: MISSING, tk_role: 'member' })).status).toBe(403);
      expect(Number((await t.db('api_tokens').where('tk_userid', plain.userId).count({ n: '*' }).first())!.n)).toBe(0);
    });

    it("refuses a role above the caller's own in the account: 403 with the field", async () => {
      for (const role of ['superadmin', 'root']) {
        const res = await create(owner, { tk_title: 'x', tk_accountid: a, tk_role: role });
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ code: 'forbidden', fields: { tk_role: 'error_role_above_own' } });
      }
      // root acts as root in every account
      expect((await create(root, { tk_title: 'x', tk_accountid: b, tk_role: 'root' })).status).toBe(201);
    });

    it("lists and deletes only the caller's own tokens", async () => {
      const mine = await tokenFor(owner);
      const theirs = await tokenFor(root, { tk_accountid: b, tk_role: 'member' });
      const ownerList = (await owner.get(TOKENS)).body.map((x: { tk_id: string }) => x.tk_id);
      expect(ownerList).toContain(mine.tk_id);
      expect(ownerList).not.toContain(theirs.tk_id);
      // newest first
      const times = (await owner.get(TOKENS)).body.map((x: { tk_created_at: string }) => new Date(x.tk_created_at).getTime());
      expect(times).toEqual([...times].sort((x, y) => y - x));

      const other = await owner.delete(`${TOKENS}/${theirs.tk_id}`);
      expect(other.status).toBe(404);
      expect(await t.db('api_tokens').where('tk_id', theirs.tk_id).first()).toBeTruthy();
      expect((await owner.delete(`${TOKENS}/not-an-id`)).status).toBe(404);
      const del = await owner.delete(`${TOKENS}/${mine.tk_id}`);
      expect(del.status).toBe(200);
      expect(await t.db('api_tokens').where('tk_id', mine.tk_id).first()).toBeUndefined();
      expect((await owner.delete(`${TOKENS}/${mine.tk_id}`)).status).toBe(404);
    });
  });

  describe('Bearer calls', () => {
    it("reads and writes the token's account with no cookie and no CSRF header", async () => {
      const { token, tk_id } = await tokenFor(owner);
      const list = await bearer(t, 'get', accountPath(a, events), token);
      expect(list.status).toBe(200);
      expect(list.headers['set-cookie']).toBeUndefined();
      const body = await sampleBody(root, a, events);
      const created = await bearer(t, 'post', accountPath(a, events), token, body);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.ev_accountid).toBe(a);
      const id = created.body.ev_id;
      const updated = await bearer(t, 'put', `${accountPath(a, events)}/${id}`, token, { ...body, ev_title: 'Renamed by a script' });
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      expect((await t.db('events').where('ev_id', id).first()).ev_title).toBe('Renamed by a script');
      // the README's examples, as written there
      const readme = await bearer(t, 'post', accountPath(a, events), token, { ev_title: 'Spring fair', ev_name: 'spring-fair', ev_access_type: 'open' });
      expect(readme.status, JSON.stringify(readme.body)).toBe(201);
      const leads = await bearer(t, 'get', `${accountPath(a, 'leads')}?range=%5B0,24%5D&sort=%5B%22ld_email%22,%22ASC%22%5D`, token);
      expect(leads.status, JSON.stringify(leads.body)).toBe(200);
      expect(leads.headers['content-range']).toBe('leads */0'); // a page of an empty list
      // the use is recorded
      const row = await t.db('api_tokens').where('tk_id', tk_id).first();
      expect(row.tk_last_used_at).not.toBeNull();
    });

    it("acts with the token's role: a member token of an admin cannot write events", async () => {
      const { token } = await tokenFor(owner, { tk_role: 'member' });
      expect((await bearer(t, 'get', accountPath(a, events), token)).status).toBe(200);
      const res = await bearer(t, 'post', accountPath(a, events), token, await sampleBody(root, a, events));
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    });

    it('another account answers 404, even one the user belongs to', async () => {
      const { token } = await tokenFor(owner);
      for (const account of [b, MISSING]) {
        const res = await bearer(t, 'get', accountPath(account, events), token);
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('not_found');
      }
    });

    it('routes outside /api/1/accounts/{a}/… are refused: 403 token_not_allowed', async () => {
      const { token } = await tokenFor(owner);
      for (const [method, url] of [
        ['get', '/api/1/auth/me'],
        ['get', TOKENS],
        ['post', TOKENS],
        ['get', `/api/1/accounts/${a}`],
        ['get', '/api/1/app/events'],
      ] as const) {
        const res = await bearer(t, method, url, token, method === 'post' ? { tk_title: 'x', tk_accountid: a, tk_role: 'member' } : undefined);
        expect(res.status, url).toBe(403);
        expect(res.body.code).toBe('token_not_allowed');
      }
    });

    it("a session cookie beside the token is ignored: the call has the token's rights only", async () => {
      const { token } = await tokenFor(owner);
      // root's session would open B; the token (for A) does not
      const res = await request(t.server).get(accountPath(b, events)).set('Cookie', root.cookieHeader()).set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(404);
      const ok = await request(t.server).get(accountPath(a, events)).set('Cookie', root.cookieHeader()).set('Authorization', `Bearer ${token}`);
      expect(ok.status).toBe(200);
    });

    it('an unknown, malformed, expired or revoked token: 401 token_invalid', async () => {
      const expired = await tokenFor(owner);
      await t
        .db('api_tokens')
        .where('tk_id', expired.tk_id)
        .update({ tk_expires_at: new Date(Date.now() - 1000) });
      const revoked = await tokenFor(owner);
      expect((await bearer(t, 'get', accountPath(a, events), revoked.token)).status).toBe(200);
      expect((await owner.delete(`${TOKENS}/${revoked.tk_id}`)).status).toBe(200);
      for (const secret of [expired.token, revoked.token, `lst_${'A'.repeat(43)}`, 'garbage', '']) {
        for (const method of ['get', 'post'] as const) {
          const res = await bearer(t, method, accountPath(a, events), secret, method === 'post' ? { ev_title: 'x' } : undefined);
          expect(res.status, secret).toBe(401);
          expect(res.body.code).toBe('token_invalid');
          expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
        }
      }
    });

    it('stops working when its user is disabled or leaves the account, and follows a lowered role', async () => {
      const user = await t.signedIn('member');
      await t.member(a, user.userId, 'superadmin');
      const { token } = await tokenFor(user, { tk_role: 'superadmin' });
      const body = await sampleBody(root, a, events);
      expect((await bearer(t, 'post', accountPath(a, events), token, body)).status).toBe(201);

      // lowered to member: the token acts as a member (read only on events)
      await t.db('account_users').where({ au_accountid: a, au_userid: user.userId }).update({ au_role: 'member' });
      expect((await bearer(t, 'get', accountPath(a, events), token)).status).toBe(200);
      expect((await bearer(t, 'post', accountPath(a, events), token, await sampleBody(root, a, events))).status).toBe(403);

      await t.db('account_users').where({ au_accountid: a, au_userid: user.userId }).del();
      expect((await bearer(t, 'get', accountPath(a, events), token)).body.code).toBe('token_invalid');

      await t.member(a, user.userId, 'superadmin');
      expect((await bearer(t, 'get', accountPath(a, events), token)).status).toBe(200);
      await t.db('users').where('u_id', user.userId).update({ u_is_enabled: false });
      const res = await bearer(t, 'get', accountPath(a, events), token);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('token_invalid');
    });

    it('updates tk_last_used_at at most once a minute', async () => {
      const { token, tk_id } = await tokenFor(owner);
      await bearer(t, 'get', accountPath(a, events), token);
      const first = (await t.db('api_tokens').where('tk_id', tk_id).first()).tk_last_used_at;
      expect(first).not.toBeNull();
      // a recent use is not written again
      await bearer(t, 'get', accountPath(a, events), token);
      expect(new Date((await t.db('api_tokens').where('tk_id', tk_id).first()).tk_last_used_at).getTime()).toBe(new Date(first).getTime());
      // one older than a minute is
      await t
        .db('api_tokens')
        .where('tk_id', tk_id)
        .update({ tk_last_used_at: new Date(Date.now() - 2 * 60 * 1000) });
      await bearer(t, 'get', accountPath(a, events), token);
      const later = new Date((await t.db('api_tokens').where('tk_id', tk_id).first()).tk_last_used_at).getTime();
      expect(later).toBeGreaterThan(Date.now() - 10_000);
    });

    it('tokens go with their account', async () => {
      const gone = (await t.account('Short lived')).a_id;
      await t.member(gone, owner.userId, 'admin');
      const { tk_id } = await tokenFor(owner, { tk_accountid: gone });
      await t.db('accounts').where('a_id', gone).del();
      expect(await t.db('api_tokens').where('tk_id', tk_id).first()).toBeUndefined();
    });
  });
});

describeEachDb('API tokens: rate limit per token', (kind) => {
  let t: TestApp;
  let owner: Signed;
  let a: string;
  beforeAll(async () => {
    t = await startApp(kind, { apiTokenLimit: { perToken: 3, windowSeconds: 60 } });
    owner = await t.signedIn('member');
    a = (await t.account('Limited')).a_id;
    await t.member(a, owner.userId, 'admin');
  });
  afterAll(() => t?.close());

  it('answers 429 with Retry-After past the budget; another token has its own', async () => {
    const make = async () => (await owner.post(TOKENS, { tk_title: 'limited', tk_accountid: a, tk_role: 'admin' })).body.token as string;
    const first = await make();
    for (let i = 0; i < 3; i++) expect((await bearer(t, 'get', accountPath(a, events), first)).status).toBe(200);
    const over = await bearer(t, 'get', accountPath(a, events), first);
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('too_many_requests');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect((await bearer(t, 'get', accountPath(a, events), await make())).status).toBe(200);
    // the session is not limited by the token's budget
    expect((await owner.get(TOKENS)).status).toBe(200);
  });
});
