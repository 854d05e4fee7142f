import { Router, type Request } from 'express';
import { z } from 'zod';
import { ctx } from '../context.js';
import { ApiError, validate } from '../errors.js';
import { requirePermission, requireUser, resolveAccount } from '../middleware/auth.js';
import { LOGO_MAX_BYTES, logoUrl } from '../../resources/files.js';
import { storageOf } from '../storage/index.js';
import { LOGOS_PATH, logoKey } from '../storage/keys.js';
import { allowedFor, detectType, SNIFF_BYTES } from '../storage/fileTypes.js';

export const hasLogoBody = z.object({ a_has_logo: z.boolean({ error: 'error_invalid_value' }).default(true) });

const account = (req: Request) => req.account!;

function serialize(row: Record<string, unknown>) {
  return { ...row, id: row.a_id, logo_url: row.a_has_logo ? logoUrl(String(row.a_id)) : null };
}

export function logoMaxBytes(maxFileBytes: number): number {
  return Math.min(maxFileBytes, LOGO_MAX_BYTES);
}

/**
 * Account logos (spec point 7), mounted at /api/1/accounts/:accountId before the accounts router; entry_accounts
 * update. Flow: GET uploadurl/logo → PUT the image to the url → PUT haslogo. The logo is then served at
 * /storage/logos/<accountId> (revalidated with its ETag, so a new upload shows at once).
 */
export function accountLogoRouter(): Router {
  const r = Router({ mergeParams: true });
  const gate = [requireUser, resolveAccount(), requirePermission('entry_accounts', 'update')];

  r.get('/uploadurl/logo', ...gate, async (req, res) => {
    const a = account(req);
    const context = ctx(req);
    const maxBytes = logoMaxBytes(context.config.storage.maxFileBytes);
    const url = await storageOf(context).signUpload(logoKey(a.a_id), {
      maxBytes,
      ttlSeconds: context.config.storage.signedUrlTtlSeconds,
    });
    res.json({ id: a.a_id, url, path: LOGOS_PATH, max_bytes: maxBytes });
  });

  /** Body {a_has_logo: true} (the default) after the upload: checks the stored image; false removes the logo. */
  r.put('/haslogo', ...gate, async (req, res) => {
    const a = account(req);
    const { a_has_logo } = validate(hasLogoBody, req.body);
    const context = ctx(req);
    const storage = storageOf(context);
    const key = logoKey(a.a_id);
    if (a_has_logo) {
      const info = await storage.stat(key);
      if (!info) throw new ApiError(400, 'logo_not_uploaded', 'Upload the logo to the signed URL first', { a_has_logo: 'error_logo_not_uploaded' });
      const refuse = async (e: ApiError) => {
        await storage.remove(key);
        await context.db('accounts').where('a_id', a.a_id).update({ a_has_logo: false, a_updated_at: context.db.fn.now() });
        throw e;
      };
      if (info.size > logoMaxBytes(context.config.storage.maxFileBytes)) await refuse(new ApiError(413, 'file_too_large', 'The logo is too large'));
      if (info.size === 0) await refuse(new ApiError(400, 'file_empty', 'The logo file is empty'));
      const detected = await detectType(await storage.readHead(key, SNIFF_BYTES), info.size <= SNIFF_BYTES);
      if (!allowedFor('logo', detected)) {
        await refuse(new ApiError(400, 'file_content_mismatch', 'The logo must be a PNG, JPEG, GIF or WebP image', { a_has_logo: 'error_file_content_mismatch' }));
      }
    } else {
      await storage.remove(key);
    }
    const [row] = await context.db('accounts').where('a_id', a.a_id).update({ a_has_logo, a_updated_at: context.db.fn.now() }).returning('*');
    res.json(serialize(row));
  });

  return r;
}
