import type { Knex } from 'knex';

/**
 * The account-table conventions of the migrations (account-console.md sections 1-3), as the earlier migrations wrote
 * them by hand: <p>_id, <p>_accountid, the record timestamps, enum checks, unique names that answer 409, prefix-search
 * indexes. test/api/migrationHelpers.test.ts holds them to the shape of the tables those migrations made, and
 * test/api/schemaDrift.test.ts holds every table to its resource declaration.
 *
 * Options of an enum are written into the migration as they are when it is written (a copy, not the resources
 * constant): a shipped migration must make the same table forever, and a later option needs a migration of its own.
 */

export interface AccountTableOptions {
  /**
   * The plain index on <p>_accountid (<table>_account) that serves every account-scoped query and the cascade from
   * accounts; false when another index already starts with the account id (a unique name in the account).
   */
  accountIndex?: boolean;
}

/**
 * An account's table: `<p>_id` uuid primary key (gen_random_uuid()), `<p>_accountid` (cascade on account delete, and
 * its index unless `accountIndex: false`), `<p>_created_at` and `<p>_updated_at` (timestamptz, now()); `columns` adds
 * the rest, including the helpers below that work on the table builder.
 */
export async function createAccountTable(
  knex: Knex,
  table: string,
  prefix: string,
  columns: (t: Knex.CreateTableBuilder) => void,
  options: AccountTableOptions = {},
): Promise<void> {
  await knex.schema.createTable(table, (t) => {
    t.uuid(`${prefix}_id`).primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid(`${prefix}_accountid`).notNullable().references('a_id').inTable('accounts').onDelete('CASCADE');
    t.timestamp(`${prefix}_created_at`, { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp(`${prefix}_updated_at`, { useTz: true }).notNullable().defaultTo(knex.fn.now());
    columns(t);
    if (options.accountIndex !== false) accountIndex(t, table, prefix);
  });
}

/** A platform table (no account): `<p>_id` uuid primary key and the record timestamps, then `columns`. */
export async function createPlatformTable(knex: Knex, table: string, prefix: string, columns: (t: Knex.CreateTableBuilder) => void): Promise<void> {
  await knex.schema.createTable(table, (t) => {
    t.uuid(`${prefix}_id`).primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.timestamp(`${prefix}_created_at`, { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp(`${prefix}_updated_at`, { useTz: true }).notNullable().defaultTo(knex.fn.now());
    columns(t);
  });
}

/** The index on <p>_accountid, named <table>_account (for a table made before the helper, in an alterTable). */
export function accountIndex(t: Knex.TableBuilder, table: string, prefix: string): void {
  t.index([`${prefix}_accountid`], `${table}_account`);
}

/** The name of an enum's check: <table>_<column without its prefix>_check (events_access_type_check). */
export const enumCheckName = (table: string, column: string) => `${table}_${column.replace(/^[a-z]+_/, '')}_check`;

/** A check constraint that keeps a text column to the options of its enum (null stays allowed: NOT NULL says that). */
export function enumCheck(t: Knex.TableBuilder, table: string, column: string, options: readonly string[]): void {
  if (!options.length) throw new Error(`enumCheck ${table}.${column}: no options`);
  const list = options.map((o) => `'${o.replace(/'/g, "''")}'`).join(',');
  t.check(`${column} in (${list})`, [], enumCheckName(table, column));
}

/**
 * The unique index the API maps to 409 with the field (api/crud/rules.ts uniqueConflict, the declaration's
 * `unique`): named <table>_<field>_unique, over the scope the name is unique in (the account, or a parent) then the
 * field.
 */
export const uniqueIndexName = (table: string, field: string) => `${table}_${field}_unique`;

export function uniqueField(t: Knex.TableBuilder, table: string, field: string, scope: readonly string[]): void {
  t.unique([...scope, field], { indexName: uniqueIndexName(table, field) });
}

/**
 * The trash of a table whose resource declares `trash: true` (platform-and-flows.md section 1): `<p>_deleted_at`
 * (null while the record is live) and <table>_trash, the index of an account's trashed rows (GET …/trash, the purge
 * after TRASH_DAYS). A unique name of such a table is uniqueLiveField's.
 */
export async function trashColumn(knex: Knex, table: string, prefix: string): Promise<void> {
  await knex.schema.alterTable(table, (t) => {
    t.timestamp(`${prefix}_deleted_at`, { useTz: true });
  });
  await knex.raw(`create index ?? on ?? (??, ??) where ?? is not null`, [`${table}_trash`, table, `${prefix}_accountid`, `${prefix}_deleted_at`, `${prefix}_deleted_at`]);
}

/** Undoes trashColumn. */
export async function dropTrashColumn(knex: Knex, table: string, prefix: string): Promise<void> {
  await knex.raw('drop index if exists ??', [`${table}_trash`]);
  await knex.schema.alterTable(table, (t) => {
    t.dropColumn(`${prefix}_deleted_at`);
  });
}

/**
 * uniqueField of a trash table: the unique index holds live rows only (`where <p>_deleted_at is null`), so a record in
 * the trash gives its name up (a new record may take it; restoring the old one then answers 409 name_taken).
 */
export async function uniqueLiveField(knex: Knex, table: string, prefix: string, field: string, scope: readonly string[]): Promise<void> {
  const columns = [...scope, field];
  await knex.raw(`create unique index ?? on ?? (${columns.map(() => '??').join(', ')}) where ?? is null`, [
    uniqueIndexName(table, field),
    table,
    ...columns,
    `${prefix}_deleted_at`,
  ]);
}

/**
 * The index that serves a list's filter.q on a search column: lower(column) text_pattern_ops (a LIKE 'prefix%' under
 * any collation), after the account id when `scope` names it; <table>_<column>_prefix.
 */
export async function prefixSearchIndex(knex: Knex, table: string, column: string, scope?: string): Promise<void> {
  await knex.raw(`create index ?? on ?? (${scope ? '??, ' : ''}lower(??) text_pattern_ops)`, [`${table}_${column}_prefix`, table, ...(scope ? [scope] : []), column]);
}

/**
 * Statement triggers `<table>_<name>` on `tables` that NOTIFY `channel` at commit, through the function `<fn>`: how
 * the other API processes hear that what they keep from those tables is stale (api/db/processCache.ts). `columns`
 * narrows a table's trigger to the UPDATEs that set one of them (nothing else of that table notifies).
 */
export async function notifyOnWrite(
  knex: Knex,
  fn: string,
  channel: string,
  tables: readonly string[],
  name: string,
  columns: Record<string, readonly string[]> = {},
): Promise<void> {
  if (!/^[a-z_]+$/.test(channel)) throw new Error(`notifyOnWrite: ${channel} is not a channel name`);
  await knex.raw(`create function ?? () returns trigger language plpgsql as $$ begin perform pg_notify('${channel}', ''); return null; end $$`, [fn]);
  for (const table of tables) {
    const only = columns[table];
    const on = only ? `update of ${only.map(() => '??').join(', ')}` : 'insert or update or delete or truncate';
    await knex.raw(`create trigger ?? after ${on} on ?? for each statement execute function ?? ()`, [`${table}_${name}`, ...(only ?? []), table, fn]);
  }
}

/** Undoes notifyOnWrite. */
export async function dropNotifyOnWrite(knex: Knex, fn: string, tables: readonly string[], name: string): Promise<void> {
  for (const table of tables) await knex.raw('drop trigger if exists ?? on ??', [`${table}_${name}`, table]);
  await knex.raw('drop function if exists ?? ()', [fn]);
}

/** Undoes prefixSearchIndex. */
export async function dropPrefixSearchIndex(knex: Knex, table: string, column: string): Promise<void> {
  await knex.raw('drop index if exists ??', [`${table}_${column}_prefix`]);
}

/** The update's entries as written before 20261128001900: one per changed row. */
const UPDATE_ENTRIES_PER_ROW = `
    execute format($q$
    insert into history (h_table, h_recordid, h_accountid, h_action, h_changes, h_userid, h_user_label)
    select $1, x.id, x.account, x.action, x.changes, $2, $3
      from (select n.%1$I::uuid as id, %2$s as account, %3$s as action, %4$s as changes
              from old_rows o join new_rows n on n.%1$I = o.%1$I offset 0) x
     where x.changes <> '{}'::jsonb$q$, pk, case when account_key is null then 'null::uuid' else format('n.%I::uuid', account_key) end, action_sql, changes_sql)
    using TG_TABLE_NAME::text, actor, actor_label;`;

/**
 * The update's entries since 20261128001900: one per account, action and set of changes; a record alone keeps its id in
 * h_recordid, records that changed alike share one entry listing them in h_recordids (a bulk change of 10,000 leads' validity
 * writes two entries).
 */
const UPDATE_ENTRIES_GROUPED = `
    execute format($q$
    insert into history (h_table, h_recordid, h_recordids, h_accountid, h_action, h_changes, h_userid, h_user_label)
    select $1, case when cardinality(g.ids) = 1 then g.ids[1] end, case when cardinality(g.ids) > 1 then g.ids end, g.account, g.action, g.changes, $2, $3
      from (select x.account, x.action, x.changes, array_agg(x.id) as ids
              from (select n.%1$I::uuid as id, %2$s as account, %3$s as action, %4$s as changes
                      from old_rows o join new_rows n on n.%1$I = o.%1$I offset 0) x
             where x.changes <> '{}'::jsonb
             group by x.account, x.action, x.changes) g$q$, pk, case when account_key is null then 'null::uuid' else format('n.%I::uuid', account_key) end, action_sql, changes_sql)
    using TG_TABLE_NAME::text, actor, actor_label;`;

/**
 * The function the history's triggers run (historyTrigger): one statement-level AFTER trigger per operation with the
 * statement's transition tables, so a statement that changes 10,000 rows writes their 10,000 entries with one
 * `INSERT … SELECT` instead of 10,000 calls of a row trigger (each a PL/pgSQL call, three row-to-JSON conversions, a
 * query for the changes and an insert of its own). What it writes is what the row trigger of 20261126000001 wrote:
 *
 * - create: every column that is not null; delete: every column that was not null (nothing when the row's account is
 *   gone by the end of the statement: the account's cascade takes its history with it); update: the columns that
 *   changed, no entry when none did; setting `<p>_deleted_at` is a delete, clearing it a restore;
 * - never the primary key, the account key, `ignore`d columns, `*_created_at`, `*_updated_at`;
 * - a secret as "set" / "cleared" / null, never its value;
 * - the actor from the transaction's settings, read once per statement.
 *
 * JIT is off for it: the planner cannot know the transition tables' sizes, guesses costs high, and compiled the query
 * for half a second on each bulk statement (longer than the work).
 *
 * An update is two queries in dynamic SQL, each planned for the statement's own rows (a plan cached by PL/pgSQL from a
 * one-row statement, a nested loop, took minutes for 10,000 rows on PGlite): which columns changed in any row (old and
 * new rows joined on the key column, one `bool_or(o.c is distinct from n.c)` per column: plain comparisons of the
 * columns' own types), then the entries with those columns alone as JSON. Converting every row whole to JSON twice and
 * comparing it key by key, as the row trigger did, cost twice as much on a bulk update of one column.
 *
 * An update's rows that changed alike (the same account, action and changes: a bulk change, a trash of many) share one
 * entry since 20261128001900 (UPDATE_ENTRIES_GROUPED): its storage, an entry and its index entries per row, was most
 * of what the history cost a bulk update (bench/README.md). Inserts and deletes keep one entry per row (each row's
 * changes are its own values).
 *
 * Created (or replaced) by every historyTrigger call (historyFunction), so any migration that adds a history, before or
 * after 20261127000101 (which moved the row triggers to it), finds it.
 */
const historyFunctionSql = (grouped: boolean) => `
create or replace function ls_history_set() returns trigger language plpgsql set jit = off as $$
declare
  pk text := TG_ARGV[0];
  account_key text := nullif(TG_ARGV[1], '');
  secrets text[] := TG_ARGV[2]::text[];
  ignored text[] := TG_ARGV[3]::text[];
  actor uuid := nullif(current_setting('ls.actor_id', true), '')::uuid;
  actor_label text := coalesce(nullif(current_setting('ls.actor_label', true), ''), 'system');
  cols text[];
  cmps text[];
  changed text[];
  changes_sql text;
  action_sql text;
begin
  if TG_OP = 'UPDATE' then
    -- The columns that count (not the key, the account, ignored or bookkeeping ones), each compared as its own type
    -- (json and xml have no equality: as text).
    select array_agg(a.attname::text order by a.attnum),
           array_agg(format(case when a.atttypid in ('json'::regtype, 'xml'::regtype) then 'o.%1$I::text is distinct from n.%1$I::text'
                                 else 'o.%1$I is distinct from n.%1$I' end, a.attname) order by a.attnum)
      into cols, cmps
      from pg_attribute a
     where a.attrelid = TG_RELID and a.attnum > 0 and not a.attisdropped and a.attname <> pk and a.attname is distinct from account_key
       and not (a.attname = any(ignored)) and a.attname not like '%\\_created\\_at' and a.attname not like '%\\_updated\\_at';
    -- Dynamic SQL, planned for this statement's own number of rows (old and new rows joined on the key column: a
    -- plan cached by PL/pgSQL from a one-row statement would be a nested loop). First the columns that changed in any
    -- row, in one pass of plain comparisons ...
    execute format('select array[%s] from old_rows o join new_rows n on n.%I = o.%I',
                   (select string_agg(format('case when bool_or(%s) then %L end', cmps[i], cols[i]), ', ') from generate_subscripts(cols, 1) i), pk, pk)
      into changed;
    changed := array_remove(changed, null);
    if coalesce(cardinality(changed), 0) = 0 then
      return null;
    end if;
    -- ... then an entry per row with those columns alone: [before, after] as JSON, a secret as set/cleared.
    select string_agg(format(case when c = any(secrets)
             then 'case when %2$s then jsonb_build_object(%1$L, jsonb_build_array(case when o.%1$I is null or to_jsonb(o.%1$I) = ''""'' then ''null''::jsonb else ''"set"''::jsonb end, case when n.%1$I is null or to_jsonb(n.%1$I) = ''""'' then ''"cleared"''::jsonb else ''"set"''::jsonb end)) else ''{}''::jsonb end'
             else 'case when %2$s then jsonb_build_object(%1$L, jsonb_build_array(to_jsonb(o.%1$I), to_jsonb(n.%1$I))) else ''{}''::jsonb end' end,
             c, cmps[array_position(cols, c)]), ' || '),
           coalesce(min(format('case when %2$s then case when n.%1$I is null then ''restore'' else ''delete'' end else ''update'' end', c, cmps[array_position(cols, c)]))
                      filter (where c like '%\\_deleted\\_at'), '''update''')
      into changes_sql, action_sql
      from unnest(changed) c;
${grouped ? UPDATE_ENTRIES_GROUPED : UPDATE_ENTRIES_PER_ROW}
  elsif TG_OP = 'INSERT' then
    insert into history (h_table, h_recordid, h_accountid, h_action, h_changes, h_userid, h_user_label)
    select TG_TABLE_NAME, (r.a ->> pk)::uuid, (r.a ->> account_key)::uuid, 'create',
           coalesce((select jsonb_object_agg(e.key, jsonb_build_array('null'::jsonb,
                       case when not (e.key = any(secrets)) then e.value when e.value not in ('null'::jsonb, '""'::jsonb) then '"set"'::jsonb else 'null'::jsonb end))
                       from jsonb_each(r.a) e
                      where e.value <> 'null'::jsonb and e.key <> pk and e.key is distinct from account_key and not (e.key = any(ignored))
                        and e.key not like '%\\_created\\_at' and e.key not like '%\\_updated\\_at'), '{}'::jsonb),
           actor, actor_label
      from (select to_jsonb(n) as a from new_rows n) r;
  else
    insert into history (h_table, h_recordid, h_accountid, h_action, h_changes, h_userid, h_user_label)
    select TG_TABLE_NAME, (r.b ->> pk)::uuid, (r.b ->> account_key)::uuid, 'delete',
           coalesce((select jsonb_object_agg(e.key, jsonb_build_array(
                       case when not (e.key = any(secrets)) then e.value when e.value in ('null'::jsonb, '""'::jsonb) then 'null'::jsonb else '"set"'::jsonb end, 'null'::jsonb))
                       from jsonb_each(r.b) e
                      where e.value <> 'null'::jsonb and e.key <> pk and e.key is distinct from account_key and not (e.key = any(ignored))
                        and e.key not like '%\\_created\\_at' and e.key not like '%\\_updated\\_at'), '{}'::jsonb),
           actor, actor_label
      from (select to_jsonb(o) as b from old_rows o) r
     where account_key is null or exists (select 1 from accounts where a_id = (r.b ->> account_key)::uuid);
  end if;
  return null;
end
$$`;

/**
 * Creates (or replaces) ls_history_set() in the form the history table takes: entries grouped by change once the table
 * has h_recordids (20261128001900), one per row before it, so a migration that adds a history runs the same before and
 * after that one and the function never names a column the table lacks.
 */
export async function historyFunction(knex: Knex): Promise<void> {
  const grouped = (await knex.raw("select 1 from pg_attribute where attrelid = to_regclass('history') and attname = 'h_recordids' and not attisdropped")).rows.length > 0;
  await knex.raw(historyFunctionSql(grouped));
}

/** The three triggers of a table's history: one per operation (a trigger with transition tables serves one). */
const HISTORY_TRIGGERS = [
  ['history', 'update', 'referencing old table as old_rows new table as new_rows'],
  ['history_insert', 'insert', 'referencing new table as new_rows'],
  ['history_delete', 'delete', 'referencing old table as old_rows'],
] as const;

/**
 * The history of a table's records (platform-and-flows.md section 1, history): AFTER triggers that write one row of
 * `history` per inserted, updated and deleted row, in the same transaction as the change, whoever makes it (the generic
 * API, a bulk change, an import, the capture app, SQL by hand): a change without its entry cannot happen. `secrets` are
 * recorded only as "set"/"cleared"; `ignore` columns (bookkeeping) are left out of the changes. The actor comes from
 * the transaction's settings ls.actor_id / ls.actor_label (api/db/actor.ts), "system" when none was set. Set-wise, per
 * statement (historyFunction).
 */
export async function historyTrigger(
  knex: Knex,
  table: string,
  pk: string,
  accountKey: string | null,
  secrets: readonly string[] = [],
  ignore: readonly string[] = [],
): Promise<void> {
  const args = historyTriggerArgs(table, pk, accountKey, secrets, ignore);
  await historyFunction(knex);
  for (const [suffix, op, referencing] of HISTORY_TRIGGERS)
    await knex.raw(`create trigger ?? after ${op} on ?? ${referencing} for each statement execute function ls_history_set(${args})`, [`${table}_${suffix}`, table]);
}

/** The trigger's arguments as SQL literals (DDL takes no bind parameters): column names, checked. */
function historyTriggerArgs(table: string, pk: string, accountKey: string | null, secrets: readonly string[], ignore: readonly string[]): string {
  const names = [pk, ...(accountKey ? [accountKey] : []), ...secrets, ...ignore];
  for (const n of names) if (!/^[a-z][a-z0-9_]*$/.test(n)) throw new Error(`historyTrigger ${table}: ${n} is not a column name`);
  return [pk, accountKey ?? '', `{${secrets.join(',')}}`, `{${ignore.join(',')}}`].map((a) => `'${a}'`).join(', ');
}

/**
 * The row trigger of 20261126000001 (ls_history(), one call per row), for that migration's undoing in 20261127000101;
 * new histories use historyTrigger.
 */
export async function historyRowTrigger(
  knex: Knex,
  table: string,
  pk: string,
  accountKey: string | null,
  secrets: readonly string[] = [],
  ignore: readonly string[] = [],
): Promise<void> {
  const args = historyTriggerArgs(table, pk, accountKey, secrets, ignore);
  await knex.raw(`create trigger ?? after insert or update or delete on ?? for each row execute function ls_history(${args})`, [historyTriggerName(table), table]);
}

export const historyTriggerName = (table: string) => `${table}_history`;

export async function dropHistoryTrigger(knex: Knex, table: string): Promise<void> {
  for (const [suffix] of HISTORY_TRIGGERS) await knex.raw('drop trigger if exists ?? on ??', [`${table}_${suffix}`, table]);
}
