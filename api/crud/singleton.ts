import { Router } from 'express';
import { ctx } from '../context.js';
import { requirePermission } from '../middleware/auth.js';
import { accountOf, scoped } from '../models/scope.js';
import { parseBody } from './input.js';
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
  router.put('/', requirePermission(decl.group, decl.operations.update!), async (req, res) => {
    const data = parseBody(decl, decl.update, req.body);
    const accountId = accountOf(req);
    const { db } = ctx(req);
    const row = await db.transaction(async (trx) => {
      const existing = await scoped(trx, decl, accountId).first();
      checkRecord(decl, { ...(existing ?? empty(accountId)), ...data });
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
