import type { Knex } from 'knex';

/**
 * leads_event_captured (event, captured) also carries the source (INCLUDE, with the account and the trash column it
 * carried already): a list or a total filtered by an event and a source (the organisers' "this event's scans") is
 * answered from the index alone, the source tested on each entry. Without it, an event and a source its leads never
 * have (an event without card scans) read every lead of the event from the table to find none: 1.2-1.8 s for an
 * event of 100,000 leads in the event-day bench, for the page and again for its total (bench/README.md, the event day).
 * No entry more per write; the entries are a few bytes longer.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('drop index leads_event_captured');
  await knex.raw('create index leads_event_captured on leads (ld_eventid, ld_captured_at) include (ld_accountid, ld_deleted_at, ld_source)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index leads_event_captured');
  await knex.raw('create index leads_event_captured on leads (ld_eventid, ld_captured_at) include (ld_accountid, ld_deleted_at)');
}
