import type { Knex } from 'knex';
import { grantRows } from '../resources/permissions.js';

/**
 * The account console's tables (account-console.md sections 1-3). Every table carries its account id (cascade on
 * account delete), <p>_created_at and <p>_updated_at; identifiers are unique in their scope through indexes named
 * <table>_<field>_unique, which the API maps to 409 with the field.
 */
type Table = Knex.CreateTableBuilder;

function common(knex: Knex, t: Table, p: string): void {
  t.uuid(`${p}_id`).primary().defaultTo(knex.raw('gen_random_uuid()'));
  t.uuid(`${p}_accountid`).notNullable().references('a_id').inTable('accounts').onDelete('CASCADE');
  t.timestamp(`${p}_created_at`, { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.timestamp(`${p}_updated_at`, { useTz: true }).notNullable().defaultTo(knex.fn.now());
}

const prefixIndex = (table: string, column: string) => `create index ${table}_${column}_prefix on ${table} (lower(${column}) text_pattern_ops)`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('account_users', (t) => {
    t.timestamp('au_updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('forms', (t) => {
    common(knex, t, 'f');
    t.text('f_title').notNullable();
    t.text('f_name').notNullable();
    t.unique(['f_accountid', 'f_name'], { indexName: 'forms_f_name_unique' });
  });
  await knex.raw(prefixIndex('forms', 'f_title'));

  await knex.schema.createTable('lists', (t) => {
    common(knex, t, 'l');
    t.text('l_title').notNullable();
    t.text('l_name').notNullable();
    t.unique(['l_accountid', 'l_name'], { indexName: 'lists_l_name_unique' });
  });
  await knex.raw(prefixIndex('lists', 'l_title'));

  await knex.schema.createTable('list_items', (t) => {
    common(knex, t, 'li');
    t.uuid('li_listid').notNullable().references('l_id').inTable('lists').onDelete('CASCADE');
    // Deleting an item deletes its subtree.
    t.uuid('li_parentid').references('li_id').inTable('list_items').onDelete('CASCADE');
    t.text('li_title').notNullable();
    t.text('li_value').notNullable();
    t.integer('li_order').notNullable().defaultTo(0);
    t.unique(['li_listid', 'li_value'], { indexName: 'list_items_li_value_unique' });
    t.index(['li_listid', 'li_parentid', 'li_order'], 'list_items_parent_order');
    t.index(['li_parentid'], 'list_items_parent');
  });

  await knex.schema.createTable('events', (t) => {
    common(knex, t, 'ev');
    t.text('ev_title').notNullable();
    t.text('ev_name').notNullable();
    t.boolean('ev_is_enabled').notNullable().defaultTo(true);
    // YYYY-MM-DD as text: both drivers hand it back as written (a date column comes back as a local-time Date).
    t.text('ev_start_date');
    t.text('ev_end_date');
    t.uuid('ev_ownerid').references('u_id').inTable('users').onDelete('SET NULL');
    t.text('ev_access_type').notNullable();
    t.text('ev_access_code');
    t.text('ev_external_id');
    t.uuid('ev_registration_formid').references('f_id').inTable('forms').onDelete('SET NULL');
    t.text('ev_consent_text');
    t.unique(['ev_accountid', 'ev_name'], { indexName: 'events_ev_name_unique' });
    t.index(['ev_accountid', 'ev_start_date'], 'events_account_start');
    t.check(`ev_access_type in ('open','closed','restricted')`, [], 'events_access_type_check');
    t.check(`ev_start_date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' and ev_end_date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`, [], 'events_dates_check');
  });
  await knex.raw(prefixIndex('events', 'ev_title'));

  await knex.schema.createTable('event_forms', (t) => {
    common(knex, t, 'ef');
    t.uuid('ef_eventid').notNullable().references('ev_id').inTable('events').onDelete('CASCADE');
    t.uuid('ef_formid').notNullable().references('f_id').inTable('forms').onDelete('CASCADE');
    t.integer('ef_order').notNullable().defaultTo(0);
    t.unique(['ef_eventid', 'ef_formid'], { indexName: 'event_forms_ef_formid_unique' });
    t.index(['ef_formid'], 'event_forms_form');
  });

  await knex.schema.createTable('form_elements', (t) => {
    common(knex, t, 'fe');
    t.uuid('fe_formid').notNullable().references('f_id').inTable('forms').onDelete('CASCADE');
    t.text('fe_title').notNullable();
    t.text('fe_name').notNullable();
    t.text('fe_external_name');
    t.text('fe_type').notNullable();
    // A list in use by an element cannot be deleted (409 reference_conflict).
    t.uuid('fe_listid').references('l_id').inTable('lists').onDelete('RESTRICT');
    t.integer('fe_order').notNullable().defaultTo(0);
    t.boolean('fe_is_required').notNullable().defaultTo(false);
    t.jsonb('fe_options');
    t.unique(['fe_formid', 'fe_name'], { indexName: 'form_elements_fe_name_unique' });
    t.index(['fe_formid', 'fe_order'], 'form_elements_form_order');
    t.index(['fe_listid'], 'form_elements_list');
  });

  await knex.schema.createTable('form_styles', (t) => {
    common(knex, t, 'st');
    t.text('st_title').notNullable();
    t.uuid('st_eventid').references('ev_id').inTable('events').onDelete('SET NULL');
    // Asset ids: the assets table comes with the carousels issue, which adds the foreign keys.
    for (const c of ['st_form_logo_assetid', 'st_thanks_logo_assetid', 'st_font_1', 'st_font_2', 'st_font_3']) t.uuid(c);
    for (const c of [
      'st_form_title',
      'st_form_description',
      'st_thanks_title',
      'st_thanks_description',
      'st_external_url_title',
      'st_external_url',
      'st_custom_css',
      'st_mail_subject',
      'st_mail_html',
    ])
      t.text(c);
    t.index(['st_eventid'], 'form_styles_event');
  });

  await knex.schema.createTable('integrations', (t) => {
    common(knex, t, 'in');
    t.text('in_title').notNullable();
    t.text('in_name').notNullable();
    t.text('in_type').notNullable().defaultTo('badge_scan');
    t.text('in_api_url').notNullable();
    t.text('in_key');
    t.text('in_secret');
    t.unique(['in_accountid', 'in_name'], { indexName: 'integrations_in_name_unique' });
  });

  await knex.schema.createTable('event_integrations', (t) => {
    common(knex, t, 'ei');
    t.uuid('ei_eventid').notNullable().references('ev_id').inTable('events').onDelete('CASCADE');
    t.uuid('ei_integrationid').notNullable().references('in_id').inTable('integrations').onDelete('CASCADE');
    t.text('ei_external_event_id');
    t.unique(['ei_eventid', 'ei_integrationid'], { indexName: 'event_integrations_ei_integrationid_unique' });
    t.index(['ei_integrationid'], 'event_integrations_integration');
  });

  await knex.schema.createTable('mail_templates', (t) => {
    common(knex, t, 'mt');
    t.text('mt_name').notNullable();
    t.text('mt_subject').notNullable();
    for (const c of ['mt_from_name', 'mt_from_email', 'mt_api_url', 'mt_asset_url', 'mt_html', 'mt_text']) t.text(c);
    t.unique(['mt_accountid', 'mt_name'], { indexName: 'mail_templates_mt_name_unique' });
  });

  await knex.schema.createTable('invites', (t) => {
    common(knex, t, 'iv');
    t.text('iv_email').notNullable();
    t.text('iv_first_name');
    t.text('iv_last_name');
    t.text('iv_role').notNullable().defaultTo('member');
    t.text('iv_status').notNullable().defaultTo('pending');
    t.timestamp('iv_expires_at', { useTz: true }).notNullable();
    t.uuid('iv_invited_by').references('u_id').inTable('users').onDelete('SET NULL');
    t.text('iv_token_hash').notNullable().unique('invites_token_hash_unique');
    t.check(`iv_status in ('pending','accepted','revoked','expired')`, [], 'invites_status_check');
  });
  // One pending invite per e-mail and account.
  await knex.raw(`create unique index invites_pending_email_unique on invites (iv_accountid, lower(iv_email)) where iv_status = 'pending'`);
  await knex.raw(prefixIndex('invites', 'iv_email'));

  await knex.schema.createTable('account_settings', (t) => {
    common(knex, t, 'ls');
    t.text('ls_instance_name');
    t.text('ls_customer_api_url');
    t.text('ls_customer_api_key');
    t.text('ls_customer_site_url');
    t.integer('ls_app_width');
    t.integer('ls_app_height');
    t.text('ls_local_server_url');
    t.boolean('ls_debug_mode').notNullable().defaultTo(false);
    t.unique(['ls_accountid'], { indexName: 'account_settings_account_unique' });
  });

  // The five new permission groups for databases seeded before them (ops' later edits to other groups are kept).
  const groups = ['account_mail_templates', 'account_assets', 'account_carousels', 'account_statistics', 'account_settings'];
  const seeded = await knex('permission_grants').count({ n: '*' }).first();
  if (Number(seeded?.n ?? 0) > 0) {
    const rows = grantRows().filter((r) => groups.includes(r.pg_group));
    await knex('permission_grants').insert(rows).onConflict(['pg_role', 'pg_group']).ignore();
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex('permission_grants').whereIn('pg_group', ['account_mail_templates', 'account_assets', 'account_carousels', 'account_statistics', 'account_settings']).del();
  for (const table of [
    'account_settings',
    'invites',
    'mail_templates',
    'event_integrations',
    'integrations',
    'form_styles',
    'form_elements',
    'event_forms',
    'events',
    'list_items',
    'lists',
    'forms',
  ])
    await knex.schema.dropTable(table);
  await knex.schema.alterTable('account_users', (t) => t.dropColumn('au_updated_at'));
}
