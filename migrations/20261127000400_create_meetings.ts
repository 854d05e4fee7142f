import type { Knex } from 'knex';
import { createAccountTable, enumCheck } from '../api/db/migrationHelpers.js';

/**
 * Meetings (platform-and-flows.md 5; resources/meetings.ts): the slots of an event and the meetings in them, the lead
 * source `meeting`, and the account's time zone (ls_timezone, the local time of generated slots).
 */
export async function up(knex: Knex): Promise<void> {
  await createAccountTable(knex, 'meeting_slots', 'ms', (t) => {
    t.uuid('ms_eventid').notNullable().references('ev_id').inTable('events').onDelete('CASCADE');
    t.timestamp('ms_start', { useTz: true }).notNullable();
    t.timestamp('ms_end', { useTz: true }).notNullable();
    t.text('ms_location');
    t.integer('ms_capacity').notNullable().defaultTo(1);
    t.uuid('ms_hostid').references('u_id').inTable('users').onDelete('SET NULL');
    t.check('ms_end > ms_start', [], 'meeting_slots_times_check');
    t.check('ms_capacity >= 1', [], 'meeting_slots_capacity_check');
    // An event's slots by time (the public page, the day grid); a host's slots by time (the overlap check).
    t.index(['ms_eventid', 'ms_start'], 'meeting_slots_event_start');
    t.index(['ms_hostid', 'ms_start'], 'meeting_slots_host_start');
  });
  await createAccountTable(knex, 'meetings', 'mg', (t) => {
    t.uuid('mg_eventid').notNullable().references('ev_id').inTable('events').onDelete('CASCADE');
    t.uuid('mg_slotid').notNullable().references('ms_id').inTable('meeting_slots').onDelete('CASCADE');
    t.uuid('mg_leadid').references('ld_id').inTable('leads').onDelete('SET NULL');
    t.uuid('mg_hostid').references('u_id').inTable('users').onDelete('SET NULL');
    t.text('mg_status').notNullable().defaultTo('requested');
    enumCheck(t, 'meetings', 'mg_status', ['requested', 'accepted', 'declined', 'cancelled', 'done', 'no_show']);
    t.text('mg_message');
    t.timestamp('mg_expires_at', { useTz: true });
    // Not declared (never sent to a client): the link's token hash, the visitor's language, the calendar sequence,
    // when the reminder went out, when the request was answered.
    t.text('mg_token_hash');
    t.text('mg_locale').notNullable().defaultTo('en');
    t.integer('mg_sequence').notNullable().defaultTo(0);
    t.timestamp('mg_reminded_at', { useTz: true });
    t.timestamp('mg_decided_at', { useTz: true });
    t.index(['mg_slotid', 'mg_status'], 'meetings_slot_status');
    t.index(['mg_eventid'], 'meetings_event');
    t.index(['mg_leadid'], 'meetings_lead');
    t.unique(['mg_token_hash'], { indexName: 'meetings_token_hash_unique' });
  });
  // The jobs' claims: requests waiting to expire, accepted meetings not yet reminded.
  await knex.raw(`create index meetings_expiry on meetings (mg_expires_at) where mg_status = 'requested'`);
  await knex.raw(`create index meetings_unreminded on meetings (mg_slotid) where mg_status = 'accepted' and mg_reminded_at is null`);

  await knex.raw('alter table leads drop constraint leads_source_check');
  await knex.raw(`alter table leads add constraint leads_source_check check (ld_source in ('registration','scan','card','manual','download','meeting'))`);
  await knex.schema.alterTable('account_settings', (t) => {
    t.text('ls_timezone').notNullable().defaultTo('Europe/Amsterdam');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('account_settings', (t) => {
    t.dropColumn('ls_timezone');
  });
  await knex('leads').where('ld_source', 'meeting').update({ ld_source: 'manual' });
  await knex.raw('alter table leads drop constraint leads_source_check');
  await knex.raw(`alter table leads add constraint leads_source_check check (ld_source in ('registration','scan','card','manual','download'))`);
  await knex.schema.dropTable('meetings');
  await knex.schema.dropTable('meeting_slots');
}
