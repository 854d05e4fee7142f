import type { Knex } from 'knex';

/**
 * Sessions of signed-in users only (visitors get a signed CSRF cookie and no row). The id is the SHA-256 of the cookie's
 * random token, so a copy of the table opens no session; s_userid is a column (indexed) so ending a user's sessions
 * is an index lookup, and the user is read with the session in one join.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sessions');
  await knex.schema.createTable('sessions', (t) => {
    t.text('s_id').primary();
    t.uuid('s_userid').notNullable().references('u_id').inTable('users').onDelete('CASCADE');
    t.jsonb('s_data').notNullable().defaultTo('{}');
    t.timestamp('s_expires_at', { useTz: true }).notNullable();
    t.timestamp('s_created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['s_userid'], 'sessions_user');
    t.index(['s_expires_at'], 'sessions_expires_at');
  });
  // Every API process caches sessions with their user for a few seconds; a change that could end one (a user updated
  // or deleted, a session deleted) tells all of them at once (api/services/sessionCache.ts listens).
  await knex.raw(`create function leadstage_auth_changed() returns trigger language plpgsql as $$
    begin perform pg_notify('leadstage_auth', ''); return null; end $$`);
  await knex.raw('create trigger users_auth_changed after update or delete on users for each statement execute function leadstage_auth_changed()');
  await knex.raw('create trigger sessions_auth_changed after delete on sessions for each statement execute function leadstage_auth_changed()');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists users_auth_changed on users');
  await knex.schema.dropTable('sessions');
  await knex.raw('drop function if exists leadstage_auth_changed()');
  // The connect-session-knex layout of the first migration.
  await knex.schema.createTable('sessions', (t) => {
    t.string('sid', 255).primary();
    t.json('sess').notNullable();
    t.timestamp('expired', { useTz: true }).notNullable().index('sessions_expired');
  });
}
