import { expect, it } from 'vitest';
import type { Knex } from 'knex';
import { PermissionStore } from '../../api/services/permissions.js';

/** A stand-in for knex: permission_grants answers after 20 ms and counts its reads. */
function fakeDb(rows: { pg_role: string; pg_group: string; pg_bits: number }[]) {
  const reads = { n: 0 };
  const db = (() => ({
    select: async () => {
      reads.n++;
      await new Promise((r) => setTimeout(r, 20));
      return rows;
    },
  })) as unknown as Knex;
  return { db, reads };
}

it('when the cache expires, every request in flight waits for one read (single flight)', async () => {
  const { db, reads } = fakeDb([{ pg_role: 'member', pg_group: 'entry_accounts', pg_bits: 1 }]);
  const store = new PermissionStore(db, 30_000);
  const answers = await Promise.all(Array.from({ length: 50 }, () => store.can('member', 'entry_accounts', 'read')));
  expect(answers.every(Boolean)).toBe(true);
  expect(reads.n).toBe(1);
  // fresh: no read at all
  await store.can('member', 'entry_accounts', 'read');
  expect(reads.n).toBe(1);
});

it('a failed read is not cached: the next request tries again', async () => {
  let fail = true;
  const reads = { n: 0 };
  const db = (() => ({
    select: async () => {
      reads.n++;
      if (fail) throw new Error('database down');
      return [{ pg_role: 'member', pg_group: 'entry_accounts', pg_bits: 1 }];
    },
  })) as unknown as Knex;
  const store = new PermissionStore(db);
  await expect(store.can('member', 'entry_accounts', 'read')).rejects.toThrow('database down');
  fail = false;
  expect(await store.can('member', 'entry_accounts', 'read')).toBe(true);
  expect(reads.n).toBe(2);
});
