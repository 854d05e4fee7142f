import type { Knex } from 'knex';
import { processCache } from '../db/processCache.js';
import { GRAPH_CHANNEL } from '../db/channels.js';
import { eventGraph, type EventGraph } from '../models/graphs.js';

/**
 * Event graphs (the event, its forms in order, their elements and list trees: five queries) kept per process
 * (api/db/processCache.ts), so a lead create or update checks its answers without reading them again (issue 18: a
 * create ran 9 statements in its transaction, 5 of them this graph). Dropped on any write to the graph's tables, in
 * this process at once and on PostgreSQL in every process (statement triggers NOTIFY leadstage_graph at commit,
 * migration 20261128001910). A graph is shared: callers must not change it.
 */
const graphs = processCache<EventGraph | undefined>({
  tables: ['events', 'event_forms', 'forms', 'form_elements', 'lists', 'list_items'],
  channel: GRAPH_CHANNEL,
  max: 5_000,
});

const keyOf = (accountId: string, eventId: string) => `${accountId}:${eventId}`;

/** The event's graph (undefined: no such live event in the account), kept or read on `db` (the root handle). */
export function cachedEventGraph(db: Knex, accountId: string, eventId: string): Promise<EventGraph | undefined> {
  return graphs.get(db, keyOf(accountId, eventId), () => eventGraph(db, accountId, eventId));
}

/**
 * The graph for a reader inside a transaction (`trx` on `db`): the kept one when there is one; otherwise read in the
 * transaction, and one is read outside it for the next caller (in the background).
 */
export async function eventGraphIn(db: Knex, trx: Knex.Transaction, accountId: string, eventId: string): Promise<EventGraph | undefined> {
  const key = keyOf(accountId, eventId);
  const kept = graphs.peek(db, key);
  if (kept) return kept;
  const graph = await eventGraph(trx, accountId, eventId);
  graphs.warm(db, key, () => eventGraph(db, accountId, eventId));
  return graph;
}
