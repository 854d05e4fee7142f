import type { Knex } from 'knex';
import { createAccountTable, historyTrigger } from '../api/db/migrationHelpers.js';

/**
 * Signage operations (platform-and-flows.md 7; resources/carousels.ts):
 * - group_schedules: dayparting, a carousel a group plays on some days between two local times;
 * - account_settings.ls_timezone, the account's local time (also added by the meetings migration: added only when
 *   it is not there yet, and left in place by down for the same reason);
 * - carousel_codes: what the player last reported (POST /play/{code}/status);
 * - play_events: the carousel's, slide's and code's titles as they were when played (proof of play survives
 *   deletions), backfilled from the records still there; the code's id is no longer a foreign key (it outlives the
 *   code, as the carousel's and slide's ids do);
 * - statement triggers on the player manifest's tables that NOTIFY leadstage_manifest at commit, so every API process
 *   empties its manifest cache (api/services/player.ts); a code's status columns are not part of a manifest.
 */
const MANIFEST_TABLES = ['assets', 'collections', 'carousels', 'variants', 'slides', 'layers', 'carousel_groups', 'carousel_group_items', 'group_schedules', 'account_settings'];
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

export async function up(knex: Knex): Promise<void> {
  await createAccountTable(knex, 'group_schedules', 'gs', (t) => {
    t.uuid('gs_groupid').notNullable().references('cg_id').inTable('carousel_groups').onDelete('CASCADE');
    t.uuid('gs_carouselid').notNullable().references('c_id').inTable('carousels').onDelete('CASCADE');
    // a tags field (the declaration): '{}' as its default, which the check below never lets stand
    t.specificType('gs_days', 'text[]').notNullable().defaultTo(knex.raw("'{}'::text[]"));
    t.text('gs_from').notNullable();
    t.text('gs_to').notNullable();
    t.integer('gs_order').notNullable().defaultTo(0);
    t.check(`cardinality(gs_days) between 1 and 7 and gs_days <@ array[${DAYS.map((d) => `'${d}'`).join(',')}]::text[]`, [], 'group_schedules_days_check');
    t.check(`gs_from ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' and gs_to ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`, [], 'group_schedules_times_check');
    t.index(['gs_groupid', 'gs_order'], 'group_schedules_group_order');
    t.index(['gs_carouselid'], 'group_schedules_carousel');
  });
  await historyTrigger(knex, 'group_schedules', 'gs_id', 'gs_accountid');
  // Every tags field can be filtered by "any of" (&&): the index that serves it.
  await knex.raw('create index group_schedules_days on group_schedules using gin (gs_days)');

  await knex.raw(`alter table account_settings add column if not exists ls_timezone text not null default 'Europe/Amsterdam'`);

  await knex.schema.alterTable('carousel_codes', (t) => {
    t.timestamp('cc_last_seen_at', { useTz: true });
    t.text('cc_player_version');
    t.text('cc_screen');
    t.text('cc_last_error');
  });

  // The code's id stays on its events when the code is deleted (like the carousel's and slide's): its plays stay
  // apart from another deleted code's, under the title they kept.
  await knex.raw('alter table play_events drop constraint if exists play_events_pe_codeid_foreign');
  await knex.schema.alterTable('play_events', (t) => {
    t.text('pe_carousel_title');
    t.text('pe_slide_title');
    t.text('pe_code_title');
  });
  await knex.raw(`update play_events set pe_carousel_title = c_title from carousels where c_id = pe_carouselid and pe_carousel_title is null`);
  await knex.raw(`update play_events set pe_slide_title = sl_title from slides where sl_id = pe_slideid and pe_slide_title is null`);
  await knex.raw(`create function leadstage_manifest_changed() returns trigger language plpgsql as $$
    begin perform pg_notify('leadstage_manifest', ''); return null; end $$`);
  for (const table of MANIFEST_TABLES)
    await knex.raw(`create trigger ?? after insert or update or delete or truncate on ?? for each statement execute function leadstage_manifest_changed()`, [
      `${table}_manifest_changed`,
      table,
    ]);
  await knex.raw(
    `create trigger carousel_codes_manifest_changed after insert or delete or truncate or update of cc_code, cc_title, cc_groupid on carousel_codes for each statement execute function leadstage_manifest_changed()`,
  );
  await knex.raw(`update play_events set pe_code_title = coalesce(nullif(cc_title, ''), cc_code) from carousel_codes where cc_id = pe_codeid and pe_code_title is null`);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [...MANIFEST_TABLES, 'carousel_codes']) await knex.raw('drop trigger if exists ?? on ??', [`${table}_manifest_changed`, table]);
  await knex.raw('drop function if exists leadstage_manifest_changed()');
  await knex.schema.alterTable('play_events', (t) => {
    t.dropColumns('pe_carousel_title', 'pe_slide_title', 'pe_code_title');
  });
  await knex.raw('update play_events set pe_codeid = null where pe_codeid is not null and not exists (select 1 from carousel_codes where cc_id = pe_codeid)');
  await knex.schema.alterTable('play_events', (t) => {
    t.foreign('pe_codeid', 'play_events_pe_codeid_foreign').references('cc_id').inTable('carousel_codes').onDelete('SET NULL');
  });
  await knex.schema.alterTable('carousel_codes', (t) => {
    t.dropColumns('cc_last_seen_at', 'cc_player_version', 'cc_screen', 'cc_last_error');
  });
  await knex.schema.dropTable('group_schedules');
}
