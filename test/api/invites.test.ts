import crypto from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { MISSING, PASSWORD, qs, startApp, uid, withGrant, type Signed, type TestApp, type TestClient } from '../helpers/app.js';
import { linkIn, mailsTo, withFailingMailer } from '../helpers/mail.js';
import { INVITE_TTL_DAYS } from '../../resources/invites.js';

const NEW_PASSWORD = 'a-fresh-password-1';
const DAY = 86400_000;

describeEachDb('invites: create, mail, resend, revoke, and the public accept', (kind) => {
  let t: TestApp;
  let root: Signed;
  /** A superadmin of account A (no set_role, like the matrix says), a member of A, someone of account B. */
  let owner: Signed;
  let memberOfA: Signed;
  let ownerOfB: Signed;
  let a: string;
  let b: string;
  const accountNameA = `Acme & Co ${uid()}`;

  beforeAll(async () => {
    t = await startApp(kind);
    root = await t.signedIn('root');
    a = (await t.account(accountNameA)).a_id;
    b = (await t.account(`Other ${uid()}`)).a_id;
    owner = await t.signedIn('member');
    await t.db('users').where('u_id', owner.userId).update({ u_first_name: 'Olga', u_last_name: 'Owner' });
    await t.member(a, owner.userId, 'superadmin');
    memberOfA = await t.signedIn('member');
    await t.member(a, memberOfA.userId, 'member');
    ownerOfB = await t.signedIn('member');
    await t.member(b, ownerOfB.userId, 'superadmin');
  });
  afterAll(() => t?.close());

  const invitesPath = (account = a) => `/api/1/accounts/${account}/invites`;
  const email = () => `${uid()}@example.com`;
  const inviteRow = (id: string) => t.db('invites').where('iv_id', id).first();
  const countInvites = async (account = a) => Number((await t.db('invites').where('iv_accountid', account).count({ n: '*' }).first())!.n);
  const lastMailTo = (to: string) => {
    const mails = mailsTo(t, to);
    expect(mails.length, `a mail to ${to}`).toBeGreaterThan(0);
    return mails[mails.length - 1];
  };
  /** The token of an invite link (the last path segment). */
  const tokenOf = (link: string) => decodeURIComponent(new URL(link).pathname.split('/').pop()!);
  const invite = async (body: Record<string, unknown>, by: TestClient = owner, account = a) => {
    const res = await by.post(invitesPath(account), body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Record<string, unknown> & { id: string };
  };
  const accept = (client: TestClient, body: Record<string, unknown>) => client.post('/api/1/invite/accept', body);

  it('a new user: the mail carries the link, the page data, accept creates a verified user who joins with the role and is signed in', async () => {
    const to = email();
    const before = Date.now();
    const created = await invite({ iv_email: to, iv_first_name: 'Nina', iv_last_name: 'New' }, root);
    expect(created).toMatchObject({ iv_email: to, iv_first_name: 'Nina', iv_role: 'member', iv_status: 'pending', iv_invited_by: root.userId, iv_accountid: a });
    expect(created).not.toHaveProperty('iv_token_hash');
    const expires = Date.parse(String(created.iv_expires_at));
    expect(expires).toBeGreaterThanOrEqual(before + INVITE_TTL_DAYS * DAY - 5000);
    expect(expires).toBeLessThanOrEqual(Date.now() + INVITE_TTL_DAYS * DAY + 5000);

    const mail = lastMailTo(to);
    expect(mail.text).toContain('Nina');
    expect(mail.text).toContain(accountNameA);
    expect(mail.html).toContain(accountNameA.replace('&', '&amp;'));
    const link = linkIn(mail);
    expect(link.startsWith(`${t.config.publicUrl}/invite/`)).toBe(true);
    const token = tokenOf(link);
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    // Stored hashed: the token itself appears nowhere in the row.
    const row = await inviteRow(created.id);
    expect(row.iv_token_hash).toBe(crypto.createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token);

    const visitor = t.client();
    const page = await visitor.get(`/api/1/invite/${encodeURIComponent(token)}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({
      account: { a_id: a, a_name: accountNameA },
      iv_email: to,
      iv_first_name: 'Nina',
      iv_last_name: 'New',
      iv_role: 'member',
      user_exists: false,
    });

    // Spec 5 password rules, on the fields; nothing happens.
    const short = await accept(visitor, { token, u_first_name: 'Nina', u_last_name: 'New', u_password: 'short', u_password_confirm: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.fields).toMatchObject({ u_password: 'error_password_too_short' });
    const mismatch = await accept(visitor, { token, u_first_name: 'Nina', u_last_name: 'New', u_password: NEW_PASSWORD, u_password_confirm: `${NEW_PASSWORD}x` });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.fields).toEqual({ u_password: 'error_passwords_do_not_match', u_password_confirm: 'error_passwords_do_not_match' });
    expect((await inviteRow(created.id)).iv_status).toBe('pending');
    expect(await t.db('users').whereRaw('lower(u_email) = ?', [to]).first()).toBeUndefined();

    const ok = await accept(visitor, { token, u_first_name: 'Nina', u_last_name: 'Newton', u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.account_id).toBe(a);
    expect(ok.body.user).toMatchObject({ u_email: to, u_first_name: 'Nina', u_last_name: 'Newton', u_is_verified: true });
    expect(ok.body.accounts.map((x: { a_id: string; au_role: string }) => [x.a_id, x.au_role])).toEqual([[a, 'member']]);
    expect(visitor.cookies.get('is_logged_in')).toBe('1');

    // Signed in: /auth/me shows the account; the CSRF token was re-issued for the new session (a write works).
    const me = await visitor.get('/api/1/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.accounts.map((x: { a_id: string }) => x.a_id)).toEqual([a]);
    expect((await visitor.get(`/api/1/accounts/${a}/events`)).status).toBe(200);
    const user = await t.db('users').whereRaw('lower(u_email) = ?', [to]).first();
    expect(user).toMatchObject({ u_is_verified: true, u_is_enabled: true, u_role: 'member' });
    expect(await t.db('account_users').where({ au_accountid: a, au_userid: user.u_id }).first()).toMatchObject({ au_role: 'member' });
    expect((await inviteRow(created.id)).iv_status).toBe('accepted');
    expect((await root.get(`${invitesPath()}/${created.id}`)).body.iv_status).toBe('accepted');
    // The password works for a later sign-in.
    await t.client().login(to, NEW_PASSWORD);

    // Single use: the link is spent.
    const again = await accept(t.client(), { token, u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'invite_invalid', message: 'Failed to validate the invite' });
    expect((await t.client().get(`/api/1/invite/${token}`)).body.code).toBe('invite_invalid');
    expect((await visitor.post('/api/1/auth/logout')).status).toBe(200);
  });

  it("the invite role: root invites an admin, who joins as admin; names left empty take the invite's", async () => {
    const to = email();
    await invite({ iv_email: to, iv_first_name: 'Ada', iv_last_name: 'Admin', iv_role: 'admin' }, root);
    const token = tokenOf(linkIn(lastMailTo(to)));
    const visitor = t.client();
    expect((await visitor.get(`/api/1/invite/${token}`)).body.iv_role).toBe('admin');
    const ok = await accept(visitor, { token, u_first_name: '', u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.user).toMatchObject({ u_first_name: 'Ada', u_last_name: 'Admin' });
    expect(ok.body.accounts.find((x: { a_id: string }) => x.a_id === a).au_role).toBe('admin');
  });

  it('an existing user must be signed in as the invited address (401 otherwise), then joins; the password is not touched', async () => {
    const to = email();
    const existing = await t.user(to);
    await invite({ iv_email: to.toUpperCase() });
    const token = tokenOf(linkIn(lastMailTo(to.toUpperCase())));
    expect((await t.client().get(`/api/1/invite/${token}`)).body).toMatchObject({ user_exists: true, iv_email: to.toUpperCase() });

    const anonymous = await accept(t.client(), { token });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('not_logged_in');
    const someoneElse = await accept(memberOfA, { token, u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD });
    expect(someoneElse.status).toBe(401);
    expect(someoneElse.body.code).toBe('invite_other_user');
    expect(await t.db('account_users').where({ au_accountid: a, au_userid: existing.u_id }).first()).toBeUndefined();
    const stored = await t.db('invites').whereRaw('lower(iv_email) = ?', [to]).first();
    expect(stored.iv_status).toBe('pending');

    const user = t.client();
    await user.login(to, PASSWORD);
    const ok = await accept(user, { token, u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.account_id).toBe(a);
    expect((await user.get('/api/1/auth/me')).body.accounts.map((x: { a_id: string; au_role: string }) => [x.a_id, x.au_role])).toEqual([[a, 'member']]);
    expect((await t.db('invites').where('iv_id', stored.iv_id).first()).iv_status).toBe('accepted');
    await t.client().login(to, PASSWORD); // unchanged
    expect((await accept(user, { token })).body.code).toBe('invite_invalid');
  });

  it('an address registered but never confirmed is completed by the invite (the link proves it) like a new user', async () => {
    const to = email();
    const pending = await t.user(to, 'member', { u_is_verified: false, u_first_name: 'Old' });
    await invite({ iv_email: to });
    const token = tokenOf(linkIn(lastMailTo(to)));
    expect((await t.client().get(`/api/1/invite/${token}`)).body.user_exists).toBe(false);
    const visitor = t.client();
    const ok = await accept(visitor, { token, u_first_name: 'Una', u_last_name: 'Verified', u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.user).toMatchObject({ u_id: pending.u_id, u_first_name: 'Una', u_is_verified: true });
    await t.client().login(to, NEW_PASSWORD);
  });

  it("the account's invite template is used when it has one (variables HTML-escaped, its sender name and reply address), else the built-in", async () => {
    const template = await owner.post(`/api/1/accounts/${a}/mail-templates`, {
      mt_name: 'invite',
      mt_subject: 'Join {{account_name}}, {{first_name}}',
      mt_from_name: 'Acme Events',
      mt_from_email: 'events@acme.example',
      mt_html: '<h1>ACME-INVITE</h1><p>Hi {{first_name}}, {{inviter_name}} asks you in as {{role}}. <a href="{{link}}">Join</a> {{nonsense}}.</p>',
      mt_text: 'ACME-INVITE text for {{first_name}}: {{link}}',
    });
    expect(template.status, JSON.stringify(template.body)).toBe(201);
    try {
      const to = email();
      await invite({ iv_email: to, iv_first_name: '<b>Bo</b>' });
      const mail = lastMailTo(to);
      expect(mail.subject).toBe(`Join ${accountNameA}, <b>Bo</b>`);
      expect(mail.html).toContain('<h1>ACME-INVITE</h1><p>Hi &lt;b&gt;Bo&lt;/b&gt;, Olga Owner asks you in as member.');
      expect(mail.html).toContain(' .</p>'); // an unknown variable renders empty
      expect(mail.text).toMatch(/^ACME-INVITE text for <b>Bo<\/b>: http/);
      expect(mail.from).toContain('Acme Events');
      expect(mail.replyTo).toContain('events@acme.example');
      // The link of the account's template works like the built-in one.
      const token = tokenOf(linkIn(mail));
      expect((await t.client().get(`/api/1/invite/${token}`)).status).toBe(200);

      // Account B has no template: the built-in one.
      const toB = email();
      await invite({ iv_email: toB }, ownerOfB, b);
      const builtin = lastMailTo(toB);
      expect(builtin.html).not.toContain('ACME-INVITE');
      expect(builtin.text).toContain('Accept the invitation');
      expect((await t.client().get(`/api/1/invite/${tokenOf(linkIn(builtin))}`)).body.account.a_id).toBe(b);
    } finally {
      await t.db('mail_templates').where({ mt_accountid: a, mt_name: 'invite' }).del();
    }
  });

  it('409 invite_already_exists for a pending invite of the same address (any case), 409 member_already_exists for a member', async () => {
    const to = email();
    await invite({ iv_email: to });
    const n = await countInvites();
    const mails = t.outbox().length;
    const dup = await owner.post(invitesPath(), { iv_email: to.toUpperCase() });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({
      code: 'invite_already_exists',
      message: 'An invite with the same email address already exists',
      fields: { iv_email: 'error_invite_already_exists' },
    });

    const memberEmail = (await t.db('users').where('u_id', memberOfA.userId).first()).u_email as string;
    const member = await owner.post(invitesPath(), { iv_email: memberEmail.toUpperCase() });
    expect(member.status).toBe(409);
    expect(member.body).toMatchObject({
      code: 'member_already_exists',
      message: 'A member with the same email address already exists',
      fields: { iv_email: 'error_member_already_exists' },
    });
    expect(await countInvites()).toBe(n);
    expect(t.outbox().length).toBe(mails);

    // The same address may be invited to another account.
    await invite({ iv_email: to }, ownerOfB, b);
  });

  it('502 invite_failed when the mail cannot be sent, and nothing is stored', async () => {
    const to = email();
    const n = await countInvites();
    await withFailingMailer(t, async () => {
      const res = await owner.post(invitesPath(), { iv_email: to });
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ code: 'invite_failed', message: 'Failed to create invite' });
    });
    expect(await countInvites()).toBe(n);
    expect(await t.db('invites').whereRaw('lower(iv_email) = ?', [to]).first()).toBeUndefined();
    // Nothing holds the address: inviting again works once mail does.
    await invite({ iv_email: to });
  });

  it('invite_invalid for a revoked, an expired and an unknown link; the list shows the expired status', async () => {
    const revokedTo = email();
    const revoked = await invite({ iv_email: revokedTo });
    const revokedToken = tokenOf(linkIn(lastMailTo(revokedTo)));
    const del = await owner.delete(`${invitesPath()}/${revoked.id}`);
    expect(del.status).toBe(200);
    expect((await inviteRow(revoked.id)).iv_status).toBe('revoked');
    for (const res of [
      await t.client().get(`/api/1/invite/${revokedToken}`),
      await accept(t.client(), { token: revokedToken, u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invite_invalid', message: 'Failed to validate the invite' });
    }

    const expiredTo = email();
    const expired = await invite({ iv_email: expiredTo });
    const expiredToken = tokenOf(linkIn(lastMailTo(expiredTo)));
    await t
      .db('invites')
      .where('iv_id', expired.id)
      .update({ iv_expires_at: new Date(Date.now() - 1000) });
    expect((await t.client().get(`/api/1/invite/${expiredToken}`)).body.code).toBe('invite_invalid');
    const acceptExpired = await accept(t.client(), { token: expiredToken, u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD });
    expect(acceptExpired.body.code).toBe('invite_invalid');
    expect(await t.db('users').whereRaw('lower(u_email) = ?', [expiredTo]).first()).toBeUndefined();
    // Stored as pending, shown as expired: in the record, the list and its filter.
    expect((await inviteRow(expired.id)).iv_status).toBe('pending');
    expect((await owner.get(`${invitesPath()}/${expired.id}`)).body.iv_status).toBe('expired');
    const list = await owner.get(`${invitesPath()}?${qs({ filter: { iv_status: 'expired' }, range: [0, 99] })}`);
    expect(list.status).toBe(200);
    expect(list.body.map((r: { id: string }) => r.id)).toContain(expired.id);
    const pendingList = await owner.get(`${invitesPath()}?${qs({ filter: { iv_status: 'pending' }, range: [0, 99] })}`);
    expect(pendingList.body.map((r: { id: string }) => r.id)).not.toContain(expired.id);
    expect((await owner.get(invitesPath())).body.find((r: { id: string }) => r.id === revoked.id).iv_status).toBe('revoked');
    // An expired invite no longer holds the address.
    await invite({ iv_email: expiredTo });

    for (const token of ['unknown', crypto.randomBytes(32).toString('base64url'), 'x'.repeat(300)]) {
      const got = await t.client().get(`/api/1/invite/${token}`);
      expect(got.status).toBe(400);
      expect(got.body.code).toBe('invite_invalid');
    }
    for (const body of [{ token: crypto.randomBytes(32).toString('base64url') }, {}, { token: 42 }]) {
      const res = await accept(t.client(), body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invite_invalid');
    }
  });

  it('resend: a new link with seven more days, the old link stops working; for expired invites too; not for accepted or revoked ones', async () => {
    const to = email();
    const created = await invite({ iv_email: to });
    const oldToken = tokenOf(linkIn(lastMailTo(to)));
    await t
      .db('invites')
      .where('iv_id', created.id)
      .update({ iv_expires_at: new Date(Date.now() + DAY) });
    const res = await owner.post(`${invitesPath()}/${created.id}/resend`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, iv_status: 'pending', iv_email: to });
    expect(Date.parse(res.body.iv_expires_at)).toBeGreaterThan(Date.now() + (INVITE_TTL_DAYS - 1) * DAY);
    const mails = mailsTo(t, to);
    expect(mails).toHaveLength(2);
    const newToken = tokenOf(linkIn(mails[1]));
    expect(newToken).not.toBe(oldToken);
    expect((await t.client().get(`/api/1/invite/${oldToken}`)).body.code).toBe('invite_invalid');
    expect((await t.client().get(`/api/1/invite/${newToken}`)).status).toBe(200);

    // Expired: pending again with a fresh link.
    await t
      .db('invites')
      .where('iv_id', created.id)
      .update({ iv_expires_at: new Date(Date.now() - 1000) });
    expect((await owner.post(`${invitesPath()}/${created.id}/resend`)).body.iv_status).toBe('pending');
    const freshToken = tokenOf(linkIn(mailsTo(t, to)[2]));
    const ok = await accept(t.client(), { token: freshToken, u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);

    const closed = await owner.post(`${invitesPath()}/${created.id}/resend`);
    expect(closed.status).toBe(409);
    expect(closed.body.code).toBe('invite_closed');
    const revoked = await invite({ iv_email: email() });
    await owner.delete(`${invitesPath()}/${revoked.id}`);
    expect((await owner.post(`${invitesPath()}/${revoked.id}/resend`)).body.code).toBe('invite_closed');
    // An accepted invite is not revoked afterwards.
    const revokeAccepted = await owner.delete(`${invitesPath()}/${created.id}`);
    expect(revokeAccepted.status).toBe(409);
    expect((await inviteRow(created.id)).iv_status).toBe('accepted');
  });

  it('resend with a failing mailer: 502 invite_failed and the invite keeps its old link', async () => {
    const to = email();
    const created = await invite({ iv_email: to });
    const token = tokenOf(linkIn(lastMailTo(to)));
    const before = await inviteRow(created.id);
    await withFailingMailer(t, async () => {
      const res = await owner.post(`${invitesPath()}/${created.id}/resend`);
      expect(res.status).toBe(502);
      expect(res.body.code).toBe('invite_failed');
    });
    expect(await inviteRow(created.id)).toEqual(before);
    expect((await t.client().get(`/api/1/invite/${token}`)).status).toBe(200);
  });

  it('permissions: no session 401, no CSRF 403, member 403, another account 404, roles above set_role refused', async () => {
    const to = email();
    expect((await t.client().post(invitesPath(), { iv_email: to })).status).toBe(401);
    expect((await owner.post(invitesPath(), { iv_email: to }, { csrf: false })).status).toBe(403);
    expect((await memberOfA.post(invitesPath(), { iv_email: to })).status).toBe(403);
    expect((await memberOfA.get(invitesPath())).status).toBe(403);
    expect(await t.db('invites').whereRaw('lower(iv_email) = ?', [to]).first()).toBeUndefined();

    const created = await invite({ iv_email: to });
    expect((await memberOfA.post(`${invitesPath()}/${created.id}/resend`)).status).toBe(403);
    expect((await ownerOfB.post(`${invitesPath()}/${created.id}/resend`)).status).toBe(404);
    expect((await ownerOfB.post(`${invitesPath(b)}/${created.id}/resend`)).status).toBe(404);
    expect((await owner.post(`${invitesPath()}/${MISSING}/resend`)).status).toBe(404);
    expect((await owner.post(`${invitesPath()}/not-a-uuid/resend`)).status).toBe(404);
    expect((await owner.post(`${invitesPath()}/${created.id}/resend`, {}, { csrf: false })).status).toBe(403);
    expect(mailsTo(t, to)).toHaveLength(1);

    // A superadmin has no set_role: an invite only for the default role; nobody invites above their own role.
    const asAdmin = await owner.post(invitesPath(), { iv_email: email(), iv_role: 'admin' });
    expect(asAdmin.status).toBe(403);
    expect(asAdmin.body.fields).toEqual({ iv_role: 'error_set_role_forbidden' });
    await withGrant(t, 'superadmin', 'account_members', 31, async () => {
      expect((await owner.post(invitesPath(), { iv_email: email(), iv_role: 'admin' })).status).toBe(201);
      const above = await owner.post(invitesPath(), { iv_email: email(), iv_role: 'root' });
      expect(above.status).toBe(403);
      expect(above.body.fields).toEqual({ iv_role: 'error_role_above_own' });
    });
  });

  it('the public routes are rate-limited per address like sign-in', async () => {
    const limits = t.config.rateLimit;
    const saved = limits.loginPerIp;
    await t.context.limiter.reset('invite:ip:127.0.0.1');
    limits.loginPerIp = 3;
    try {
      const c = t.client();
      for (let i = 0; i < 3; i++) expect((await c.get('/api/1/invite/nothing-here')).status).toBe(400);
      const limited = await c.get('/api/1/invite/nothing-here');
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe('too_many_attempts');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await accept(c, { token: 'nothing-here' })).status).toBe(429);
    } finally {
      limits.loginPerIp = saved;
      await t.context.limiter.reset('invite:ip:127.0.0.1');
    }
  });

  it('two accepts of one link at once: exactly one succeeds', async () => {
    const to = email();
    await invite({ iv_email: to, iv_role: 'member' });
    const token = tokenOf(linkIn(lastMailTo(to)));
    const body = { token, u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD };
    const results = await Promise.all([accept(t.client(), body), accept(t.client(), body)]);
    const codes = results.filter((r) => r.status !== 200).map((r) => r.body.code);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(['invite_invalid', 'user_already_exists']).toContain(codes[0]);
    expect(Number((await t.db('users').whereRaw('lower(u_email) = ?', [to]).count({ n: '*' }).first())!.n)).toBe(1);
  });
});
