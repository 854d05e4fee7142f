import type { Knex } from 'knex';
import { dropHistoryTrigger, historyTrigger } from '../api/db/migrationHelpers.js';

/**
 * History of records (platform-and-flows.md section 1): the history table and the trigger function that fills it,
 * then the trigger on every table whose resource declares `history: true`, as they are today (a later resource adds
 * its trigger in its own migration). test/api/schemaDrift.test.ts holds each declaration to its trigger.
 */
const TABLES: [table: string, pk: string, accountKey: string | null, secrets: string[], ignore: string[]][] = [
  ['accounts', 'a_id', null, [], []],
  ['users', 'u_id', null, ['u_password'], []],
  ['events', 'ev_id', 'ev_accountid', [], []],
  ['forms', 'f_id', 'f_accountid', [], []],
  ['form_elements', 'fe_id', 'fe_accountid', [], []],
  ['lists', 'l_id', 'l_accountid', [], []],
  ['leads', 'ld_id', 'ld_accountid', [], []],
  ['account_users', 'au_id', 'au_accountid', [], []],
  ['mail_templates', 'mt_id', 'mt_accountid', [], []],
  ['form_styles', 'st_id', 'st_accountid', [], []],
  ['integrations', 'in_id', 'in_accountid', ['in_secret'], []],
  ['account_settings', 'ls_id', 'ls_accountid', ['ls_customer_api_key'], []],
  ['carousels', 'c_id', 'c_accountid', [], []],
  ['variants', 'v_id', 'v_accountid', [], []],
  ['slides', 'sl_id', 'sl_accountid', [], []],
  ['layers', 'ly_id', 'ly_accountid', [], []],
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('history', (t) => {
    t.uuid('h_id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    // The order of entries: h_at is the transaction's time, the same for every change of one transaction.
    t.specificType('h_seq', 'bigint generated always as identity').notNullable();
    t.text('h_table').notNullable();
    t.uuid('h_recordid').notNullable();
    // An account's history goes with the account; a user's entries keep their label when the user is deleted.
    t.uuid('h_accountid').references('a_id').inTable('accounts').onDelete('CASCADE');
    t.timestamp('h_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.uuid('h_userid');
    t.text('h_user_label').notNullable();
    t.text('h_action').notNullable();
    t.check(`h_action in ('create','update','delete','restore')`, [], 'history_action_check');
    t.jsonb('h_changes').notNullable();
    t.index(['h_table', 'h_recordid', 'h_seq'], 'history_record');
    t.index(['h_accountid'], 'history_account');
  });

  // A cascade's changes are entries of their own (an element deleted with its form, a reference set to null), except
  // when the account itself is deleted: its records and their history go with it, so nothing is written for rows whose
  // account is gone by the time the trigger runs (the end of the statement).
  await knex.raw(`
    create function ls_history() returns trigger language plpgsql as $$
    declare
      pk text := TG_ARGV[0];
      account_key text := nullif(TG_ARGV[1], '');
      secrets text[] := TG_ARGV[2]::text[];
      ignored text[] := TG_ARGV[3]::text[];
      before jsonb := case when TG_OP = 'INSERT' then '{}'::jsonb else to_jsonb(OLD) end;
      after jsonb := case when TG_OP = 'DELETE' then '{}'::jsonb else to_jsonb(NEW) end;
      record jsonb := case when TG_OP = 'DELETE' then to_jsonb(OLD) else to_jsonb(NEW) end;
      changes jsonb := '{}'::jsonb;
      action text := case TG_OP when 'INSERT' then 'create' when 'UPDATE' then 'update' else 'delete' end;
      restored boolean;
      trashed boolean;
    begin
      if TG_OP = 'DELETE' and account_key is not null and not exists (select 1 from accounts where a_id = (record ->> account_key)::uuid) then
        return null;
      end if;
      -- One set-based pass over the columns (a PL/pgSQL loop per column costs several times more on a bulk insert).
      select coalesce(jsonb_object_agg(k, jsonb_build_array(
               case when not is_secret then b when b in ('null'::jsonb, '""'::jsonb) then 'null'::jsonb else '"set"'::jsonb end,
               case when not is_secret then a when a not in ('null'::jsonb, '""'::jsonb) then '"set"'::jsonb when TG_OP = 'UPDATE' then '"cleared"'::jsonb else 'null'::jsonb end)), '{}'::jsonb),
             coalesce(bool_or(k like '%\\_deleted\\_at' and a = 'null'::jsonb), false),
             coalesce(bool_or(k like '%\\_deleted\\_at' and a <> 'null'::jsonb), false)
        into changes, restored, trashed
        from (select k, coalesce(before -> k, 'null'::jsonb) as b, coalesce(after -> k, 'null'::jsonb) as a, k = any(secrets) as is_secret
                from jsonb_object_keys(before || after) as k) c
       where b <> a and k <> pk and k is distinct from account_key and not (k = any(ignored)) and k not like '%\\_created\\_at' and k not like '%\\_updated\\_at';
      if TG_OP = 'UPDATE' then
        if changes = '{}'::jsonb then
          return null;
        end if;
        if trashed then
          action := 'delete';
        elsif restored then
          action := 'restore';
        end if;
      end if;
      insert into history (h_table, h_recordid, h_accountid, h_action, h_changes, h_userid, h_user_label)
      values (
        TG_TABLE_NAME,
        (record ->> pk)::uuid,
        case when account_key is null then null else (record ->> account_key)::uuid end,
        action,
        changes,
        nullif(current_setting('ls.actor_id', true), '')::uuid,
        coalesce(nullif(current_setting('ls.actor_label', true), ''), 'system')
      );
      return null;
    end
    $$`);
  for (const [table, pk, accountKey, secrets, ignore] of TABLES) await historyTrigger(knex, table, pk, accountKey, secrets, ignore);
}

export async function down(knex: Knex): Promise<void> {
  for (const [table] of TABLES) await dropHistoryTrigger(knex, table);
  await knex.raw('drop function ls_history()');
  await knex.schema.dropTable('history');
}
