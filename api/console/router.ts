import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { ctx } from '../context.js';
import { ApiError, notFound, validate } from '../errors.js';
import { crudRouter, rejectNulBytes, validateFor } from '../crud/router.js';
import { requirePermission, requireUser, resolveAccount } from '../middleware/auth.js';
import { scoped } from '../models/scope.js';
import { accountOf, consoleAdapter, invalid, parentWhere, secretFlags, type ConsoleHooks } from './generic.js';
import { isUuid } from '../../resources/fields.js';
import { resourceNamed } from '../../resources/index.js';
import type { ResourceDeclaration } from '../../resources/types.js';

type Row = Record<string, unknown>;

/** Most children one reorder may name (a list level of 5,000 items fits). */
export const MAX_REORDER = 10_000;

const orderBody = z.object({
  ids: z
    .array(z.string().refine(isUuid, { error: 'error_uuid_invalid' }), { error: 'error_ids_required' })
    .min(1, { error: 'error_ids_required' })
    .max(MAX_REORDER, { error: 'error_too_many' })
    .refine((ids) => new Set(ids.map((i) => i.toLowerCase())).size === ids.length, { error: 'error_ids_duplicate' }),
});

/**
 * PUT …/order {ids}: the complete children of one parent in their new order, in one transaction; answers the
 * reordered list. An id of another account (or none) answers 404; ids of several parents, or not all of one
 * parent's children, 400 order_invalid.
 */
function reorder(decl: ResourceDeclaration, serialize: (row: Row) => Row): RequestHandler {
  const order = decl.order!;
  const pk = decl.primaryKey;
  return async (req, res) => {
    rejectNulBytes(req.body);
    const ids = validate(orderBody, req.body).ids.map((i: string) => i.toLowerCase());
    const accountId = accountOf(req);
    const rows = await ctx(req).db.transaction(async (trx) => {
      const found: Row[] = await scoped(trx, decl, accountId)
        .whereIn(pk, ids)
        .select(pk, ...order.parent)
        .forUpdate();
      if (found.length !== ids.length) throw notFound('A record of the list does not exist');
      const parentKey = (r: Row) => order.parent.map((c) => String(r[c] ?? '')).join('|');
      if (new Set(found.map(parentKey)).size !== 1) throw new ApiError(400, 'order_invalid', 'The records belong to different parents', { ids: 'error_order_parents' });
      const siblings = await parentWhere(scoped(trx, decl, accountId), decl, found[0])
        .count({ n: '*' })
        .first();
      if (Number(siblings?.n ?? 0) !== ids.length) throw new ApiError(400, 'order_invalid', 'Give every record of the parent, each once', { ids: 'error_order_incomplete' });
      const cases = ids.map(() => 'when ? then ?::integer').join(' ');
      const bindings = ids.flatMap((id, i) => [id, i]);
      await scoped(trx, decl, accountId)
        .whereIn(pk, ids)
        .update({ [order.field]: trx.raw(`case ?? ${cases} end`, [pk, ...bindings]) });
      return parentWhere(scoped(trx, decl, accountId).select(`${decl.table}.*`), decl, found[0]).orderBy(order.field);
    });
    res.json(rows.map(serialize));
  };
}

/** GET/PUT on the resource path itself: the account's one record (settings); defaults until first saved. */
function singletonRouter(decl: ResourceDeclaration): Router {
  const router = Router({ mergeParams: true });
  const pk = decl.primaryKey;
  const prefix = pk.replace(/_id$/, '');
  const empty = (accountId: string): Row => {
    const row: Row = { [pk]: null, [decl.accountKey!]: accountId };
    for (const [field, meta] of Object.entries(decl.fields ?? {})) row[field] = meta.default ?? null;
    return row;
  };
  const send = (row: Row, accountId: string) => ({ ...secretFlags(decl, row), id: accountId });
  router.get('/', requirePermission(decl.group, decl.operations.get!), async (req, res) => {
    const accountId = accountOf(req);
    const row = await scoped(ctx(req).db, decl, accountId).first();
    res.json(send(row ?? empty(accountId), accountId));
  });
  router.put('/', requirePermission(decl.group, decl.operations.update!), async (req, res) => {
    rejectNulBytes(req.body);
    const data = validateFor(decl, decl.update, req.body);
    const accountId = accountOf(req);
    const { db } = ctx(req);
    const row = await db.transaction(async (trx) => {
      const existing = await scoped(trx, decl, accountId).first();
      const errors = decl.check?.({ ...(existing ?? empty(accountId)), ...data });
      if (errors && Object.keys(errors).length) throw invalid(decl, errors);
      const [saved] = await trx(decl.table)
        .insert({ ...data, [decl.accountKey!]: accountId })
        .onConflict(decl.accountKey!)
        .merge({ ...data, [`${prefix}_updated_at`]: trx.fn.now() })
        .returning('*');
      return saved;
    });
    res.json(send(row, accountId));
  });
  return router;
}

/**
 * The router of one account resource, mounted at /accounts/:accountId/<name>: the caller, the account (404 when the
 * caller may not see it), then the reorder route for ordered resources, the resource's own routes and the generic
 * CRUD routes from the declaration.
 */
export function accountResourceRouter(decl: ResourceDeclaration, hooks: ConsoleHooks = {}, extra?: (router: Router) => void): Router {
  const router = Router({ mergeParams: true });
  router.use(requireUser, resolveAccount());
  if (decl.singleton) {
    router.use(singletonRouter(decl));
    return router;
  }
  const adapter = consoleAdapter(decl, hooks, resourceNamed);
  const hidden = new Set(decl.hidden ?? []);
  const serialize = (row: Row): Row => {
    const out: Row = {};
    for (const [k, v] of Object.entries(adapter.serialize ? adapter.serialize(row) : row)) if (!hidden.has(k)) out[k] = v;
    out.id = row[decl.primaryKey];
    return out;
  };
  if (decl.order) router.put('/order', requirePermission(decl.group, 'update'), reorder(decl, serialize));
  extra?.(router);
  router.use(crudRouter(decl, adapter));
  return router;
}
