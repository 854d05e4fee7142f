import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Router, type Request } from 'express';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { z } from 'zod';
import { ctx } from '../context.js';
import { ApiError, notFound, validate } from '../errors.js';
import { requirePermission, requireUser } from '../middleware/auth.js';
import { storageOf, LocalDriver, S3Driver, type StorageDriver } from '../storage/index.js';
import { detectType, SNIFF_BYTES } from '../storage/fileTypes.js';
import { profilePictureKey } from '../storage/keys.js';

/** What a profile picture may be, and how large (the capture app sends a 512 px JPEG of some 50 KB). */
export const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
export const PICTURE_MAX_BYTES = 2 * 1024 * 1024;

export const namesBody = z.object({
  u_first_name: z.string({ error: 'error_invalid_value' }).trim().max(100, { error: 'error_too_long' }).optional(),
  u_last_name: z.string({ error: 'error_invalid_value' }).trim().max(100, { error: 'error_too_long' }).optional(),
});

async function profileOf(req: Request) {
  const { db } = ctx(req);
  const user = await db('users').where('u_id', req.user!.u_id).first('u_id', 'u_email', 'u_first_name', 'u_last_name', 'u_role');
  const picture = await storageOf(ctx(req)).stat(profilePictureKey(user.u_id));
  return { ...user, id: user.u_id, has_picture: Boolean(picture), picture_url: picture ? `/api/1/profile/picture?v=${encodeURIComponent(picture.etag.replace(/"/g, ''))}` : null };
}

/** Reads a body into memory up to maxBytes (413 past it). */
async function readBody(source: Readable, maxBytes: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of source) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new ApiError(413, 'file_too_large', 'The picture is too large');
    parts.push(chunk as Buffer);
  }
  return Buffer.concat(parts);
}

/**
 * Stores the request's bytes under `key` when their first bytes are an allowed picture type: the local driver streams
 * them into place (checked, synced, renamed), S3 takes the checked body in one PUT (at most PICTURE_MAX_BYTES).
 */
async function storePicture(storage: StorageDriver, key: string, req: Request): Promise<void> {
  const accept = async (head: Buffer, complete: boolean) => PICTURE_TYPES.includes((await detectType(head, complete)) ?? '');
  if (storage instanceof LocalDriver) {
    await storage.receive(key, req, { maxBytes: PICTURE_MAX_BYTES, accept });
    return;
  }
  const body = await readBody(req, PICTURE_MAX_BYTES);
  if (!body.length) throw new ApiError(400, 'file_empty', 'The picture is empty');
  if (!(await accept(body.subarray(0, SNIFF_BYTES), body.length <= SNIFF_BYTES))) throw new ApiError(415, 'file_type_not_allowed', 'This type of file is not allowed');
  const s3 = storage as S3Driver;
  await s3.client.send(
    new PutObjectCommand({
      Bucket: s3.bucket,
      Key: key,
      Body: body,
      ContentType: (await detectType(body.subarray(0, SNIFF_BYTES), body.length <= SNIFF_BYTES)) ?? 'application/octet-stream',
    }),
  );
}

/**
 * The caller's own profile (entry_profile: read, update), for the capture app's profile screen:
 *
 *   GET    /profile            e-mail, names, whether there is a picture and its address
 *   PUT    /profile            {u_first_name, u_last_name}
 *   GET    /profile/picture    the picture's bytes (404 without one)
 *   PUT    /profile/picture    the picture as the body (image/jpeg, png or webp; at most 2 MB), checked by its bytes
 *   DELETE /profile/picture
 *
 * The picture lives in the storage layer under profiles/<userId> (api/storage/keys.ts) and is served only here,
 * to its owner's session.
 */
export function profileRouter(): Router {
  const r = Router();
  const read = [requireUser, requirePermission('entry_profile', 'read')];
  const update = [requireUser, requirePermission('entry_profile', 'update')];

  r.get('/', ...read, async (req, res) => {
    res.json(await profileOf(req));
  });

  r.put('/', ...update, async (req, res) => {
    const body = validate(namesBody, req.body ?? {});
    const { db } = ctx(req);
    if (Object.keys(body).length)
      await db('users')
        .where('u_id', req.user!.u_id)
        .update({ ...body, u_updated_at: db.fn.now() });
    res.json(await profileOf(req));
  });

  r.get('/picture', ...read, async (req, res) => {
    const storage = storageOf(ctx(req));
    const key = profilePictureKey(req.user!.u_id);
    const info = await storage.stat(key);
    if (!info) throw notFound('No profile picture');
    const type = (await detectType(await storage.readHead(key, SNIFF_BYTES), info.size <= SNIFF_BYTES)) ?? '';
    res.setHeader('Cache-Control', 'private, no-cache');
    res.setHeader('ETag', info.etag);
    if (req.headers['if-none-match'] === info.etag) {
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Type', PICTURE_TYPES.includes(type) ? type : 'application/octet-stream');
    res.setHeader('Content-Length', String(info.size));
    res.setHeader('Content-Disposition', 'inline');
    await pipeline(await storage.read(key), res);
  });

  r.put('/picture', ...update, async (req, res) => {
    const type = String(req.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase();
    if (!PICTURE_TYPES.includes(type)) throw new ApiError(415, 'file_type_not_allowed', 'Send the picture as a JPEG, PNG or WebP image');
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > PICTURE_MAX_BYTES) throw new ApiError(413, 'file_too_large', 'The picture is too large');
    await storePicture(storageOf(ctx(req)), profilePictureKey(req.user!.u_id), req);
    res.json(await profileOf(req));
  });

  r.delete('/picture', ...update, async (req, res) => {
    await storageOf(ctx(req)).remove(profilePictureKey(req.user!.u_id));
    res.json(await profileOf(req));
  });

  return r;
}
