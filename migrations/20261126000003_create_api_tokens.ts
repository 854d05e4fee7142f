import type { Knex } from 'knex';

/**
 * Personal API tokens (platform-and-flows.md section 2): a user's token for one account, acting with a role at most
 * the user's own there. Only the SHA-256 of the secret is stored (unique: the lookup of every Bearer call); the token
 * goes with its user or its account. tk_last_used_at is written at most once a minute per token (api/services/apiTokens.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_tokens', (t) => {
    t.uuid('tk_id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('tk_userid').notNullable().references('u_id').inTable('users').onDelete('CASCADE');
    t.uuid('tk_accountid').notNullable().references('a_id').inTable('accounts').onDelete('CASCADE');
    t.text('tk_title').notNullable();
    t.text('tk_role').notNullable();
    t.text('tk_hash').notNullable().unique({ indexName: 'api_tokens_hash_unique' });
    t.timestamp('tk_expires_at', { useTz: true }).notNullable();
    t.timestamp('tk_last_used_at', { useTz: true });
    t.timestamp('tk_created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['tk_userid'], 'api_tokens_user');
    t.index(['tk_accountid'], 'api_tokens_account');
    // The roles as they are when this migration is written (a later role needs a migration of its own).
    t.check(`tk_role in ('root','superadmin','admin','member')`, [], 'api_tokens_role_check');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('api_tokens');
}
