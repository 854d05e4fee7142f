import crypto from 'node:crypto';
import { Router, type NextFunction, type Request, type Response } from 'express';
import { ctx } from '../context.js';
import { ApiError } from '../errors.js';
import { requirePermission, requireUser, resolveAccount } from '../middleware/auth.js';
import { scoped } from '../models/scope.js';
import { manifestFor } from '../services/player.js';
import { serializeAsset } from '../models/assets.js';
import { assets } from '../../resources/assets.js';
import { isUuid } from '../../resources/fields.js';

type Row = Record<string, unknown>;

const SYNC_KEYS = ['as_id', 'as_name', 'as_title', 'as_type', 'as_size', 'as_sha256', 'as_version', 'url'];

/**
 * GET /accounts/{a}/sync/manifest (account-console.md: local media sync): the assets a local media server keeps, each
 * with id, name, SHA-256, size, version and URL; strong ETag, If-None-Match → 304.
 *
 * Two callers: a member with account_assets read (a session) gets every asset of the account; `npm run media:sync`
 * on a show-floor machine gives a player code (X-Player-Code header or ?code=) instead and gets the assets of that
 * code's group. A code of another account is refused like no credential at all.
 */
export function syncRouter(): Router {
  const router = Router({ mergeParams: true });
  router.get('/manifest', async (req: Request, res: Response, next: NextFunction) => {
    const code = String(req.headers['x-player-code'] ?? req.query.code ?? '')
      .trim()
      .toUpperCase();
    if (!code) return next();
    const accountId = String(req.params.accountId).toLowerCase();
    const { db } = ctx(req);
    const manifest = isUuid(accountId) ? await manifestFor(db, code) : undefined;
    if (!manifest || manifest.accountId !== accountId) throw new ApiError(404, 'code_not_found', 'This code is not known');
    const ids = Object.keys((JSON.parse(manifest.body) as { assets: Record<string, unknown> }).assets);
    const rows: Row[] = ids.length ? await scoped(db, assets, accountId).whereIn('as_id', ids).orderBy('as_name') : [];
    send(req, res, rows);
  });
  router.get('/manifest', requireUser, resolveAccount(), requirePermission('account_assets', 'read'), async (req, res) => {
    const rows: Row[] = await scoped(ctx(req).db, assets, req.account!.a_id).orderBy('as_name');
    send(req, res, rows);
  });
  return router;
}

function send(req: Request, res: Response, rows: Row[]): void {
  const list = rows.map((r) => {
    const a = serializeAsset(r);
    return Object.fromEntries(SYNC_KEYS.map((k) => [k, a[k] ?? null]));
  });
  const body = JSON.stringify({ assets: list });
  const etag = `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', 'no-cache');
  const inm = req.headers['if-none-match'];
  if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
    res.status(304).end();
    return;
  }
  res.type('application/json').send(body);
}
