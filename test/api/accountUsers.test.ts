import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { qs, startApp, type TestApp, MISSING, uid, signedInRoles, type Signed, withGrant as withGrantOf } from '../helpers/app.js';

describeEachDb('entry API: /accounts/:id/users (members)', (kind) => {
  let t: TestApp;
  let root: Signed, superadmin: Signed, admin: Signed, member: Signed;

  beforeAll(async () => {
    t = await startApp(kind);
    ({ root, superadmin, admin, member } = await signedInRoles(t));
  });
  afterAll(() => t?.close());

  const members = (accountId: string) => `/api/1/accounts/${accountId}/users`;
  const link = (accountId: string, userId: string) => t.db('account_users').where({ au_accountid: accountId, au_userid: userId }).first();
  const linkCount = async () => Number((await t.db('account_users').count({ n: '*' }).first())!.n);
  /** Account A with two members, account B with one member of its own. */
  const fixture = async () => {
    const p = uid();
    const a = await t.account(`${p} A`);
    const b = await t.account(`${p} B`);
    const ann = await t.user(`${p}.ann@example.com`, 'member', { u_first_name: 'Ann', u_last_name: `${p}Smith` });
    const bob = await t.user(`${p}.bob@example.com`, 'member', { u_first_name: 'Bob', u_last_name: `${p}Jones` });
    const bea = await t.user(`${p}.bea@example.com`, 'member', { u_first_name: 'Bea', u_last_name: `${p}Other` });
    const free = await t.user(`${p}.free@example.com`, 'member', { u_first_name: 'Fay', u_last_name: `${p}Free` });
    await t.member(a.a_id, ann.u_id, 'admin');
    await t.member(a.a_id, bob.u_id, 'member');
    await t.member(b.a_id, bea.u_id, 'member');
    return { p, a: a.a_id, b: b.a_id, ann, bob, bea, free };
  };
  const withGrant = (role: string, group: string, bits: number, fn: () => Promise<void>) => withGrantOf(t, role, group, bits, fn);

  // ---- list ----------------------------------------------------------------------------------------------------

  it("GET /accounts/:id/users answers the account's members (full array) with user fields; id = au_userid", async () => {
    const f = await fixture();
    const res = await root.get(members(f.a));
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.map((m: { id: string }) => m.id).sort()).toEqual([f.ann.u_id, f.bob.u_id].sort());
    const ann = res.body.find((m: { id: string }) => m.id === f.ann.u_id);
    expect(ann).toMatchObject({ au_userid: f.ann.u_id, au_accountid: f.a, au_role: 'admin', u_email: f.ann.u_email, u_first_name: 'Ann', u_last_name: `${f.p}Smith` });
    expect(ann.au_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(ann).not.toHaveProperty('u_password');
  });

  it('pages, sorts and searches members: Content-Range, q over e-mail and names, filter by role and ids', async () => {
    const f = await fixture();
    const page = await root.get(`${members(f.a)}?${qs({ sort: ['u_email', 'DESC'], range: [0, 0], filter: {} })}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-range']).toBe('accountUsers 0-0/2');
    expect(page.body.map((m: { id: string }) => m.id)).toEqual([f.bob.u_id]);
    const q = async (filter: Record<string, unknown>) => {
      const res = await root.get(`${members(f.a)}?${qs({ filter, range: [0, 24] })}`);
      expect(res.status).toBe(200);
      return res.body.map((m: { id: string }) => m.id).sort();
    };
    expect(await q({ q: `${f.p.toUpperCase()}.ANN` })).toEqual([f.ann.u_id]); // e-mail
    expect(await q({ q: 'bob' })).toEqual([f.bob.u_id]); // first name, only this account's Bob
    expect(await q({ q: `${f.p}smi` })).toEqual([f.ann.u_id]); // last name
    expect(await q({ q: `ann ${f.p}SMITH` })).toEqual([f.ann.u_id]); // several words
    expect(await q({ q: `${f.p}other` })).toEqual([]); // Bea is in account B
    expect(await q({ q: 'nn' })).toEqual([]); // prefix only
    expect(await q({ au_role: 'admin' })).toEqual([f.ann.u_id]);
    expect(await q({ id: [f.bob.u_id, f.bea.u_id] })).toEqual([f.bob.u_id]); // getMany stays inside the account
    for (const bad of [{ range: [0, 1000] }, { sort: ['u_password', 'ASC'] }, { filter: { au_accountid: f.b } }, { filter: { au_role: [[1]] } }]) {
      const res = await root.get(`${members(f.a)}?${qs(bad)}`);
      expect(res.status).toBe(400);
      expect(['invalid_range', 'invalid_sort', 'invalid_filter']).toContain(res.body.code);
    }
  });

  it('member list: 401 without a session, 403 for superadmin/admin/member, 404 for unknown or malformed accounts', async () => {
    const f = await fixture();
    await t.member(f.a, superadmin.userId, 'superadmin'); // an account role does not grant the entry_* group
    await t.member(f.a, member.userId, 'root');
    expect((await t.client().get(members(f.a))).status).toBe(401);
    for (const c of [superadmin, admin, member]) {
      const res = await c.get(members(f.a));
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
    for (const id of [MISSING, 'nope', '123']) {
      const res = await root.get(members(id));
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });

  // ---- unlinked ------------------------------------------------------------------------------------------------

  it('GET /accounts/:id/users/unlinked lists only users not in the account, with q prefix search and range', async () => {
    const f = await fixture();
    const all = await root.get(`${members(f.a)}/unlinked`);
    expect(all.status).toBe(200);
    const ids = all.body.map((u: { id: string }) => u.id);
    expect(ids).toEqual(expect.arrayContaining([f.bea.u_id, f.free.u_id, root.userId]));
    expect(ids).not.toContain(f.ann.u_id);
    expect(ids).not.toContain(f.bob.u_id);
    const linked = Number((await t.db('account_users').where('au_accountid', f.a).count({ n: '*' }).first())!.n);
    const users = Number((await t.db('users').count({ n: '*' }).first())!.n);
    expect(all.body).toHaveLength(users - linked);
    for (const u of all.body) {
      expect(u.id).toBe(u.u_id);
      expect(u).not.toHaveProperty('u_password');
    }
    const searched = await root.get(`${members(f.a)}/unlinked?${qs({ filter: { q: f.p }, sort: ['u_email', 'ASC'], range: [0, 0] })}`);
    expect(searched.status).toBe(200);
    expect(searched.headers['content-range']).toBe('users 0-0/2');
    expect(searched.body.map((u: { id: string }) => u.id)).toEqual([f.bea.u_id]); // bea < free
    const second = await root.get(`${members(f.a)}/unlinked?${qs({ filter: { q: f.p.toUpperCase() }, sort: ['u_email', 'ASC'], range: [1, 1] })}`);
    expect(second.body.map((u: { id: string }) => u.id)).toEqual([f.free.u_id]);
    expect(second.headers['content-range']).toBe('users 1-1/2');
    const byName = await root.get(`${members(f.a)}/unlinked?${qs({ filter: { q: `fay ${f.p}fr` } })}`);
    expect(byName.body.map((u: { id: string }) => u.id)).toEqual([f.free.u_id]);
    const none = await root.get(`${members(f.a)}/unlinked?${qs({ filter: { q: `${f.p}.ann` } })}`);
    expect(none.body).toEqual([]);
    expect((await root.get(`${members(f.a)}/unlinked?${qs({ range: [0, 1000] })}`)).body.code).toBe('invalid_range');
    expect((await root.get(`${members(f.a)}/unlinked?${qs({ sort: ['u_password', 'ASC'] })}`)).status).toBe(400);
  });

  it('unlinked: 401 without a session, 403 for other roles, 404 for unknown or malformed accounts', async () => {
    const f = await fixture();
    expect((await t.client().get(`${members(f.a)}/unlinked`)).status).toBe(401);
    for (const c of [superadmin, admin]) expect((await c.get(`${members(f.a)}/unlinked`)).status).toBe(403);
    expect((await member.get(`${members(f.a)}/unlinked`)).status).toBe(404); // not its account: as if it did not exist
    for (const id of [MISSING, 'x']) expect((await root.get(`${members(id)}/unlinked`)).status).toBe(404);
  });

  // ---- create --------------------------------------------------------------------------------------------------

  it('POST /accounts/:id/users links a user (member by default, or a role with set_role) and stores it', async () => {
    const f = await fixture();
    const res = await root.post(members(f.a), { au_userid: f.free.u_id, au_external_id: 'ext-1', au_accountid: f.b });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: f.free.u_id, au_userid: f.free.u_id, au_accountid: f.a, au_role: 'member', au_external_id: 'ext-1', u_email: f.free.u_email });
    expect(await link(f.a, f.free.u_id)).toMatchObject({ au_role: 'member', au_external_id: 'ext-1' });
    expect(await link(f.b, f.free.u_id)).toBeUndefined(); // the account comes from the route, not the body
    // root has account_members set_role
    const adminRole = await root.post(members(f.a), { au_userid: f.bea.u_id, au_role: 'admin' });
    expect(adminRole.status).toBe(201);
    expect((await link(f.a, f.bea.u_id)).au_role).toBe('admin');
    expect(await link(f.b, f.bea.u_id)).toBeTruthy(); // still in B
    // no longer offered as unlinked
    const unlinked = await root.get(`${members(f.a)}/unlinked?${qs({ filter: { q: f.p } })}`);
    expect(unlinked.body).toEqual([]);
  });

  it('POST /accounts/:id/users refuses an already linked user (409 member_already_exists) and an unknown one (400)', async () => {
    const f = await fixture();
    const before = await linkCount();
    const dup = await root.post(members(f.a), { au_userid: f.ann.u_id, au_role: 'member' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('member_already_exists');
    expect(dup.body.fields).toEqual({ au_userid: 'error_member_already_exists' });
    expect((await link(f.a, f.ann.u_id)).au_role).toBe('admin'); // unchanged
    const unknown = await root.post(members(f.a), { au_userid: MISSING });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('validation_failed');
    expect(unknown.body.fields).toEqual({ au_userid: 'error_user_not_found' });
    expect(await linkCount()).toBe(before);
  });

  it('POST /accounts/:id/users: invalid bodies answer 400 with field errors and link nothing', async () => {
    const f = await fixture();
    const before = await linkCount();
    const cases: [unknown, Record<string, string>][] = [
      [{}, { au_userid: 'error_uuid_invalid' }],
      [{ au_userid: 'not-a-uuid' }, { au_userid: 'error_uuid_invalid' }],
      [{ au_userid: 12 }, { au_userid: 'error_uuid_invalid' }],
      [{ au_userid: f.free.u_id, au_role: 'owner' }, { au_role: 'error_role_invalid' }],
      [{ au_userid: f.free.u_id, au_external_id: 'e'.repeat(201) }, { au_external_id: 'error_too_long' }],
      [{ au_userid: f.free.u_id, au_external_id: 5 }, { au_external_id: 'error_invalid_value' }],
    ];
    for (const [body, fields] of cases) {
      const res = await root.post(members(f.a), body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'validation_failed' });
      expect(res.body.fields).toMatchObject(fields);
    }
    expect(await linkCount()).toBe(before);
  });

  it('POST /accounts/:id/users: 401, 403 without CSRF, 403 for other roles, 404 for unknown accounts; nothing linked', async () => {
    const f = await fixture();
    const before = await linkCount();
    const body = { au_userid: f.free.u_id };
    expect((await t.client().post(members(f.a), body)).status).toBe(401);
    const noCsrf = await root.post(members(f.a), body, { csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.code).toBe('csrf_invalid');
    for (const c of [superadmin, admin]) {
      const res = await c.post(members(f.a), body);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
    expect((await member.post(members(f.a), body)).status).toBe(404); // not its account
    for (const id of [MISSING, 'bad-id']) expect((await root.post(members(id), body)).status).toBe(404);
    expect(await linkCount()).toBe(before);
  });

  it('a role other than member needs account_members set_role in that account', async () => {
    const f = await fixture();
    // give superadmin the entry member screens (as ops could): superadmin has account_members 15, no set_role
    await withGrant('superadmin', 'entry_account_users', 15, async () => {
      await t.member(f.a, superadmin.userId, 'superadmin');
      const before = await linkCount();
      const asAdmin = await superadmin.post(members(f.a), { au_userid: f.free.u_id, au_role: 'admin' });
      expect(asAdmin.status).toBe(403);
      expect(asAdmin.body.code).toBe('forbidden');
      expect(asAdmin.body.fields).toEqual({ au_role: 'error_forbidden' });
      expect(await linkCount()).toBe(before);
      const asMember = await superadmin.post(members(f.a), { au_userid: f.free.u_id, au_role: 'member' });
      expect(asMember.status).toBe(201);
      const promote = await superadmin.put(`${members(f.a)}/${f.bob.u_id}`, { au_role: 'superadmin' });
      expect(promote.status).toBe(403);
      expect((await link(f.a, f.bob.u_id)).au_role).toBe('member');
      // unchanged role and other fields need no set_role
      const ext = await superadmin.put(`${members(f.a)}/${f.ann.u_id}`, { au_role: 'admin', au_external_id: 'x-9' });
      expect(ext.status).toBe(200);
      expect(await link(f.a, f.ann.u_id)).toMatchObject({ au_role: 'admin', au_external_id: 'x-9' });
    });
  });

  // ---- one member ----------------------------------------------------------------------------------------------

  it('GET /accounts/:id/users/:userId answers the member; a member of another account, unknown or malformed ids answer 404', async () => {
    const f = await fixture();
    const res = await root.get(`${members(f.a)}/${f.ann.u_id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: f.ann.u_id, au_accountid: f.a, au_role: 'admin', u_email: f.ann.u_email });
    for (const userId of [f.bea.u_id, f.free.u_id, MISSING, 'nope', f.ann.u_id.toUpperCase().replace(/-/g, '')]) {
      const r = await root.get(`${members(f.a)}/${userId}`);
      expect({ userId, status: r.status, code: r.body.code }).toEqual({ userId, status: 404, code: 'not_found' });
    }
    expect((await root.get(`${members(MISSING)}/${f.ann.u_id}`)).status).toBe(404);
    expect((await root.get(`${members(f.b)}/${f.ann.u_id}`)).status).toBe(404);
    expect((await t.client().get(`${members(f.a)}/${f.ann.u_id}`)).status).toBe(401);
    for (const c of [superadmin, admin]) expect((await c.get(`${members(f.a)}/${f.ann.u_id}`)).status).toBe(403);
    expect((await member.get(`${members(f.a)}/${f.ann.u_id}`)).status).toBe(404); // not its account
  });

  // ---- update --------------------------------------------------------------------------------------------------

  it('PUT /accounts/:id/users/:userId changes role and external id, keeps what is not sent, never the user or account', async () => {
    const f = await fixture();
    const first = await root.put(`${members(f.a)}/${f.bob.u_id}`, { au_role: 'superadmin', au_external_id: 'crm-7' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: f.bob.u_id, au_role: 'superadmin', au_external_id: 'crm-7' });
    const partial = await root.put(`${members(f.a)}/${f.bob.u_id}`, { au_role: 'member', au_userid: f.free.u_id, au_accountid: f.b });
    expect(partial.status).toBe(200);
    expect(await link(f.a, f.bob.u_id)).toMatchObject({ au_role: 'member', au_external_id: 'crm-7' });
    expect(await link(f.a, f.free.u_id)).toBeUndefined();
    expect(await link(f.b, f.bob.u_id)).toBeUndefined();
    const cleared = await root.put(`${members(f.a)}/${f.bob.u_id}`, { au_external_id: '' });
    expect(cleared.status).toBe(200);
    expect((await link(f.a, f.bob.u_id)).au_external_id).toBeNull();
    // the record as the admin sends it back
    const full = (await root.get(`${members(f.a)}/${f.bob.u_id}`)).body;
    expect((await root.put(`${members(f.a)}/${f.bob.u_id}`, { ...full, au_role: 'admin' })).status).toBe(200);
    expect((await link(f.a, f.bob.u_id)).au_role).toBe('admin');
  });

  it("PUT /accounts/:id/users/:userId: 400 with fields, 401, 403 (CSRF, roles), 404 for another account's member; nothing changed", async () => {
    const f = await fixture();
    const beforeA = await link(f.a, f.bob.u_id);
    const beforeB = await link(f.b, f.bea.u_id);
    const invalid = await root.put(`${members(f.a)}/${f.bob.u_id}`, { au_role: 'king' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.fields).toEqual({ au_role: 'error_role_invalid' });
    const tooLong = await root.put(`${members(f.a)}/${f.bob.u_id}`, { au_external_id: 'z'.repeat(201) });
    expect(tooLong.body.fields).toEqual({ au_external_id: 'error_too_long' });
    expect((await t.client().put(`${members(f.a)}/${f.bob.u_id}`, { au_role: 'admin' })).status).toBe(401);
    const noCsrf = await root.put(`${members(f.a)}/${f.bob.u_id}`, { au_role: 'admin' }, { csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.code).toBe('csrf_invalid');
    for (const c of [superadmin, admin]) expect((await c.put(`${members(f.a)}/${f.bob.u_id}`, { au_role: 'admin' })).status).toBe(403);
    expect((await member.put(`${members(f.a)}/${f.bob.u_id}`, { au_role: 'admin' })).status).toBe(404); // not its account
    const other = await root.put(`${members(f.a)}/${f.bea.u_id}`, { au_role: 'admin' });
    expect(other.status).toBe(404);
    for (const id of [MISSING, 'x']) expect((await root.put(`${members(f.a)}/${id}`, { au_role: 'admin' })).status).toBe(404);
    expect((await root.put(`${members('x')}/${f.bob.u_id}`, { au_role: 'admin' })).status).toBe(404);
    expect(await link(f.a, f.bob.u_id)).toEqual(beforeA);
    expect(await link(f.b, f.bea.u_id)).toEqual(beforeB);
  });

  // ---- delete --------------------------------------------------------------------------------------------------

  it('DELETE /accounts/:id/users/:userId unlinks the member; the user and its other memberships stay', async () => {
    const f = await fixture();
    await t.member(f.b, f.ann.u_id);
    const res = await root.delete(`${members(f.a)}/${f.ann.u_id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: f.ann.u_id, au_accountid: f.a });
    expect(await link(f.a, f.ann.u_id)).toBeUndefined();
    expect(await link(f.b, f.ann.u_id)).toBeTruthy();
    expect(await t.db('users').where('u_id', f.ann.u_id).first()).toBeTruthy();
    expect((await root.get(`${members(f.a)}/${f.ann.u_id}`)).status).toBe(404);
    // and can be linked again
    expect((await root.post(members(f.a), { au_userid: f.ann.u_id })).status).toBe(201);
  });

  it("DELETE /accounts/:id/users/:userId: 401, 403 (CSRF, roles), 404 for another account's member and bad ids; nothing removed", async () => {
    const f = await fixture();
    const before = await linkCount();
    expect((await t.client().delete(`${members(f.a)}/${f.bob.u_id}`)).status).toBe(401);
    const noCsrf = await root.delete(`${members(f.a)}/${f.bob.u_id}`, { csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.code).toBe('csrf_invalid');
    for (const c of [superadmin, admin]) expect((await c.delete(`${members(f.a)}/${f.bob.u_id}`)).status).toBe(403);
    expect((await member.delete(`${members(f.a)}/${f.bob.u_id}`)).status).toBe(404); // not its account
    const other = await root.delete(`${members(f.a)}/${f.bea.u_id}`);
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('not_found');
    for (const id of [MISSING, 'x']) expect((await root.delete(`${members(f.a)}/${id}`)).status).toBe(404);
    expect((await root.delete(`${members(MISSING)}/${f.bob.u_id}`)).status).toBe(404);
    expect(await linkCount()).toBe(before);
    expect(await link(f.b, f.bea.u_id)).toBeTruthy();
  });
});
