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
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sessions');
  // The connect-session-knex layout of the first migration.
  await knex.schema.createTable('sessions', (t) => {
    t.string('sid', 255).primary();
    t.json('sess').notNullable();
    t.timestamp('expired', { useTz: true }).notNullable().index('sessions_expired');
  });
}
