import type { Knex } from 'knex';
import { ApiError, notFound } from '../errors.js';
import { existsInAccount } from '../models/scope.js';
import { invalid } from './input.js';
import { fieldsOf } from '../../resources/define.js';
import { messageFor } from '../../resources/messages.js';
import type { ResourceDeclaration } from '../../resources/types.js';

type Row = Record<string, unknown>;

/** The declaration's rule across fields on the whole record (stored values merged with the change). */
export function checkRecord(decl: ResourceDeclaration, record: Row): void {
  const errors = decl.check?.(record);
  if (errors && Object.keys(errors).length) throw invalid(decl, errors);
}

/**
 * Every reference of the record must name a record of the same account: a parent from elsewhere answers 404 (like an
 * unknown parent), any other reference 400 with the field. References to resources not registered (yet) or not
 * account-scoped are left to the resource's hooks.
 */
export async function checkReferences(
  trx: Knex.Transaction,
  decl: ResourceDeclaration,
  data: Row,
  accountId: string,
  registry: (name: string) => ResourceDeclaration | undefined,
): Promise<void> {
  const errors: Record<string, string> = {};
  for (const [field, meta] of fieldsOf(decl)) {
    if ((meta.kind !== 'reference' && meta.kind !== 'asset') || !meta.reference) continue;
    const value = data[field];
    if (value === undefined || value === null) continue;
    const target = registry(meta.reference);
    if (!target || target.tenancy !== 'account') continue;
    if (await existsInAccount(trx, target, accountId, String(value), meta.referenceKey ?? target.primaryKey)) continue;
    if (meta.parent) throw notFound(`The ${target.name} does not exist`);
    errors[field] = 'error_reference_invalid';
  }
  if (Object.keys(errors).length) throw invalid(decl, errors);
}

/** The unique index a database error names, as 409 with the field (declared in decl.unique). */
export function uniqueConflict(decl: ResourceDeclaration, err: unknown): ApiError | undefined {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code !== '23505') return undefined;
  for (const u of decl.unique ?? []) {
    const index = `${decl.table}_${u.field}_unique`;
    if (e.constraint === index || e.message?.includes(`"${index}"`)) {
      const code = u.code ?? 'name_taken';
      return new ApiError(409, code, messageFor(`error_${code}`), { [u.field]: `error_${code}` });
    }
  }
  return undefined;
}

/** Write-only secrets: never sent; the record says `<field>_set` instead. */
export function secretFlags(decl: ResourceDeclaration, row: Row): Row {
  const out = { ...row };
  for (const [field, meta] of fieldsOf(decl)) {
    if (meta.kind !== 'secret') continue;
    out[`${field}_set`] = row[field] !== null && row[field] !== undefined && row[field] !== '';
    delete out[field];
  }
  return out;
}

/** The parent columns of an ordered resource's record, as a where clause (null parent: top level). */
export function parentWhere(qb: Knex.QueryBuilder, decl: ResourceDeclaration, record: Row): Knex.QueryBuilder {
  for (const column of decl.order!.parent) {
    const value = record[column];
    if (value === null || value === undefined) qb.whereNull(column);
    else qb.where(column, value as string);
  }
  return qb;
}
