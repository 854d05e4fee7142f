import type { Request, Router } from 'express';
import type { Knex } from 'knex';
import type { z } from 'zod';
import { deletedAtOf, scopeFor, type TrashView } from '../models/scope.js';
import { refuseIfReferenced } from './references.js';
import { checkRecord, checkReferences, parentWhere, uniqueConflict } from './rules.js';
import { fieldsOf } from '../../resources/define.js';
import type { ResourceDeclaration } from '../../resources/types.js';

type Row = Record<string, unknown>;

/** What a create answers: the new id, work for after the commit (mail), and whether it named a record already there. */
export type Created = string | { id: string; afterCommit?: () => Promise<void>; existing?: boolean };

/**
 * What a resource adds to the generic behaviour (api/console/<name>.ts, api/routes/<name>.ts). Everything is optional:
 * a resource without hooks is served from its declaration alone.
 */
export interface ResourceHooks {
  /** Column the :id route parameter and a record's `id` refer to (default: the primary key). */
  idColumn?: string;
  /**
   * The base select for list and get (default: the table as scopeFor gives it). A trash resource's is also asked for
   * its trash (`view` 'trashed', GET …/trash): pass it on to scoped()/scopeFor().
   */
  query?(db: Knex, req: Request, view?: TrashView): Knex.QueryBuilder;
  /** Schemas, when they depend on configuration (default: the declaration's). */
  schemas?(req: Request): { create: z.ZodTypeAny; update: z.ZodTypeAny };
  /** Checks and changes that need the database, before an insert or update (existing: the stored record). */
  prepare?(trx: Knex.Transaction, data: Row, req: Request, existing?: Row): Promise<void>;
  /**
   * Replace the generic insert: returns the new id, and optionally work to do once the transaction has committed
   * (e.g. mail); `existing` when the create named a record that is already there (an idempotent retry: 200, not 201).
   */
  create?(trx: Knex.Transaction, data: Row, req: Request): Promise<Created>;
  /** Replace the generic update; optionally returns work to do once the transaction has committed (mail). */
  update?(trx: Knex.Transaction, id: string, data: Row, req: Request, existing: Row): Promise<void | { afterCommit?: () => Promise<void> }>;
  /**
   * Replace the generic delete; optionally returns work to do once the transaction has committed (stored bytes). For a
   * trash resource this is the purge (the delete only marks the record): it must find a record in the trash
   * (scoped(…, 'all')).
   */
  remove?(trx: Knex.Transaction, id: string, req: Request, existing: Row): Promise<void | { afterCommit?: () => Promise<void> }>;
  /**
   * A bulk update (POST …/bulk) of many stored records at once, for a resource that can check them as a set: the same
   * rules as update for every row, in a few statements instead of a few per row. Throws like update when a row is
   * refused (the bulk then goes row by row for the reasons), or EveryRowRefused when a check that does not depend on
   * the row fails. Default: update row by row.
   */
  updateMany?(trx: Knex.Transaction, rows: Row[], data: Row, req: Request): Promise<void>;
  /**
   * A bulk update by filter (POST …/bulk {filter}) as one statement over the records `matching` selects (a subquery of
   * their ids: the list's query with the filter), for a change the resource checks the same way for every record: the
   * number of records changed. Undefined when this change needs each row (the bulk then reads them and goes through
   * updateMany). Throws EveryRowRefused when the change is refused. Saves reading every row into the server first.
   */
  updateMatching?(trx: Knex.Transaction, matching: Knex.QueryBuilder, data: Row, req: Request): Promise<number | undefined>;
  /** A bulk delete of many stored records at once, like updateMany; optionally returns work for after the commit. */
  removeMany?(trx: Knex.Transaction, rows: Row[], req: Request): Promise<void | { afterCommit?: () => Promise<void> }>;
  /**
   * The row as answered (before hidden columns go and secrets become <field>_set). The row is read for its answer
   * alone, so it may be changed and returned (the leads' does). A list page's rows come with their timestamps as the
   * answer's strings, not Dates (api/db/jsonRows.ts): a serialize that reads a date must not count on either.
   */
  serialize?(row: Row): Row;
  /** Routes of the resource's own, mounted before the generic ones (after the caller and the account are known). */
  routes?(router: Router): void;
}

/** The generic behaviour with a resource's hooks filled in: what the router calls. */
export type Adapter = Required<Pick<ResourceHooks, 'query' | 'schemas' | 'create' | 'update' | 'remove'>> &
  Pick<ResourceHooks, 'updateMany' | 'updateMatching' | 'removeMany'> & {
    idColumn: string;
    /** Removes a record for good (a trash resource's purge; for any other the same as remove). */
    purge: Required<ResourceHooks>['remove'];
    /** The record as answered: hooks' serialize, secrets as flags, hidden columns left out, `id` added. */
    serialize(row: Row): Row;
  };

/**
 * The generic adapter of a declared resource, whatever its tenancy: reads through scopeFor (an account resource sees
 * its account's rows only), validated references and cross-field rules, next order position for ordered children,
 * the account id from the route (never the body), unique indexes as 409, `<prefix>_updated_at` on every update.
 */
export function resourceAdapter(decl: ResourceDeclaration, hooks: ResourceHooks, registry: (name: string) => ResourceDeclaration | undefined): Adapter {
  const table = decl.table;
  const idColumn = hooks.idColumn ?? decl.primaryKey;
  const prefix = decl.primaryKey.replace(/_id$/, '');
  const account = decl.tenancy === 'account';
  const hidden = new Set(decl.hidden ?? []);
  // Secret fields and the flag each is answered as (secretFlags); a flag that is itself hidden is not answered.
  const secrets = fieldsOf(decl)
    .filter(([, meta]) => meta.kind === 'secret')
    .map(([field]) => [field, `${field}_set`] as const)
    .filter(([, flag]) => !hidden.has(flag));
  const dropped = new Set([
    ...hidden,
    ...fieldsOf(decl)
      .filter(([, meta]) => meta.kind === 'secret')
      .map(([field]) => field),
  ]);
  const withConflicts = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      throw uniqueConflict(decl, err) ?? err;
    }
  };
  const checkWrite = async (trx: Knex.Transaction, record: Row, data: Row, req: Request, existing?: Row) => {
    checkRecord(decl, record);
    if (account) await checkReferences(trx, decl, data, req.account!.a_id, registry);
    await hooks.prepare?.(trx, data, req, existing);
  };
  const purge: Adapter['purge'] =
    hooks.remove ??
    (async (trx, id, req) => {
      await scopeFor(trx, decl, req, 'all').where(idColumn, id).del();
    });
  return {
    idColumn,
    updateMany: hooks.updateMany,
    updateMatching: hooks.updateMatching,
    removeMany: hooks.removeMany,
    query: hooks.query ?? ((db, req, view) => scopeFor(db, decl, req, view).select(`${table}.*`)),
    schemas: hooks.schemas ?? (() => ({ create: decl.create, update: decl.update })),
    // What secretFlags then the hidden filter give, in one pass over the row's keys (a list page serialises every
    // row: three copies of each were a visible part of its CPU): the row's keys but secrets and hidden ones, then
    // `<secret>_set`, then `id`. A resource with neither answers the row itself with its `id` (a row is read for its
    // answer alone, ResourceHooks.serialize): the same keys in the same order, and no copy.
    serialize(row) {
      const src = hooks.serialize ? hooks.serialize(row) : row;
      if (dropped.size === 0 && secrets.length === 0) {
        src.id = row[idColumn];
        return src;
      }
      const out: Row = {};
      for (const k of Object.keys(src)) if (!dropped.has(k)) out[k] = src[k];
      for (const [field, flag] of secrets) out[flag] = src[field] !== null && src[field] !== undefined && src[field] !== '';
      out.id = row[idColumn];
      return out;
    },
    create:
      hooks.create ??
      (async (trx, data, req) => {
        await checkWrite(trx, data, data, req);
        if (decl.order && (data[decl.order.field] === undefined || data[decl.order.field] === null)) {
          const last = await parentWhere(scopeFor(trx, decl, req), decl, data)
            .max({ n: decl.order.field })
            .first();
          data[decl.order.field] = last?.n === null || last?.n === undefined ? 0 : Number(last.n) + 1;
        }
        return withConflicts(async () => {
          const [row] = await trx(table)
            .insert(account ? { ...data, [decl.accountKey!]: req.account!.a_id } : data)
            .returning([idColumn]);
          return row[idColumn] as string;
        });
      }),
    update:
      hooks.update ??
      (async (trx, id, data, req, existing) => {
        await checkWrite(trx, { ...existing, ...data }, data, req, existing);
        if (!Object.keys(data).length) return;
        await withConflicts(() =>
          scopeFor(trx, decl, req)
            .where(idColumn, id)
            .update({ ...data, [`${prefix}_updated_at`]: trx.fn.now() }),
        );
      }),
    // A trash resource's delete marks the record (the history's trigger records it as a delete); what would keep it
    // from being purged later (a restricting reference) refuses it now, as a delete would.
    remove: decl.trash
      ? async (trx, id, req, existing) => {
          await refuseIfReferenced(trx, decl.table, existing[decl.primaryKey] as string);
          await scopeFor(trx, decl, req)
            .where(idColumn, id)
            .update({ [deletedAtOf(decl)]: trx.fn.now() });
        }
      : purge,
    purge,
  };
}
