import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDb, describeEachDb, type TestDb } from '../helpers/db.js';
import { migrateLatest, rollback } from '../../api/db/migrationSource.js';

describeEachDb('migrations', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(kind);
  });
  afterAll(() => t?.drop());

  it('roll all the way down and up again, leaving the same tables', async () => {
    const tables = async () =>
      (await t.db.raw(`select table_name from information_schema.tables where table_schema = current_schema() and table_name not like 'knex_%' order by 1`)).rows.map(
        (r: { table_name: string }) => r.table_name,
      );
    const before = await tables();
    expect(before).toEqual(expect.arrayContaining(['users', 'accounts', 'account_users', 'sessions', 'tokens', 'permission_grants', 'rate_limits']));
    await rollback(t.db, true);
    expect(await tables()).toEqual([]);
    await migrateLatest(t.db);
    expect(await tables()).toEqual(before);
  });

  it('keeps e-mails unique whatever their case', async () => {
    await t.db('users').insert({ u_email: 'Case@Example.com' });
    await expect(t.db('users').insert({ u_email: 'case@example.COM' })).rejects.toMatchObject({ code: '23505' });
  });
});
