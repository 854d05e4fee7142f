import type { Knex } from 'knex';

/**
 * Rich text (platform-and-flows.md section 1): the event's description (new), and the form style's two descriptions,
 * plain text until now and HTML from here on (field kind richtext).
 *
 * A stored plain description was shown as text, line breaks kept; as HTML it must look the same, so each is escaped
 * (& < > become entities: a "<b>" someone typed stays those four characters) and wrapped: a blank line parts
 * paragraphs (<p>), a single line break becomes <br>. One statement per column, on PGlite and PostgreSQL alike. The
 * down turns such HTML back into text (tags out, entities back, paragraphs and breaks as line breaks).
 */
const STYLE_DESCRIPTIONS = ['st_form_description', 'st_thanks_description'];

/** SQL: a plain text column as the HTML that shows it the same (null and blank values are left alone). */
function plainToHtml(column: string): string {
  const escaped = `replace(replace(replace(${column}, '&', '&amp;'), '<', '&lt;'), '>', '&gt;')`;
  const unified = `regexp_replace(btrim(${escaped}, E' \\t\\r\\n'), '\\r\\n|\\r', E'\\n', 'g')`;
  const paragraphs = `regexp_replace(${unified}, '\\n[ \\t]*\\n\\s*', '</p><p>', 'g')`;
  return `'<p>' || regexp_replace(${paragraphs}, '\\n', '<br>', 'g') || '</p>'`;
}

/** SQL: HTML of the allow-list as text (the down's approximation of the value before). */
function htmlToPlain(column: string): string {
  const breaks = `regexp_replace(regexp_replace(${column}, '</(p|h2|h3|blockquote|li)>\\s*', E'\\n\\n', 'gi'), '<br[^>]*>', E'\\n', 'gi')`;
  const stripped = `regexp_replace(${breaks}, '<[^>]*>', '', 'g')`;
  const decoded = `replace(replace(replace(replace(replace(${stripped}, '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&nbsp;', ' '), '&amp;', '&')`;
  return `btrim(${decoded}, E' \\n')`;
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('events', (t) => {
    t.text('ev_description');
  });
  for (const column of STYLE_DESCRIPTIONS) {
    await knex.raw(`update form_styles set ${column} = ${plainToHtml(column)} where ${column} is not null and btrim(${column}, E' \\t\\r\\n') <> ''`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const column of STYLE_DESCRIPTIONS) {
    await knex.raw(`update form_styles set ${column} = ${htmlToPlain(column)} where ${column} is not null`);
  }
  await knex.schema.alterTable('events', (t) => {
    t.dropColumn('ev_description');
  });
}
