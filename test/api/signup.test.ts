import argon2 from 'argon2';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { PASSWORD, startApp, uid, type TestApp } from '../helpers/app.js';
import { deliveredMailsTo, linkIn } from '../helpers/mail.js';

const NEW_PASSWORD = 'a-signup-password-1';
const SIGNUP = '/api/1/auth/signup';

/**
 * Self sign-up (platform-and-flows.md section 3): only for the e-mail domain of an enabled account, the same answer
 * for an address that has a user (mailed "an account exists" instead), membership in every enabled account of the
 * domain after verification and not before.
 */
describeEachDb('self sign-up: POST /auth/signup, the mails, and membership after verification', (kind) => {
  let t: TestApp;
  /** Two enabled accounts and a disabled one share `domain`; `disabledOnly` is the domain of a disabled account only. */
  let domain: string;
  let disabledOnly: string;
  let first: string;
  let second: string;
  let disabled: string;
  let otherDomain: string;

  beforeAll(async () => {
    t = await startApp(kind);
    domain = `${uid()}.example.com`;
    disabledOnly = `${uid()}.example.org`;
    first = (await t.account(`Alpha ${uid()}`, { a_email_domain: domain })).a_id;
    // The domain as an editor may have typed it: case does not matter.
    second = (await t.account(`Beta ${uid()}`, { a_email_domain: domain.toUpperCase() })).a_id;
    disabled = (await t.account(`Gamma ${uid()}`, { a_email_domain: domain, a_is_enabled: false })).a_id;
    await t.account(`Delta ${uid()}`, { a_email_domain: disabledOnly, a_is_enabled: false });
    otherDomain = (await t.account(`Other ${uid()}`, { a_email_domain: `${uid()}.example.net` })).a_id;
  });
  afterAll(() => t?.close());
  // Every request comes from 127.0.0.1: each test starts with fresh counters (the rate-limit test sets its own).
  beforeEach(async () => {
    await t.db('rate_limits').where('rl_key', 'like', 'signup:%').del();
  });

  const body = (email: string, extra: Record<string, unknown> = {}) => ({
    u_email: email,
    u_first_name: 'Sam',
    u_last_name: 'Signup',
    u_password: NEW_PASSWORD,
    u_password_confirm: NEW_PASSWORD,
    ...extra,
  });
  const userOf = (email: string) => t.db('users').whereRaw('lower(u_email) = ?', [email.toLowerCase()]).first();
  const count = async (table: string) => Number((await t.db(table).count({ n: '*' }).first())!.n);
  const membershipsOf = async (userId: string) =>
    (await t.db('account_users').where('au_userid', userId).select('au_accountid', 'au_role')).sort((x, y) => x.au_accountid.localeCompare(y.au_accountid));

  it('a new address of a known domain: 201 activation_sent, an unverified member user, the signup mail; no membership yet', async () => {
    const email = `new.${uid()}@${domain}`;
    const res = await t.client().post(SIGNUP, body(email));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ code: 'activation_sent' });
    const user = await userOf(email);
    expect(user).toMatchObject({ u_first_name: 'Sam', u_last_name: 'Signup', u_role: 'member', u_is_verified: false, u_is_enabled: true });
    expect(user.u_password).toMatch(/^\$argon2id\$/);
    expect(await membershipsOf(user.u_id)).toEqual([]);
    const [mail, ...more] = await deliveredMailsTo(t, email);
    expect(more).toEqual([]);
    expect(mail.file).toContain('-signup-');
    expect(mail.subject).toBe('Confirm your e-mail address for Leadstage');
    expect(linkIn(mail, '/users/verify/')).toMatch(/^http:\/\/localhost:3000\/users\/verify\/[\w-]{40,}$/);
    // Not verified: the sign-in says so.
    const login = await t.client().post('/api/1/auth/web', { u_email: email, u_password: NEW_PASSWORD });
    expect(login.status).toBe(403);
    expect(login.body.code).toBe('user_not_verified');
  });

  it('after verification: a member of every enabled account of the domain, none of the disabled one or another domain; signs in', async () => {
    const email = `Verify.${uid()}@${domain.toUpperCase()}`;
    expect((await t.client().post(SIGNUP, body(email))).status).toBe(201);
    const user = await userOf(email);
    const token = linkIn((await deliveredMailsTo(t, email))[0], '/users/verify/').split('/users/verify/')[1];
    const verified = await t.client().get(`/api/1/users/verify/${token}`);
    expect(verified.status).toBe(200);
    expect(verified.body.code).toBe('ok');
    const expected = [first, second].sort().map((a) => ({ au_accountid: a, au_role: 'member' }));
    expect(await membershipsOf(user.u_id)).toEqual(expected);
    expect(expected.map((m) => m.au_accountid)).not.toContain(disabled);
    expect(expected.map((m) => m.au_accountid)).not.toContain(otherDomain);
    // The session lists exactly those accounts.
    const c = t.client();
    const session = (await c.login(email, NEW_PASSWORD)).body;
    expect(session.user.u_role).toBe('member');
    expect(session.accounts.map((a: { a_id: string }) => a.a_id).sort()).toEqual([first, second].sort());
    expect((await c.get(`/api/1/accounts/${first}/events`)).status).toBe(200);
    expect((await c.get(`/api/1/accounts/${disabled}/events`)).status).not.toBe(200);
    // The link works once.
    expect((await t.client().get(`/api/1/users/verify/${token}`)).body.code).toBe('already_verified');
  });

  it('an unverified sign-up that follows a reset link instead is verified and joins too', async () => {
    const email = `reset.${uid()}@${domain}`;
    await t.client().post(SIGNUP, body(email));
    const user = await userOf(email);
    await t.client().post('/api/1/auth/forgot-password', { u_email: email });
    const reset = (await deliveredMailsTo(t, email)).find((m) => m.file.includes('-resetpassword-'))!;
    const token = new URL(linkIn(reset, '/users/resetpassword')).searchParams.get('token')!;
    const page = t.client();
    const guest = await page.get('/api/1/auth/guest-token');
    const res = await page.put(
      '/api/1/auth/reset-password',
      { token, password: 'another-password-2', password_confirm: 'another-password-2' },
      { headers: { 'X-Guest-Token': guest.body.token } },
    );
    expect(res.status).toBe(200);
    expect((await userOf(email)).u_is_verified).toBe(true);
    expect((await membershipsOf(user.u_id)).map((m) => m.au_accountid).sort()).toEqual([first, second].sort());
  });

  it('an unknown domain: 422 company_has_no_account with the contract text; nothing stored, nothing mailed', async () => {
    const email = `nobody.${uid()}@${uid()}.example.com`;
    const [users, tokens, members] = [await count('users'), await count('tokens'), await count('account_users')];
    const res = await t.client().post(SIGNUP, body(email));
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('company_has_no_account');
    expect(res.body.message).toBe('Your company has no account yet; ask your event manager for an invitation');
    expect([await count('users'), await count('tokens'), await count('account_users')]).toEqual([users, tokens, members]);
    expect(await deliveredMailsTo(t, email)).toEqual([]);
  });

  it("a disabled account's domain: 422, nothing stored", async () => {
    const email = `off.${uid()}@${disabledOnly}`;
    const users = await count('users');
    const res = await t.client().post(SIGNUP, body(email));
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('company_has_no_account');
    expect(await count('users')).toBe(users);
    expect(await deliveredMailsTo(t, email)).toEqual([]);
  });

  it('an address that has a user: the same 201, the user unchanged, mailed "an account exists" with a working reset link', async () => {
    const email = `exists.${uid()}@${domain}`;
    const existing = await t.user(email, 'member', { u_first_name: 'Erin' });
    const before = await userOf(email);
    const res = await t.client().post(SIGNUP, body(email.toUpperCase(), { u_first_name: 'Mallory' }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ code: 'activation_sent' });
    const after = await userOf(email);
    expect(after).toEqual(before); // names, password, verification: untouched
    expect(Number((await t.db('users').whereRaw('lower(u_email) = ?', [email.toLowerCase()]).count({ n: '*' }).first())!.n)).toBe(1);
    const mails = await deliveredMailsTo(t, email);
    expect(mails).toHaveLength(1);
    expect(mails[0].file).toContain('-account_exists-');
    expect(mails[0].subject).toBe('You already have a Leadstage account');
    expect(mails[0].text).toContain('Hello Erin');
    expect(mails[0].html).toContain('Choose a new password');
    // The reset link sets a new password for that user.
    const token = new URL(linkIn(mails[0], '/users/resetpassword')).searchParams.get('token')!;
    const page = t.client();
    const guest = await page.get('/api/1/auth/guest-token');
    const reset = await page.put(
      '/api/1/auth/reset-password',
      { token, password: 'reset-from-signup-1', password_confirm: 'reset-from-signup-1' },
      { headers: { 'X-Guest-Token': guest.body.token } },
    );
    expect(reset.status).toBe(200);
    expect((await t.client().post('/api/1/auth/web', { u_email: email, u_password: PASSWORD })).status).toBe(401);
    expect((await t.client().post('/api/1/auth/web', { u_email: email, u_password: 'reset-from-signup-1' })).status).toBe(200);
    expect(existing.u_id).toBe(after.u_id);
  });

  it('the answers for a new and an existing address cannot be told apart (status, body, headers that vary)', async () => {
    const existing = `known.${uid()}@${domain}`;
    await t.user(existing);
    const a = await t.client().post(SIGNUP, body(existing));
    const b = await t.client().post(SIGNUP, body(`unknown.${uid()}@${domain}`));
    expect([a.status, a.body]).toEqual([b.status, b.body]);
    expect(a.headers['content-length']).toBe(b.headers['content-length']);
    expect(a.headers['set-cookie']).toBeUndefined();
    expect(b.headers['set-cookie']).toBeUndefined();
  });

  it('both paths hash the password once (so their times do not tell whether the address had a user)', async () => {
    const existing = `timing.${uid()}@${domain}`;
    await t.user(existing);
    const hashes = vi.spyOn(argon2, 'hash');
    try {
      for (const email of [existing, `timing.${uid()}@${domain}`]) {
        const c = t.client();
        await c.get('/api/1/auth/me'); // the CSRF cookie first
        hashes.mockClear();
        expect((await c.post(SIGNUP, body(email))).status).toBe(201);
        expect(hashes, email).toHaveBeenCalledTimes(1);
      }
    } finally {
      hashes.mockRestore();
    }
  });

  it('validation: password mismatch and too short, missing names, a bad address: 400 with fields, nothing stored', async () => {
    const users = await count('users');
    const mismatch = await t.client().post(SIGNUP, body(`m.${uid()}@${domain}`, { u_password_confirm: 'something-else-1' }));
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.code).toBe('validation_failed');
    expect(mismatch.body.fields).toEqual({ u_password_confirm: 'error_passwords_do_not_match', u_password: 'error_passwords_do_not_match' });

    const weak = await t.client().post(SIGNUP, body(`w.${uid()}@${domain}`, { u_password: 'short', u_password_confirm: 'short' }));
    expect(weak.status).toBe(400);
    expect(weak.body.fields).toEqual({ u_password: 'error_password_too_short' });

    const empty = await t.client().post(SIGNUP, {});
    expect(empty.status).toBe(400);
    expect(empty.body.fields).toMatchObject({
      u_email: 'error_email_required',
      u_first_name: 'error_required',
      u_last_name: 'error_required',
      u_password: 'error_password_too_short',
    });

    const bad = await t.client().post(SIGNUP, body('not-an-address', { u_first_name: '  ', u_last_name: 'x'.repeat(101) }));
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ u_email: 'error_email_invalid', u_first_name: 'error_required', u_last_name: 'error_too_long' });

    const wrongTypes = await t.client().post(SIGNUP, { u_email: ['a@b.c'], u_first_name: 1, u_last_name: null, u_password: {}, u_password_confirm: true });
    expect(wrongTypes.status).toBe(400);
    expect(await count('users')).toBe(users);
  });

  it('needs the CSRF header: 403 csrf_invalid, nothing stored', async () => {
    const email = `csrf.${uid()}@${domain}`;
    const c = t.client();
    await c.get('/api/1/auth/me');
    const res = await c.post(SIGNUP, body(email), { csrf: false });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('csrf_invalid');
    expect(await userOf(email)).toBeUndefined();
    expect(await deliveredMailsTo(t, email)).toEqual([]);
  });

  it('is rate-limited per address (SIGNUP_LIMIT_PER_IP) and per e-mail: 429 too_many_attempts with Retry-After, nothing stored', async () => {
    expect(t.config.signupLimit).toEqual({ perIp: 20, perEmail: 5 });
    // Per e-mail: the sixth sign-up of one address in the window is refused (new or existing, the same).
    const email = `limit.${uid()}@${domain}`;
    for (let i = 0; i < 5; i++) expect((await t.client().post(SIGNUP, body(email))).status).toBe(201);
    const sixth = await t.client().post(SIGNUP, body(email));
    expect(sixth.status).toBe(429);
    expect(sixth.body.code).toBe('too_many_attempts');
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    expect(await deliveredMailsTo(t, email)).toHaveLength(5); // one signup, then four "account exists"

    // Per address: 20 in the window (the six above count), then 429 whatever the e-mail.
    for (let i = 6; i < 20; i++) expect((await t.client().post(SIGNUP, body(`ip${i}.${uid()}@${uid()}.example.com`))).status).toBe(422);
    const users = await count('users');
    const over = await t.client().post(SIGNUP, body(`over.${uid()}@${domain}`));
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('too_many_attempts');
    expect(await count('users')).toBe(users);
  });

  it('mails in Dutch when the browser asks for Dutch', async () => {
    const email = `nl.${uid()}@${domain}`;
    const res = await t.client().post(SIGNUP, body(email), { headers: { 'Accept-Language': 'nl-NL,nl;q=0.9,en;q=0.5' } });
    expect(res.status).toBe(201);
    const [mail] = await deliveredMailsTo(t, email);
    expect(mail.subject).toBe('Bevestig je e-mailadres voor Leadstage');
    expect(mail.html).toContain('lang="nl"');
    expect(mail.html).toContain('Privacybeleid');
    const existing = `nl.known.${uid()}@${domain}`;
    await t.user(existing);
    await t.client().post(SIGNUP, body(existing), { headers: { 'Accept-Language': 'nl' } });
    expect((await deliveredMailsTo(t, existing))[0].subject).toBe('Je hebt al een Leadstage-account');
  });

  it('two sign-ups of one new address at once: one user, both 201', async () => {
    const email = `race.${uid()}@${domain}`;
    const [a, b] = await Promise.all([t.client().post(SIGNUP, body(email)), t.client().post(SIGNUP, body(email))]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(Number((await t.db('users').whereRaw('lower(u_email) = ?', [email]).count({ n: '*' }).first())!.n)).toBe(1);
  });
});
