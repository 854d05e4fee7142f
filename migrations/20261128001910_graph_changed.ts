import type { Knex } from 'knex';

/**
 * Statement triggers on the tables an event graph is read from (api/models/graphCache.ts) that NOTIFY leadstage_graph
 * at commit, so every API process empties its kept graphs, whichever process (or SQL by hand) wrote. PostgreSQL only
 * delivers it; PGlite runs in one process, whose own writes empty its graphs as they run.
 */
const GRAPH_TABLES = ['events', 'event_forms', 'forms', 'form_elements', 'lists', 'list_items'];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create function leadstage_graph_changed() returns trigger language plpgsql as $$
    begin perform pg_notify('leadstage_graph', ''); return null; end $$`);
  for (const table of GRAPH_TABLES)
    await knex.raw(`create trigger ?? after insert or update or delete or truncate on ?? for each statement execute function leadstage_graph_changed()`, [
      `${table}_graph_changed`,
      table,
    ]);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of GRAPH_TABLES) await knex.raw('drop trigger if exists ?? on ??', [`${table}_graph_changed`, table]);
  await knex.raw('drop function if exists leadstage_graph_changed()');
}
