import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { createKnex } from '../../api/db/knex.js';
import { migrateLatest, migrationSource } from '../../api/db/migrationSource.js';

const NAME = '20261121000002_create_storage.ts';

describe('storage migration', () => {
  let db: Knex;
  beforeAll(async () => {
    db = createKnex({ memory: true });
    await migrateLatest(db);
  });
  afterAll(() => db?.destroy());

  it('creates the tables and indexes, and its down removes exactly them', async () => {
    for (const table of ['folders', 'files', 'storage_uploads']) expect(await db.schema.hasTable(table), table).toBe(true);
    const { rows } = await db.raw(`select indexname from pg_indexes where tablename in ('folders', 'files', 'storage_uploads') order by indexname`);
    expect(rows.map((r: { indexname: string }) => r.indexname)).toEqual(
      expect.arrayContaining(['files_created_by', 'files_folder_filename', 'folders_parent_title', 'storage_uploads_expires_at']),
    );
    // A folder cannot be its own parent, and a folder with files cannot be deleted under the API's feet.
    const [f] = await db('folders').insert({ fo_title: 'A' }).returning('fo_id');
    await expect(db('folders').where('fo_id', f.fo_id).update({ fo_parentid: f.fo_id })).rejects.toThrow();
    await db('files').insert({
      fs_id: crypto.randomUUID(),
      fs_folderid: f.fo_id,
      fs_filename: 'a.png',
      fs_type: 'image/png',
      fs_path: '/files/2026/11',
      fs_extension: 'png',
      fs_size: 1,
    });
    await expect(db('folders').where('fo_id', f.fo_id).del()).rejects.toThrow();

    await db.migrate.down({ migrationSource, name: NAME });
    for (const table of ['folders', 'files', 'storage_uploads']) expect(await db.schema.hasTable(table), table).toBe(false);
    expect(await db.schema.hasTable('accounts')).toBe(true);
    await db.migrate.up({ migrationSource, name: NAME });
    expect(await db.schema.hasTable('files')).toBe(true);
  });
});
