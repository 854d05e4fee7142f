import type { Request } from 'express';
import type { Knex } from 'knex';
import { resourceNamed } from '../../resources/index.js';
import type { ResourceDeclaration } from '../../resources/types.js';

/**
 * Which rows of a trash resource a query sees: 'live' (the default: never a record in the trash, nor one whose parent
 * is), 'trashed' (only the trash: GET …/trash, restore, purge), 'all' (a purge's own bookkeeping).
 */
export type TrashView = 'live' | 'trashed' | 'all';

/** The column marking a record of a trash resource as deleted (`<prefix>_deleted_at`). */
export const deletedAtOf = (decl: ResourceDeclaration): string => `${decl.primaryKey.replace(/_id$/, '')}_deleted_at`;

/** The fields whose record, when in the trash, hides this one too: parents and `trashWith` references to a trash resource. */
export function trashParentsOf(decl: ResourceDeclaration): { field: string; parent: ResourceDeclaration }[] {
  const out: { field: string; parent: ResourceDeclaration }[] = [];
  for (const [field, meta] of Object.entries(decl.fields ?? {})) {
    if (meta.kind !== 'reference' || !(meta.parent || meta.trashWith) || !meta.reference) continue;
    const parent = resourceNamed(meta.reference);
    if (parent?.trash && !meta.joined) out.push({ field, parent });
  }
  return out;
}

/**
 * The parents (`parent: true`, required) that are no trash resource themselves but may be hidden by one further up: a
 * layer's slide, whose carousel may be in the trash; a handoff's lead, whose event may be.
 */
function hidingAncestorsOf(decl: ResourceDeclaration, depth = 0): { field: string; parent: ResourceDeclaration }[] {
  if (depth > 4) return [];
  const out: { field: string; parent: ResourceDeclaration }[] = [];
  for (const [field, meta] of Object.entries(decl.fields ?? {})) {
    if (meta.kind !== 'reference' || !meta.parent || !meta.reference || meta.joined) continue;
    const parent = resourceNamed(meta.reference);
    if (parent && parent.name !== decl.name && (trashParentsOf(parent).length || hidingAncestorsOf(parent, depth + 1).length)) out.push({ field, parent });
  }
  return out;
}

/** Narrows a query of `decl`'s table to the rows `view` sees (nothing to do for a resource without a trash). */
export function withTrash(query: Knex.QueryBuilder, decl: ResourceDeclaration, view: TrashView = 'live'): Knex.QueryBuilder {
  if (view === 'all') return query;
  if (decl.trash) {
    const column = `${decl.table}.${deletedAtOf(decl)}`;
    if (view === 'trashed') return query.whereNotNull(column);
    query.whereNull(column);
  }
  if (view === 'live') {
    for (const { field, parent } of trashParentsOf(decl)) {
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
        withTrash(this.select(1).from(parent.table).whereRaw('??.?? = ??.??', [parent.table, parent.primaryKey, decl.table, field]), parent, 'live');
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
  return withTrash(db(decl.table).where(`${decl.table}.${decl.accountKey}`, accountId), decl, view);
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
