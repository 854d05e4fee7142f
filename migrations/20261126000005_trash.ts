import type { Knex } from 'knex';
import { dropTrashColumn, trashColumn, uniqueIndexName, uniqueLiveField } from '../api/db/migrationHelpers.js';

/**
 * Trash (platform-and-flows.md section 1): every table whose resource declares `trash: true` gets
 * `<prefix>_deleted_at` (null while the record is live; the history's trigger records setting it as a delete and
 * clearing it as a restore, with who did it — so no `<prefix>_deleted_by` column), and:
 *
 * - a partial index of the trashed rows per account (GET …/trash, the purge after TRASH_DAYS): small, since almost
 *   every row is live;
 * - the unique names become partial, `where <prefix>_deleted_at is null`: a record in the trash no longer holds its
 *   name (a new one may take it; restoring the old one then answers 409 name_taken);
 * - the lead list's indexes (20261122000002, and the owner and source ones of 20261122000001) become partial on live
 *   leads: every list query has `ld_deleted_at is null`, and a count stays an index-only scan. leads_account_captured
 *   stays whole: the account's cascade and the drift check's account-key index.
 */
const TABLES: [table: string, prefix: string, unique: string | null][] = [
  ['events', 'ev', 'ev_name'],
  ['forms', 'f', 'f_name'],
  ['lists', 'l', 'l_name'],
  ['leads', 'ld', null],
  ['assets', 'as', 'as_name'],
  ['carousels', 'c', 'c_name'],
  ['mail_templates', 'mt', 'mt_name'],
];

const LEAD_INDEXES: [string, string][] = [
  ['leads_owner_captured', '(ld_accountid, ld_ownerid, ld_captured_at)'],
  ['leads_source_captured', '(ld_accountid, ld_source, ld_captured_at)'],
  ['leads_account_event_captured', '(ld_accountid, ld_eventid, ld_captured_at)'],
  ['leads_account_valid_captured', '(ld_accountid, ld_is_valid, ld_captured_at)'],
  ['leads_account_status_captured', '(ld_accountid, ld_transcription_status, ld_captured_at)'],
  ['leads_account_last_name_captured', '(ld_accountid, ld_last_name, ld_captured_at)'],
  ['leads_account_first_name_captured', '(ld_accountid, ld_first_name, ld_captured_at)'],
  ['leads_account_email_captured', '(ld_accountid, ld_email, ld_captured_at)'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [table, p, unique] of TABLES) {
    await trashColumn(knex, table, p);
    if (unique) {
      await knex.raw(`alter table ${table} drop constraint ${uniqueIndexName(table, unique)}`);
      await uniqueLiveField(knex, table, p, unique, [`${p}_accountid`]);
    }
  }
  for (const [name, columns] of LEAD_INDEXES) {
    await knex.raw(`drop index ${name}`);
    await knex.raw(`create index ${name} on leads ${columns} where ld_deleted_at is null`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [name, columns] of [...LEAD_INDEXES].reverse()) {
    await knex.raw(`drop index ${name}`);
    await knex.raw(`create index ${name} on leads ${columns}`);
  }
  for (const [table, p, unique] of [...TABLES].reverse()) {
    // The trash goes first: a live record may hold the name a trashed one had.
    await knex(table).whereNotNull(`${p}_deleted_at`).del();
    if (unique) {
      await knex.raw(`drop index ${uniqueIndexName(table, unique)}`);
      await knex.raw(`alter table ${table} add constraint ${uniqueIndexName(table, unique)} unique (${p}_accountid, ${unique})`);
    }
    await dropTrashColumn(knex, table, p);
  }
}
