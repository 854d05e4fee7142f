import { afterAll, beforeAll, expect, it } from 'vitest';
import { allRows, firstRow } from '../../api/db/firstRow.js';
import { JSON_ROWS } from '../../api/db/jsonRows.js';
import { createTestDb, describeEachDb, type TestDb } from '../helpers/db.js';

describeEachDb('firstRow: the first row of a read, as knex would give it', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(kind);
    await t.db('users').insert([
      { u_email: 'ann@example.com', u_first_name: 'Ann', u_last_name: 'A' },
      { u_email: 'bob@example.com', u_first_name: 'Bob', u_last_name: 'B' },
    ]);
  });
  afterAll(() => t?.drop());

  it('returns the same row as knex’s first(), with the same types, and undefined when there is none', async () => {
    const q = () => t.db('users').select('u_id', 'u_email', 'u_is_enabled', 'u_created_at').where('u_email', 'bob@example.com');
    const row = await firstRow(q());
    expect(row).toEqual(await q().first());
    expect(row?.u_created_at).toBeInstanceOf(Date);
    expect(typeof row?.u_is_enabled).toBe('boolean');
    expect(await firstRow(t.db('users').where('u_email', 'nobody@example.com'))).toBeUndefined();
    // The query is seen by whoever watches knex's events, as knex's own would be.
    const seen: string[] = [];
    const watch = (q: { sql: string }) => seen.push(q.sql);
    t.db.on('query', watch);
    await firstRow(q());
    t.db.removeListener('query', watch);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/from "users" where "u_email" = /);
    // first() means one row even where several match.
    expect((await firstRow(t.db('users').select('u_email').orderBy('u_email')))?.u_email).toBe('ann@example.com');
  });

  it('allRows returns every row as awaiting the builder does, with its query options (JSON_ROWS), seen by knex’s events', async () => {
    const q = () => t.db('users').select('u_id', 'u_email', 'u_is_enabled', 'u_created_at').orderBy('u_email');
    const rows = await allRows(q());
    expect(rows).toEqual(await q());
    expect(rows.map((r) => r.u_email)).toEqual(['ann@example.com', 'bob@example.com']);
    expect(rows[0].u_created_at).toBeInstanceOf(Date);
    // The builder's options reach pg as knex passes them: the timestamps as the JSON answer's strings.
    const asJson = await allRows(q().options(JSON_ROWS));
    expect(asJson).toEqual(await q().options(JSON_ROWS));
    expect(asJson[0].u_created_at).toBe((rows[0].u_created_at as Date).toISOString());
    expect(await allRows(t.db('users').where('u_email', 'nobody@example.com'))).toEqual([]);
    const seen: { sql: string; method: string }[] = [];
    const watch = (e: { sql: string; method: string }) => seen.push({ sql: e.sql, method: e.method });
    t.db.on('query', watch);
    try {
      await q();
      await allRows(q());
    } finally {
      t.db.removeListener('query', watch);
    }
    expect(seen).toHaveLength(2);
    expect(seen[1]).toEqual(seen[0]);
    const err = await allRows(t.db('users').where('u_id', 'not-a-uuid')).catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('22P02');
    const pool = (t.db.client as { pool?: { numUsed(): number } }).pool;
    if (pool) expect(pool.numUsed()).toBe(0);
  });

  it('keeps the database error and its code (what the API maps to 400/409/503), and gives its connection back', async () => {
    const err = await firstRow(t.db('users').where('u_id', 'not-a-uuid')).catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('22P02');
    for (let i = 0; i < 30; i++) await firstRow(t.db('users').where('u_id', 'not-a-uuid')).catch(() => undefined);
    const pool = (t.db.client as { pool?: { numUsed(): number } }).pool;
    if (pool) expect(pool.numUsed()).toBe(0);
    expect((await firstRow(t.db('users').where('u_email', 'ann@example.com')))?.u_email).toBe('ann@example.com');
  });

  it('emits the query and query-error events knex emits for the same first(), with the same fields', async () => {
    const events: { name: string; sql: string; bindings: unknown; method: string; uid: string; code?: string }[] = [];
    const onQuery = (q: { sql: string; bindings: unknown; method: string; __knexUid: unknown }) =>
      events.push({ name: 'query', sql: q.sql, bindings: q.bindings, method: q.method, uid: typeof q.__knexUid });
    const onError = (err: { code?: string }, q: { sql: string; bindings: unknown; method: string; __knexUid: unknown }) =>
      events.push({ name: 'query-error', sql: q.sql, bindings: q.bindings, method: q.method, uid: typeof q.__knexUid, code: err.code });
    t.db.on('query', onQuery).on('query-error', onError);
    const watched = async (run: () => Promise<unknown>) => {
      events.length = 0;
      await run().catch(() => undefined);
      return [...events];
    };
    const byEmail = () => t.db('users').select('u_email').where('u_email', 'ann@example.com');
    const bad = () => t.db('users').where('u_id', 'not-a-uuid');
    try {
      const knexOwn = await watched(() => byEmail().first());
      expect(knexOwn.map((e) => e.name)).toEqual(['query']);
      expect(await watched(() => firstRow(byEmail())), "firstRow's query event differs from knex's: re-check api/db/firstRow.ts").toEqual(knexOwn);
      const knexError = await watched(() => bad().first());
      expect(knexError.map((e) => e.name)).toEqual(['query', 'query-error']);
      expect(await watched(() => firstRow(bad())), "firstRow's query-error event differs from knex's: re-check api/db/firstRow.ts").toEqual(knexError);
    } finally {
      t.db.off('query', onQuery).off('query-error', onError);
    }
  });

  it("finds what it uses on knex's client: transacting in a transaction, and on PostgreSQL a pooled pg connection", async () => {
    const client = t.db.client as unknown as {
      transacting?: boolean;
      acquireConnection(): Promise<{ __knexUid?: unknown; query?: unknown }>;
      releaseConnection(c: unknown): Promise<void>;
    };
    expect(client.transacting).toBeFalsy();
    await t.db.transaction(async (trx) => {
      expect((trx.client as unknown as { transacting?: boolean }).transacting, "knex's transaction client no longer says `transacting`: re-check api/db/firstRow.ts").toBe(true);
    });
    if (kind !== 'postgres') return;
    const connection = await client.acquireConnection();
    try {
      expect(typeof connection.__knexUid, "knex's pooled connection has no __knexUid: re-check api/db/firstRow.ts").toBe('string');
      expect(typeof connection.query, "knex's pooled connection is not a pg client: re-check api/db/firstRow.ts").toBe('function');
    } finally {
      await client.releaseConnection(connection);
    }
  });

  it('runs inside the transaction it is given (sees its uncommitted rows)', async () => {
    await t.db
      .transaction(async (trx) => {
        await trx('users').insert({ u_email: 'carl@example.com', u_first_name: 'Carl', u_last_name: 'C' });
        expect((await firstRow(trx('users').where('u_email', 'carl@example.com')))?.u_first_name).toBe('Carl');
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await firstRow(t.db('users').where('u_email', 'carl@example.com'))).toBeUndefined();
  });
});
