import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { createTestDb, describeEachDb, type TestDb } from '../helpers/db.js';
import { readCatalog, type CatalogTable } from '../helpers/catalog.js';
import { createAccountTable, enumCheck, prefixSearchIndex, trashColumn, uniqueField, uniqueLiveField } from '../../api/db/migrationHelpers.js';
import { EVENT_ACCESS_TYPES } from '../../resources/events.js';

/**
 * api/db/migrationHelpers.ts makes the tables the earlier migrations wrote by hand: three of them are made again
 * with the helpers in a schema of their own, and their catalog (columns in order, types, defaults, constraints,
 * indexes, with their names) must equal the migrated tables'.
 */
const SHAPE = 'helper_shape';

/** The helpers' versions of forms, events and event_forms (migrations 20261121000004, 20261124000001 and the trash, 20261126000005). */
async function makeWithHelpers(knex: Knex): Promise<void> {
  await createAccountTable(
    knex,
    'forms',
    'f',
    (t) => {
      t.text('f_title').notNullable();
      t.text('f_name').notNullable();
    },
    { accountIndex: false },
  );
  await trashColumn(knex, 'forms', 'f');
  await uniqueLiveField(knex, 'forms', 'f', 'f_name', ['f_accountid']);
  await prefixSearchIndex(knex, 'forms', 'f_title');
  await prefixSearchIndex(knex, 'forms', 'f_name', 'f_accountid');

  await createAccountTable(
    knex,
    'events',
    'ev',
    (t) => {
      t.text('ev_title').notNullable();
      t.text('ev_name').notNullable();
      t.boolean('ev_is_enabled').notNullable().defaultTo(true);
      t.text('ev_start_date');
      t.text('ev_end_date');
      t.uuid('ev_ownerid').references('u_id').inTable('users').onDelete('SET NULL');
      t.text('ev_access_type').notNullable();
      t.text('ev_access_code');
      t.text('ev_external_id');
      t.uuid('ev_registration_formid').references('f_id').inTable('forms').onDelete('SET NULL');
      t.text('ev_consent_text');
      t.text('ev_description'); // 20261126000002 (rich text)
      t.index(['ev_accountid', 'ev_start_date'], 'events_account_start');
      enumCheck(t, 'events', 'ev_access_type', EVENT_ACCESS_TYPES);
      t.check(`ev_start_date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' and ev_end_date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`, [], 'events_dates_check');
    },
    { accountIndex: false },
  );
  await trashColumn(knex, 'events', 'ev');
  await uniqueLiveField(knex, 'events', 'ev', 'ev_name', ['ev_accountid']);
  await prefixSearchIndex(knex, 'events', 'ev_title');
  await prefixSearchIndex(knex, 'events', 'ev_name', 'ev_accountid');

  await createAccountTable(knex, 'event_forms', 'ef', (t) => {
    t.uuid('ef_eventid').notNullable().references('ev_id').inTable('events').onDelete('CASCADE');
    t.uuid('ef_formid').notNullable().references('f_id').inTable('forms').onDelete('CASCADE');
    t.integer('ef_order').notNullable().defaultTo(0);
    uniqueField(t, 'event_forms', 'ef_formid', ['ef_eventid']);
    t.index(['ef_formid'], 'event_forms_form');
  });
}

/** A table's catalog in comparable form: the schema left out of every definition. */
function shapeOf(table: CatalogTable | undefined) {
  const bare = (s: string) => s.replaceAll(`${SHAPE}.`, '').replaceAll('public.', '');
  if (!table) return undefined;
  return {
    columns: [...table.columns.values()],
    constraints: table.constraints.map((c) => ({ ...c, definition: bare(c.definition) })).sort((a, b) => a.name.localeCompare(b.name)),
    indexes: table.indexes.map((i) => ({ ...i, definition: bare(i.definition).replace(/ ON (\w+)/, ' ON $1') })).sort((a, b) => a.name.localeCompare(b.name)),
  };
}

describeEachDb('migration helpers', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(kind);
  });
  afterAll(() => t?.drop());

  it('make forms, events and event_forms exactly as the migrations did', async () => {
    const ns = (await t.db.raw('select current_schema() as s')).rows[0].s as string;
    const migrated = await readCatalog(t.db, ns);
    await t.db.raw(`create schema ${SHAPE}`);
    try {
      await t.db.transaction(async (trx) => {
        // Unqualified names go to the new schema; accounts and users are still found in the migrated one.
        await trx.raw(`set local search_path to ${SHAPE}, ${ns}`);
        await makeWithHelpers(trx);
      });
      const made = await readCatalog(t.db, SHAPE);
      expect([...made.keys()].sort()).toEqual(['event_forms', 'events', 'forms']);
      for (const name of made.keys()) {
        const helper = shapeOf(made.get(name));
        // The check would prove nothing if a table came back without its parts.
        expect(helper!.indexes.length, name).toBeGreaterThan(2);
        expect(
          helper!.constraints.some((c) => c.type === 'f' && c.references!.table === 'accounts' && c.references!.onDelete === 'c'),
          name,
        ).toBe(true);
        expect(helper, name).toEqual(shapeOf(migrated.get(name)));
      }
    } finally {
      await t.db.raw(`drop schema if exists ${SHAPE} cascade`);
    }
  });

  it('keeps an enum column to its options and answers a taken name with the unique index the API maps', async () => {
    const db = t.db;
    try {
      await createAccountTable(db, 'helper_things', 'ht', (tb) => {
        tb.text('ht_name').notNullable();
        tb.text('ht_kind').notNullable();
        enumCheck(tb, 'helper_things', 'ht_kind', ['plain', "o'brien"]);
        uniqueField(tb, 'helper_things', 'ht_name', ['ht_accountid']);
      });
      const [account] = await db('accounts').insert({ a_name: 'Helpers' }).returning('a_id');
      await db('helper_things').insert({ ht_accountid: account.a_id, ht_name: 'one', ht_kind: "o'brien" });
      await expect(db('helper_things').insert({ ht_accountid: account.a_id, ht_name: 'two', ht_kind: 'other' })).rejects.toMatchObject({ code: '23514' });
      await expect(db('helper_things').insert({ ht_accountid: account.a_id, ht_name: 'one', ht_kind: 'plain' })).rejects.toMatchObject({ code: '23505' });
      const names = async (sql: string) => (await db.raw(sql)).rows.map((r: { name: string }) => r.name);
      expect(await names(`select indexname as name from pg_indexes where tablename = 'helper_things' order by 1`)).toEqual([
        'helper_things_account',
        'helper_things_ht_name_unique',
        'helper_things_pkey',
      ]);
      expect(await names(`select conname as name from pg_constraint where conrelid = 'helper_things'::regclass and contype = 'c'`)).toEqual(['helper_things_kind_check']);
      // An account's delete takes its rows.
      await db('accounts').where('a_id', account.a_id).del();
      expect(Number((await db('helper_things').count({ n: '*' }).first())!.n)).toBe(0);
    } finally {
      await db.schema.dropTableIfExists('helper_things');
    }
  });
});
