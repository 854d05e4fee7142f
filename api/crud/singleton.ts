import { Router, type Request } from 'express';
import { ctx } from '../context.js';
import { requirePermission } from '../middleware/auth.js';
import { accountOf, scoped } from '../models/scope.js';
import { parseBody } from './input.js';
import { historyOf, stateAfter } from './history.js';
import { notFound } from '../errors.js';
import { checkRecord, secretFlags } from './rules.js';
import type { ResourceDeclaration } from '../../resources/types.js';

type Row = Record<string, unknown>;

/** GET/PUT on the resource path itself: the account's one record (settings); defaults until first saved. */
export function singletonRouter(decl: ResourceDeclaration): Router {
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
  const save = async (req: Request, data: Row): Promise<Row> => {
    const accountId = accountOf(req);
    return ctx(req).db.transaction(async (trx) => {
      const existing = await scoped(trx, decl, accountId).first();
      checkRecord(decl, { ...(existing ?? empty(accountId)), ...data });
      const [saved] = await trx(decl.table)
        .insert({ ...data, [decl.accountKey!]: accountId })
        .onConflict(decl.accountKey!)
        .merge({ ...data, [`${prefix}_updated_at`]: trx.fn.now() })
        .returning('*');
      return saved;
    });
  };
  router.put('/', requirePermission(decl.group, decl.operations.update!), async (req, res) => {
    const data = parseBody(decl, decl.update, req.body);
    res.json(send(await save(req, data), accountOf(req)));
  });
  if (decl.history) {
    // The record's id as answered is the account's: …/settings/{accountId}/history.
    const stored = async (req: Request): Promise<Row> => {
      const row = req.params.id === accountOf(req) ? await scoped(ctx(req).db, decl, accountOf(req)).first() : undefined;
      if (!row) throw notFound();
      return row;
    };
    router.get('/:id/history', requirePermission(decl.group, decl.operations.get!), async (req, res) => {
      res.json(await historyOf(ctx(req).db, decl, String((await stored(req))[pk])));
    });
    router.post('/:id/history/:hid/revert', requirePermission(decl.group, decl.operations.update!), async (req, res) => {
      const row = await stored(req);
      const target = stateAfter(decl, row, await historyOf(ctx(req).db, decl, String(row[pk])), String(req.params.hid).toLowerCase());
      if (!target) throw notFound('The history entry does not exist');
      res.json(send(await save(req, parseBody(decl, decl.update, target)), accountOf(req)));
    });
  }
  return router;
}
