import type { Knex } from 'knex';

/**
 * Statement triggers on accounts and account_users that NOTIFY leadstage_account at commit, so every API process drops
 * the accounts and memberships it keeps (api/middleware/auth.ts resolveAccount, api/db/processCache.ts), whichever
 * process (or SQL by hand, or a cascade) wrote. PostgreSQL only delivers it; PGlite runs in one process, whose own
 * writes drop its copies as they run.
 */
const TABLES = ['accounts', 'account_users'];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create function leadstage_account_changed() returns trigger language plpgsql as $$
    begin perform pg_notify('leadstage_account', ''); return null; end $$`);
  for (const table of TABLES)
    await knex.raw(`create trigger ?? after insert or update or delete or truncate on ?? for each statement execute function leadstage_account_changed()`, [
      `${table}_account_changed`,
      table,
    ]);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) await knex.raw('drop trigger if exists ?? on ??', [`${table}_account_changed`, table]);
  await knex.raw('drop function if exists leadstage_account_changed()');
}
