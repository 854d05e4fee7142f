import type { Knex } from 'knex';
import { dropHistoryTrigger, historyFunction, historyRowTrigger, historyTrigger } from '../api/db/migrationHelpers.js';

/**
 * The history's triggers per statement instead of per row (issue 16, performance: history at most 15% on a single and
 * on a bulk update): every table's `ls_history()` row trigger becomes historyTrigger's three statement triggers with
 * transition tables (`ls_history_set()`), with the same arguments, read back from the catalog so that a history added
 * by any migration is moved too. The entries written are the same (api/db/migrationHelpers.ts historyFunction).
 */
interface Found {
  table: string;
  args: string[];
}

/** The history triggers that run `fn`, with their arguments (pg_get_triggerdef: `…ls_history('a', 'b', '{}', '{}')`). */
async function triggersOf(knex: Knex, fn: string, name: (table: string) => string): Promise<Found[]> {
  const rows = (
    await knex.raw(
      `select c.relname as "table", t.tgname as name, pg_get_triggerdef(t.oid) as def
         from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
        where p.proname = ? and not t.tgisinternal order by c.relname`,
      [fn],
    )
  ).rows as { table: string; name: string; def: string }[];
  return rows
    .filter((r) => r.name === name(r.table))
    .map((r) => ({ table: r.table, args: [...r.def.slice(r.def.lastIndexOf(`${fn}(`)).matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1].replace(/''/g, "'")) }));
}

const listOf = (a: string | undefined) =>
  (a ?? '{}')
    .replace(/^\{|\}$/g, '')
    .split(',')
    .filter(Boolean);

export async function up(knex: Knex): Promise<void> {
  await historyFunction(knex);
  for (const { table, args } of await triggersOf(knex, 'ls_history', (t) => `${t}_history`)) {
    await knex.raw('drop trigger ?? on ??', [`${table}_history`, table]);
    await historyTrigger(knex, table, args[0], args[1] || null, listOf(args[2]), listOf(args[3]));
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const { table, args } of await triggersOf(knex, 'ls_history_set', (t) => `${t}_history`)) {
    await dropHistoryTrigger(knex, table);
    await historyRowTrigger(knex, table, args[0], args[1] || null, listOf(args[2]), listOf(args[3]));
  }
  await knex.raw('drop function ls_history_set()');
}
