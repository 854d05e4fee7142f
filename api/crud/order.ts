import type { RequestHandler } from 'express';
import { z } from 'zod';
import { ctx } from '../context.js';
import { ApiError, notFound, validate } from '../errors.js';
import { scopeFor } from '../models/scope.js';
import { rejectNulBytes } from './input.js';
import { parentWhere } from './rules.js';
import { isUuid } from '../../resources/fields.js';
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
export function reorder(decl: ResourceDeclaration, serialize: (row: Row) => Row): RequestHandler {
  const order = decl.order!;
  const pk = decl.primaryKey;
  return async (req, res) => {
    rejectNulBytes(req.body);
    const ids = validate(orderBody, req.body).ids.map((i: string) => i.toLowerCase());
    const scope = (trx: Parameters<typeof scopeFor>[0]) => scopeFor(trx, decl, req);
    const rows = await ctx(req).db.transaction(async (trx) => {
      const found: Row[] = await scope(trx)
        .whereIn(pk, ids)
        .select(pk, ...order.parent)
        .forUpdate();
      if (found.length !== ids.length) throw notFound('A record of the list does not exist');
      const parentKey = (r: Row) => order.parent.map((c) => String(r[c] ?? '')).join('|');
      if (new Set(found.map(parentKey)).size !== 1) throw new ApiError(400, 'order_invalid', 'The records belong to different parents', { ids: 'error_order_parents' });
      const siblings = await parentWhere(scope(trx), decl, found[0]).count({ n: '*' }).first();
      if (Number(siblings?.n ?? 0) !== ids.length) throw new ApiError(400, 'order_invalid', 'Give every record of the parent, each once', { ids: 'error_order_incomplete' });
      const cases = ids.map(() => 'when ? then ?::integer').join(' ');
      const bindings = ids.flatMap((id, i) => [id, i]);
      await scope(trx)
        .whereIn(pk, ids)
        .update({ [order.field]: trx.raw(`case ?? ${cases} end`, [pk, ...bindings]) });
      return parentWhere(scope(trx).select(`${decl.table}.*`), decl, found[0]).orderBy(order.field);
    });
    res.json(rows.map(serialize));
  };
}
