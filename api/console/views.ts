import type { Request, RequestHandler } from 'express';
import { ctx } from '../context.js';
import { ApiError } from '../errors.js';
import { scopeFor } from '../models/scope.js';
import { parseFilter } from '../crud/list.js';
import { invalid } from '../crud/input.js';
import type { ResourceHooks } from '../crud/adapter.js';
import { ACCOUNT_RESOURCES } from '../../resources/index.js';
import { views } from '../../resources/views.js';
import type { ResourceDeclaration } from '../../resources/types.js';
import { LISTABLE } from '../requestSlots.js';

type Row = Record<string, unknown>;

/** The lists the caller may open in the request's account, worked out once a request (permissions are async), kept on it. */
type WithListable = Request & { [LISTABLE]?: ResourceDeclaration[] };
const listableOf = (req: Request) => (req as WithListable)[LISTABLE];

/** Account resources with a list (not a singleton, not the views themselves) whose list bit the caller's role holds. */
async function listableFor(req: Request): Promise<ResourceDeclaration[]> {
  const { permissions } = ctx(req);
  const out: ResourceDeclaration[] = [];
  for (const decl of ACCOUNT_RESOURCES) {
    if (decl.name === views.name || decl.singleton || !decl.operations.list) continue;
    if (await permissions.can(req.accountRole, decl.group, decl.operations.list)) out.push(decl);
  }
  return out;
}

const forbidden = (message: string) => new ApiError(403, 'forbidden', message);

/** PUT and DELETE of a view the caller sees but does not own (a shared one): 403 before the body is read. */
const ownerOnly: RequestHandler = async (req, _res, next) => {
  const row = await viewsHooks.query!(ctx(req).db, req)
    .where('vw_id', String(req.params.id))
    .first()
    .catch(() => undefined); // a malformed id: the generic route answers 404
  if (row && row.vw_ownerid !== req.user!.u_id) throw forbidden('Only the owner of a view can change or delete it');
  next();
};

/** vw_sort, vw_columns and vw_filter held to the declaration of the list the view is of. */
function checkListState(target: ResourceDeclaration, record: Row): void {
  const errors: Record<string, string> = {};
  const sort = record.vw_sort as [string, string] | null | undefined;
  if (sort && sort[0] !== 'id' && !target.sortable.includes(sort[0])) errors.vw_sort = 'error_invalid_value';
  const columns = record.vw_columns as string[] | null | undefined;
  if (columns && !columns.every((c) => target.listColumns.includes(c))) errors.vw_columns = 'error_invalid_value';
  try {
    parseFilter(record.vw_filter ?? {}, target, target.primaryKey);
  } catch {
    errors.vw_filter = 'error_invalid_value';
  }
  if (Object.keys(errors).length) throw invalid(views, errors);
}

/**
 * Saved views (platform-and-flows.md 1): a caller lists and reads their own views and the account's shared ones, of
 * the lists they may open; creates views of such a list (the owner is the caller); changes and deletes only their
 * own (403); and shares one only with the update bit of its list (403).
 */
export const viewsHooks: ResourceHooks = {
  routes(router) {
    router.use(async (req, _res, next) => {
      (req as WithListable)[LISTABLE] = await listableFor(req);
      next();
    });
    router.put('/:id', ownerOnly);
    router.delete('/:id', ownerOnly);
  },
  query(db, req) {
    const names = (listableOf(req) ?? []).map((d) => d.name);
    return scopeFor(db, views, req)
      .select('views.*')
      .whereIn('vw_resource', names)
      .where((q) => q.where('vw_ownerid', req.user!.u_id).orWhere('vw_shared', true));
  },
  async prepare(trx, data, req, existing) {
    const name = existing ? existing.vw_resource : data.vw_resource;
    const target = (listableOf(req) ?? []).find((d) => d.name === name);
    if (!target) throw invalid(views, { vw_resource: 'error_invalid_value' });
    const record = { ...existing, ...data };
    checkListState(target, record);
    if (record.vw_shared && !(await ctx(req).permissions.can(req.accountRole, target.group, target.operations.update ?? 'update')))
      throw forbidden('Sharing a view needs permission to change its list');
    if (!existing) data.vw_ownerid = req.user!.u_id;
    // node-postgres sends a JS array as a PostgreSQL array, not JSON: arrays go as JSON text cast to jsonb.
    for (const field of ['vw_sort', 'vw_columns']) if (Array.isArray(data[field])) data[field] = trx.raw('?::jsonb', [JSON.stringify(data[field])]);
  },
};
