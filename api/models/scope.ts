import type { Request } from 'express';
import type { Knex } from 'knex';
import { resourceNamed } from '../../resources/index.js';
import type { ResourceDeclaration } from '../../resources/types.js';
import { processCache, type ProcessCache } from '../db/processCache.js';
import { TRASH_CHANNEL } from '../db/channels.js';
import { writesTo } from '../db/writes.js';

/**
 * Which rows of a trash resource a query sees: 'live' (the default: never a record in the trash, nor one whose parent
 * is), 'trashed' (only the trash: GET …/trash, restore, purge), 'all' (a purge's own bookkeeping).
 */
export type TrashView = 'live' | 'trashed' | 'all';

/** The column marking a record of a trash resource as deleted (`<prefix>_deleted_at`). */
export const deletedAtOf = (decl: ResourceDeclaration): string => `${decl.primaryKey.replace(/_id$/, '')}_deleted_at`;

type TrashParent = { field: string; parent: ResourceDeclaration; required: boolean };
type HidingAncestor = { field: string; parent: ResourceDeclaration };
// Both below depend on the declarations alone (fixed at load), yet every list and record read asked them anew: kept.
const trashParents = new WeakMap<ResourceDeclaration, readonly TrashParent[]>();
const hidingAncestors = new WeakMap<ResourceDeclaration, readonly HidingAncestor[]>();

/** The fields whose record, when in the trash, hides this one too: parents and `trashWith` references to a trash resource. */
export function trashParentsOf(decl: ResourceDeclaration): readonly TrashParent[] {
  let found = trashParents.get(decl);
  if (!found) trashParents.set(decl, (found = Object.freeze(findTrashParents(decl))));
  return found;
}

function findTrashParents(decl: ResourceDeclaration): TrashParent[] {
  const out: TrashParent[] = [];
  for (const [field, meta] of Object.entries(decl.fields ?? {})) {
    if (meta.kind !== 'reference' || !(meta.parent || meta.trashWith) || !meta.reference) continue;
    const parent = resourceNamed(meta.reference);
    if (parent?.trash && !meta.joined) out.push({ field, parent, required: Boolean(meta.required || meta.parent) });
  }
  return out;
}

/**
 * The parents (`parent: true`, required) that are no trash resource themselves but may be hidden by one further up: a
 * layer's slide, whose carousel may be in the trash; a handoff's lead, whose event may be.
 */
function hidingAncestorsOf(decl: ResourceDeclaration): readonly HidingAncestor[] {
  let found = hidingAncestors.get(decl);
  if (!found) hidingAncestors.set(decl, (found = Object.freeze(findHidingAncestors(decl))));
  return found;
}

function findHidingAncestors(decl: ResourceDeclaration, depth = 0): HidingAncestor[] {
  if (depth > 4) return [];
  const out: HidingAncestor[] = [];
  for (const [field, meta] of Object.entries(decl.fields ?? {})) {
    if (meta.kind !== 'reference' || !meta.parent || !meta.reference || meta.joined) continue;
    const parent = resourceNamed(meta.reference);
    if (parent && parent.name !== decl.name && (trashParentsOf(parent).length || findHidingAncestors(parent, depth + 1).length)) out.push({ field, parent });
  }
  return out;
}

/**
 * The records of an account in a parent's trash (its events, forms, lists, carousels, leads), kept per process, so a
 * list of their children leaves those parents out by their ids, or not at all when the account has none, instead of
 * looking each row's parent up (issue 16: a leads page with that anti-join cost 1.18 times the page without a trash).
 * At most MAX_TRASHED_IDS are kept: an account with more in that trash keeps `null`, and its lists look parents up.
 * Dropped on this process's writes that set a `<p>_deleted_at` of that table (at the statement) and, on PostgreSQL, on
 * every process's (statement triggers `after update of <p>_deleted_at` NOTIFY leadstage_trash at commit, migration
 * 20261128002000). A record purged from the trash needs no drop: leaving its id out leaves out nothing that exists.
 */
export const MAX_TRASHED_IDS = 64;
const trashedCaches = new Map<string, ProcessCache<string[] | null>>();

function trashedCacheOf(parent: ResourceDeclaration): ProcessCache<string[] | null> {
  let cache = trashedCaches.get(parent.table);
  if (!cache) {
    const writes = writesTo([parent.table]);
    // An UPDATE (or an upsert's DO UPDATE) that sets the column, or an INSERT that names it.
    const column = deletedAtOf(parent);
    const sets = new RegExp(`\\b${column}"?\\s*=|^\\s*insert\\b[\\s\\S]*\\b${column}\\b`, 'i');
    cache = processCache<string[] | null>({
      dropOn: { test: (sql) => writes.test(sql) && sets.test(sql) },
      channel: TRASH_CHANNEL,
      max: 10_000,
      // A record inserted already in the trash by another process (SQL by hand: the API never does) notifies nobody.
      maxAgeMs: 60_000,
    });
    trashedCaches.set(parent.table, cache);
  }
  return cache;
}

/**
 * The ids of the account's records in `parent`'s trash when this process knows them (`null`: more than MAX_TRASHED_IDS);
 * `undefined` when it does not: they are then read in the background for the next caller, and this one looks the
 * parents up in its query. `db` is the root handle (outside any transaction: a transaction sees its own writes).
 */
export function knownTrashed(db: Knex, parent: ResourceDeclaration, accountId: string): string[] | null | undefined {
  const { table, accountKey, primaryKey } = parent;
  if (parent.tenancy !== 'account' || !accountKey) return undefined;
  const cache = trashedCacheOf(parent);
  const known = cache.known(db, accountId);
  if (known) return known.value;
  cache.warm(db, accountId, async () => {
    const ids = (await db(table)
      .where(accountKey, accountId)
      .whereNotNull(deletedAtOf(parent))
      .limit(MAX_TRASHED_IDS + 1)
      .pluck(primaryKey)) as string[];
    return ids.length > MAX_TRASHED_IDS ? null : ids;
  });
  return undefined;
}

let parentsLeftOut = 0;

/**
 * Builds with `build` leaving out the conditions on parents in the trash (withTrash's 'live' view: by the ids this
 * process knows, or looked up): the key of a list's kept total (api/crud/list.ts). Those conditions are the same for
 * every list of a resource, so they tell one filter from another no better than their absence does, and the text
 * they take changes as the process learns which parents are in the trash (which would count a total again). What
 * is in the trash is the tables' state, which the totals follow by the parents' write epochs like any other write.
 */
export function trashParentsLeftOut<T>(build: () => T): T {
  parentsLeftOut++;
  try {
    return build();
  } finally {
    parentsLeftOut--;
  }
}

/** Where a query of an account's rows runs: its root handle and account, for what this process knows of the trash. */
interface AccountScope {
  db: Knex;
  accountId: string;
}

/**
 * Narrows a query of `decl`'s table to the rows `view` sees (nothing to do for a resource without a trash). With
 * `scope` (a query of one account's rows outside any transaction) the parents in the trash are left out by the ids
 * this process knows (knownTrashed), or not looked up at all when the account has none.
 */
export function withTrash(query: Knex.QueryBuilder, decl: ResourceDeclaration, view: TrashView = 'live', scope?: AccountScope): Knex.QueryBuilder {
  if (view === 'all') return query;
  if (decl.trash) {
    const column = `${decl.table}.${deletedAtOf(decl)}`;
    if (view === 'trashed') return query.whereNotNull(column);
    query.whereNull(column);
  }
  if (view === 'live' && !parentsLeftOut) {
    for (const { field, parent, required } of trashParentsOf(decl)) {
      const known = scope && knownTrashed(scope.db, parent, scope.accountId);
      if (known) {
        const column = `${decl.table}.${field}`;
        if (known.length && required) query.whereNotIn(column, known);
        else if (known.length) query.where((q) => q.whereNull(column).orWhereNotIn(column, known));
        continue;
      }
      query.whereNotExists(function () {
        this.select(1)
          .from(parent.table)
          .whereRaw('??.?? = ??.??', [parent.table, parent.primaryKey, decl.table, field])
          .whereNotNull(`${parent.table}.${deletedAtOf(parent)}`);
      });
    }
    // Further up: the parent itself must be live (its own parents not in the trash).
    for (const { field, parent } of hidingAncestorsOf(decl)) {
      query.whereExists(function () {
        withTrash(this.select(1).from(parent.table).whereRaw('??.?? = ??.??', [parent.table, parent.primaryKey, decl.table, field]), parent, 'live', scope);
      });
    }
  }
  return query;
}

/**
 * The one place an account-scoped query is filtered by account (DESIGN.md: never by hand in a handler). Every read and
 * write of an account resource starts here, so a record of another account is simply not found — nor, for a trash
 * resource, a record in the trash (or whose parent is), unless `view` asks for those.
 */
export function scoped(db: Knex | Knex.Transaction, decl: ResourceDeclaration, accountId: string, view: TrashView = 'live'): Knex.QueryBuilder {
  if (decl.tenancy !== 'account' || !decl.accountKey) throw new Error(`${decl.name} is not account-scoped`);
  const scope = db.isTransaction ? undefined : { db: db as Knex, accountId };
  return withTrash(db(decl.table).where(`${decl.table}.${decl.accountKey}`, accountId), decl, view, scope);
}

/** The account of the request (resolved by resolveAccount before any account route). */
export const accountOf = (req: Request): string => req.account!.a_id;

/**
 * A resource's table as this request may see it: an account resource's rows of the request's account, a platform
 * resource's table as it is. Tenancy is the declaration's; the generic layer reads and writes through this alone.
 */
export function scopeFor(db: Knex | Knex.Transaction, decl: ResourceDeclaration, req: Request, view: TrashView = 'live'): Knex.QueryBuilder {
  return decl.tenancy === 'account' ? scoped(db, decl, accountOf(req), view) : withTrash(db(decl.table), decl, view);
}

/** True when `id` names a record of `decl` in the account (matched on `key`, default the primary key), not in the trash. */
export async function existsInAccount(db: Knex | Knex.Transaction, decl: ResourceDeclaration, accountId: string, id: string, key = decl.primaryKey): Promise<boolean> {
  return Boolean(await scoped(db, decl, accountId).where(`${decl.table}.${key}`, id).first(db.raw('1 as found')));
}
