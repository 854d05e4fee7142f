import type { Knex } from 'knex';

/**
 * A lighter history table (issue 16, performance: history at most 15% on a bulk update). Every changed row writes an
 * entry, so what each entry costs to store is paid 10,000 times by a bulk update of 10,000 leads; three things made it
 * expensive, more so as the history grows (measured in bench/README.md):
 *
 * - `h_accountid` referenced `accounts` (`on delete cascade`): PostgreSQL's foreign-key check, a row trigger with a
 *   query and a row lock on the account, ran once per entry. All the key did was take an account's history with it
 *   when the account is deleted; an entry's account always exists when it is written (its record references the
 *   account itself, and the history trigger writes nothing for the rows of an account already gone). So the key goes,
 *   and a statement trigger on `accounts` does its cascade: after a delete of accounts (by the API, a purge, SQL by
 *   hand), in the same statement, their entries go (found by history_account). The accounts' own entries
 *   (h_accountid null) stay, as before.
 * - the primary key was `h_id`, a random uuid: each entry went to a random page of an index as large as the history.
 *   Nothing looks an entry up by `h_id` alone (a revert finds it among its record's entries), so the key is now
 *   `h_seq`, the entries' order, always growing: each entry goes to the index's last page. `h_id` keeps its default
 *   (gen_random_uuid(), unique as every uuid the app makes) and stays the entry's id in the API.
 * - history_record was (h_table, h_recordid, h_seq), one index entry per history entry. It is now (h_recordid): the
 *   timeline of a record (api/crud/history.ts historyOf: `where h_table, h_recordid order by h_seq`) reads a record's
 *   few entries from it and sorts them; a record's entries share one key, which PostgreSQL stores once
 *   (deduplication), so the index is a fraction of the size and more of it stays in memory.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table history drop constraint history_h_accountid_foreign');
  await knex.raw(`
    create function ls_history_account_gone() returns trigger language plpgsql as $$
    begin
      delete from history where h_accountid in (select o.a_id from old_rows o);
      return null;
    end
    $$`);
  await knex.raw(
    'create trigger accounts_history_cascade after delete on accounts referencing old table as old_rows for each statement execute function ls_history_account_gone()',
  );
  await knex.raw('alter table history drop constraint history_pkey');
  await knex.raw('alter table history add constraint history_pkey primary key (h_seq)');
  await knex.raw('drop index history_record');
  await knex.raw('create index history_record on history (h_recordid)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index history_record');
  await knex.raw('create index history_record on history (h_table, h_recordid, h_seq)');
  await knex.raw('alter table history drop constraint history_pkey');
  await knex.raw('alter table history add constraint history_pkey primary key (h_id)');
  await knex.raw('drop trigger accounts_history_cascade on accounts');
  await knex.raw('drop function ls_history_account_gone()');
  // Entries of an account that is gone cannot exist (the trigger took them), but a key refuses any: drop them first.
  await knex.raw('delete from history h where h.h_accountid is not null and not exists (select 1 from accounts a where a.a_id = h.h_accountid)');
  await knex.raw('alter table history add constraint history_h_accountid_foreign foreign key (h_accountid) references accounts (a_id) on delete cascade');
}
