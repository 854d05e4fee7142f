import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { MISSING, startApp, uid, withGrant, type Signed, type TestApp } from '../helpers/app.js';

type Member = { id: string; au_id: string; au_userid: string; au_role: string; u_email: string };

describeEachDb('console members: roles, user fields, removal', (kind) => {
  let t: TestApp;
  let root: Signed;
  let owner: Signed; // superadmin of A: account_members 15 without set_role, account_users 15
  let adminOfA: Signed; // admin of A: account_members 7 (no delete)
  let memberOfA: Signed; // member of A: account_members 15, account_users 0
  let ownerOfB: Signed;
  let a: string;
  let b: string;

  beforeAll(async () => {
    t = await startApp(kind);
    root = await t.signedIn('root');
    a = (await t.account(`Members A ${uid()}`)).a_id;
    b = (await t.account(`Members B ${uid()}`)).a_id;
    owner = await t.signedIn('member');
    await t.member(a, owner.userId, 'superadmin');
    adminOfA = await t.signedIn('member');
    await t.member(a, adminOfA.userId, 'admin');
    memberOfA = await t.signedIn('member');
    await t.member(a, memberOfA.userId, 'member');
    ownerOfB = await t.signedIn('member');
    await t.member(b, ownerOfB.userId, 'superadmin');
  });
  afterAll(() => t?.close());

  const path = (account = a) => `/api/1/accounts/${account}/members`;
  /** A new user who is a member of `account` with `role`; answers the membership as the console lists it. */
  const join = async (role = 'member', account = a, userRole = 'member'): Promise<Member & { email: string }> => {
    const email = `${uid()}@example.com`;
    const user = await t.user(email, userRole, { u_first_name: 'First', u_last_name: 'Last' });
    await t.member(account, user.u_id, role);
    const row = await t.db('account_users').where({ au_accountid: account, au_userid: user.u_id }).first();
    return { ...row, id: row.au_id, u_email: email, email };
  };
  const stored = (auId: string) => t.db('account_users').where('au_id', auId).first();
  const userOf = (m: Member) => t.db('users').where('u_id', m.au_userid).first();

  it("lists the memberships with the user's e-mail and names (id = au_id), searchable", async () => {
    const m = await join('admin');
    const res = await owner.get(path());
    expect(res.status).toBe(200);
    const row = res.body.find((r: Member) => r.id === m.au_id);
    expect(row).toMatchObject({ au_id: m.au_id, au_userid: m.au_userid, au_role: 'admin', u_email: m.email, u_first_name: 'First', u_last_name: 'Last', u_is_verified: true });
    expect(row).not.toHaveProperty('u_password');
    const found = await owner.get(`${path()}?filter=${encodeURIComponent(JSON.stringify({ q: m.email.slice(0, 6) }))}`);
    expect(found.body.map((r: Member) => r.id)).toEqual([m.au_id]);
    // by the user id an event stores as its owner (the owner picker finds one beyond its first page so)
    const byUser = await owner.get(`${path()}?filter=${encodeURIComponent(JSON.stringify({ au_userid: m.au_userid }))}`);
    expect(byUser.body.map((r: Member) => r.id)).toEqual([m.au_id]);
    const bad = await owner.get(`${path()}?filter=${encodeURIComponent(JSON.stringify({ au_userid: 'not-a-uuid' }))}`);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_filter');
  });

  it('a role is changed only with set_role: a superadmin without it is refused either way; root sets any role', async () => {
    const m = await join('member');
    const up = await owner.put(`${path()}/${m.id}`, { au_role: 'admin' });
    expect(up.status).toBe(403);
    expect(up.body.fields).toEqual({ au_role: 'error_set_role_forbidden' });
    const admin = await join('admin');
    const down = await owner.put(`${path()}/${admin.id}`, { au_role: 'member' });
    expect(down.status).toBe(403);
    expect((await stored(m.id)).au_role).toBe('member');
    expect((await stored(admin.id)).au_role).toBe('admin');
    // Sending the role it already has is no change (the form sends every field).
    expect((await owner.put(`${path()}/${m.id}`, { au_role: 'member', au_external_id: 'EXT-1' })).status).toBe(200);
    expect((await stored(m.id)).au_external_id).toBe('EXT-1');

    const byRoot = await root.put(`${path()}/${m.id}`, { au_role: 'superadmin' });
    expect(byRoot.status).toBe(200);
    expect(byRoot.body.au_role).toBe('superadmin');
    expect((await stored(m.id)).au_role).toBe('superadmin');
  });

  it("with set_role (granted by ops) a role is never set above the caller's own, and members above the caller stay untouched", async () => {
    await withGrant(t, 'superadmin', 'account_members', 31, async () => {
      const m = await join('member');
      expect((await owner.put(`${path()}/${m.id}`, { au_role: 'admin' })).status).toBe(200);
      expect((await owner.put(`${path()}/${m.id}`, { au_role: 'superadmin' })).status).toBe(200);
      const above = await owner.put(`${path()}/${m.id}`, { au_role: 'root' });
      expect(above.status).toBe(403);
      expect(above.body.fields).toEqual({ au_role: 'error_role_above_own' });
      expect((await stored(m.id)).au_role).toBe('superadmin');

      const rootMember = await join('root');
      const lower = await owner.put(`${path()}/${rootMember.id}`, { au_role: 'member' });
      expect(lower.status).toBe(403);
      expect(lower.body.fields).toEqual({ au_role: 'error_member_above_own' });
      expect((await owner.put(`${path()}/${rootMember.id}`, { au_external_id: 'X' })).status).toBe(403);
      expect(await stored(rootMember.id)).toMatchObject({ au_role: 'root', au_external_id: null });
    });
  });

  it("the user's e-mail and names need account_users update; the external id does not", async () => {
    const m = await join('member');
    const res = await owner.put(`${path()}/${m.id}`, { u_first_name: 'Renamed', u_last_name: 'Person', u_email: `NEW-${m.email}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ u_first_name: 'Renamed', u_last_name: 'Person', u_email: `NEW-${m.email}` });
    expect(await userOf(m)).toMatchObject({ u_first_name: 'Renamed', u_last_name: 'Person', u_email: `NEW-${m.email}` });

    // A member has account_members update but no account_users.
    const refused = await memberOfA.put(`${path()}/${m.id}`, { u_first_name: 'Hacked', au_external_id: 'E-9' });
    expect(refused.status).toBe(403);
    expect(refused.body.fields).toEqual({ u_first_name: 'error_forbidden' });
    expect((await userOf(m)).u_first_name).toBe('Renamed');
    expect((await stored(m.id)).au_external_id).toBeNull();
    const external = await memberOfA.put(`${path()}/${m.id}`, { au_external_id: 'E-9', u_first_name: 'Renamed' });
    expect(external.status).toBe(200);
    expect((await stored(m.id)).au_external_id).toBe('E-9');

    // The address of another user: 409; not an address: 400; nothing changes.
    const otherEmail = (await userOf(await join('member', b))).u_email;
    const taken = await owner.put(`${path()}/${m.id}`, { u_email: otherEmail.toUpperCase() });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('user_already_exists');
    const invalid = await owner.put(`${path()}/${m.id}`, { u_email: 'not-an-address' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.fields).toEqual({ u_email: 'error_email_invalid' });
    expect((await userOf(m)).u_email).toBe(`NEW-${m.email}`);

    // A platform user (here root) is not edited from an account where the caller ranks below it.
    const platformRoot = await join('member', a, 'root');
    const guarded = await owner.put(`${path()}/${platformRoot.id}`, { u_email: `x-${platformRoot.email}` });
    expect(guarded.status).toBe(403);
    expect((await userOf(platformRoot)).u_email).toBe(platformRoot.email);
  });

  it('remove: with the delete bit, never a member above the caller; the admin role has no delete', async () => {
    const admin = await join('admin');
    const del = await owner.delete(`${path()}/${admin.id}`);
    expect(del.status).toBe(200);
    expect(await stored(admin.id)).toBeUndefined();
    expect(await t.db('users').where('u_id', admin.au_userid).first()).toBeDefined(); // the user stays

    const rootMember = await join('root');
    const above = await owner.delete(`${path()}/${rootMember.id}`);
    expect(above.status).toBe(403);
    expect(await stored(rootMember.id)).toBeDefined();
    const m = await join('member');
    expect((await adminOfA.delete(`${path()}/${m.id}`)).status).toBe(403);
    expect(await stored(m.id)).toBeDefined();
    expect((await root.delete(`${path()}/${rootMember.id}`)).status).toBe(200);
  });

  it('members join through invites: only a root user adds an existing user (409 when already a member)', async () => {
    const user = await t.user(`${uid()}@example.com`);
    const refused = await owner.post(path(), { au_userid: user.u_id, au_role: 'member' });
    expect(refused.status).toBe(403);
    expect(refused.body.fields).toEqual({ au_userid: 'error_members_join_by_invite' });
    const created = await root.post(path(), { au_userid: user.u_id, au_role: 'admin', au_external_id: 'R-1' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ au_userid: user.u_id, au_role: 'admin', au_external_id: 'R-1', u_email: user.u_email });
    const again = await root.post(path(), { au_userid: user.u_id });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('member_already_exists');
    const unknown = await root.post(path(), { au_userid: MISSING });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fields).toEqual({ au_userid: 'error_user_not_found' });
  });

  it("another account's member answers 404 and stays unchanged; a non-member of the account gets 404 for the account", async () => {
    const other = await join('member', b);
    for (const res of [
      await owner.get(`${path()}/${other.id}`),
      await owner.put(`${path()}/${other.id}`, { au_external_id: 'nope', u_first_name: 'Nope' }),
      await owner.delete(`${path()}/${other.id}`),
      await owner.get(`${path(b)}/${other.id}`),
      await owner.put(`${path(b)}/${other.id}`, { au_external_id: 'nope' }),
    ])
      expect(res.status).toBe(404);
    expect(await stored(other.id)).toMatchObject({ au_external_id: null, au_role: 'member' });
    expect((await userOf(other)).u_first_name).toBe('First');
    expect((await ownerOfB.get(`${path(b)}/${other.id}`)).status).toBe(200);
  });

  it("the entry admin's /accounts/{id}/users still answers the same memberships by user id", async () => {
    const m = await join('admin');
    const res = await root.get(`/api/1/accounts/${a}/users/${m.au_userid}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: m.au_userid, au_id: m.au_id, au_role: 'admin', u_email: m.email });
  });
});
