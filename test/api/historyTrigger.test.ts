import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { createTestDb, describeEachDb, type TestDb } from '../helpers/db.js';
import { insertEvent } from '../helpers/leadRows.js';
import { dropHistoryTrigger, historyRowTrigger, historyTrigger } from '../../api/db/migrationHelpers.js';
import { appliedMigrations, migrateLatest, rollbackOne } from '../../api/db/migrationSource.js';

type Row = Record<string, unknown>;
const MIGRATION = '20261127000101_history_per_statement';

/** The kind of each history trigger of a table: 'row' or 'statement' (pg_trigger.tgtype bit 0). */
async function triggerKinds(db: Knex, table: string): Promise<string[]> {
  const res = await db.raw(
    `select case when t.tgtype & 1 = 1 then 'row' else 'statement' end as kind
       from pg_trigger t join pg_class c on c.oid = t.tgrelid where c.relname = ? and t.tgname like ? and not t.tgisinternal order by 1`,
    [table, `${table}\\_history%`],
  );
  return res.rows.map((r: { kind: string }) => r.kind);
}

/**
 * The history per statement (migrations/20261127000101, api/db/migrationHelpers.ts historyFunction) writes exactly
 * the entries the row trigger of 20261126000001 wrote: the same changes on users (a secret) and leads (an account, the
 * trash), once under each trigger, give the same entries.
 */
describeEachDb('history per statement', (kind) => {
  let t: TestDb;
  let accountId: string;
  let eventId: string;
  beforeAll(async () => {
    t = await createTestDb(kind);
    [{ a_id: accountId }] = await t.db('accounts').insert({ a_name: 'Triggers' }).returning('a_id');
    ({ ev_id: eventId } = await insertEvent(t.db, accountId));
  });
  afterAll(() => t?.drop());

  /** One script of changes; its entries with the records numbered in order of appearance (ids and times differ). */
  async function script(tag: string): Promise<Row[]> {
    const db = t.db;
    const [{ h_seq: from }] = (await db('history').max({ h_seq: 'h_seq' })) as { h_seq: string | null }[];
    const users = (await db('users')
      .insert([
        { u_email: `a-${tag}@example.com`, u_password: 'hash-a', u_first_name: 'Ann' },
        { u_email: `b-${tag}@example.com`, u_password: '' },
      ])
      .returning('u_id')) as { u_id: string }[];
    const [a, b] = users.map((u) => u.u_id);
    await db('users').where('u_id', a).update({ u_password: 'hash-2' }); // secret changed: set → set
    await db('users').where('u_id', a).update({ u_password: null }); // cleared
    await db('users').where('u_id', a).update({ u_first_name: 'Ann' }); // nothing changed: no entry
    await db('users').where('u_id', b).update({ u_updated_at: db.fn.now() }); // bookkeeping only: no entry
    await db.transaction(async (trx) => {
      await trx.raw("select set_config('ls.actor_id', ?, true), set_config('ls.actor_label', 'Ann <a@example.com>', true)", [a]);
      await trx('users').whereIn('u_id', [a, b]).update({ u_last_name: 'Same' }); // one statement, two rows
    });
    const leads = (await db('leads')
      .insert([1, 2, 3].map((i) => ({ ld_accountid: accountId, ld_eventid: eventId, ld_last_name: `L${i}-${tag}`, ld_answers: { q: i, nested: { x: null } } })))
      .returning('ld_id')) as { ld_id: string }[];
    const ids = leads.map((l) => l.ld_id);
    await db('leads')
      .whereIn('ld_id', ids)
      .update({ ld_is_valid: false, ld_first_name: db.raw("case when ld_last_name like 'L1%' then 'Kim' else ld_first_name end") });
    await db('leads').whereIn('ld_id', ids).update({ ld_is_valid: false }); // no row changes
    await db('leads').where('ld_id', ids[0]).update({ ld_deleted_at: db.fn.now() }); // to the trash: delete
    await db('leads').where('ld_id', ids[0]).update({ ld_deleted_at: null }); // restore
    await db('leads').where('ld_id', ids[1]).del();
    await db('users').where('u_id', b).del();
    const entries = (await db('history_by_record')
      .where('h_seq', '>', from ?? 0)
      .orderBy('h_seq')
      .select('h_table', 'h_recordid', 'h_accountid', 'h_action', 'h_changes', 'h_userid', 'h_user_label')) as Row[];
    const number = new Map<string, number>();
    const named = (v: unknown) => {
      if (typeof v !== 'string') return v;
      if (!number.has(v)) number.set(v, number.size);
      return `#${number.get(v)}`;
    };
    // Record ids in order of their first appearance; values that differ by run (times, the tag) blanked.
    for (const id of [...users.map((u) => u.u_id), ...ids]) named(id);
    return entries.map((e) => ({
      ...e,
      h_recordid: named(e.h_recordid),
      h_userid: e.h_userid && named(e.h_userid),
      h_changes: JSON.parse(
        JSON.stringify(e.h_changes)
          .replaceAll(tag, 'TAG')
          .replace(/"\d{4}-\d\d-\d\dT[^"]+"/g, '"TIME"'),
      ),
    }));
  }

  it('writes the same entries as the row trigger did, for secrets, no-op updates, one statement over many rows, trash and restore', async () => {
    for (const table of ['users', 'leads']) expect(await triggerKinds(t.db, table)).toEqual(['statement', 'statement', 'statement']);
    const statement = await script('tagstmt');
    await dropHistoryTrigger(t.db, 'users');
    await dropHistoryTrigger(t.db, 'leads');
    await historyRowTrigger(t.db, 'users', 'u_id', null, ['u_password']);
    await historyRowTrigger(t.db, 'leads', 'ld_id', 'ld_accountid');
    try {
      expect(await triggerKinds(t.db, 'leads')).toEqual(['row']);
      const row = await script('tagrow');
      // Within one statement the row trigger wrote in the rows' order, the statement trigger in its own: compare as sets.
      const key = (e: Row) => JSON.stringify(e);
      expect(statement.map(key).sort()).toEqual(row.map(key).sort());
      expect(statement.length).toBe(16);
      expect(statement.map((e) => e.h_action)).toEqual(expect.arrayContaining(['create', 'update', 'delete', 'restore']));
      const secret = statement.filter((e) => e.h_table === 'users' && (e.h_changes as Row).u_password);
      expect(secret.map((e) => (e.h_changes as Row).u_password)).toEqual([
        [null, 'set'],
        [null, null],
        ['set', 'set'],
        ['set', 'cleared'],
        [null, null], // b's delete: its empty password
      ]);
    } finally {
      await dropHistoryTrigger(t.db, 'users');
      await dropHistoryTrigger(t.db, 'leads');
      await historyTrigger(t.db, 'users', 'u_id', null, ['u_password']);
      await historyTrigger(t.db, 'leads', 'ld_id', 'ld_accountid');
    }
  });

  it('writes nothing for the rows of a deleted account (their history goes with it)', async () => {
    const [{ a_id: gone }] = await t.db('accounts').insert({ a_name: 'Gone' }).returning('a_id');
    const ev = await insertEvent(t.db, gone);
    await t.db('leads').insert([{ ld_accountid: gone, ld_eventid: ev.ev_id }]);
    const [{ h_seq: from }] = (await t.db('history').max({ h_seq: 'h_seq' })) as { h_seq: string }[];
    await t.db('accounts').where('a_id', gone).del();
    const after = await t.db('history').where('h_seq', '>', from).select('h_table', 'h_action');
    expect(after).toEqual([{ h_table: 'accounts', h_action: 'delete' }]);
  });

  it('rolled back, an entry shared by records becomes one entry per record in its place, and migrated again shares it again', async () => {
    const GROUPED = '20261128001900_history_grouped';
    const leads = (await t
      .db('leads')
      .insert([1, 2, 3].map((i) => ({ ld_accountid: accountId, ld_eventid: eventId, ld_last_name: `G${i}` })))
      .returning('ld_id')) as { ld_id: string }[];
    const ids = leads.map((l) => l.ld_id);
    const [{ seq: from }] = (await t.db('history').max({ seq: 'h_seq' })) as { seq: string }[];
    await t.db('leads').whereIn('ld_id', ids).update({ ld_is_valid: false });
    await t.db('leads').where('ld_id', ids[0]).update({ ld_first_name: 'Alone' });
    const stored = await t.db('history').where('h_seq', '>', from).orderBy('h_seq').select('h_recordid', 'h_recordids');
    expect(stored.map((e) => (e.h_recordids ? e.h_recordids.length : 1))).toEqual([3, 1]);
    const grouped = (await t
      .db('history_by_record')
      .whereIn('h_recordid', ids)
      .orderBy('h_seq')
      .orderBy('h_recordid')
      .select('h_id', 'h_recordid', 'h_action', 'h_changes')) as Row[];
    expect(grouped.map((e) => e.h_action)).toEqual(['create', 'create', 'create', 'update', 'update', 'update', 'update']);

    while ((await appliedMigrations(t.db)).some((m) => m.startsWith(GROUPED))) await rollbackOne(t.db);
    // The same entries per record in the same order, each stored alone with an id of its own.
    const alone = (await t.db('history').whereIn('h_recordid', ids).orderBy('h_seq').orderBy('h_recordid').select('h_id', 'h_recordid', 'h_action', 'h_changes')) as Row[];
    const withoutId = ({ h_id: _id, ...e }: Row) => e;
    expect(alone.map(withoutId)).toEqual(grouped.map(withoutId));
    expect(new Set(alone.map((e) => e.h_id)).size).toBe(7);
    const count = async () => Number((await t.db('history').whereIn('h_recordid', ids).count({ n: '*' }).first())!.n);
    expect(await count()).toBe(7);
    await t.db('leads').whereIn('ld_id', ids).update({ ld_is_valid: true });
    expect(await count()).toBe(10);
    // A new entry is numbered after every kept one.
    const [{ max }] = (await t.db('history').max({ max: 'h_seq' })) as { max: string }[];
    expect(Number(max)).toBe(Number((await t.db('history').count({ n: '*' }).first())!.n));

    await migrateLatest(t.db);
    await t.db('leads').whereIn('ld_id', ids).update({ ld_is_valid: false });
    const last = await t.db('history').where('h_seq', '>', max).select('h_recordid', 'h_recordids');
    expect(last).toHaveLength(1);
    expect([...last[0].h_recordids].sort()).toEqual([...ids].sort());
  });

  it('the migration moves every row trigger to the statement triggers with its arguments, and back', async () => {
    const tables = async () =>
      (
        await t.db.raw(
          `select c.relname as t from pg_trigger g join pg_class c on c.oid = g.tgrelid join pg_proc p on p.oid = g.tgfoid
            where p.proname in ('ls_history', 'ls_history_set') and g.tgname = c.relname || '_history' order by 1`,
        )
      ).rows.map((r: { t: string }) => r.t);
    const before = await tables();
    expect(before).toEqual(expect.arrayContaining(['accounts', 'users', 'leads', 'integrations']));
    while ((await appliedMigrations(t.db)).some((m) => m.startsWith(MIGRATION))) await rollbackOne(t.db);
    expect(await triggerKinds(t.db, 'integrations')).toEqual(['row']);
    // Rolled back with the migrations after it: their tables are gone; every other table has its (row) trigger back.
    const existing = (await t.db.raw(`select relname from pg_class where relkind = 'r' and relname = any(?)`, [before])).rows.map((r: { relname: string }) => r.relname);
    expect(await tables()).toEqual(before.filter((x: string) => existing.includes(x)));
    await migrateLatest(t.db);
    expect(await triggerKinds(t.db, 'integrations')).toEqual(['statement', 'statement', 'statement']);
    expect(await tables()).toEqual(before);
    // The arguments came along (the secret of an integration stays masked).
    const def = (await t.db.raw(`select pg_get_triggerdef(oid) as d from pg_trigger where tgname = 'integrations_history'`)).rows[0].d as string;
    expect(def).toContain("ls_history_set('in_id', 'in_accountid', '{in_secret}', '{}')");
  });
});
