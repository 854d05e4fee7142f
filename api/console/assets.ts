import type { Router } from 'express';
import { ctx } from '../context.js';
import { notFound, validate } from '../errors.js';
import { requirePermission } from '../middleware/auth.js';
import { scoped, accountOf } from '../models/scope.js';
import { serializeAsset } from '../models/assets.js';
import { checkAssetFiles, claimAssetFiles, lockAsset, removeAssetBytes, signAssetUploads } from '../services/assets.js';
import { assets, assetFileSchema, assetSignSchema, type AssetFileInput } from '../../resources/assets.js';
import { isUuid } from '../../resources/fields.js';
import { uniqueConflict } from '../crud/rules.js';
import { type ResourceHooks } from '../crud/adapter.js';
import { rejectNulBytes, validateFor } from '../crud/input.js';

type Row = Record<string, unknown>;

export const assetsHooks: ResourceHooks = {
  serialize: serializeAsset,
  // The record goes at once; its bytes once that is committed (a rollback keeps both).
  async remove(trx, id, req) {
    const row = await lockAsset(trx, accountOf(req), id);
    await trx('assets').where('as_id', id).del();
    return { afterCommit: () => removeAssetBytes(ctx(req), row as { as_path: string; as_fileid: string; as_thumb_fileid: string | null }) };
  },
};

const send = (row: Row): Row => ({ ...serializeAsset(row), id: row.as_id });

/**
 * POST /assets/sign {ids}, POST /assets (create from a signed upload: the file is checked and hashed before the
 * transaction that claims it), PUT /assets/{id}/file (replace the bytes: same id, version + 1).
 */
export function assetsRoutes(router: Router): void {
  router.post('/sign', requirePermission('account_assets', 'create'), async (req, res) => {
    rejectNulBytes(req.body);
    const { ids } = validate(assetSignSchema, req.body);
    res.json(await signAssetUploads(ctx(req), accountOf(req), ids, req.user!.u_id));
  });

  router.post('/', requirePermission('account_assets', 'create'), async (req, res) => {
    rejectNulBytes(req.body);
    const data = validateFor(assets, assets.create, req.body);
    const input = validateFor(assets, assetFileSchema, req.body) as AssetFileInput;
    const context = ctx(req);
    const accountId = accountOf(req);
    const files = await checkAssetFiles(context, accountId, input);
    const row = await context.db
      .transaction(async (trx) => {
        const columns = await claimAssetFiles(trx, files);
        const [saved] = await trx('assets')
          .insert({ ...data, ...columns, as_accountid: accountId, as_created_by: req.user!.u_id })
          .returning('*');
        return saved;
      })
      .catch((err) => {
        throw uniqueConflict(assets, err) ?? err;
      });
    res.status(201).json(send(row));
  });

  router.put('/:id/file', requirePermission('account_assets', 'update'), async (req, res) => {
    const id = String(req.params.id);
    if (!isUuid(id)) throw notFound('The asset does not exist');
    rejectNulBytes(req.body);
    const input = validateFor(assets, assetFileSchema, req.body) as AssetFileInput;
    const context = ctx(req);
    const accountId = accountOf(req);
    if (!(await scoped(context.db, assets, accountId).where('as_id', id.toLowerCase()).first('as_id'))) throw notFound('The asset does not exist');
    const files = await checkAssetFiles(context, accountId, input);
    const { before, after } = await context.db.transaction(async (trx) => {
      const old = await lockAsset(trx, accountId, id.toLowerCase());
      const columns = await claimAssetFiles(trx, files);
      const [saved] = await trx('assets')
        .where('as_id', String(old.as_id))
        .update({ ...columns, as_version: trx.raw('as_version + 1'), as_updated_at: trx.fn.now() })
        .returning('*');
      return { before: old, after: saved };
    });
    await removeAssetBytes(context, before as { as_path: string; as_fileid: string; as_thumb_fileid: string | null });
    res.json(send(after));
  });
}
