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

/** Undoes prefixSearchIndex. */
export async function dropPrefixSearchIndex(knex: Knex, table: string, column: string): Promise<void> {
  await knex.raw('drop index if exists ??', [`${table}_${column}_prefix`]);
}

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
 * An update's old and new rows are paired by a join on the primary key column in dynamic SQL, planned per statement: a
 * plan cached by PL/pgSQL for a one-row statement (a nested loop that converts every old row once per new row) took
 * minutes for 10,000 rows on PGlite; grouping both on the key instead spilled the rows' JSON to disk.
 *
 * Created (or replaced) by every historyTrigger call, so any migration that adds a history, before or after
 * 20261127000101 (which moved the row triggers to it), finds it.
 */
export const HISTORY_FUNCTION = `
create or replace function ls_history_set() returns trigger language plpgsql set jit = off as $$
declare
  pk text := TG_ARGV[0];
  account_key text := nullif(TG_ARGV[1], '');
  secrets text[] := TG_ARGV[2]::text[];
  ignored text[] := TG_ARGV[3]::text[];
  actor uuid := nullif(current_setting('ls.actor_id', true), '')::uuid;
  actor_label text := coalesce(nullif(current_setting('ls.actor_label', true), ''), 'system');
begin
  if TG_OP = 'UPDATE' then
    -- Dynamic SQL: planned for this statement's own number of rows (a hash join of old and new rows on the primary key
    -- column), never a plan cached from a one-row statement; the arguments are bound, the key is quoted by format.
    -- offset 0 keeps each row's JSON computed once (flattened, the planner converts the row again for every column).
    execute format($q$
    insert into history (h_table, h_recordid, h_accountid, h_action, h_changes, h_userid, h_user_label)
    select $1, (r.a ->> $2)::uuid, (r.a ->> $3)::uuid,
           case when c.trashed then 'delete' when c.restored then 'restore' else 'update' end, c.changes, $6, $7
      from (select to_jsonb(o) as b, to_jsonb(n) as a from old_rows o join new_rows n on n.%1$I = o.%1$I offset 0) r
     cross join lateral (
       select jsonb_object_agg(e.key, jsonb_build_array(
                case when not (e.key = any($4)) then e.b when e.b in ('null'::jsonb, '""'::jsonb) then 'null'::jsonb else '"set"'::jsonb end,
                case when not (e.key = any($4)) then e.value when e.value not in ('null'::jsonb, '""'::jsonb) then '"set"'::jsonb else '"cleared"'::jsonb end)) as changes,
              bool_or(e.key like '%%\\_deleted\\_at' and e.value = 'null'::jsonb) as restored,
              bool_or(e.key like '%%\\_deleted\\_at' and e.value <> 'null'::jsonb) as trashed
         from (select x.key, x.value, coalesce(r.b -> x.key, 'null'::jsonb) as b from jsonb_each(r.a) x) e
        where e.value <> e.b and e.key <> $2 and e.key is distinct from $3 and not (e.key = any($5))
          and e.key not like '%%\\_created\\_at' and e.key not like '%%\\_updated\\_at') c
     where c.changes is not null$q$, pk)
    using TG_TABLE_NAME::text, pk, account_key, secrets, ignored, actor, actor_label;
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
 * statement (HISTORY_FUNCTION).
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
  await knex.raw(HISTORY_FUNCTION);
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
