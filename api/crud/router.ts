import { Router, type Request } from 'express';
import { ctx } from '../context.js';
import { firstRow } from '../db/firstRow.js';
import { notFound } from '../errors.js';
import { requirePermission, requireUser, resolveAccount } from '../middleware/auth.js';
import { resourceAdapter, type ResourceHooks } from './adapter.js';
import { parseBody } from './input.js';
import { parseListQuery, runList, sendList } from './list.js';
import { reorder } from './order.js';
import { historyRoutes } from './history.js';
import { trashRoutes } from './trash.js';
import { bulkRoute } from './bulk.js';
import { exportRoute } from './export.js';
import { singletonRouter } from './singleton.js';
import { isUuid } from '../../resources/fields.js';
import type { ResourceDeclaration } from '../../resources/types.js';

type Row = Record<string, unknown>;
export type Operation = 'list' | 'get' | 'create' | 'update' | 'delete';
const OPERATIONS: Operation[] = ['list', 'get', 'create', 'update', 'delete'];

/**
 * The one pipeline of every declared resource, whatever its tenancy: the caller → the account (an account resource:
 * 404 when the caller may not see it) → the permission → the body validated → the query through the scope → the
 * record serialised. Mounted at /api/1/<path> for a platform resource and /api/1/accounts/{a}/<path> for an account
 * resource (api/resources.ts). Ordered resources get PUT …/order, singletons GET/PUT on the path itself, and a
 * resource's own routes come before the generic ones. An operation with no permission declared (a singleton: get and
 * update) fails at start-up.
 */
export function resourceRouter(decl: ResourceDeclaration, hooks: ResourceHooks = {}, registry: (name: string) => ResourceDeclaration | undefined = () => undefined): Router {
  for (const op of decl.singleton ? (['get', 'update'] as const) : OPERATIONS) {
    if (!decl.operations[op]) throw new Error(`Resource ${decl.name}: operation ${op} has no permission (fail closed)`);
  }
  const router = Router({ mergeParams: true });
  // Every route checks the caller (requirePermission answers 401 without one); an account resource's path also names
  // the account. A platform resource's router takes no middleware of its own: a path under its prefix that it does not
  // serve (/accounts/{a}/sync with a player's code) passes through untouched.
  if (decl.tenancy === 'account') router.use(requireUser, resolveAccount());
  if (decl.singleton) {
    router.use(singletonRouter(decl));
    return router;
  }
  const adapter = resourceAdapter(decl, hooks, registry);
  const { idColumn, serialize } = adapter;
  const perm = (op: Operation) => requirePermission(decl.group, decl.operations[op]!);
  const findOne = async (req: Request, id: string): Promise<Row> => {
    if (!isUuid(id)) throw notFound();
    const row = await firstRow(adapter.query(ctx(req).db, req).where(idColumn, id));
    if (!row) throw notFound();
    return row;
  };

  if (decl.order) router.put('/order', requirePermission(decl.group, 'update'), reorder(decl, serialize));
  hooks.routes?.(router);
  // What every list has (a resource's own routes of the same path, above, come first: the leads' richer export).
  exportRoute(router, decl, adapter);
  bulkRoute(router, decl, adapter);
  if (decl.history) historyRoutes(router, decl, adapter, findOne);
  if (decl.trash) trashRoutes(router, decl, adapter, findOne);

  router.get('/', perm('list'), async (req, res) => {
    const query = parseListQuery(req, decl, idColumn);
    const { db, config } = ctx(req);
    // The rows go to the answer alone (the adapter's serialize reads no date): timestamps as their JSON strings.
    const { rows, total, estimated } = await runList(db, () => adapter.query(db, req), query, decl, idColumn, config.listMaxRows, true);
    sendList(res, decl.name, query, rows.map(serialize), total, estimated);
  });

  router.get('/:id', perm('get'), async (req, res) => {
    res.json(serialize(await findOne(req, String(req.params.id))));
  });

  router.post('/', perm('create'), async (req, res) => {
    const data = parseBody(decl, adapter.schemas(req).create, req.body);
    const created = await ctx(req).db.transaction((trx) => adapter.create(trx, data, req));
    const { id, afterCommit, existing } = typeof created === 'string' ? { id: created, afterCommit: undefined, existing: false } : created;
    if (afterCommit) await afterCommit();
    res.status(existing ? 200 : 201).json(serialize(await findOne(req, id)));
  });

  router.put('/:id', perm('update'), async (req, res) => {
    const id = String(req.params.id);
    const existing = await findOne(req, id);
    const data = parseBody(decl, adapter.schemas(req).update, req.body);
    const updated = await ctx(req).db.transaction((trx) => adapter.update(trx, id, data, req, existing));
    if (updated?.afterCommit) await updated.afterCommit();
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
