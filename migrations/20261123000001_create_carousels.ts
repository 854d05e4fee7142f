import type { Knex } from 'knex';

/**
 * Assets, collections and carousels (account-console.md section 3: assets, collections, carousels, variants,
 * slides, layers, carousel-groups, codes; the player's events feed /stats/plays):
 *
 * - assets: an account's media file. The bytes live at <as_path>/<as_fileid> (assets/<accountId>/<yyyy>/<mm>);
 *   replacing the file gives a new as_fileid and as_version + 1, so a URL never serves two different contents and
 *   the player's cache can keep it forever. A thumbnail (image: scaled down, video: a poster frame), made by the
 *   browser before upload, sits beside it.
 * - storage_uploads gains the account an asset upload was signed for (media-library uploads keep it null).
 * - collections and their ordered assets; the public link's token is random and unique.
 * - carousels → variants (screen layouts) and slides (ordered); layers are a slide's content in one variant.
 * - carousel groups with their ordered carousels and a standby carousel; codes (unique platform-wide) open a group.
 * - play_events: what players report, deduplicated by the player's own event id.
 * - form_styles' asset columns get the foreign keys they waited for.
 */
type Table = Knex.CreateTableBuilder;

function common(knex: Knex, t: Table, p: string): void {
  t.uuid(`${p}_id`).primary().defaultTo(knex.raw('gen_random_uuid()'));
  t.uuid(`${p}_accountid`).notNullable().references('a_id').inTable('accounts').onDelete('CASCADE');
  t.timestamp(`${p}_created_at`, { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.timestamp(`${p}_updated_at`, { useTz: true }).notNullable().defaultTo(knex.fn.now());
}

const STYLE_ASSETS = ['st_form_logo_assetid', 'st_thanks_logo_assetid', 'st_font_1', 'st_font_2', 'st_font_3'];
const BUTTONS = ['next', 'prev', 'home'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('storage_uploads', (t) => {
    // No foreign key, like su_folderid: the row must outlive a deleted account so the sweep removes its bytes.
    t.uuid('su_accountid');
  });

  await knex.schema.createTable('assets', (t) => {
    common(knex, t, 'as');
    t.text('as_title').notNullable();
    t.text('as_name').notNullable();
    t.uuid('as_fileid').notNullable().unique('assets_as_fileid_unique');
    t.text('as_path').notNullable();
    t.text('as_filename').notNullable();
    t.text('as_type').notNullable();
    t.bigInteger('as_size').notNullable();
    t.text('as_sha256').notNullable();
    t.integer('as_version').notNullable().defaultTo(1);
    t.uuid('as_thumb_fileid').unique('assets_as_thumb_fileid_unique');
    t.text('as_thumb_type');
    t.uuid('as_created_by').references('u_id').inTable('users').onDelete('SET NULL');
    t.unique(['as_accountid', 'as_name'], { indexName: 'assets_as_name_unique' });
  });
  await knex.raw('create index assets_title_prefix on assets (as_accountid, lower(as_title) text_pattern_ops)');

  await knex.schema.alterTable('form_styles', (t) => {
    for (const c of STYLE_ASSETS) t.foreign(c, `form_styles_${c}_fk`).references('as_id').inTable('assets').onDelete('SET NULL');
  });

  await knex.schema.createTable('collections', (t) => {
    common(knex, t, 'co');
    t.text('co_title').notNullable();
    t.text('co_name').notNullable();
    t.text('co_token').notNullable().unique('collections_co_token_unique');
    t.unique(['co_accountid', 'co_name'], { indexName: 'collections_co_name_unique' });
  });

  await knex.schema.createTable('collection_assets', (t) => {
    t.uuid('ca_collectionid').notNullable().references('co_id').inTable('collections').onDelete('CASCADE');
    t.uuid('ca_assetid').notNullable().references('as_id').inTable('assets').onDelete('CASCADE');
    t.integer('ca_order').notNullable();
    t.primary(['ca_collectionid', 'ca_assetid']);
    t.index(['ca_assetid'], 'collection_assets_asset');
  });

  await knex.schema.createTable('carousels', (t) => {
    common(knex, t, 'c');
    t.text('c_title').notNullable();
    t.text('c_name').notNullable();
    t.unique(['c_accountid', 'c_name'], { indexName: 'carousels_c_name_unique' });
  });

  await knex.schema.createTable('variants', (t) => {
    common(knex, t, 'v');
    t.uuid('v_carouselid').notNullable().references('c_id').inTable('carousels').onDelete('CASCADE');
    t.text('v_title').notNullable();
    t.text('v_name').notNullable();
    t.integer('v_x').notNullable().defaultTo(0);
    t.integer('v_y').notNullable().defaultTo(0);
    t.integer('v_width').notNullable();
    t.integer('v_height').notNullable();
    t.text('v_bgcolor');
    t.boolean('v_autoplay').notNullable().defaultTo(true);
    t.integer('v_default_duration_ms').notNullable().defaultTo(8000);
    t.boolean('v_infinite').notNullable().defaultTo(true);
    t.integer('v_screensaver_timeout_s');
    t.boolean('v_navigation_enabled').notNullable().defaultTo(false);
    for (const b of BUTTONS) {
      t.uuid(`v_${b}_assetid`).references('as_id').inTable('assets').onDelete('SET NULL');
      t.integer(`v_${b}_x`);
      t.integer(`v_${b}_y`);
    }
    t.unique(['v_carouselid', 'v_name'], { indexName: 'variants_v_name_unique' });
  });

  await knex.schema.createTable('slides', (t) => {
    common(knex, t, 'sl');
    t.uuid('sl_carouselid').notNullable().references('c_id').inTable('carousels').onDelete('CASCADE');
    t.text('sl_title').notNullable();
    t.text('sl_subtitle');
    t.text('sl_name');
    t.integer('sl_order').notNullable().defaultTo(0);
    t.integer('sl_duration_ms');
    t.text('sl_bgcolor');
    t.index(['sl_carouselid', 'sl_order'], 'slides_carousel_order');
  });

  await knex.schema.createTable('layers', (t) => {
    common(knex, t, 'ly');
    t.uuid('ly_slideid').notNullable().references('sl_id').inTable('slides').onDelete('CASCADE');
    t.uuid('ly_variantid').notNullable().references('v_id').inTable('variants').onDelete('CASCADE');
    t.text('ly_title');
    t.text('ly_type').notNullable();
    t.uuid('ly_assetid').references('as_id').inTable('assets').onDelete('SET NULL');
    t.integer('ly_order').notNullable().defaultTo(0);
    t.integer('ly_x').notNullable().defaultTo(0);
    t.integer('ly_y').notNullable().defaultTo(0);
    t.integer('ly_width');
    t.integer('ly_height');
    t.text('ly_iframe_url');
    t.uuid('ly_collectionid').references('co_id').inTable('collections').onDelete('SET NULL');
    t.uuid('ly_download_formid').references('f_id').inTable('forms').onDelete('SET NULL');
    t.uuid('ly_form_styleid').references('st_id').inTable('form_styles').onDelete('SET NULL');
    t.text('ly_qr_fg');
    t.text('ly_qr_bg');
    t.uuid('ly_hotspot_carouselid').references('c_id').inTable('carousels').onDelete('SET NULL');
    t.boolean('ly_muted').notNullable().defaultTo(true);
    t.boolean('ly_loop').notNullable().defaultTo(false);
    t.boolean('ly_autoplay').notNullable().defaultTo(true);
    t.boolean('ly_pausable').notNullable().defaultTo(false);
    t.check(`ly_type in ('image','video','iframe','hotspot','collectionqr')`, [], 'layers_type_check');
    t.index(['ly_slideid', 'ly_variantid', 'ly_order'], 'layers_slide_variant_order');
    t.index(['ly_variantid'], 'layers_variant');
    t.index(['ly_assetid'], 'layers_asset');
  });

  await knex.schema.createTable('carousel_groups', (t) => {
    common(knex, t, 'cg');
    t.text('cg_title').notNullable();
    t.uuid('cg_standby_carouselid').references('c_id').inTable('carousels').onDelete('SET NULL');
  });

  await knex.schema.createTable('carousel_group_items', (t) => {
    t.uuid('gi_groupid').notNullable().references('cg_id').inTable('carousel_groups').onDelete('CASCADE');
    t.uuid('gi_carouselid').notNullable().references('c_id').inTable('carousels').onDelete('CASCADE');
    t.integer('gi_order').notNullable();
    t.primary(['gi_groupid', 'gi_carouselid']);
    t.index(['gi_carouselid'], 'carousel_group_items_carousel');
  });

  await knex.schema.createTable('carousel_codes', (t) => {
    common(knex, t, 'cc');
    t.uuid('cc_groupid').notNullable().references('cg_id').inTable('carousel_groups').onDelete('CASCADE');
    t.text('cc_code').notNullable().unique('carousel_codes_cc_code_unique');
    t.text('cc_title');
    t.index(['cc_groupid'], 'carousel_codes_group');
  });

  await knex.schema.createTable('play_events', (t) => {
    t.bigIncrements('pe_id');
    t.uuid('pe_accountid').notNullable().references('a_id').inTable('accounts').onDelete('CASCADE');
    t.uuid('pe_codeid').references('cc_id').inTable('carousel_codes').onDelete('SET NULL');
    // Ids, not foreign keys: a statistic outlives the carousel or slide it counted.
    t.uuid('pe_carouselid');
    t.uuid('pe_slideid');
    t.text('pe_kind').notNullable();
    t.timestamp('pe_at', { useTz: true }).notNullable();
    // The player's own id of the event: a batch sent twice counts once.
    t.text('pe_client_id').notNullable();
    t.timestamp('pe_received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(`pe_kind in ('play','hotspot','qr')`, [], 'play_events_kind_check');
    t.index(['pe_accountid', 'pe_at'], 'play_events_account_at');
  });
  await knex.raw('create unique index play_events_client_unique on play_events (pe_codeid, pe_client_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('play_events');
  await knex.schema.dropTable('carousel_codes');
  await knex.schema.dropTable('carousel_group_items');
  await knex.schema.dropTable('carousel_groups');
  await knex.schema.dropTable('layers');
  await knex.schema.dropTable('slides');
  await knex.schema.dropTable('variants');
  await knex.schema.dropTable('carousels');
  await knex.schema.dropTable('collection_assets');
  await knex.schema.dropTable('collections');
  await knex.schema.alterTable('form_styles', (t) => {
    for (const c of STYLE_ASSETS) t.dropForeign(c, `form_styles_${c}_fk`);
  });
  await knex.schema.dropTable('assets');
  await knex.schema.alterTable('storage_uploads', (t) => {
    t.dropColumn('su_accountid');
  });
}
