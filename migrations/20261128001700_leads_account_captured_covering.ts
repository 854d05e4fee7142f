import type { Knex } from 'knex';

/**
 * The statistics by day count each day's leads as a range scan of leads_account_captured (ld_accountid,
 * ld_captured_at), meant to touch index entries only. Since the trash, each counted lead is also checked for being live
 * and for its event not being in the trash (ld_deleted_at, ld_eventid): columns that index lacked, so every lead of the
 * range was read from the table (bench/README.md, "The event day": 4 s a call over a million leads). The index now
 * carries both (INCLUDE): the scan is index-only again. It stays whole (not partial) for the account's cascade and the
 * drift check's account-key index, and a lead still enters it once: no more index entries per write (issue 16's bulk).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('drop index leads_account_captured');
  await knex.raw('create index leads_account_captured on leads (ld_accountid, ld_captured_at) include (ld_eventid, ld_deleted_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index leads_account_captured');
  await knex.raw('create index leads_account_captured on leads (ld_accountid, ld_captured_at)');
}
