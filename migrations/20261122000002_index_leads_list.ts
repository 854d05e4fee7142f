import type { Knex } from 'knex';

/**
 * Indexes the console's lead list needs over a million leads (bench/leads.ts; figures in bench/README.md):
 *
 * - every list query is scoped to its account, so a filter's index starts with ld_accountid: then a page is an index
 *   scan in capture order, and the total (counted up to 10,000, ResourceDeclaration.exactTotalUpTo) an index-only
 *   scan: by event, by validity, by transcription status (the first migration's event index has no account, its
 *   queue index only pending and postponed);
 * - a sort's ties are ordered by capture time (the declaration's tieBreak), so (account, column, ld_captured_at) serves
 *   a page of any sort: these for last name, first name and e-mail; the first migration's owner and source indexes
 *   and the three above for the others. Without them a page sorted by name reads and sorts every lead of the filter.
 */
const INDEXES: [string, string][] = [
  ['leads_account_event_captured', '(ld_accountid, ld_eventid, ld_captured_at)'],
  ['leads_account_valid_captured', '(ld_accountid, ld_is_valid, ld_captured_at)'],
  ['leads_account_status_captured', '(ld_accountid, ld_transcription_status, ld_captured_at)'],
  ['leads_account_last_name_captured', '(ld_accountid, ld_last_name, ld_captured_at)'],
  ['leads_account_first_name_captured', '(ld_accountid, ld_first_name, ld_captured_at)'],
  ['leads_account_email_captured', '(ld_accountid, ld_email, ld_captured_at)'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [name, columns] of INDEXES) await knex.raw(`create index ${name} on leads ${columns}`);
}

export async function down(knex: Knex): Promise<void> {
  for (const [name] of [...INDEXES].reverse()) await knex.raw(`drop index ${name}`);
}
