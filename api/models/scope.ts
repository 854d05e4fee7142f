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

/** True when `id` names a record of `decl` in the account (matched on `key`, default the primary key). */
export async function existsInAccount(db: Knex | Knex.Transaction, decl: ResourceDeclaration, accountId: string, id: string, key = decl.primaryKey): Promise<boolean> {
  return Boolean(await scoped(db, decl, accountId).where(`${decl.table}.${key}`, id).first(db.raw('1 as found')));
}
