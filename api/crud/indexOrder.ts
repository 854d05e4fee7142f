import type { Knex } from 'knex';
import { perHandle } from '../db/perDatabase.js';

/**
 * The orders the btree indexes of a table provide, read once per table from the catalog: what runList needs to know
 * whether a page of a filter and a sort can be read in order from an index (and the planner will), or whether the
 * planner may instead walk the sort's index testing the filter on every row, which is unbounded when the filter
 * rarely matches (an event and a source no lead of that event has, sorted by e-mail: a million rows walked).
 */
export interface IndexOrder {
  name: string;
  /** Key columns in order (INCLUDE columns left out); an expression ends the list. */
  columns: string[];
}

const byTableOf = perHandle(() => new Map<string, Promise<IndexOrder[]>>());

/**
 * Btree indexes of `table` usable by a list of live rows: whole, or partial on `<column> is null` only (the trash's
 * `*_deleted_at is null`, which every list of live rows has).
 */
export function indexOrdersOf(db: Knex, table: string): Promise<IndexOrder[]> {
  const byTable = byTableOf(db);
  let found = byTable.get(table);
  if (!found) {
    found = readIndexOrders(db, table);
    byTable.set(table, found);
    found.catch(() => byTable.delete(table));
  }
  return found;
}

async function readIndexOrders(db: Knex, table: string): Promise<IndexOrder[]> {
  const res = (await db.raw(
    `select ic.relname as name, i.indkey::text as keys, i.indnkeyatts as n, pg_get_expr(i.indpred, i.indrelid) as pred,
            (select json_object_agg(a.attnum, a.attname) from pg_attribute a where a.attrelid = i.indrelid and a.attnum > 0) as names
       from pg_index i
       join pg_class t on t.oid = i.indrelid
       join pg_class ic on ic.oid = i.indexrelid
       join pg_am am on am.oid = ic.relam
       join pg_namespace ns on ns.oid = t.relnamespace
      where t.relname = ? and ns.nspname = current_schema() and am.amname = 'btree'`,
    [table],
  )) as { rows?: Record<string, unknown>[] } | Record<string, unknown>[];
  const rows = Array.isArray(res) ? res : (res.rows ?? []);
  const out: IndexOrder[] = [];
  for (const row of rows) {
    const pred = row.pred === null || row.pred === undefined ? '' : String(row.pred);
    if (pred && !/^\(?[a-z_][a-z0-9_]* IS NULL\)?$/i.test(pred)) continue;
    const names = (typeof row.names === 'string' ? JSON.parse(row.names) : row.names) as Record<string, string>;
    const columns: string[] = [];
    for (const attnum of String(row.keys).trim().split(/\s+/).slice(0, Number(row.n))) {
      if (attnum === '0') break; // an expression
      columns.push(names[attnum]);
    }
    if (columns.length) out.push({ name: String(row.name), columns });
  }
  return out;
}

/**
 * How an index can give a page of `sort` rows under equality conditions on `equal` (columns with one value each):
 * 'served' when an index's leading columns are exactly those columns (in any order) followed by the sort column — the
 * rows come in order and every one read is on the page; 'walk' with the prefix the walk can use when an index's
 * leading columns are some of them followed by the sort column — rows come in order but the other conditions are
 * tested on each; 'none' when no index gives that order. The `implied` column (the account of an account's list) may
 * be left out of a served index's prefix when other columns are in it: an event, an owner belong to one account.
 */
export function orderByIndex(indexes: IndexOrder[], equal: string[], sort: string, implied?: string): { how: 'served' } | { how: 'walk'; prefix: string[] } | { how: 'none' } {
  const wanted = new Set(equal.filter((c) => c !== sort));
  let walk: string[] | undefined;
  for (const { columns } of indexes) {
    const at = columns.indexOf(sort);
    if (at < 0) continue;
    const prefix = columns.slice(0, at);
    if (!prefix.every((c) => wanted.has(c))) continue;
    // `implied` (the account) may be missing from the index: the other columns (an event) imply it.
    if ([...wanted].every((c) => prefix.includes(c) || (c === implied && prefix.length > 0))) return { how: 'served' };
    if (!walk || prefix.length > walk.length) walk = prefix;
  }
  return walk ? { how: 'walk', prefix: walk } : { how: 'none' };
}
