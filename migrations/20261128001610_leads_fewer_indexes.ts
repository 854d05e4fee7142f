import type { Knex } from 'knex';

/**
 * Fewer index entries per lead written (issue 16, performance: bulk update of 100,000 leads by filter). A bulk change
 * of the validity or the owner changes an indexed column, so each changed lead is a new row version with an entry in
 * every index of `leads` whose condition it meets: 19 of them for a lead without files, and on a database whose
 * indexes do not fit its memory that is the update's time (bench/README.md: 2.2 million WAL records and 1.1 GB of WAL
 * for 100,000 leads; with only three indexes the same update took a seventh of the time). Four of them go without
 * losing a query they serve:
 *
 * - leads_account_event_captured (account, event, captured; live leads) repeated leads_event_captured (event,
 *   captured), which the events' cascade needs anyway and which serves a list filtered by event as well (an event
 *   belongs to one account). That one now carries the account and the trash column (INCLUDE), so the list's total for
 *   an event (counted up to 10,000) stays an index-only scan.
 * - the card photos' and the memo's indexes (the lead files' `on delete set null`) hold only the leads that have such a
 *   file (`where … is not null`): the cascade's `where ld_front_fileid = $1` implies it, and a lead without one no
 *   longer writes a null entry in each of them.
 */
const FILE_INDEXES: [string, string][] = [
  ['leads_front_file', 'ld_front_fileid'],
  ['leads_back_file', 'ld_back_fileid'],
  ['leads_memo_file', 'ld_memo_fileid'],
];

export async function up(knex: Knex): Promise<void> {
  await knex.raw('drop index leads_account_event_captured');
  await knex.raw('drop index leads_event_captured');
  await knex.raw('create index leads_event_captured on leads (ld_eventid, ld_captured_at) include (ld_accountid, ld_deleted_at)');
  for (const [name, column] of FILE_INDEXES) {
    await knex.raw(`drop index ${name}`);
    await knex.raw(`create index ${name} on leads (${column}) where ${column} is not null`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [name, column] of FILE_INDEXES) {
    await knex.raw(`drop index ${name}`);
    await knex.raw(`create index ${name} on leads (${column})`);
  }
  await knex.raw('drop index leads_event_captured');
  await knex.raw('create index leads_event_captured on leads (ld_eventid, ld_captured_at)');
  await knex.raw('create index leads_account_event_captured on leads (ld_accountid, ld_eventid, ld_captured_at) where ld_deleted_at is null');
}
