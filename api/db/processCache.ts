import type { Knex } from 'knex';
import { perHandle } from './perDatabase.js';
import { onWrite, writesTo } from './writes.js';
import { sessionCacheFor } from '../services/sessionCache.js';

/**
 * Values read from the database and kept in this process while nothing they are made of was written: what the event
 * graphs (api/services/graphCache.ts) and the accounts with the caller's membership (api/middleware/auth.ts) use, the way
 * the player's manifests and the sessions are kept (api/services/player.ts, sessionCache.ts):
 *
 * - everything is dropped on this process's own writes to `tables` (or the statements `dropOn` matches; seen on
 *   knex's query events, at the statement), and on PostgreSQL on every process's (statement triggers on those tables
 *   NOTIFY `channel` at commit, heard on the session cache's listener connection, so the channel must be one of
 *   api/db/channels.ts); while that listener is down nothing is kept, so a process that cannot hear the others never
 *   answers from a stale copy;
 * - a value is kept at most `maxAgeMs`, at most `max` of them;
 * - `get` reads through the root handle (outside any transaction), so what it keeps was committed. A reader inside a
 *   transaction uses `peek` (a value already read, never one still being read: it must not wait for a second
 *   connection of the pool) and `warm` to have one read for the next caller; a synchronous reader uses `known` (the
 *   value itself, when one was read) and `warm`.
 *
 * Kept values are shared: callers must not change them.
 */
export interface ProcessCache<T> {
  get(db: Knex, key: string, read: () => Promise<T>): Promise<T>;
  peek(db: Knex, key: string): Promise<T> | undefined;
  warm(db: Knex, key: string, read: () => Promise<T>): void;
  known(db: Knex, key: string): { value: T } | undefined;
}

interface Entry<T> {
  epoch: number;
  at: number;
  value: Promise<T>;
  done?: { value: T };
}

interface State<T> {
  epoch: number;
  entries: Map<string, Entry<T>>;
  hears: () => boolean;
}

export function processCache<T>(options: {
  tables?: readonly string[];
  dropOn?: { test(sql: string): boolean };
  channel: string;
  max: number;
  maxAgeMs?: number;
}): ProcessCache<T> {
  const drops = [options.tables && writesTo(options.tables), options.dropOn].filter((re): re is { test(sql: string): boolean } => Boolean(re));
  if (!drops.length) throw new Error('processCache: nothing to drop the kept values on (tables or dropOn)');
  const maxAge = options.maxAgeMs ?? Infinity;
  const stateOf = perHandle((db): State<T> => {
    const sessions = sessionCacheFor(db);
    const created: State<T> = { epoch: 0, entries: new Map(), hears: () => sessions.hearsOthers };
    const drop = () => {
      created.epoch++;
      created.entries.clear();
    };
    onWrite(db, (sql) => {
      if (drops.some((re) => re.test(sql))) drop();
    });
    sessions.subscribe(options.channel, drop);
    return created;
  });
  const fresh = (state: State<T>, entry: Entry<T> | undefined): entry is Entry<T> => Boolean(entry && entry.epoch === state.epoch && Date.now() - entry.at <= maxAge);

  const get = (db: Knex, key: string, read: () => Promise<T>): Promise<T> => {
    const state = stateOf(db);
    if (!state.hears()) return read();
    const kept = state.entries.get(key);
    if (fresh(state, kept)) return kept.value;
    // A promise of its own: `read` may answer a thenable that runs again on every `then` (a knex query builder).
    const entry: Entry<T> = { epoch: state.epoch, at: Date.now(), value: new Promise<T>((resolve) => resolve(read())) };
    if (state.entries.size >= options.max) state.entries.delete(state.entries.keys().next().value!);
    state.entries.set(key, entry);
    const forget = () => {
      if (state.entries.get(key) === entry) state.entries.delete(key);
    };
    entry.value.then((value) => {
      entry.done = { value };
      if (entry.epoch !== state.epoch) forget();
    }, forget);
    return entry.value;
  };

  return {
    get,
    peek(db, key) {
      const state = stateOf(db);
      const kept = state.hears() ? state.entries.get(key) : undefined;
      return fresh(state, kept) && kept.done ? kept.value : undefined;
    },
    known(db, key) {
      const state = stateOf(db);
      const kept = state.hears() ? state.entries.get(key) : undefined;
      return fresh(state, kept) ? kept.done : undefined;
    },
    warm(db, key, read) {
      const state = stateOf(db);
      if (state.hears() && !fresh(state, state.entries.get(key))) get(db, key, read).catch(() => undefined);
    },
  };
}
