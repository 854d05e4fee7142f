import type { Knex } from 'knex';
import { dropNotifyOnWrite, notifyOnWrite } from '../api/db/migrationHelpers.js';

/**
 * Statement triggers on the tables an event graph is read from (api/services/graphCache.ts) that NOTIFY leadstage_graph
 * at commit, so every API process drops its kept graphs, whichever process (or SQL by hand) wrote. PostgreSQL only
 * delivers it; PGlite runs in one process, whose own writes drop its graphs as they run.
 */
const TABLES = ['events', 'event_forms', 'forms', 'form_elements', 'lists', 'list_items'];

export async function up(knex: Knex): Promise<void> {
  await notifyOnWrite(knex, 'leadstage_graph_changed', 'leadstage_graph', TABLES, 'graph_changed');
}

export async function down(knex: Knex): Promise<void> {
  await dropNotifyOnWrite(knex, 'leadstage_graph_changed', TABLES, 'graph_changed');
}
