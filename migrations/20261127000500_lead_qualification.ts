import type { Knex } from 'knex';

/**
 * Lead qualification (platform-and-flows.md section 4): a rating 0–5 (null: not rated), tags (identifiers, at most 20,
 * each once: the API checks the form, the database the count), notes, and a voice memo — a lead file like the card
 * photos (set null when the file goes; a lead's purge takes it with the photos).
 *
 * - ld_tags is text[] NOT NULL default '{}' with a GIN index: the list's filter.ld_tags ("any of", `ld_tags && array`)
 *   is served by it.
 * - (account, rating, captured) serves the rating filter and sort of the list, like the other list indexes on live
 *   leads (20261126000005).
 * - The history trigger records whole rows (to_jsonb), so the new columns show in a lead's history as they are.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('leads', (t) => {
    t.smallint('ld_rating');
    t.specificType('ld_tags', 'text[]').notNullable().defaultTo(knex.raw(`'{}'::text[]`));
    t.text('ld_notes');
    t.uuid('ld_memo_fileid').references('lf_id').inTable('lead_files').onDelete('SET NULL');
    t.check('ld_rating between 0 and 5', [], 'leads_rating_check');
    t.check('cardinality(ld_tags) <= 20', [], 'leads_tags_check');
    t.index(['ld_memo_fileid'], 'leads_memo_file');
  });
  await knex.raw('create index leads_tags on leads using gin (ld_tags) where ld_deleted_at is null');
  await knex.raw('create index leads_account_rating_captured on leads (ld_accountid, ld_rating, ld_captured_at) where ld_deleted_at is null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index leads_account_rating_captured');
  await knex.raw('drop index leads_tags');
  await knex.schema.alterTable('leads', (t) => {
    t.dropIndex(['ld_memo_fileid'], 'leads_memo_file');
    t.dropChecks(['leads_rating_check', 'leads_tags_check']);
    t.dropColumns('ld_rating', 'ld_tags', 'ld_notes', 'ld_memo_fileid');
  });
}
