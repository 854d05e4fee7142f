import crypto from 'node:crypto';
import type { Request, Router } from 'express';
import type { Knex } from 'knex';
import { ctx } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { requirePermission } from '../middleware/auth.js';
import { scoped, accountOf, deletedAtOf, withTrash } from '../models/scope.js';
import { assetIdsOf, assetsById, carouselGraphs } from '../models/carousels.js';
import { carouselsManifest } from '../services/player.js';
import { assets } from '../../resources/assets.js';
import { carouselGroups, carousels, groupSchedules, layers, slides, variants, CODE_ALPHABET, CODE_LENGTH, WEEK_DAYS } from '../../resources/carousels.js';
import { z } from 'zod';
import { collections, orderedIdsSchema } from '../../resources/collections.js';
import { isUuid } from '../../resources/fields.js';
import type { ResourceDeclaration } from '../../resources/types.js';
import { invalid, rejectNulBytes, validateFor } from '../crud/input.js';
import { type ResourceHooks } from '../crud/adapter.js';

type Row = Record<string, unknown>;

/** A collection's public link token: 128 random bits, URL-safe. */
export const newCollectionToken = () => crypto.randomBytes(16).toString('base64url');

/** A player code: CODE_LENGTH characters of the unambiguous alphabet, uniformly drawn. */
export function newPlayerCode(): string {
  let out = '';
  while (out.length < CODE_LENGTH) {
    for (const b of crypto.randomBytes(CODE_LENGTH * 2)) {
      // 240 = 10 × 24: bytes above it would favour the first letters.
      if (b < 240 && out.length < CODE_LENGTH) out += CODE_ALPHABET[b % CODE_ALPHABET.length];
    }
  }
  return out;
}

export const collectionsHooks: ResourceHooks = {
  async prepare(_trx, data, _req, existing) {
    if (!existing) data.co_token = newCollectionToken();
  },
};

export const codesHooks: ResourceHooks = {
  async prepare(_trx, data, _req, existing) {
    if (!existing) data.cc_code = newPlayerCode();
  },
};

/** gs_days: a non-empty subset of mon…sun, stored in week order without repeats. */
const daysRule = z
  .array(z.enum(WEEK_DAYS), { error: 'error_days_invalid' })
  .min(1, { error: 'error_days_invalid' })
  .transform((days) => WEEK_DAYS.filter((d) => days.includes(d)));

/** The declaration's schema for everything but gs_days, which is an array (no field kind of the registry is one). */
function withDays(base: z.ZodTypeAny, mode: 'create' | 'update'): z.ZodTypeAny {
  return z.unknown().transform((body, zc) => {
    const { gs_days, ...rest } = body && typeof body === 'object' && !Array.isArray(body) ? (body as Row) : ({} as Row);
    const out = base.safeParse(rest);
    const days = gs_days === undefined && mode === 'update' ? undefined : daysRule.safeParse(gs_days);
    if (!out.success) for (const issue of out.error.issues) zc.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    if (days && !days.success) zc.addIssue({ code: 'custom', message: 'error_days_invalid', path: ['gs_days'] });
    if (!out.success || (days && !days.success)) return z.NEVER;
    return days ? { ...(out.data as Row), gs_days: days.data } : (out.data as Row);
  });
}
const scheduleSchemas = { create: withDays(groupSchedules.create, 'create'), update: withDays(groupSchedules.update, 'update') };

/** group-schedules (dayparting): gs_days as an array; the carousel must be of the account (checked as a reference). */
export const groupSchedulesHooks: ResourceHooks = {
  schemas: () => scheduleSchemas,
};

/** A layer's variant must be one of its slide's carousel (400 layer_variant_invalid otherwise). */
export const layersHooks: ResourceHooks = {
  async prepare(trx, data, req, existing) {
    if (existing) return;
    const accountId = accountOf(req);
    const slide = await scoped(trx, slides, accountId)
      .where('sl_id', data.ly_slideid as string)
      .first('sl_carouselid');
    const variant = await scoped(trx, variants, accountId)
      .where('v_id', data.ly_variantid as string)
      .first('v_carouselid');
    if (!slide || !variant || slide.sl_carouselid !== variant.v_carouselid) throw invalid(layers, { ly_variantid: 'error_layer_variant_invalid' });
  },
};

/** The record of the account named by :id, or 404. */
async function parentOf(db: Knex | Knex.Transaction, decl: ResourceDeclaration, req: Request, lock = false): Promise<Row> {
  const id = String(req.params.id);
  if (!isUuid(id)) throw notFound();
  const q = scoped(db, decl, accountOf(req)).where(decl.primaryKey, id.toLowerCase()).first(decl.primaryKey);
  const row = await (lock ? q.forUpdate() : q);
  if (!row) throw notFound();
  return row;
}

/**
 * GET/PUT /<parent>/{id}/<items>: an ordered set of ids of another resource (a collection's assets, a group's
 * carousels). PUT names the complete new set in order (may be empty); every id must be the account's (400 with the
 * field otherwise); one transaction; answers the ids in order.
 */
function orderedItemsRoutes(
  router: Router,
  o: { path: string; parent: ResourceDeclaration; child: ResourceDeclaration; table: string; parentColumn: string; childColumn: string; orderColumn: string; group: string },
): void {
  // An item in the trash (an asset, a carousel) is left out, and keeps its place for a restore.
  const read = (db: Knex | Knex.Transaction, parentId: string) =>
    withTrash(db(o.table).join(o.child.table, `${o.child.table}.${o.child.primaryKey}`, `${o.table}.${o.childColumn}`), o.child)
      .where(`${o.table}.${o.parentColumn}`, parentId)
      .orderBy([{ column: `${o.table}.${o.orderColumn}` }, { column: `${o.table}.${o.childColumn}` }])
      .pluck(`${o.table}.${o.childColumn}`);
  router.get(`/:id/${o.path}`, requirePermission(o.group, 'read'), async (req, res) => {
    const parent = await parentOf(ctx(req).db, o.parent, req);
    res.json({ ids: await read(ctx(req).db, String(parent[o.parent.primaryKey])) });
  });
  router.put(`/:id/${o.path}`, requirePermission(o.group, 'update'), async (req, res) => {
    rejectNulBytes(req.body);
    const { ids } = validateFor(o.parent, orderedIdsSchema, req.body) as { ids: string[] };
    const accountId = accountOf(req);
    const out = await ctx(req).db.transaction(async (trx) => {
      const parent = await parentOf(trx, o.parent, req, true);
      const parentId = String(parent[o.parent.primaryKey]);
      if (ids.length) {
        const found = await scoped(trx, o.child, accountId).whereIn(o.child.primaryKey, ids).pluck(o.child.primaryKey);
        if (found.length !== ids.length) throw new ApiError(400, 'validation_failed', 'Every item must be one of this account', { ids: 'error_reference_invalid' });
      }
      const replaced = trx(o.table).where(o.parentColumn, parentId);
      if (o.child.trash) replaced.whereNotIn(o.childColumn, trx(o.child.table).whereNotNull(deletedAtOf(o.child)).select(o.child.primaryKey));
      await replaced.del();
      if (ids.length) await trx(o.table).insert(ids.map((id, i) => ({ [o.parentColumn]: parentId, [o.childColumn]: id, [o.orderColumn]: i })));
      await scoped(trx, o.parent, accountId)
        .where(o.parent.primaryKey, parentId)
        .update({ [o.parent.primaryKey.replace(/_id$/, '_updated_at')]: trx.fn.now() });
      return read(trx, parentId);
    });
    res.json({ ids: out });
  });
}

export function collectionsRoutes(router: Router): void {
  orderedItemsRoutes(router, {
    path: 'assets',
    parent: collections,
    child: assets,
    table: 'collection_assets',
    parentColumn: 'ca_collectionid',
    childColumn: 'ca_assetid',
    orderColumn: 'ca_order',
    group: 'account_assets',
  });
}

export function carouselGroupsRoutes(router: Router): void {
  orderedItemsRoutes(router, {
    path: 'items',
    parent: carouselGroups,
    child: carousels,
    table: 'carousel_group_items',
    parentColumn: 'gi_groupid',
    childColumn: 'gi_carouselid',
    orderColumn: 'gi_order',
    group: 'account_carousels',
  });
}

/** GET /carousels/{id}/graph: the carousel with its variants, slides in order, layers per variant and their assets (the editor). */
export function carouselGraphRoute(router: Router): void {
  router.get('/:id/graph', requirePermission('account_carousels', 'read'), async (req, res) => {
    const id = String(req.params.id);
    if (!isUuid(id)) throw notFound();
    const accountId = accountOf(req);
    const { db } = ctx(req);
    const graph = (await carouselGraphs(db, accountId, [id.toLowerCase()])).get(id.toLowerCase());
    if (!graph) throw notFound();
    const assetMap = await assetsById(db, accountId, assetIdsOf([graph]));
    res.json({ ...graph, assets: Object.fromEntries(assetMap) });
  });
}

/**
 * GET /carousels/{id}/manifest: the player's manifest for one carousel being edited (no code, no group): the editor's
 * live preview loads the real player on it (/play/_preview/{accountId}/{carouselId}). Never cached: it shows the
 * last save.
 */
export function carouselManifestRoute(router: Router): void {
  router.get('/:id/manifest', requirePermission('account_carousels', 'read'), requirePermission('account_assets', 'read'), async (req, res) => {
    const id = String(req.params.id);
    if (!isUuid(id)) throw notFound();
    const accountId = accountOf(req);
    const { db } = ctx(req);
    if (!(await scoped(db, carousels, accountId).where('c_id', id.toLowerCase()).first('c_id'))) throw notFound();
    const settings = await db('account_settings').where('ls_accountid', accountId).first('ls_local_server_url');
    res.json({
      code: null,
      code_title: null,
      account_id: accountId,
      group: null,
      preview: true,
      ...(await carouselsManifest(db, accountId, [id.toLowerCase()], null)),
      local_server_url: settings?.ls_local_server_url ?? null,
    });
  });
}
