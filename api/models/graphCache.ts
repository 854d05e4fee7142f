import type { Knex } from 'knex';
import { onWrite } from '../db/writes.js';
import { GRAPH_CHANNEL, sessionCacheFor } from '../services/sessionCache.js';
import { eventGraph, type EventGraph } from './graphs.js';

/**
 * Event graphs (the event, its forms in order, their elements and list trees: five queries) kept per process, so a
 * lead create or update checks its answers without reading them again (issue 18: a create ran 10 statements in its
 * transaction, 5 of them this graph). Kept the way the player's manifests are (api/services/player.ts):
 *
 * - emptied by this process's own writes to the graph's tables (seen on knex's query events, at the statement) and by
 *   every process's on PostgreSQL (statement triggers NOTIFY leadstage_graph at commit, migration 20261128001910,
 *   heard on the session cache's listener connection); while that listener is down nothing is kept;
 * - filled only by a read outside any transaction (on the root handle): what it holds was committed. A reader inside a
 *   transaction takes a kept graph (peek) or reads its own and asks for one to be filled afterwards (warm), so a
 *   transaction never waits for a second connection of the pool.
 *
 * A graph is shared: callers must not change it.
 */
const GRAPH_TABLES = ['events', 'event_forms', 'forms', 'form_elements', 'lists', 'list_items'];
const GRAPH_WRITE_RE = new RegExp(`^\\s*(?:with\\b[\\s\\S]*?\\b)?(?:insert\\s+into|update|delete\\s+from|truncate(?:\\s+table)?)\\s+"?(?:${GRAPH_TABLES.join('|')})"?\\b`, 'i');
const GRAPHS_MAX = 5_000;

interface Cache {
  epoch: number;
  /** `done` once the read has answered: a reader inside a transaction takes only those (it must not wait for the pool). */
  entries: Map<string, { epoch: number; graph: Promise<EventGraph | undefined>; done?: boolean }>;
  hears: () => boolean;
}
const caches = new WeakMap<Knex, Cache>();

function cacheOf(db: Knex): Cache {
  let cache = caches.get(db);
  if (!cache) {
    const sessions = sessionCacheFor(db);
    const created: Cache = (cache = { epoch: 0, entries: new Map(), hears: () => sessions.hearsOthers });
    caches.set(db, created);
    const invalidate = () => {
      created.epoch++;
      created.entries.clear();
    };
    onWrite(db, (sql) => {
      if (GRAPH_WRITE_RE.test(sql)) invalidate();
    });
    sessions.subscribe(GRAPH_CHANNEL, invalidate);
  }
  return cache;
}

const keyOf = (accountId: string, eventId: string) => `${accountId}:${eventId}`;

/** The event's graph (undefined: no such live event in the account), kept or read on `db` (the root handle). */
export function cachedEventGraph(db: Knex, accountId: string, eventId: string): Promise<EventGraph | undefined> {
  const cache = cacheOf(db);
  if (!cache.hears()) return eventGraph(db, accountId, eventId);
  const key = keyOf(accountId, eventId);
  const kept = cache.entries.get(key);
  if (kept && kept.epoch === cache.epoch) return kept.graph;
  const epoch = cache.epoch;
  const graph = eventGraph(db, accountId, eventId);
  if (cache.entries.size >= GRAPHS_MAX) cache.entries.delete(cache.entries.keys().next().value!);
  const entry: { epoch: number; graph: Promise<EventGraph | undefined>; done?: boolean } = { epoch, graph };
  cache.entries.set(key, entry);
  const forget = () => {
    if (cache.entries.get(key) === entry) cache.entries.delete(key);
  };
  graph.then(() => {
    entry.done = true;
    if (epoch !== cache.epoch) forget();
  }, forget);
  return graph;
}

/**
 * The graph for a reader inside a transaction (`trx` on `db`): the kept one when there is one; otherwise read on the
 * transaction, and one is filled outside it for the next caller (in the background).
 */
export async function eventGraphIn(db: Knex, trx: Knex.Transaction, accountId: string, eventId: string): Promise<EventGraph | undefined> {
  const cache = cacheOf(db);
  const kept = cache.hears() ? cache.entries.get(keyOf(accountId, eventId)) : undefined;
  if (kept?.done && kept.epoch === cache.epoch) return kept.graph;
  const graph = await eventGraph(trx, accountId, eventId);
  if (cache.hears() && !kept) cachedEventGraph(db, accountId, eventId).catch(() => undefined);
  return graph;
}
