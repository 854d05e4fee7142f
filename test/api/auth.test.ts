import request from 'supertest';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { linkFromMail, PASSWORD, startApp, type TestApp } from '../helpers/app.js';

describeEachDb('auth', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { rateLimit: { loginPerEmail: 3, loginPerIp: 1000, mailPerEmail: 2, windowSeconds: 900 } });
  });
  afterAll(() => t?.close());

  it('hands out a readable CSRF cookie on the first request', async () => {
    const c = t.client();
    const res = await c.get('/api/1/auth/me');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('not_logged_in');
    const raw = (res.headers['set-cookie'] as unknown as string[]).find((s) => s.startsWith('ls.csrf-token='))!;
    expect(raw).toBeTruthy();
    expect(raw).not.toMatch(/HttpOnly/i);
    expect(raw).toMatch(/SameSite=Lax/i);
  });

  it('logs in with code ok, sets the session and the state cookies, regenerates the session id', async () => {
    await t.user('login@example.com', 'superadmin');
    const c = t.client();
    await c.get('/api/1/auth/me');
    const before = c.cookies.get('ls.sid');
    const res = await c.post('/api/1/auth/web', { u_email: 'LOGIN@example.com', u_password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe('ok');
    expect(res.body.user.u_email).toBe('login@example.com');
    expect(res.body.user.u_password).toBeUndefined();
    expect(res.body.permissions.entry_accounts).toBe(15);
    expect(res.body.permissions.entry_users).toBe(0);
    const setCookies = (res.headers['set-cookie'] as unknown as string[]).join('\n');
    expect(setCookies).toMatch(/ls\.sid=[^;]+;.*HttpOnly/i);
    expect(c.cookies.get('is_logged_in')).toBe('1');
    expect(c.cookies.get('user_role')).toBe('superadmin');
    expect(c.cookies.has('account_role')).toBe(true);
    expect(c.cookies.get('ls.sid')).not.toBe(before);
    const me = await c.get('/api/1/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.user.u_email).toBe('login@example.com');
    // the session lives in the database
    const rows = await t.db('sessions').where('s_userid', res.body.user.u_id).select('s_id');
    expect(rows).toHaveLength(1);
    expect(rows[0].s_id).not.toBe(c.cookies.get('ls.sid')); // only a hash of the cookie's token is stored
  });

  it('refuses a login without the CSRF header, and a token from another session', async () => {
    await t.user('csrf@example.com');
    const c = t.client();
    const res = await c.post('/api/1/auth/web', { u_email: 'csrf@example.com', u_password: PASSWORD }, { csrf: false });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('csrf_invalid');
    const other = t.client();
    await other.get('/api/1/auth/me');
    await c.get('/api/1/auth/me');
    const stolen = await c.post('/api/1/auth/web', { u_email: 'csrf@example.com', u_password: PASSWORD }, { csrf: false, headers: { 'X-CSRF-Token': other.csrf! } });
    expect(stolen.status).toBe(403);
  });

  it('answers an unknown e-mail and a wrong password the same way', async () => {
    await t.user('known@example.com');
    const a = await t.client().post('/api/1/auth/web', { u_email: 'nobody@example.com', u_password: 'whatever1' });
    const b = await t.client().post('/api/1/auth/web', { u_email: 'known@example.com', u_password: 'whatever1' });
    expect(a.status).toBe(401);
    expect(b.status).toBe(401);
    expect(a.body).toEqual(b.body);
    expect(a.body.code).toBe('invalid_credentials');
    expect(a.body.message).toBe('The email and password combination does not match');
  });

  it('validates the login form: invalid e-mail, short password', async () => {
    const res = await t.client().post('/api/1/auth/web', { u_email: 'not-an-email', u_password: 'abc' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_login_info');
    expect(res.body.fields).toEqual({ u_email: 'error_email_invalid', u_password: 'error_password_too_short' });
    const four = await t.client().post('/api/1/auth/web', { u_email: 'x@example.com', u_password: 'abcd' });
    expect(four.status).toBe(401); // 4 characters pass validation
    // spec 5: the login e-mail may be empty (it matches nobody) or must be valid
    const empty = await t.client().post('/api/1/auth/web', { u_email: '', u_password: 'abcd' });
    expect(empty.status).toBe(401);
    expect(empty.body.code).toBe('invalid_credentials');
  });

  it('tells an unverified user only after a correct password', async () => {
    await t.user('pending@example.com', 'member', { u_is_verified: false });
    const wrong = await t.client().post('/api/1/auth/web', { u_email: 'pending@example.com', u_password: 'wrong-password' });
    expect(wrong.body.code).toBe('invalid_credentials');
    const right = await t.client().post('/api/1/auth/web', { u_email: 'pending@example.com', u_password: PASSWORD });
    expect(right.status).toBe(403);
    expect(right.body.code).toBe('user_not_verified');
    expect(right.body.message).toBe('User account not yet activated');
  });

  it('refuses a disabled user', async () => {
    await t.user('disabled@example.com', 'member', { u_is_enabled: false });
    const res = await t.client().post('/api/1/auth/web', { u_email: 'disabled@example.com', u_password: PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('user_disabled');
  });

  it('rate-limits failed logins per e-mail with 429 too_many_attempts', async () => {
    await t.user('limited@example.com');
    for (let i = 0; i < 3; i++) {
      const r = await t.client().post('/api/1/auth/web', { u_email: 'limited@example.com', u_password: 'wrong-pass' });
      expect(r.status).toBe(401);
    }
    const blocked = await t.client().post('/api/1/auth/web', { u_email: 'limited@example.com', u_password: PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('too_many_attempts');
    expect(blocked.headers['retry-after']).toBeTruthy();
  });

  it('rate-limits login attempts per address', async () => {
    const limited = await startApp(kind, { rateLimit: { loginPerEmail: 100, loginPerIp: 2, mailPerEmail: 2, windowSeconds: 900 } });
    try {
      const c = limited.client();
      expect((await c.post('/api/1/auth/web', { u_email: 'a@example.com', u_password: 'wrong-pass' })).status).toBe(401);
      expect((await c.post('/api/1/auth/web', { u_email: 'b@example.com', u_password: 'wrong-pass' })).status).toBe(401);
      const third = await c.post('/api/1/auth/web', { u_email: 'c@example.com', u_password: 'wrong-pass' });
      expect(third.status).toBe(429);
      expect(third.body.code).toBe('too_many_attempts');
      const rows = await limited.db('rate_limits').select('rl_key');
      expect(rows.map((r) => r.rl_key)).toContain('login:ip:127.0.0.1'); // counters live in the database
    } finally {
      await limited.close();
    }
  });

  it('logs out: the session row is gone and the old cookie no longer works', async () => {
    const c = await t.signedIn('root');
    const oldCookies = c.cookieHeader();
    const sessionsBefore = await t.db('sessions').count({ n: '*' }).first();
    const res = await c.get('/api/1/auth/logout', { headers: { 'X-CSRF-Token': c.csrf! } });
    expect(res.body.code).toBe('ok');
    expect(c.cookies.has('is_logged_in')).toBe(false);
    expect(Number((await t.db('sessions').count({ n: '*' }).first())!.n)).toBe(Number(sessionsBefore!.n) - 1);
    const replay = await request(t.server).get('/api/1/auth/me').set('Cookie', oldCookies);
    expect(replay.status).toBe(401);
  });

  it('lists the memberships of the signed-in user on GET /auth/accounts', async () => {
    const c = await t.signedIn('member');
    const a = await t.account('Alpha');
    const b = await t.account('Beta');
    await t.account('Gamma');
    await t.member(a.a_id, c.userId, 'superadmin');
    await t.member(b.a_id, c.userId, 'member');
    const res = await c.get('/api/1/auth/accounts');
    expect(res.status).toBe(200);
    expect(res.body.map((x: { a_name: string; au_role: string }) => `${x.a_name}:${x.au_role}`)).toEqual(['Alpha:superadmin', 'Beta:member']);
    // the session carries the stored grants of every role the user holds, as the API applies them
    await t.db('permission_grants').where({ pg_role: 'superadmin', pg_group: 'account_lists' }).update({ pg_bits: 1 });
    await t.context.permissions.refresh();
    try {
      const me = await c.get('/api/1/auth/me');
      expect(Object.keys(me.body.roleGrants).sort()).toEqual(['member', 'superadmin']);
      expect(me.body.roleGrants.superadmin.account_lists).toBe(1);
      expect(me.body.roleGrants.member.account_leads).toBe(15);
    } finally {
      await t.db('permission_grants').where({ pg_role: 'superadmin', pg_group: 'account_lists' }).update({ pg_bits: 15 });
      await t.context.permissions.refresh();
    }
    expect((await t.client().get('/api/1/auth/accounts')).status).toBe(401);
  });

  it('forgot password: same answer for known and unknown e-mails; the link resets once, and ends other sessions', async () => {
    const u = await t.user('forgot@example.com', 'member');
    const other = t.client();
    await other.login('forgot@example.com', PASSWORD);
    const known = await t.client().post('/api/1/auth/forgot-password', { u_email: 'forgot@example.com' });
    const unknown = await t.client().post('/api/1/auth/forgot-password', { u_email: 'ghost@example.com' });
    expect(known.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    const mails = t.outbox().filter((m) => m.file.includes('resetpassword-forgot@example.com'));
    expect(mails).toHaveLength(1);
    expect(t.outbox().some((m) => m.file.includes('ghost'))).toBe(false);
    const link = linkFromMail(mails[0].text, '/users/resetpassword?token=')!;
    const token = new URL(link).searchParams.get('token')!;
    const stored = await t.db('tokens').where({ t_userid: u.u_id, t_type: 'reset' }).first();
    expect(stored.t_hash).not.toContain(token); // only a hash is stored
    expect(token.length).toBeGreaterThanOrEqual(22); // >= 128 bits

    const page = t.client();
    const guest = await page.get('/api/1/auth/guest-token');
    expect(guest.body.token).toBeTruthy();
    const noGuest = await page.put('/api/1/auth/reset-password', { token, password: 'a-brand-new-password', password_confirm: 'a-brand-new-password' });
    expect(noGuest.status).toBe(403);
    expect(noGuest.body.code).toBe('guest_token_invalid');
    const headers = { 'X-Guest-Token': guest.body.token };
    const short = await page.put('/api/1/auth/reset-password', { token, password: 'short', password_confirm: 'shorter' }, { headers });
    expect(short.status).toBe(400);
    expect(short.body.fields).toEqual({ password: 'error_password_too_short', password_confirm: 'error_passwords_do_not_match' });
    const ok = await page.put('/api/1/auth/reset-password', { token, password: 'a-brand-new-password', password_confirm: 'a-brand-new-password' }, { headers });
    expect(ok.status).toBe(200);
    expect(ok.body.code).toBe('ok');
    const reused = await page.put('/api/1/auth/reset-password', { token, password: 'another-new-password', password_confirm: 'another-new-password' }, { headers });
    expect(reused.status).toBe(400);
    expect(reused.body.code).toBe('invalid_token');
    expect((await other.get('/api/1/auth/me')).status).toBe(401); // other sessions ended
    expect((await t.client().post('/api/1/auth/web', { u_email: 'forgot@example.com', u_password: PASSWORD })).status).toBe(401);
    expect((await t.client().post('/api/1/auth/web', { u_email: 'forgot@example.com', u_password: 'a-brand-new-password' })).status).toBe(200);
  });

  it('rejects an expired reset token', async () => {
    const u = await t.user('expired@example.com');
    await t.client().post('/api/1/auth/forgot-password', { u_email: 'expired@example.com' });
    await t
      .db('tokens')
      .where({ t_userid: u.u_id })
      .update({ t_expires_at: new Date(Date.now() - 1000) });
    const mail = t.outbox().find((m) => m.file.includes('expired@example.com'))!;
    const token = new URL(linkFromMail(mail.text, '/users/resetpassword?token=')!).searchParams.get('token')!;
    const page = t.client();
    const guest = await page.get('/api/1/auth/guest-token');
    const res = await page.put(
      '/api/1/auth/reset-password',
      { token, password: 'a-brand-new-password', password_confirm: 'a-brand-new-password' },
      { headers: { 'X-Guest-Token': guest.body.token } },
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_token');
  });

  it('verifies an e-mail: ok, then already_verified; a bad token is invalid_token', async () => {
    await t.user('toverify@example.com', 'member', { u_is_verified: false });
    const resend = await t.client().post('/api/1/auth/resend-activation', { u_email: 'toverify@example.com' });
    expect(resend.body.code).toBe('ok');
    const mail = t.outbox().find((m) => m.file.includes('signup-toverify@example.com'))!;
    const link = linkFromMail(mail.text, '/users/verify/')!;
    const token = link.split('/users/verify/')[1];
    const c = t.client();
    const ok = await c.get(`/api/1/users/verify/${token}`);
    expect(ok.status).toBe(200);
    expect(ok.body.code).toBe('ok');
    const again = await c.get(`/api/1/users/verify/${token}`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('already_verified');
    const bad = await c.get('/api/1/users/verify/this-token-does-not-exist-at-all');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_token');
    expect((await t.client().post('/api/1/auth/web', { u_email: 'toverify@example.com', u_password: PASSWORD })).status).toBe(200);
  });

  it('stores passwords as argon2id with the OWASP parameters', async () => {
    const u = await t.user('hash@example.com');
    const row = await t.db('users').where('u_id', u.u_id).first('u_password');
    expect(row.u_password).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
  });
});
