import type { Knex } from 'knex';

const ROLES = ['root', 'superadmin', 'admin', 'member'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.uuid('u_id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('u_first_name').notNullable().defaultTo('');
    t.text('u_last_name').notNullable().defaultTo('');
    t.text('u_email').notNullable();
    t.text('u_password'); // null: no password set yet (imported or invited users)
    t.text('u_role').notNullable().defaultTo('member');
    t.boolean('u_is_verified').notNullable().defaultTo(false);
    t.boolean('u_is_enabled').notNullable().defaultTo(true);
    t.timestamp('u_created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('u_updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(`u_role in (${ROLES.map((r) => `'${r}'`).join(',')})`, [], 'users_role_check');
  });
  // E-mails are unique whatever their case; text_pattern_ops indexes serve LIKE 'prefix%' under any collation.
  await knex.raw('create unique index users_email_unique on users (lower(u_email))');
  await knex.raw('create index users_email_prefix on users (lower(u_email) text_pattern_ops)');
  await knex.raw('create index users_first_name_prefix on users (lower(u_first_name) text_pattern_ops)');
  await knex.raw('create index users_last_name_prefix on users (lower(u_last_name) text_pattern_ops)');
  await knex.raw('create index users_email_sort on users (u_email, u_id)'); // the lists' default order, paged

  await knex.schema.createTable('accounts', (t) => {
    t.uuid('a_id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('a_name').notNullable();
    t.text('a_email_domain');
    t.text('a_api_url');
    t.text('a_admin_url');
    t.text('a_storage_url');
    t.text('a_public_key');
    t.boolean('a_is_enabled').notNullable().defaultTo(true);
    t.boolean('a_has_logo').notNullable().defaultTo(false);
    t.timestamp('a_created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('a_updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('create index accounts_name_prefix on accounts (lower(a_name) text_pattern_ops)');
  await knex.raw('create index accounts_name_sort on accounts (a_name, a_id)');
  await knex.raw('create index accounts_email_domain on accounts (lower(a_email_domain))');

  await knex.schema.createTable('account_users', (t) => {
    t.uuid('au_id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('au_userid').notNullable().references('u_id').inTable('users').onDelete('CASCADE');
    t.uuid('au_accountid').notNullable().references('a_id').inTable('accounts').onDelete('CASCADE');
    t.text('au_role').notNullable().defaultTo('member');
    t.text('au_external_id');
    t.timestamp('au_created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['au_accountid', 'au_userid'], { indexName: 'account_users_account_user_unique' });
    t.index(['au_userid'], 'account_users_user');
    t.check(`au_role in (${ROLES.map((r) => `'${r}'`).join(',')})`, [], 'account_users_role_check');
  });

  // express-session rows (connect-session-knex layout).
  await knex.schema.createTable('sessions', (t) => {
    t.string('sid', 255).primary();
    t.json('sess').notNullable();
    t.timestamp('expired', { useTz: true }).notNullable().index('sessions_expired');
  });

  // One-time tokens: only a SHA-256 of the token is stored.
  await knex.schema.createTable('tokens', (t) => {
    t.uuid('t_id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('t_type').notNullable();
    t.text('t_hash').notNullable().unique('tokens_hash_unique');
    t.uuid('t_userid').references('u_id').inTable('users').onDelete('CASCADE');
    t.timestamp('t_expires_at', { useTz: true }).notNullable();
    t.timestamp('t_used_at', { useTz: true });
    t.timestamp('t_created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['t_userid', 't_type'], 'tokens_user_type');
    t.check(`t_type in ('verify','reset','guest')`, [], 'tokens_type_check');
  });

  await knex.schema.createTable('permission_grants', (t) => {
    t.text('pg_role').notNullable();
    t.text('pg_group').notNullable();
    t.integer('pg_bits').notNullable();
    t.primary(['pg_role', 'pg_group']);
  });

  await knex.schema.createTable('rate_limits', (t) => {
    t.text('rl_key').primary();
    t.integer('rl_points').notNullable();
    t.timestamp('rl_reset_at', { useTz: true }).notNullable().index('rate_limits_reset_at');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rate_limits');
  await knex.schema.dropTable('permission_grants');
  await knex.schema.dropTable('tokens');
  await knex.schema.dropTable('sessions');
  await knex.schema.dropTable('account_users');
  await knex.schema.dropTable('accounts');
  await knex.schema.dropTable('users');
}
