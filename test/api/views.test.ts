import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { MISSING, qs, withGrant, type Signed, type TestApp } from '../helpers/app.js';
import { startConsoleApp } from '../helpers/console.js';

type Row = Record<string, unknown>;

/**
 * Saved views (platform-and-flows.md 1): own + shared, the list's narrowing filter, sharing with the list's update bit,
 * owner-only changes, and vw_resource / vw_sort / vw_columns / vw_filter held to the named list's declaration. A
 * member may read events (1) but not change them, and has every bit of leads (15) and none of mail templates (0).
 */
describeEachDb('saved views', (kind) => {
  let t: TestApp;
  let root: Signed;
  let a: string;
  let b: string;
  let ann: Signed; // a member of A
  let bob: Signed; // another member of A
  let sue: Signed; // a superadmin of A

  beforeAll(async () => {
    ({ t, root, a, b } = await startConsoleApp(kind, 'Views'));
    ann = await t.signedIn('member');
    bob = await t.signedIn('member');
    sue = await t.signedIn('member');
    await t.member(a, ann.userId, 'member');
    await t.member(a, bob.userId, 'member');
    await t.member(a, sue.userId, 'superadmin');
  });
  afterAll(() => t?.close());

  const path = (account = a) => `/api/1/accounts/${account}/views`;
  const leadsView = (extra: Row = {}) => ({
    vw_resource: 'leads',
    vw_title: 'Valid leads',
    vw_filter: { ld_is_valid: true, q: 'ann' },
    vw_sort: ['ld_email', 'ASC'],
    vw_columns: ['ld_email', 'ld_first_name', 'ld_eventid'],
    ...extra,
  });
  const create = async (by: Signed, body: Row) => {
    const res = await by.post(path(), body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Row & { id: string };
  };
  const ids = (res: { body: Row[] }) => res.body.map((r) => r.id);
  const stored = (id: string) => t.db('views').where('vw_id', id).first();

  it('a member saves a view of a list: stored as sent, the caller as owner (never the body), listed and read back', async () => {
    const res = await ann.post(path(), leadsView({ vw_ownerid: bob.userId, vw_accountid: b }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      vw_resource: 'leads',
      vw_title: 'Valid leads',
      vw_filter: { ld_is_valid: true, q: 'ann' },
      vw_sort: ['ld_email', 'ASC'],
      vw_columns: ['ld_email', 'ld_first_name', 'ld_eventid'],
      vw_shared: false,
      vw_ownerid: ann.userId,
    });
    const row = await stored(res.body.id);
    expect(row).toMatchObject({ vw_accountid: a, vw_ownerid: ann.userId, vw_columns: ['ld_email', 'ld_first_name', 'ld_eventid'] });
    expect(ids(await ann.get(path()))).toContain(res.body.id);
    expect((await ann.get(`${path()}/${res.body.id}`)).body.vw_title).toBe('Valid leads');
    // Left out, sort and columns are null (the list's own) and the filter empty.
    const plain = await create(ann, { vw_resource: 'events', vw_title: 'All events' });
    expect(plain).toMatchObject({ vw_filter: {}, vw_sort: null, vw_columns: null, vw_shared: false });
  });

  it("lists the caller's own views and the account's shared ones; another member's own view is not found", async () => {
    const own = await create(ann, leadsView({ vw_title: 'Mine' }));
    const shared = await create(ann, leadsView({ vw_title: 'Ours', vw_shared: true }));
    const bobs = await create(bob, leadsView({ vw_title: 'Bob only' }));
    const seenByBob = ids(await bob.get(path()));
    expect(seenByBob).toContain(shared.id);
    expect(seenByBob).toContain(bobs.id);
    expect(seenByBob).not.toContain(own.id);
    expect((await bob.get(`${path()}/${own.id}`)).status).toBe(404);
    expect((await bob.get(`${path()}/${shared.id}`)).status).toBe(200);
    const seenByAnn = ids(await ann.get(path()));
    expect(seenByAnn).toEqual(expect.arrayContaining([own.id, shared.id]));
    expect(seenByAnn).not.toContain(bobs.id);
    // Root sees the shared one and its own, not a member's private views either.
    expect(ids(await root.get(path()))).toContain(shared.id);
    expect(ids(await root.get(path()))).not.toContain(own.id);
  });

  it('filter={"vw_resource":…} narrows to one list, sorted by title', async () => {
    await create(ann, { vw_resource: 'events', vw_title: 'Zebra events' });
    await create(ann, leadsView({ vw_title: 'Alpha leads' }));
    const res = await ann.get(`${path()}?${qs({ filter: { vw_resource: 'leads' }, sort: ['vw_title', 'ASC'], range: [0, 99] })}`);
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
    expect(res.body.every((r: Row) => r.vw_resource === 'leads')).toBe(true);
    const titles = res.body.map((r: Row) => String(r.vw_title));
    expect(titles).toEqual([...titles].sort((x, y) => x.localeCompare(y)));
    expect(res.headers['content-range']).toMatch(/^views 0-\d+\/\d+$/);
  });

  it("sharing needs the list's update bit: 403 and nothing stored without it, on create and on update", async () => {
    const before = await t.db('views').where('vw_accountid', a).count({ n: '*' }).first();
    const res = await ann.post(path(), { vw_resource: 'events', vw_title: 'Shared events', vw_shared: true });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
    expect(await t.db('views').where('vw_accountid', a).count({ n: '*' }).first()).toEqual(before);
    const mine = await create(ann, { vw_resource: 'events', vw_title: 'My events' });
    const share = await ann.put(`${path()}/${mine.id}`, { vw_shared: true });
    expect(share.status).toBe(403);
    expect((await stored(mine.id)).vw_shared).toBe(false);
    // With the bit (leads: 15 for members; events: a superadmin) sharing works, and unsharing needs nothing.
    const leads = await create(ann, leadsView({ vw_title: 'To share' }));
    expect((await ann.put(`${path()}/${leads.id}`, { vw_shared: true })).body.vw_shared).toBe(true);
    expect((await ann.put(`${path()}/${leads.id}`, { vw_shared: false })).body.vw_shared).toBe(false);
    expect((await sue.post(path(), { vw_resource: 'events', vw_title: 'Team events', vw_shared: true })).status).toBe(201);
    // An operator taking the bit away: the owner may still unshare, not share again.
    await withGrant(t, 'member', 'account_leads', 1, async () => {
      const shared = await create(sue, leadsView({ vw_title: 'Sue shares', vw_shared: true }));
      expect((await ann.post(path(), leadsView({ vw_shared: true }))).status).toBe(403);
      expect(ids(await ann.get(path()))).toContain(shared.id);
    });
  });

  it('only the owner changes or deletes a view: 403 for anyone else (a shared view too, root too), nothing changed', async () => {
    const shared = await create(ann, leadsView({ vw_title: 'Owned by Ann', vw_shared: true }));
    const before = await stored(shared.id);
    for (const other of [bob, sue, root]) {
      const put = await other.put(`${path()}/${shared.id}`, { vw_title: 'Taken over' });
      expect(put.status).toBe(403);
      expect(put.body.code).toBe('forbidden');
      expect((await other.delete(`${path()}/${shared.id}`)).status).toBe(403);
    }
    // Refused before the body is read: a non-owner's bad body is still 403.
    expect((await bob.put(`${path()}/${shared.id}`, { vw_columns: 'nope' })).status).toBe(403);
    expect(await stored(shared.id)).toEqual(before);
    const renamed = await ann.put(`${path()}/${shared.id}`, { vw_title: 'Renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.vw_title).toBe('Renamed');
    expect((await ann.delete(`${path()}/${shared.id}`)).status).toBe(200);
    expect(await stored(shared.id)).toBeUndefined();
  });

  it('vw_resource must name a list the caller may open: unknown, a one-record resource, views, or a list without the read bit → 400', async () => {
    for (const vw_resource of ['nope', 'settings', 'views', 'mail-templates', 'Leads']) {
      const res = await ann.post(path(), { vw_resource, vw_title: 'X' });
      expect(res.status, vw_resource).toBe(400);
      expect(res.body.fields, vw_resource).toEqual({ vw_resource: expect.stringMatching(/^error_/) });
    }
    // A superadmin may open mail templates; a shared view of them never reaches a member who cannot.
    const hidden = await create(sue, { vw_resource: 'mail-templates', vw_title: 'Templates', vw_shared: true });
    expect(ids(await ann.get(path()))).not.toContain(hidden.id);
    expect((await ann.get(`${path()}/${hidden.id}`)).status).toBe(404);
    expect(ids(await sue.get(path()))).toContain(hidden.id);
    // The list a view is of is fixed at create.
    const mine = await create(ann, leadsView());
    const moved = await ann.put(`${path()}/${mine.id}`, { vw_resource: 'events' });
    expect(moved.status).toBe(200);
    expect((await stored(mine.id)).vw_resource).toBe('leads');
  });

  it("vw_sort, vw_columns and vw_filter are held to the list's declaration (400 with the field), on create and on update", async () => {
    const cases: [Row, string][] = [
      [{ vw_sort: ['ld_answers', 'ASC'] }, 'vw_sort'], // not sortable
      [{ vw_sort: ['ld_email', 'UP'] }, 'vw_sort'],
      [{ vw_sort: ['ld_email'] }, 'vw_sort'],
      [{ vw_sort: 'ld_email' }, 'vw_sort'],
      [{ vw_columns: ['ld_email', 'ld_answers'] }, 'vw_columns'], // not a list column
      [{ vw_columns: [] }, 'vw_columns'],
      [{ vw_columns: ['ld_email', 'ld_email'] }, 'vw_columns'],
      [{ vw_columns: 'ld_email' }, 'vw_columns'],
      [{ vw_filter: { ld_nothing: 1 } }, 'vw_filter'],
      [{ vw_filter: { captured_from: 'yesterday' } }, 'vw_filter'],
      [{ vw_filter: ['ld_email'] }, 'vw_filter'],
      [{ vw_title: '' }, 'vw_title'],
    ];
    const mine = await create(ann, leadsView({ vw_title: 'Checked' }));
    const before = await stored(mine.id);
    for (const [change, field] of cases) {
      const created = await ann.post(path(), leadsView(change));
      expect(created.status, JSON.stringify(change)).toBe(400);
      expect(Object.keys(created.body.fields), JSON.stringify(change)).toEqual([field]);
      const updated = await ann.put(`${path()}/${mine.id}`, change);
      expect(updated.status, JSON.stringify(change)).toBe(400);
      expect(Object.keys(updated.body.fields), JSON.stringify(change)).toEqual([field]);
    }
    expect(await stored(mine.id)).toEqual(before);
    // Sort by id, a range filter and clearing back to the list's own are fine.
    const ok = await ann.put(`${path()}/${mine.id}`, { vw_sort: ['id', 'DESC'], vw_filter: { captured_from: '2026-01-01' }, vw_columns: null });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ vw_sort: ['id', 'DESC'], vw_filter: { captured_from: '2026-01-01' }, vw_columns: null });
  });

  it('denied: no session 401, no CSRF header 403, a role without the bit 403, another account 404 — nothing stored', async () => {
    const view = await create(ann, leadsView({ vw_title: 'Guarded' }));
    const count = async () => Number((await t.db('views').count({ n: '*' }).first())!.n);
    const before = await count();
    const anon = t.client();
    expect((await anon.get(path())).status).toBe(401);
    expect((await anon.post(path(), leadsView())).status).toBe(401);
    expect((await ann.post(path(), leadsView(), { csrf: false })).status).toBe(403);
    expect((await ann.delete(`${path()}/${view.id}`, { csrf: false })).status).toBe(403);
    await withGrant(t, 'member', 'account_views', 0, async () => {
      expect((await ann.get(path())).status).toBe(403);
      expect((await ann.post(path(), leadsView())).status).toBe(403);
    });
    const outsider = await t.signedIn('member');
    await t.member(b, outsider.userId, 'superadmin');
    expect((await outsider.get(path())).status).toBe(404);
    expect((await root.get(`${path(b)}/${view.id}`)).status).toBe(404);
    expect((await root.put(`${path(b)}/${view.id}`, { vw_title: 'x' })).status).toBe(404);
    expect((await root.delete(`${path(b)}/${view.id}`)).status).toBe(404);
    expect((await ann.get(`${path()}/${MISSING}`)).status).toBe(404);
    expect((await ann.put(`${path()}/not-an-id`, { vw_title: 'x' })).status).toBe(404);
    expect(await count()).toBe(before);
    expect((await stored(view.id)).vw_title).toBe('Guarded');
  });

  it("a user's views go with the user", async () => {
    const leaver = await t.signedIn('member');
    await t.member(a, leaver.userId, 'member');
    const view = await create(leaver, leadsView({ vw_title: 'Leaving', vw_shared: true }));
    await t.db('account_users').where('au_userid', leaver.userId).del();
    await t.db('users').where('u_id', leaver.userId).del();
    expect(await stored(view.id)).toBeUndefined();
  });
});
