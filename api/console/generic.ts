import type { Knex } from 'knex';
import type { Request } from 'express';
import { ApiError, notFound } from '../errors.js';
import { scoped, existsInAccount } from '../models/scope.js';
import { contractCode, type CrudAdapter } from '../crud/router.js';
import { fieldsOf } from '../../resources/define.js';
import { messageFor } from '../../resources/messages.js';
import type { ResourceDeclaration } from '../../resources/types.js';

type Row = Record<string, unknown>;

/** What a resource adds to the generic behaviour (api/console/<name>.ts). */
export interface ConsoleHooks {
  /** The base select (default: the table, scoped to the account). */
  query?(db: Knex, req: Request): Knex.QueryBuilder;
  /** Checks and changes that need the database, before an insert or update (existing: the stored record). */
  prepare?(trx: Knex.Transaction, data: Row, req: Request, existing?: Row): Promise<void>;
  /** Replace the generic insert/update/delete. */
  create?: CrudAdapter['create'];
  update?: CrudAdapter['update'];
  remove?: CrudAdapter['remove'];
  serialize?(row: Row): Row;
}

/** The account of the request (resolved by resolveAccount before any account route). */
export const accountOf = (req: Request): string => req.account!.a_id;

/** A 400 with field errors, coded by the contract when a field's key is error_<code> of one of the declaration's codes. */
export function invalid(decl: ResourceDeclaration, fields: Record<string, string>): ApiError {
  return new ApiError(400, contractCode(decl, fields), messageFor(Object.values(fields)[0] ?? 'error_invalid_value'), fields);
}

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

/**
 * The generic adapter of an account resource: scoped reads, validated references and cross-field rules, next order
 * position for ordered children, the account id from the route (never the body), unique indexes as 409.
 */
export function consoleAdapter(decl: ResourceDeclaration, hooks: ConsoleHooks, registry: (name: string) => ResourceDeclaration | undefined): CrudAdapter {
  const table = decl.table;
  const pk = decl.primaryKey;
  const prefix = pk.replace(/_id$/, '');
  const withConflicts = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      throw uniqueConflict(decl, err) ?? err;
    }
  };
  return {
    query: hooks.query ?? ((db, req) => scoped(db, decl, accountOf(req)).select(`${table}.*`)),
    serialize: (row) => secretFlags(decl, hooks.serialize ? hooks.serialize(row) : row),
    create:
      hooks.create ??
      (async (trx, data, req) => {
        const accountId = accountOf(req);
        checkRecord(decl, data);
        await checkReferences(trx, decl, data, accountId, registry);
        await hooks.prepare?.(trx, data, req);
        if (decl.order && (data[decl.order.field] === undefined || data[decl.order.field] === null)) {
          const last = await parentWhere(scoped(trx, decl, accountId), decl, data)
            .max({ n: decl.order.field })
            .first();
          data[decl.order.field] = last?.n === null || last?.n === undefined ? 0 : Number(last.n) + 1;
        }
        return withConflicts(async () => {
          const [row] = await trx(table)
            .insert({ ...data, [decl.accountKey!]: accountId })
            .returning([pk]);
          return row[pk] as string;
        });
      }),
    update:
      hooks.update ??
      (async (trx, id, data, req, existing) => {
        const accountId = accountOf(req);
        checkRecord(decl, { ...existing, ...data });
        await checkReferences(trx, decl, data, accountId, registry);
        await hooks.prepare?.(trx, data, req, existing);
        if (!Object.keys(data).length) return;
        await withConflicts(() =>
          scoped(trx, decl, accountId)
            .where(pk, id)
            .update({ ...data, [`${prefix}_updated_at`]: trx.fn.now() }),
        );
      }),
    remove:
      hooks.remove ??
      (async (trx, id, req) => {
        await scoped(trx, decl, accountOf(req)).where(pk, id).del();
      }),
  };
}
