import type { Knex } from 'knex';
import { perHandle } from './perDatabase.js';

const WRITE_RE = /^\s*(with\b[\s\S]*\b)?(insert|update|delete|truncate|merge)\b/i;
/** The listeners of a handle's writes, heard through one `query` listener on it. */
const listenersOf = perHandle((db) => {
  const subscribers = new Set<(sql: string) => void>();
  db.on('query', (q: { sql?: string }) => {
    if (q.sql && WRITE_RE.test(q.sql)) for (const fn of subscribers) fn(q.sql);
  });
  return subscribers;
});

/**
 * Calls `listener` with the SQL of every statement that writes (INSERT, UPDATE, DELETE, TRUNCATE, MERGE) run through
 * this database handle, transactions included: what in-process caches use to know their copy may be stale.
 */
export function onWrite(db: Knex, listener: (sql: string) => void): void {
  listenersOf(db).add(listener);
}

/**
 * A test of a statement's SQL: does it write (insert into, update, delete from, truncate) one of `tables`, first, or
 * after a `with`? What the in-process caches drop their copies on (player.ts, processCache.ts).
 */
export function writesTo(tables: readonly string[]): RegExp {
  return new RegExp(`^\\s*(?:with\\b[\\s\\S]*?\\b)?(?:insert\\s+into|update|delete\\s+from|truncate(?:\\s+table)?)\\s+"?(?:${tables.join('|')})"?\\b`, 'i');
}
