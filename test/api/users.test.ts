import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { linkFromMail, PASSWORD, startApp, type TestApp, MISSING, uid, signedInRoles, type Signed, withGrant as withGrantOf } from '../helpers/app.js';

const listUrl = (params: Record<string, unknown>) =>
  `/api/1/users?${Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`)
    .join('&')}`;
const NEW_PASSWORD = 'a-brand-new-secret';

describeEachDb('entry API: /users', (kind) => {
  let t: TestApp;
  let root: Signed, superadmin: Signed, admin: Signed, member: Signed;

  beforeAll(async () => {
    t = await startApp(kind);
    ({ root, superadmin, admin, member } = await signedInRoles(t));
  });
  afterAll(() => t?.close());

  const row = (id: string) => t.db('users').where('u_id', id).first();
  const count = async () => Number((await t.db('users').count({ n: '*' }).first())!.n);
  const sessionsOf = async (userId: string) => (await t.db('sessions').where('s_userid', userId).select('s_id')).length;
  /** A user with names, signed in on a client of its own. */
  const signedInUser = async (email: string, role = 'member') => {
    const u = await t.user(email, role);
    const c = t.client();
    await c.login(email, PASSWORD);
    return { ...u, c };
  };
  const withGrant = (role: string, group: string, bits: number, fn: () => Promise<void>) => withGrantOf(t, role, group, bits, fn);

  // ---- list ----------------------------------------------------------------------------------------------------

  it('GET /users without parameters answers every user as an array, without password hashes', async () => {
    const res = await root.get('/api/1/users');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body).toHaveLength(await count());
    for (const u of res.body) {
      expect(u.id).toBe(u.u_id);
      expect(u).not.toHaveProperty('u_password');
    }
    expect(res.body.map((u: { id: string }) => u.id)).toContain(member.userId);
  });

  it('GET /users: 401 without a session, 403 for superadmin, admin and member (no entry_users)', async () => {
    const anon = await t.client().get('/api/1/users');
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe('not_logged_in');
    for (const c of [superadmin, admin, member]) {
      const res = await c.get('/api/1/users');
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
      expect((await c.get(listUrl({ range: [0, 9] }))).status).toBe(403);
      expect((await c.get(`/api/1/users/${member.userId}`)).status).toBe(403);
    }
  });

  it('pages with range/sort/filter and answers Content-Range "users s-e/total"', async () => {
    const p = uid();
    for (const s of ['d', 'a', 'c', 'b', 'e']) await t.user(`${p}${s}@example.com`);
    const res = await root.get(listUrl({ filter: { q: p }, sort: ['u_email', 'ASC'], range: [0, 1] }));
    expect(res.status).toBe(200);
    expect(res.headers['content-range']).toBe('users 0-1/5');
    expect(res.body.map((u: { u_email: string }) => u.u_email)).toEqual([`${p}a@example.com`, `${p}b@example.com`]);
    const last = await root.get(listUrl({ filter: { q: p }, sort: ['u_email', 'DESC'], range: [4, 9] }));
    expect(last.headers['content-range']).toBe('users 4-4/5');
    expect(last.body.map((u: { u_email: string }) => u.u_email)).toEqual([`${p}a@example.com`]);
    // the default order is by e-mail
    const dflt = await root.get(listUrl({ filter: { q: p }, range: [0, 24] }));
    expect(dflt.body.map((u: { u_email: string }) => u.u_email)).toEqual(['a', 'b', 'c', 'd', 'e'].map((s) => `${p}${s}@example.com`));
  });

  it('q is a case-insensitive prefix search over e-mail, first and last name; several words narrow it', async () => {
    const p = uid();
    const ann = await t.user(`${p}.one@example.com`, 'member', { u_first_name: `${p}Ann`, u_last_name: 'Smith' });
    const bob = await t.user(`${p}.two@example.com`, 'member', { u_first_name: 'Bob', u_last_name: `${p}Smithers` });
    const cat = await t.user(`cat.${p}@example.com`, 'member', { u_first_name: 'Cat', u_last_name: `${p}Jones` });
    const q = async (text: string) => {
      const res = await root.get(listUrl({ filter: { q: text }, range: [0, 99] }));
      expect(res.status).toBe(200);
      return res.body.map((u: { id: string }) => u.id).sort();
    };
    expect(await q(`${p.toUpperCase()}.ONE`)).toEqual([ann.u_id]); // e-mail, any case
    expect(await q(`${p}ann`)).toEqual([ann.u_id]); // first name
    expect(await q(`${p}SMITH`)).toEqual([bob.u_id]); // last name
    expect(await q(p)).toEqual([ann.u_id, bob.u_id, cat.u_id].sort());
    expect(await q(`${p}ann smi`)).toEqual([ann.u_id]); // first name + last name
    expect(await q(`bob ${p}sm`)).toEqual([bob.u_id]);
    expect(await q(`${p}ann jones`)).toEqual([]);
    expect(await q(`at.${p}`)).toEqual([]); // prefix, not substring
    expect(await q(`   ${p}ann   `)).toEqual([ann.u_id]);
    expect(await q(`${p}_nn`)).toEqual([]); // LIKE wildcards are literal
  });

  it('filters by role and flags, and by ids (getMany)', async () => {
    const p = uid();
    const a = await t.user(`${p}a@example.com`, 'admin');
    const b = await t.user(`${p}b@example.com`, 'member', { u_is_verified: false });
    const c = await t.user(`${p}c@example.com`, 'member', { u_is_enabled: false });
    const ids = async (filter: Record<string, unknown>) => {
      const res = await root.get(listUrl({ filter: { q: p, ...filter }, range: [0, 9] }));
      expect(res.status).toBe(200);
      return res.body.map((u: { id: string }) => u.id).sort();
    };
    expect(await ids({ u_role: 'admin' })).toEqual([a.u_id]);
    expect(await ids({ u_role: ['admin', 'member'] })).toEqual([a.u_id, b.u_id, c.u_id].sort());
    expect(await ids({ u_is_verified: false })).toEqual([b.u_id]);
    expect(await ids({ u_is_enabled: 'false' })).toEqual([c.u_id]);
    expect(await ids({ u_role: 'nobody' })).toEqual([]);
    const many = await root.get(listUrl({ filter: { id: [a.u_id, c.u_id, MISSING, 'junk'] } }));
    expect(many.status).toBe(200);
    expect(many.body.map((u: { id: string }) => u.id).sort()).toEqual([a.u_id, c.u_id].sort());
  });

  it('keeps a stable order across pages when sort values tie', async () => {
    const p = uid();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await t.user(`${p}${i}@example.com`, 'member', { u_first_name: 'Same', u_last_name: 'Name' })).u_id);
    const seen: string[] = [];
    for (const range of [
      [0, 1],
      [2, 3],
      [4, 5],
    ]) {
      const res = await root.get(listUrl({ filter: { q: p }, sort: ['u_last_name', 'ASC'], range }));
      seen.push(...res.body.map((u: { id: string }) => u.id));
    }
    expect(new Set(seen).size).toBe(6);
    expect([...seen].sort()).toEqual([...ids].sort());
    const whole = await root.get(listUrl({ filter: { q: p }, sort: ['u_last_name', 'ASC'], range: [0, 5] }));
    expect(whole.body.map((u: { id: string }) => u.id)).toEqual(seen);
  });

  it('accepts a page of 1000 and refuses 1001 rows, unknown sort fields and filters with 400 (never 500)', async () => {
    expect((await root.get(listUrl({ range: [0, 999] }))).status).toBe(200);
    const bad: [Record<string, unknown>, string][] = [
      [{ range: [0, 1000] }, 'invalid_range'],
      [{ range: [10, 1010] }, 'invalid_range'],
      [{ range: [0.5, 3] }, 'invalid_range'],
      [{ range: [null, 3] }, 'invalid_range'],
      [{ sort: ['u_password', 'ASC'] }, 'invalid_sort'],
      [{ sort: ['nope', 'ASC'] }, 'invalid_sort'],
      [{ sort: ['u_email', 'up'] }, 'invalid_sort'],
      [{ filter: { u_password: 'x' } }, 'invalid_filter'],
      [{ filter: { u_email: 'x@example.com' } }, 'invalid_filter'],
      [{ filter: { u_is_verified: 'perhaps' } }, 'invalid_filter'],
      [{ filter: { u_is_enabled: [1.5] } }, 'invalid_filter'],
      [{ filter: { u_role: [{}] } }, 'invalid_filter'],
      [{ filter: 'q' }, 'invalid_filter'],
    ];
    for (const [params, code] of bad) {
      const res = await root.get(listUrl(params));
      expect({ params, status: res.status, code: res.body.code }).toEqual({ params, status: 400, code });
    }
  });

  // ---- one record ----------------------------------------------------------------------------------------------

  it('GET /users/:id answers the user without the hash; 404 for unknown and malformed ids; 401 without a session', async () => {
    const res = await root.get(`/api/1/users/${member.userId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: member.userId, u_id: member.userId, u_role: 'member', u_is_verified: true, u_is_enabled: true });
    expect(res.body).not.toHaveProperty('u_password');
    for (const id of [MISSING, 'me', '0', `${member.userId}0`, '00000000-0000-0000-0000-000000000000']) {
      const r = await root.get(`/api/1/users/${id}`);
      expect({ id, status: r.status, code: r.body.code }).toEqual({ id, status: 404, code: 'not_found' });
    }
    expect((await t.client().get(`/api/1/users/${member.userId}`)).status).toBe(401);
  });

  // ---- create --------------------------------------------------------------------------------------------------

  it('POST /users creates an unverified user with an argon2id hash and mails a verification link', async () => {
    const email = `${uid()}.new@example.com`;
    const res = await root.post('/api/1/users', {
      u_email: `  ${email}  `,
      u_first_name: ' Nina ',
      u_last_name: 'New',
      u_role: 'admin',
      u_password: NEW_PASSWORD,
      u_password_confirm: NEW_PASSWORD,
      u_id: MISSING, // ignored
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ u_email: email, u_first_name: 'Nina', u_last_name: 'New', u_role: 'admin', u_is_verified: false, u_is_enabled: true });
    expect(res.body.id).toBe(res.body.u_id);
    expect(res.body.u_id).not.toBe(MISSING);
    expect(res.body).not.toHaveProperty('u_password');
    const stored = await row(res.body.u_id);
    expect(stored.u_email).toBe(email);
    expect(stored.u_password).toMatch(/^\$argon2id\$/);
    expect(stored.u_password).not.toContain(NEW_PASSWORD);
    const mail = t.outbox().find((m) => m.file.includes(`signup-${email}`));
    expect(mail).toBeTruthy();
    expect(linkFromMail(mail!.text, '/users/verify/')).toMatch(/^http:\/\/localhost:3000\/users\/verify\/[\w-]{20,}/);
    expect(await t.db('tokens').where({ t_userid: res.body.u_id, t_type: 'verify' }).first()).toBeTruthy();
    // the new user cannot log in before verifying
    const login = await t.client().post('/api/1/auth/web', { u_email: email, u_password: NEW_PASSWORD });
    expect(login.status).toBe(403);
    expect(login.body.code).toBe('user_not_verified');
  });

  it('POST /users with u_is_verified sends no mail, and the user can log in', async () => {
    const email = `${uid()}.verified@example.com`;
    const res = await root.post('/api/1/users', { u_email: email, u_is_verified: true, u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ u_role: 'member', u_is_verified: true, u_first_name: '', u_last_name: '' });
    expect(t.outbox().some((m) => m.file.includes(email))).toBe(false);
    expect((await t.client().post('/api/1/auth/web', { u_email: email, u_password: NEW_PASSWORD })).status).toBe(200);
  });

  it("POST /users: a user whose e-mail domain (any case) is an account's a_email_domain becomes a member of it", async () => {
    const domain = `${uid()}.example.org`;
    const acc = await t.account('Domain Co', { a_email_domain: domain });
    const other = await t.account('Other Co', { a_email_domain: `other-${domain}` });
    const res = await root.post('/api/1/users', {
      u_email: `Pat@${domain.toUpperCase()}`,
      u_password: NEW_PASSWORD,
      u_password_confirm: NEW_PASSWORD,
    });
    expect(res.status).toBe(201);
    const links = await t.db('account_users').where('au_userid', res.body.u_id);
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ au_accountid: acc.a_id, au_role: 'member' });
    expect(links.some((l) => l.au_accountid === other.a_id)).toBe(false);
    // an account created through the API with a mixed-case domain links too
    const domain2 = `${uid()}.example.net`;
    const acc2 = await root.post('/api/1/accounts', { a_name: 'Api Co', a_email_domain: `@${domain2.toUpperCase()}` });
    expect(acc2.status).toBe(201);
    const u2 = await root.post('/api/1/users', { u_email: `lee@${domain2}`, u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD });
    expect(await t.db('account_users').where({ au_userid: u2.body.u_id, au_accountid: acc2.body.a_id }).first()).toBeTruthy();
    // a domain that only ends the same way does not
    const u3 = await root.post('/api/1/users', { u_email: `sam@sub.${domain}`, u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD });
    expect(await t.db('account_users').where('au_userid', u3.body.u_id)).toHaveLength(0);
  });

  it('POST /users: a duplicate e-mail in any case answers 409 user_already_exists and stores nothing', async () => {
    const email = `${uid()}.dup@example.com`;
    await t.user(email);
    const before = await count();
    for (const variant of [email, email.toUpperCase(), ` ${email.replace('dup', 'DUP')} `]) {
      const res = await root.post('/api/1/users', { u_email: variant, u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('user_already_exists');
      expect(res.body.fields).toEqual({ u_email: 'error_user_already_exists' });
      expect(res.body.message).toBe('A user with the same email address already exists');
    }
    expect(await count()).toBe(before);
    expect(t.outbox().some((m) => m.file.toLowerCase().includes(email) && m.file.startsWith('signup'))).toBe(false);
  });

  it('POST /users: simultaneous creates with one e-mail make one user; the others get 409 user_already_exists', async () => {
    const email = `${uid()}.race@example.com`;
    const body = (e: string) => ({ u_email: e, u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD });
    const results = await Promise.all([email, email.toUpperCase(), email, email.toUpperCase(), email].map((e) => root.post('/api/1/users', body(e))));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe('user_already_exists');
    expect(await t.db('users').whereRaw('lower(u_email) = ?', [email])).toHaveLength(1);
    // and the same for two users renamed to one e-mail at once
    const a = await t.user(`${uid()}.ra@example.com`);
    const b = await t.user(`${uid()}.rb@example.com`);
    const target = `${uid()}.rt@example.com`;
    const renames = await Promise.all([a, b].map((u) => root.put(`/api/1/users/${u.u_id}`, { u_email: target })));
    expect(renames.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(renames.find((r) => r.status === 409)!.body.code).toBe('user_already_exists');
  });

  it('POST /users: invalid bodies answer 400 with field errors and store nothing', async () => {
    const e = `${uid()}@example.com`;
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD }, { u_email: 'error_email_required' }],
      [{ u_email: '', u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD }, { u_email: 'error_email_required' }],
      [{ u_email: 'not-an-email', u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD }, { u_email: 'error_email_invalid' }],
      [{ u_email: 'a@b', u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD }, { u_email: 'error_email_invalid' }],
      [{ u_email: `${'x'.repeat(250)}@example.com`, u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD }, { u_email: 'error_email_invalid' }],
      [{ u_email: e, u_password: 'short', u_password_confirm: 'short' }, { u_password: 'error_password_too_short' }],
      [{ u_email: e }, { u_password: 'error_password_too_short' }],
      [
        { u_email: e, u_password: NEW_PASSWORD, u_password_confirm: `${NEW_PASSWORD}!` },
        { u_password: 'error_passwords_do_not_match', u_password_confirm: 'error_passwords_do_not_match' },
      ],
      [{ u_email: e, u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD, u_role: 'god' }, { u_role: 'error_role_invalid' }],
      [{ u_email: e, u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD, u_is_enabled: 'yes' }, { u_is_enabled: 'error_invalid_value' }],
      [{ u_email: e, u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD, u_first_name: 'x'.repeat(101) }, { u_first_name: 'error_too_long' }],
      [{ u_email: 42, u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD }, { u_email: 'error_email_required' }],
      [{ u_email: e, u_password: 123456789012345, u_password_confirm: 123456789012345 }, { u_password: 'error_invalid_value' }],
    ];
    const before = await count();
    for (const [body, fields] of cases) {
      const res = await root.post('/api/1/users', body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'validation_failed' });
      expect(res.body.fields).toMatchObject(fields);
      expect(res.body.message).toBeTruthy();
    }
    // the mismatch shows on both fields
    const mismatch = await root.post('/api/1/users', { u_email: e, u_password: NEW_PASSWORD, u_password_confirm: 'something-else-entirely' });
    expect(mismatch.body.fields).toEqual({ u_password: 'error_passwords_do_not_match', u_password_confirm: 'error_passwords_do_not_match' });
    // a minimum of PASSWORD_MIN_LENGTH (12): 11 characters are too short, 12 are enough
    const eleven = await root.post('/api/1/users', { u_email: e, u_password: 'a'.repeat(11), u_password_confirm: 'a'.repeat(11) });
    expect(eleven.body.fields).toEqual({ u_password: 'error_password_too_short' });
    expect(await count()).toBe(before);
    expect(await t.db('users').whereRaw('lower(u_email) = ?', [e]).first()).toBeUndefined();
    const twelve = await root.post('/api/1/users', { u_email: e, u_password: 'a'.repeat(12), u_password_confirm: 'a'.repeat(12) });
    expect(twelve.status).toBe(201);
  });

  it('POST /users: 401 without a session, 403 without CSRF, 403 for superadmin/admin/member; nothing stored', async () => {
    const email = `${uid()}@example.com`;
    const body = { u_email: email, u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD };
    const before = await count();
    expect((await t.client().post('/api/1/users', body)).status).toBe(401);
    const noCsrf = await root.post('/api/1/users', body, { csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.code).toBe('csrf_invalid');
    const wrongToken = await root.post('/api/1/users', body, { csrf: false, headers: { 'X-CSRF-Token': 'forged' } });
    expect(wrongToken.status).toBe(403);
    for (const c of [superadmin, admin, member]) {
      const res = await c.post('/api/1/users', body);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
    expect(await count()).toBe(before);
    expect(t.outbox().some((m) => m.file.includes(email))).toBe(false);
  });

  // ---- update --------------------------------------------------------------------------------------------------

  it('PUT /users/:id changes the given fields and keeps the others (and the password)', async () => {
    const u = await t.user(`${uid()}@example.com`, 'member', { u_first_name: 'Keep', u_last_name: 'Me' });
    const before = await row(u.u_id);
    const res = await root.put(`/api/1/users/${u.u_id}`, { u_role: 'admin' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: u.u_id, u_role: 'admin', u_first_name: 'Keep', u_last_name: 'Me' });
    const after = await row(u.u_id);
    expect(after).toMatchObject({ u_role: 'admin', u_first_name: 'Keep', u_last_name: 'Me', u_email: u.u_email, u_password: before.u_password });
    // empty password fields mean "no change"; the whole record as the admin sends it back is accepted
    const full = (await root.get(`/api/1/users/${u.u_id}`)).body;
    const newEmail = `${uid()}.renamed@example.com`;
    const again = await root.put(`/api/1/users/${u.u_id}`, { ...full, u_email: newEmail, u_first_name: 'Kept', u_password: '', u_password_confirm: '' });
    expect(again.status).toBe(200);
    expect(await row(u.u_id)).toMatchObject({ u_email: newEmail, u_first_name: 'Kept', u_last_name: 'Me', u_password: before.u_password });
    // the same e-mail in another case is the user's own: no conflict
    const recase = await root.put(`/api/1/users/${u.u_id}`, { u_email: newEmail.toUpperCase() });
    expect(recase.status).toBe(200);
  });

  it("PUT /users/:id: another user's e-mail (any case) answers 409 user_already_exists; nothing changed", async () => {
    const a = await t.user(`${uid()}.a@example.com`);
    const b = await t.user(`${uid()}.b@example.com`);
    const before = await row(b.u_id);
    const res = await root.put(`/api/1/users/${b.u_id}`, { u_email: a.u_email.toUpperCase(), u_first_name: 'Changed' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('user_already_exists');
    expect(res.body.fields).toEqual({ u_email: 'error_user_already_exists' });
    expect(await row(b.u_id)).toEqual(before);
  });

  it('PUT /users/:id: invalid bodies answer 400 with field errors and change nothing', async () => {
    const u = await t.user(`${uid()}@example.com`, 'member', { u_first_name: 'Val' });
    const before = await row(u.u_id);
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ u_email: '' }, { u_email: 'error_email_required' }],
      [{ u_email: 'bad@' }, { u_email: 'error_email_invalid' }],
      [{ u_email: null }, { u_email: 'error_email_required' }],
      [{ u_password: 'short', u_password_confirm: 'short' }, { u_password: 'error_password_too_short' }],
      [
        { u_password: NEW_PASSWORD, u_password_confirm: 'different-but-long' },
        { u_password: 'error_passwords_do_not_match', u_password_confirm: 'error_passwords_do_not_match' },
      ],
      [{ u_password: '', u_password_confirm: NEW_PASSWORD }, { u_password: 'error_password_too_short' }],
      [{ u_role: 'owner' }, { u_role: 'error_role_invalid' }],
      [{ u_is_verified: 'true' }, { u_is_verified: 'error_invalid_value' }],
      [{ u_first_name: 'ok', u_last_name: 'y'.repeat(101) }, { u_last_name: 'error_too_long' }],
    ];
    for (const [body, fields] of cases) {
      const res = await root.put(`/api/1/users/${u.u_id}`, body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'validation_failed' });
      expect(res.body.fields).toMatchObject(fields);
    }
    expect(await row(u.u_id)).toEqual(before);
  });

  it('PUT /users/:id: 401, 403 without CSRF, 403 for other roles, 404 for unknown/malformed ids; nothing changed', async () => {
    const u = await t.user(`${uid()}@example.com`, 'member', { u_first_name: 'Same' });
    const before = await row(u.u_id);
    expect((await t.client().put(`/api/1/users/${u.u_id}`, { u_first_name: 'X' })).status).toBe(401);
    const noCsrf = await root.put(`/api/1/users/${u.u_id}`, { u_first_name: 'X' }, { csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.code).toBe('csrf_invalid');
    for (const c of [superadmin, admin, member]) expect((await c.put(`/api/1/users/${u.u_id}`, { u_first_name: 'X' })).status).toBe(403);
    for (const id of [MISSING, 'x', `${u.u_id.slice(0, -1)}g`]) expect((await root.put(`/api/1/users/${id}`, { u_first_name: 'X' })).status).toBe(404);
    expect(await row(u.u_id)).toEqual(before);
  });

  it("a password change needs change_password, stores a new hash and ends the user's other sessions", async () => {
    const target = await signedInUser(`${uid()}.pw@example.com`);
    const other = t.client();
    await other.login(target.u_email, PASSWORD);
    expect(await sessionsOf(target.u_id)).toBe(2);
    const before = await row(target.u_id);
    // a role with entry_users update but not change_password (as ops could grant): 403 and nothing changed
    await withGrant('superadmin', 'entry_users', 15, async () => {
      const names = await superadmin.put(`/api/1/users/${target.u_id}`, { u_first_name: 'Renamed' });
      expect(names.status).toBe(200);
      const pw = await superadmin.put(`/api/1/users/${target.u_id}`, { u_first_name: 'Again', u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD });
      expect(pw.status).toBe(403);
      expect(pw.body.code).toBe('forbidden');
      expect(pw.body.fields).toEqual({ u_password: 'error_forbidden' });
    });
    expect(await row(target.u_id)).toMatchObject({ u_first_name: 'Renamed', u_password: before.u_password });
    expect((await target.c.get('/api/1/auth/me')).status).toBe(200);
    // root has change_password
    const res = await root.put(`/api/1/users/${target.u_id}`, { u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD });
    expect(res.status).toBe(200);
    const after = await row(target.u_id);
    expect(after.u_password).toMatch(/^\$argon2id\$/);
    expect(after.u_password).not.toBe(before.u_password);
    expect(await sessionsOf(target.u_id)).toBe(0);
    expect((await target.c.get('/api/1/auth/me')).status).toBe(401);
    expect((await other.get('/api/1/auth/me')).status).toBe(401);
    expect((await t.client().post('/api/1/auth/web', { u_email: target.u_email, u_password: PASSWORD })).status).toBe(401);
    expect((await t.client().post('/api/1/auth/web', { u_email: target.u_email, u_password: NEW_PASSWORD })).status).toBe(200);
  });

  it('changing your own password keeps the current session and ends your other ones', async () => {
    const me = await signedInUser(`${uid()}.self@example.com`, 'root');
    const elsewhere = t.client();
    await elsewhere.login(me.u_email, PASSWORD);
    const res = await me.c.put(`/api/1/users/${me.u_id}`, { u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect((await me.c.get('/api/1/auth/me')).status).toBe(200);
    expect((await elsewhere.get('/api/1/auth/me')).status).toBe(401);
    expect(await sessionsOf(me.u_id)).toBe(1);
  });

  it('disabling a user ends its sessions; nobody can disable, demote or delete themselves', async () => {
    const target = await signedInUser(`${uid()}.off@example.com`);
    const off = await root.put(`/api/1/users/${target.u_id}`, { u_is_enabled: false });
    expect(off.status).toBe(200);
    expect((await row(target.u_id)).u_is_enabled).toBe(false);
    expect((await target.c.get('/api/1/auth/me')).status).toBe(401);

    const me = await signedInUser(`${uid()}.me@example.com`, 'root');
    const before = await row(me.u_id);
    const disable = await me.c.put(`/api/1/users/${me.u_id}`, { u_is_enabled: false });
    expect(disable.status).toBe(409);
    expect(disable.body.code).toBe('cannot_disable_self');
    const demote = await me.c.put(`/api/1/users/${me.u_id}`, { u_role: 'member', u_first_name: 'Nope' });
    expect(demote.status).toBe(409);
    expect(demote.body.code).toBe('cannot_change_own_role');
    const del = await me.c.delete(`/api/1/users/${me.u_id}`);
    expect(del.status).toBe(409);
    expect(del.body.code).toBe('cannot_delete_self');
    expect(await row(me.u_id)).toEqual(before);
    // sending your own role unchanged (the whole record) is fine
    const same = await me.c.put(`/api/1/users/${me.u_id}`, { u_role: 'root', u_is_enabled: true, u_first_name: 'Still' });
    expect(same.status).toBe(200);
    expect((await me.c.get('/api/1/auth/me')).status).toBe(200);
  });

  // ---- delete --------------------------------------------------------------------------------------------------

  it('DELETE /users/:id removes the user, its memberships, tokens and sessions', async () => {
    const target = await signedInUser(`${uid()}.del@example.com`);
    const acc = await t.account('Del Co');
    await t.member(acc.a_id, target.u_id);
    const res = await root.delete(`/api/1/users/${target.u_id}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(target.u_id);
    expect(res.body).not.toHaveProperty('u_password');
    expect(await row(target.u_id)).toBeUndefined();
    expect(await t.db('account_users').where('au_userid', target.u_id).first()).toBeUndefined();
    expect(await sessionsOf(target.u_id)).toBe(0);
    expect((await target.c.get('/api/1/auth/me')).status).toBe(401);
    expect(await t.db('accounts').where('a_id', acc.a_id).first()).toBeTruthy();
  });

  it('DELETE /users/:id: 401, 403 without CSRF, 403 for other roles, 404 for unknown/malformed ids; nothing deleted', async () => {
    const u = await t.user(`${uid()}.stay@example.com`);
    expect((await t.client().delete(`/api/1/users/${u.u_id}`)).status).toBe(401);
    const noCsrf = await root.delete(`/api/1/users/${u.u_id}`, { csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.code).toBe('csrf_invalid');
    for (const c of [superadmin, admin, member]) expect((await c.delete(`/api/1/users/${u.u_id}`)).status).toBe(403);
    for (const id of [MISSING, 'null', '%00']) expect((await root.delete(`/api/1/users/${id}`)).status).toBe(404);
    expect(await row(u.u_id)).toBeTruthy();
  });
});
