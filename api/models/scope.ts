import type { Request } from 'express';
import type { Knex } from 'knex';
import type { ResourceDeclaration } from '../../resources/types.js';

/**
 * The one place an account-scoped query is filtered by account (DESIGN.md: never by hand in a handler). Every read and
 * write of an account resource starts here, so a record of another account is simply not found.
 */
export function scoped(db: Knex | Knex.Transaction, decl: ResourceDeclaration, accountId: string): Knex.QueryBuilder {
  if (decl.tenancy !== 'account' || !decl.accountKey) throw new Error(`${decl.name} is not account-scoped`);
  return db(decl.table).where(`${decl.table}.${decl.accountKey}`, accountId);
}

/** The account of the request (resolved by resolveAccount before any account route). */
export const accountOf = (req: Request): string => req.account!.a_id;

/**
 * A resource's table as this request may see it: an account resource's rows of the request's account, a platform
 * resource's table as it is. Tenancy is the declaration's; the generic layer reads and writes through this alone.
 */
export function scopeFor(db: Knex | Knex.Transaction, decl: ResourceDeclaration, req: Request): Knex.QueryBuilder {
  return decl.tenancy === 'account' ? scoped(db, decl, accountOf(req)) : db(decl.table);
}

/** True when `id` names a record of `decl` in the account (matched on `key`, default the primary key). */
export async function existsInAccount(db: Knex | Knex.Transaction, decl: ResourceDeclaration, accountId: string, id: string, key = decl.primaryKey): Promise<boolean> {
  return Boolean(await scoped(db, decl, accountId).where(`${decl.table}.${key}`, id).first(db.raw('1 as found')));
}
