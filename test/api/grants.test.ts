import { afterAll, beforeAll, expect, it } from 'vitest';
import { fillMissingGrants, prepareDatabase } from '../../api/db/bootstrap.js';
import { grantRows, ROLES } from '../../resources/permissions.js';
import { startApp, type Signed, type TestApp } from '../helpers/app.js';
import { describeEachDb } from '../helpers/db.js';

/**
 * A permission group that a database was seeded before (a new resource's group) reaches that database at the next
 * start, with its default grants; grants that an operator changed are kept.
 */
describeEachDb('default grants at start', (kind) => {
  let t: TestApp;
  let accountId: string;
  const as: Record<'root' | 'superadmin' | 'member', Signed> = {} as never;
  const carousels = () => `/api/1/accounts/${accountId}/carousels`;

  beforeAll(async () => {
    t = await startApp(kind);
    ({ a_id: accountId } = await t.account('Grants'));
    as.root = await t.signedIn('root');
    for (const role of ['superadmin', 'member'] as const) {
      as[role] = await t.signedIn('member');
      await t.member(accountId, as[role].userId, role);
    }
  });
  afterAll(() => t?.close());

  it('a database seeded before a group existed serves that group after a start, and keeps what an operator changed', async () => {
    // The state of a database seeded by older code: no rows for the carousels group; an operator has since given
    // members read on statistics and taken create away from superadmins on lists.
    await t.db('permission_grants').where('pg_group', 'account_carousels').del();
    await t.db('permission_grants').where({ pg_role: 'member', pg_group: 'account_statistics' }).update({ pg_bits: 1 });
    await t.db('permission_grants').where({ pg_role: 'superadmin', pg_group: 'account_lists' }).update({ pg_bits: 1 });
    await t.context.permissions.refresh();
    // The trap: without the group's rows every role is refused, root included.
    expect((await as.root.get(carousels())).status).toBe(403);
    expect((await as.superadmin.get(carousels())).status).toBe(403);

    // The start on the new code.
    const { grantsAdded } = await prepareDatabase(t.db);
    await t.context.permissions.refresh();
    expect(grantsAdded.map((g) => g.pg_role).sort()).toEqual([...ROLES].sort());
    expect(new Set(grantsAdded.map((g) => g.pg_group))).toEqual(new Set(['account_carousels']));

    expect((await as.root.get(carousels())).status).toBe(200);
    expect((await as.superadmin.get(carousels())).status).toBe(200);
    expect((await as.superadmin.post(carousels(), { c_title: 'Lobby', c_name: 'lobby' })).status).toBe(201);
    expect((await as.member.get(carousels())).status).toBe(200);
    expect((await as.member.post(carousels(), { c_title: 'Not mine', c_name: 'not-mine' })).status).toBe(403);

    // The operator's changes stand.
    const kept = await t.db('permission_grants').whereIn('pg_group', ['account_statistics', 'account_lists']).whereIn('pg_role', ['member', 'superadmin']);
    const bits = Object.fromEntries(kept.map((r) => [`${r.pg_role}:${r.pg_group}`, r.pg_bits]));
    expect(bits['member:account_statistics']).toBe(1);
    expect(bits['superadmin:account_lists']).toBe(1);
    expect((await as.member.get(`/api/1/accounts/${accountId}/stats/leads`)).status).toBe(200);
  });

  it('adds nothing to a database that has every grant, and fills an empty table with the whole matrix', async () => {
    expect(await fillMissingGrants(t.db)).toEqual([]);
    const before = await t.db('permission_grants').select('pg_role', 'pg_group', 'pg_bits');
    await t.db('permission_grants').del();
    try {
      const added = await fillMissingGrants(t.db);
      expect(added.length).toBe(grantRows().length);
    } finally {
      await t.db('permission_grants').del();
      await t.db('permission_grants').insert(before);
      await t.context.permissions.refresh();
    }
  });
});
