import { Router, type Request, type RequestHandler } from 'express';
import type { Knex } from 'knex';
import type { z } from 'zod';
import { ctx } from '../context.js';
import { firstRow } from '../db/firstRow.js';
import { ApiError, notFound, validate } from '../errors.js';
import { requirePermission, requireUser } from '../middleware/auth.js';
import { isUuid } from '../../resources/fields.js';
import type { ResourceDeclaration } from '../../resources/types.js';
import { parseListQuery, runList, sendList } from './list.js';

type Row = Record<string, unknown>;
export type Operation = 'list' | 'get' | 'create' | 'update' | 'delete';

/** What an API resource adds to its declaration: how to read rows and how to write them. */
export interface CrudAdapter {
  /** Column the :id route parameter and a record's `id` refer to (default: the primary key). */
  idColumn?: string;
  /** Base select for list and get, already scoped (tenancy, visibility) for this request. */
  query(db: Knex, req: Request): Knex.QueryBuilder;
  /** Schemas, when they depend on configuration (default: the declaration's). */
  schemas?(req: Request): { create: z.ZodTypeAny; update: z.ZodTypeAny };
  /**
   * Returns the new id, and optionally work to do once the transaction has committed (e.g. mail); `existing` when the
   * create named a record that is already there (an idempotent retry), which answers 200 instead of 201.
   */
  create(trx: Knex.Transaction, data: Row, req: Request): Promise<string | { id: string; afterCommit?: () => Promise<void>; existing?: boolean }>;
  update(trx: Knex.Transaction, id: string, data: Row, req: Request, existing: Row): Promise<void>;
  /** Optionally returns work to do once the transaction has committed (e.g. removing stored bytes). */
  remove(trx: Knex.Transaction, id: string, req: Request, existing: Row): Promise<void | { afterCommit?: () => Promise<void> }>;
  serialize?(row: Row): Row;
}

/**
 * Mounts list/get/create/update/delete for a declaration: authenticate → (account resolved by the parent router)
 * → check permission → validate → query → serialise. An operation with no permission declared fails at start-up.
 */
export function crudRouter(decl: ResourceDeclaration, adapter: CrudAdapter, before: RequestHandler[] = []): Router {
  const ops: Operation[] = ['list', 'get', 'create', 'update', 'delete'];
  for (const op of ops) {
    if (!decl.operations[op]) throw new Error(`Resource ${decl.name}: operation ${op} has no permission (fail closed)`);
  }
  const idColumn = adapter.idColumn ?? decl.primaryKey;
  const hidden = new Set(decl.hidden ?? []);
  const serialize = (row: Row): Row => {
    const out: Row = {};
    for (const [k, v] of Object.entries(adapter.serialize ? adapter.serialize(row) : row)) if (!hidden.has(k)) out[k] = v;
    out.id = row[idColumn];
    return out;
  };
  const schemas = (req: Request) => adapter.schemas?.(req) ?? { create: decl.create, update: decl.update };
  const parse = (schema: z.ZodTypeAny, body: unknown): Row => {
    rejectNulBytes(body);
    return validateFor(decl, schema, body);
  };
  const perm = (op: Operation) => requirePermission(decl.group, decl.operations[op]!);

  const findOne = async (req: Request, id: string): Promise<Row> => {
    if (!isUuid(id)) throw notFound();
    const row = await firstRow(adapter.query(ctx(req).db, req).where(idColumn, id));
    if (!row) throw notFound();
    return row;
  };

  const router = Router({ mergeParams: true });
  router.use(requireUser, ...before);

  router.get('/', perm('list'), async (req, res) => {
    const query = parseListQuery(req, decl, idColumn);
    const { db, config } = ctx(req);
    const { rows, total, estimated } = await runList(db, () => adapter.query(db, req), query, decl, idColumn, config.listMaxRows);
    sendList(res, decl.name, query, rows.map(serialize), total, estimated);
  });

  router.get('/:id', perm('get'), async (req, res) => {
    res.json(serialize(await findOne(req, String(req.params.id))));
  });

  router.post('/', perm('create'), async (req, res) => {
    const data = parse(schemas(req).create, req.body);
    const created = await ctx(req).db.transaction((trx) => adapter.create(trx, data, req));
    const { id, afterCommit, existing } = typeof created === 'string' ? { id: created, afterCommit: undefined, existing: false } : created;
    if (afterCommit) await afterCommit();
    res.status(existing ? 200 : 201).json(serialize(await findOne(req, id)));
  });

  router.put('/:id', perm('update'), async (req, res) => {
    const id = String(req.params.id);
    const existing = await findOne(req, id);
    const data = parse(schemas(req).update, req.body);
    await ctx(req).db.transaction((trx) => adapter.update(trx, id, data, req, existing));
    res.json(serialize(await findOne(req, id)));
  });

  router.delete('/:id', perm('delete'), async (req, res) => {
    const id = String(req.params.id);
    const existing = await findOne(req, id);
    const removed = await ctx(req).db.transaction((trx) => adapter.remove(trx, id, req, existing));
    if (removed?.afterCommit) await removed.afterCommit();
    res.json(serialize(existing));
  });

  return router;
}

/**
 * The code of a 400 for these field errors: a contract code of the declaration (account-console.md, e.g.
 * event_title_required) when a field's message key is error_<code>, else validation_failed.
 */
export function contractCode(decl: ResourceDeclaration, fields: Record<string, string> | undefined): string {
  const codes = Object.values(fields ?? {}).map((k) => k.replace(/^error_/, ''));
  return codes.find((c) => decl.codes?.includes(c)) ?? 'validation_failed';
}

/** validate() with the declaration's contract codes. */
export function validateFor(decl: ResourceDeclaration, schema: z.ZodTypeAny, body: unknown): Row {
  try {
    return validate(schema, body) as Row;
  } catch (err) {
    if (err instanceof ApiError && err.code === 'validation_failed' && decl.codes) err.code = contractCode(decl, err.fields);
    throw err;
  }
}

/** Past this many values a body is not walked further: the JSON parser's size limit keeps real bodies far below. */
const MAX_NUL_SCAN_NODES = 1_000_000;

/**
 * PostgreSQL text cannot hold a NUL character (the insert would fail with a 500): a body field containing one, in
 * its value or in any key or string nested within, is answered 400 validation_failed with that field, before any
 * schema or query sees it. The walk is iterative and bounded, so no nesting depth can overflow the stack.
 */
export function rejectNulBytes(body: unknown): void {
  if (body === null || typeof body !== 'object') return;
  const fields: Record<string, string> = {};
  let budget = MAX_NUL_SCAN_NODES;
  for (const [key, value] of Object.entries(body as Row)) {
    const stack: unknown[] = [value];
    while (stack.length) {
      if (--budget < 0) throw new ApiError(413, 'payload_too_large', 'The request body has too many values');
      const node = stack.pop();
      if (typeof node === 'string') {
        if (node.includes('\u0000')) {
          fields[key] = 'error_invalid_value';
          break;
        }
      } else if (Array.isArray(node)) {
        for (const item of node) stack.push(item);
      } else if (node !== null && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) stack.push(k, v);
      }
    }
  }
  if (Object.keys(fields).length) throw new ApiError(400, 'validation_failed', 'A field contains a character that is not allowed', fields);
}
