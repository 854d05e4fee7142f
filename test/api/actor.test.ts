import type { Request } from 'express';
import type { Knex } from 'knex';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { actingFor, rootOf } from '../../api/db/actor.js';
import { totalsFor } from '../../api/crud/totals.js';
import { sessionCacheFor } from '../../api/services/sessionCache.js';
import { createTestDb, describeEachDb, type TestDb } from '../helpers/db.js';

/**
 * A request's database handle (what ctx(req).db gives, api/db/actor.ts): its transactions name the request's user as
 * their actor for the history, each its own even when requests interleave; the app's handle names nobody; and
 * everything else is the app's handle (queries, and what is kept per handle).
 */
describeEachDb('the request’s database handle', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(kind);
  });
  afterAll(() => t?.drop());

  const requestOf = (email: string, first: string) => ({ user: { u_id: crypto.randomUUID(), u_email: email, u_first_name: first, u_last_name: 'Doe' } }) as unknown as Request;
  const actorIn = (trx: Knex.Transaction) =>
    trx.raw("select current_setting('ls.actor_id', true) as id, current_setting('ls.actor_label', true) as label").then((r: unknown) => {
      const rows = Array.isArray(r) ? r : (r as { rows: { id: string | null; label: string | null }[] }).rows;
      return rows[0] as { id: string | null; label: string | null };
    });

  it('a transaction names the request’s user; two requests at once each their own; the app’s handle nobody', async () => {
    const ann = requestOf('ann@example.com', 'Ann');
    const bob = requestOf('bob@example.com', 'Bob');
    const pause = () => new Promise((r) => setTimeout(r, 20));
    const [a, b] = await Promise.all([
      actingFor(t.db, ann).transaction(async (trx) => {
        await pause();
        return actorIn(trx);
      }),
      actingFor(t.db, bob).transaction(async (trx) => {
        await pause();
        return actorIn(trx);
      }),
    ]);
    expect(a).toEqual({ id: ann.user!.u_id, label: 'Ann Doe <ann@example.com>' });
    expect(b).toEqual({ id: bob.user!.u_id, label: 'Bob Doe <bob@example.com>' });
    const none = await t.db.transaction((trx) => actorIn(trx));
    expect(none.id || null).toBeNull();
    // A request without a user (a visitor) names nobody either.
    expect(((await actingFor(t.db, {} as Request).transaction((trx) => actorIn(trx))).id || null) as unknown).toBeNull();
  });

  it('is the app’s handle for everything else: queries, raw SQL, and what is kept per handle', async () => {
    const handle = actingFor(t.db, requestOf('carl@example.com', 'Carl'));
    expect(rootOf(handle)).toBe(t.db);
    expect(rootOf(t.db)).toBe(t.db);
    expect(Number((await handle('users').count({ n: '*' }).first())?.n)).toBe(Number((await t.db('users').count({ n: '*' }).first())?.n));
    expect(handle.client).toBe(t.db.client);
    expect(handle.isTransaction).toBeFalsy();
    expect(totalsFor(handle)).toBe(totalsFor(t.db));
    expect(sessionCacheFor(handle)).toBe(sessionCacheFor(t.db));
  });
});
