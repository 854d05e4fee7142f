import type { Router } from 'express';
import type { Knex } from 'knex';
import { ApiError } from '../errors.js';
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

/** Where carousels show an asset: a layer of a slide (in a variant), or a variant's navigation button. */
export interface AssetPlace {
  carousel_id: string;
  carousel_title: string;
  variant_title: string;
  slide_id: string | null;
  slide_title: string | null;
  layer_id: string | null;
  layer_title: string | null;
  /** next, prev or home for a navigation button; null for a layer. */
  button: string | null;
}

/** The places of carousels (not in the trash) that show an asset, by carousel title, then slide order. */
export async function assetPlaces(db: Knex, accountId: string, assetId: string): Promise<AssetPlace[]> {
  const layers: Row[] = await db('layers')
    .join('slides', 'slides.sl_id', 'layers.ly_slideid')
    .join('variants', 'variants.v_id', 'layers.ly_variantid')
    .join('carousels', 'carousels.c_id', 'slides.sl_carouselid')
    .where('layers.ly_accountid', accountId)
    .where('layers.ly_assetid', assetId)
    .whereNull('carousels.c_deleted_at')
    .orderBy([{ column: 'carousels.c_title' }, { column: 'slides.sl_order' }, { column: 'layers.ly_order' }])
    .select('c_id', 'c_title', 'v_title', 'sl_id', 'sl_title', 'ly_id', 'ly_title');
  const buttons: Row[] = await db('variants')
    .join('carousels', 'carousels.c_id', 'variants.v_carouselid')
    .where('variants.v_accountid', accountId)
    .where((q) => q.where('v_next_assetid', assetId).orWhere('v_prev_assetid', assetId).orWhere('v_home_assetid', assetId))
    .whereNull('carousels.c_deleted_at')
    .orderBy([{ column: 'carousels.c_title' }, { column: 'variants.v_title' }])
    .select('c_id', 'c_title', 'v_title', 'v_next_assetid', 'v_prev_assetid', 'v_home_assetid');
  return [
    ...layers.map((r) => ({
      carousel_id: String(r.c_id),
      carousel_title: String(r.c_title),
      variant_title: String(r.v_title),
      slide_id: String(r.sl_id),
      slide_title: String(r.sl_title),
      layer_id: String(r.ly_id),
      layer_title: (r.ly_title as string | null) ?? null,
      button: null,
    })),
    ...buttons.flatMap((r) =>
      (['next', 'prev', 'home'] as const)
        .filter((b) => r[`v_${b}_assetid`] === assetId)
        .map((b) => ({
          carousel_id: String(r.c_id),
          carousel_title: String(r.c_title),
          variant_title: String(r.v_title),
          slide_id: null,
          slide_title: null,
          layer_id: null,
          layer_title: null,
          button: b,
        })),
    ),
  ];
}

/**
 * POST /assets/sign {ids}, POST /assets (create from a signed upload: the file is checked and hashed before the
 * transaction that claims it), PUT /assets/{id}/file (replace the bytes: same id, version + 1).
 */
export function assetsRoutes(router: Router): void {
  /** Where an asset is used (the console shows it before a delete or a replacement). */
  router.get('/:id/places', requirePermission('account_assets', 'read'), async (req, res) => {
    const id = String(req.params.id).toLowerCase();
    if (!isUuid(id) || !(await scoped(ctx(req).db, assets, accountOf(req)).where('as_id', id).first('as_id'))) throw notFound('The asset does not exist');
    res.json({ places: await assetPlaces(ctx(req).db, accountOf(req), id) });
  });

  // An asset that carousels show is not deleted silently (their slots would go empty): 409 asset_in_use with the
  // places, unless the delete says ?force=1 (the console asks first, showing the same list). Then the generic delete.
  router.delete('/:id', requirePermission('account_assets', 'delete'), async (req, res, next) => {
    const id = String(req.params.id).toLowerCase();
    const force = req.query.force === '1' || req.query.force === 'true';
    if (isUuid(id) && !force) {
      const places = await assetPlaces(ctx(req).db, accountOf(req), id);
      if (places.length)
        throw new ApiError(409, 'asset_in_use', `This asset is used in ${places.length} place(s) of carousels: delete with force=1 to empty them`, undefined, { places });
    }
    next();
  });

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
