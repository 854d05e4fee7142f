import type { Knex } from 'knex';
import { dropNotifyOnWrite, notifyOnWrite } from '../api/db/migrationHelpers.js';

/**
 * Statement triggers on accounts and account_users that NOTIFY leadstage_account at commit, so every API process drops
 * the accounts and memberships it keeps (api/middleware/auth.ts resolveAccount, api/db/processCache.ts), whichever
 * process (or SQL by hand, or a cascade) wrote. PostgreSQL only delivers it; PGlite runs in one process, whose own
 * writes drop its copies as they run.
 */
const TABLES = ['accounts', 'account_users'];

export async function up(knex: Knex): Promise<void> {
  await notifyOnWrite(knex, 'leadstage_account_changed', 'leadstage_account', TABLES, 'account_changed');
}

export async function down(knex: Knex): Promise<void> {
  await dropNotifyOnWrite(knex, 'leadstage_account_changed', TABLES, 'account_changed');
}
