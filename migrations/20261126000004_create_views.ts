import type { Knex } from 'knex';
import { createAccountTable } from '../api/db/migrationHelpers.js';

/**
 * Saved views of the lists (platform-and-flows.md 1; resources/views.ts): a list's filter, sort and columns under a
 * title, owned by a user (their views go with them) and optionally shared with the account. One index serves every
 * read: an account's views of one list.
 */
export async function up(knex: Knex): Promise<void> {
  await createAccountTable(
    knex,
    'views',
    'vw',
    (t) => {
      t.text('vw_resource').notNullable();
      t.text('vw_title').notNullable();
      t.jsonb('vw_filter').notNullable().defaultTo('{}');
      t.jsonb('vw_sort');
      t.jsonb('vw_columns');
      t.boolean('vw_shared').notNullable().defaultTo(false);
      t.uuid('vw_ownerid').notNullable().references('u_id').inTable('users').onDelete('CASCADE');
      t.index(['vw_accountid', 'vw_resource'], 'views_account_resource');
      t.index(['vw_ownerid'], 'views_owner');
    },
    { accountIndex: false },
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('views');
}
