import type { Knex } from 'knex';
import { dropNotifyOnWrite, notifyOnWrite } from '../api/db/migrationHelpers.js';

/**
 * Statement triggers on the tables whose records, in the trash, hide others (events, forms, lists, leads, carousels)
 * that NOTIFY leadstage_trash at commit when an UPDATE sets the record's `<p>_deleted_at` (a delete, a restore, a
 * registration bringing a lead back), so every API process drops the ids of trashed parents it keeps
 * (api/models/scope.ts knownTrashed). test/api/trashedParents.test.ts checks that every trash parent of the registry
 * has its trigger. PostgreSQL only delivers it; PGlite runs in one process, whose own writes drop its copies.
 */
const COLUMNS: Record<string, string[]> = {
  events: ['ev_deleted_at'],
  forms: ['f_deleted_at'],
  lists: ['l_deleted_at'],
  leads: ['ld_deleted_at'],
  carousels: ['c_deleted_at'],
};
const TABLES = Object.keys(COLUMNS);

export async function up(knex: Knex): Promise<void> {
  await notifyOnWrite(knex, 'leadstage_trash_changed', 'leadstage_trash', TABLES, 'trash_changed', COLUMNS);
}

export async function down(knex: Knex): Promise<void> {
  await dropNotifyOnWrite(knex, 'leadstage_trash_changed', TABLES, 'trash_changed');
}
