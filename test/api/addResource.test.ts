import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startApp, type Signed, type TestApp } from '../helpers/app.js';
import { describeEachDb } from '../helpers/db.js';
import { prepareDatabase } from '../../api/db/bootstrap.js';
import { readCatalog } from '../helpers/catalog.js';
import { driftOf } from '../helpers/drift.js';

/**
 * README "Add a resource", proved: the sponsors module (test/fixtures/sponsors) joins a temporary registry, its
 * migration runs, and the API, the grants and the console menu follow without another file being touched. The venues
 * module (test/fixtures/venues) does the same for a platform resource: tenancy is a property of the declaration, and
 * the one pipeline serves it at /api/1/venues.
 */
vi.mock('../../resources/registry.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../resources/registry.js')>();
  const { sponsors } = await import('../fixtures/sponsors/sponsors.js');
  const { venues } = await import('../fixtures/venues/venues.js');
  return {
    ...real,
    ACCOUNT_RESOURCES: [...real.ACCOUNT_RESOURCES, sponsors],
    ENTRY_RESOURCES: [...real.ENTRY_RESOURCES, venues],
    RESOURCES: [...real.RESOURCES, sponsors, venues],
  };
});

describeEachDb('a resource added in one module and one migration', (kind) => {
  let t: TestApp;
  let accountId: string;
  const as: Record<'root' | 'superadmin' | 'member', Signed> = {} as never;
  const path = (rest = '') => `/api/1/accounts/${accountId}/sponsors${rest}`;

  beforeAll(async () => {
    t = await startApp(kind);
    // The sponsors migration, then a start: the new group's default grants reach the database.
    await (await import('../fixtures/sponsors/20991231000001_create_sponsors.js')).up(t.db);
    await prepareDatabase(t.db);
    await t.context.permissions.refresh();
    ({ a_id: accountId } = await t.account('Sponsored'));
    as.root = await t.signedIn('root');
    for (const role of ['superadmin', 'member'] as const) {
      as[role] = await t.signedIn('member');
      await t.member(accountId, as[role].userId, role);
    }
  });
  afterAll(() => t?.close());

  it('its migration agrees with its declaration (the registry-wide drift check)', async () => {
    const { sponsors } = await import('../fixtures/sponsors/sponsors.js');
    expect(driftOf(sponsors, await readCatalog(t.db))).toEqual([]);
  });

  it('the default grants of its group reach the database', async () => {
    const rows = await t.db('permission_grants').where('pg_group', 'account_sponsors').orderBy('pg_role');
    expect(Object.fromEntries(rows.map((r) => [r.pg_role, r.pg_bits]))).toEqual({ root: 15, superadmin: 15, admin: 15, member: 1 });
  });

  it('gets the generic API: create with defaults, validation, list with search and filter, update, delete', async () => {
    const created = await as.superadmin.post(path(), { sp_title: 'Acme Coffee', sp_website: 'https://acme.example.com' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ sp_title: 'Acme Coffee', sp_tier: 'silver', sp_is_enabled: true, sp_accountid: accountId, id: created.body.sp_id });

    const bad = await as.superadmin.post(path(), { sp_title: '', sp_tier: 'platinum', sp_website: 'acme' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ sp_title: 'error_required', sp_tier: 'error_invalid_value', sp_website: 'error_url_invalid' });
    expect(await t.db('sponsors').count({ n: '*' }).first()).toMatchObject({ n: kind === 'postgres' ? '1' : 1 });

    await as.superadmin.post(path(), { sp_title: 'Beta Bikes', sp_tier: 'gold' });
    const q = encodeURIComponent(JSON.stringify({ q: 'acm' }));
    const found = await as.member.get(`${path()}?filter=${q}&range=${encodeURIComponent('[0,9]')}`);
    expect(found.status).toBe(200);
    expect(found.body.map((r: { sp_title: string }) => r.sp_title)).toEqual(['Acme Coffee']);
    const gold = await as.member.get(`${path()}?filter=${encodeURIComponent(JSON.stringify({ sp_tier: 'gold' }))}`);
    expect(gold.body.map((r: { sp_title: string }) => r.sp_title)).toEqual(['Beta Bikes']);

    const updated = await as.root.put(path(`/${created.body.sp_id}`), { sp_tier: 'gold', sp_is_enabled: false });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ sp_tier: 'gold', sp_is_enabled: false, sp_title: 'Acme Coffee' });
    expect((await as.root.delete(path(`/${created.body.sp_id}`))).status).toBe(200);
    expect((await as.root.get(path(`/${created.body.sp_id}`))).status).toBe(404);
  });

  it('answers each role as its group grants: a member reads, never writes; another account is not found', async () => {
    expect((await as.member.get(path())).status).toBe(200);
    expect((await as.member.post(path(), { sp_title: 'Not mine' })).status).toBe(403);
    const other = await t.account('Other');
    const elsewhere = await as.root.post(`/api/1/accounts/${other.a_id}/sponsors`, { sp_title: 'Elsewhere' });
    expect(elsewhere.status).toBe(201);
    expect((await as.superadmin.get(path(`/${elsewhere.body.sp_id}`))).status).toBe(404);
    // An account the caller is no member of does not exist for it.
    expect((await as.superadmin.get(`/api/1/accounts/${other.a_id}/sponsors`)).status).toBe(404);
  });

  it('references are checked in the account: an event of another account is refused', async () => {
    const other = await t.account('Other events');
    const [event] = await t.db('events').insert({ ev_accountid: other.a_id, ev_title: 'Not here', ev_name: 'not-here', ev_access_type: 'open' }).returning('ev_id');
    const res = await as.superadmin.post(path(), { sp_title: 'Gamma', sp_eventid: event.ev_id });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.fields)).toEqual(['sp_eventid']);
  });

  it('the session carries the new group, and the console menu offers the resource by the grants', async () => {
    const me = await as.member.get('/api/1/auth/me');
    expect(me.status).toBe(200);
    const { menuResourcesFor } = await import('../../admin/src/console/access.js');
    const session = me.body;
    const menu = menuResourcesFor(session, accountId).map((d) => d.name);
    expect(menu).toContain('sponsors');
    const superMe = (await as.superadmin.get('/api/1/auth/me')).body;
    expect(menuResourcesFor(superMe, accountId).map((d) => d.name)).toContain('sponsors');
  });
});

describeEachDb('a platform resource added in one module and one migration', (kind) => {
  let t: TestApp;
  const as: Record<'root' | 'admin' | 'member', Signed> = {} as never;

  beforeAll(async () => {
    t = await startApp(kind);
    await (await import('../fixtures/venues/20991231000002_create_venues.js')).up(t.db);
    await prepareDatabase(t.db);
    await t.context.permissions.refresh();
    for (const role of ['root', 'admin', 'member'] as const) as[role] = await t.signedIn(role);
  });
  afterAll(() => t?.close());

  it('its migration agrees with its declaration', async () => {
    const { venues } = await import('../fixtures/venues/venues.js');
    expect(driftOf(venues, await readCatalog(t.db))).toEqual([]);
  });

  it('gets the generic API at /api/1/venues: create, validation, unique name as 409, list, search, update, delete', async () => {
    const created = await as.root.post('/api/1/venues', { vn_title: 'Expo Hall', vn_city: 'Utrecht', vn_capacity: 800 });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ vn_title: 'Expo Hall', vn_city: 'Utrecht', vn_capacity: 800, id: created.body.vn_id });
    expect(created.body).not.toHaveProperty('vn_accountid');

    const bad = await as.root.post('/api/1/venues', { vn_title: '', vn_capacity: 0 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields).sort()).toEqual(['vn_capacity', 'vn_title']);
    const taken = await as.root.post('/api/1/venues', { vn_title: 'Expo Hall' });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'name_taken', fields: { vn_title: 'error_name_taken' } });

    await as.root.post('/api/1/venues', { vn_title: 'Beurs', vn_city: 'Amsterdam' });
    const found = await as.admin.get(`/api/1/venues?filter=${encodeURIComponent(JSON.stringify({ q: 'exp' }))}`);
    expect(found.status).toBe(200);
    expect(found.body.map((r: { vn_title: string }) => r.vn_title)).toEqual(['Expo Hall']);
    expect(found.headers['content-range']).toMatch(/\/1$/);

    const updated = await as.root.put(`/api/1/venues/${created.body.vn_id}`, { vn_capacity: 900 });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ vn_title: 'Expo Hall', vn_capacity: 900 });
    expect(new Date(updated.body.vn_updated_at).getTime()).toBeGreaterThanOrEqual(new Date(created.body.vn_updated_at).getTime());
    expect((await as.root.delete(`/api/1/venues/${created.body.vn_id}`)).status).toBe(200);
    expect((await as.root.get(`/api/1/venues/${created.body.vn_id}`)).status).toBe(404);
  });

  it('answers each role as its entry group grants: admin reads only, a member not at all', async () => {
    expect((await as.admin.get('/api/1/venues')).status).toBe(200);
    expect((await as.admin.post('/api/1/venues', { vn_title: 'Not mine' })).status).toBe(403);
    expect((await as.member.get('/api/1/venues')).status).toBe(403);
    const me = (await as.admin.get('/api/1/auth/me')).body;
    expect(JSON.stringify(me)).toContain('entry_venues');
  });
});
