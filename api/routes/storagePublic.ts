import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { NextFunction, Request, Response } from 'express';
import { ctx } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { LOGO_TYPES } from '../../resources/files.js';
import { storageOf } from '../storage/index.js';
import { LocalDriver } from '../storage/local.js';
import { logoKey, objectKey, parseObjectPath, type ObjectRef } from '../storage/keys.js';
import { verifyUpload } from '../storage/signing.js';
import { allowedFor, detectType, SNIFF_BYTES } from '../storage/fileTypes.js';
import { contentDisposition, notModified, parseRange, rangeStillValid } from '../storage/http.js';

/**
 * The public /storage URLs, mounted before the session middleware (no session, no CSRF):
 *
 *   GET|HEAD /storage/files/<yyyy>/<mm>/<fs_id>   a registered file (= /storage{fs_path}/{fs_id})
 *   GET|HEAD /storage/logos/<accountId>           an account's logo, while a_has_logo is set
 *   GET|HEAD /storage/assets/<accountId>/<yyyy>/<mm>/<fileId>   an account asset's current file or its thumbnail
 *   PUT      /storage/<key>?expires=&max=&signature=   local driver only: the signed upload (the signature is the
 *            authorisation, like a presigned S3 URL, which cannot carry a CSRF header either)
 *
 * Serving needs no session: media are used by public pages (forms, carousels, e-mails) and their URLs hold a v4 UUID
 * that only someone allowed to list the library can learn; nothing here lists anything.
 */
export function storagePublic() {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      if (req.method === 'GET' || req.method === 'HEAD') await serve(req, res);
      else if (req.method === 'PUT') await receive(req, res);
      else throw new ApiError(405, 'method_not_allowed', 'Method not allowed');
    } catch (e) {
      next(e);
    }
  };
}

/** Media types a browser may show inline; everything else downloads. */
const INLINE = /^(image|video|audio)\/|^application\/pdf$/;
const FILE_CACHE = 'public, max-age=31536000, immutable, no-transform';
// A stored file is never a page of the app: nothing runs in it. object-src 'self' lets Chrome's PDF viewer (an
// internal <embed>) show an inline PDF, which the app's object-src 'none' would block.
const MEDIA_CSP = "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; object-src 'self'; frame-ancestors 'self'";
const LOGO_CACHE = 'public, no-cache, no-transform';

interface Served {
  size: number;
  modified: Date;
  etag: string;
  type: string;
  filename: string;
  cacheControl: string;
}

async function describe(req: Request, ref: ObjectRef): Promise<Served> {
  const context = ctx(req);
  if (ref.kind === 'file') {
    const row = await context.db('files').where({ fs_id: ref.id, fs_path: ref.path }).first('fs_filename', 'fs_type', 'fs_size', 'fs_created_at');
    if (!row) throw notFound('File not found');
    // A file's bytes never change once registered, so its id is its validator.
    return { size: Number(row.fs_size), modified: new Date(row.fs_created_at), etag: `"${ref.id}"`, type: row.fs_type, filename: row.fs_filename, cacheControl: FILE_CACHE };
  }
  if (ref.kind === 'asset') {
    // An asset's current file or its thumbnail; a replaced file is gone with its old version.
    const row = await context
      .db('assets')
      .where('as_path', ref.path)
      .andWhere((q) => q.where('as_fileid', ref.id).orWhere('as_thumb_fileid', ref.id))
      // An asset in the trash is not served (its bytes wait for the purge, or a restore).
      .whereNull('as_deleted_at')
      .first('as_fileid', 'as_filename', 'as_type', 'as_size', 'as_thumb_type', 'as_updated_at');
    if (!row) throw notFound('File not found');
    const thumb = row.as_fileid !== ref.id;
    if (thumb) {
      const info = await storageOf(context).stat(objectKey(ref.path, ref.id));
      if (!info) throw notFound('File not found');
      return { size: info.size, modified: info.modified, etag: `"${ref.id}"`, type: row.as_thumb_type, filename: 'thumbnail', cacheControl: FILE_CACHE };
    }
    return { size: Number(row.as_size), modified: new Date(row.as_updated_at), etag: `"${ref.id}"`, type: row.as_type, filename: row.as_filename, cacheControl: FILE_CACHE };
  }
  const account = await context.db('accounts').where('a_id', ref.id).first('a_has_logo');
  if (!account?.a_has_logo) throw notFound('No logo');
  const storage = storageOf(context);
  const key = logoKey(ref.id);
  const info = await storage.stat(key);
  if (!info) throw notFound('No logo');
  const detected = await detectType(await storage.readHead(key, SNIFF_BYTES), info.size <= SNIFF_BYTES);
  const type = detected && LOGO_TYPES.includes(detected) ? detected : 'application/octet-stream';
  const ext = type === 'image/jpeg' ? 'jpg' : type.startsWith('image/') ? type.slice(6) : 'bin';
  return { ...info, type, filename: `logo.${ext}`, cacheControl: LOGO_CACHE };
}

async function serve(req: Request, res: Response): Promise<void> {
  const ref = parseObjectPath(req.path);
  if (!ref) throw notFound();
  const meta = await describe(req, ref);
  const validators = () => {
    res.setHeader('Cache-Control', meta.cacheControl);
    res.setHeader('ETag', meta.etag);
    res.setHeader('Last-Modified', meta.modified.toUTCString());
  };
  if (notModified(req, meta.etag, meta.modified)) {
    validators();
    res.status(304).end();
    return;
  }
  let range = rangeStillValid(req, meta.etag, meta.modified) ? parseRange(req.headers.range, meta.size) : null;
  if (range === 'unsatisfiable') {
    res.status(416).setHeader('Content-Range', `bytes */${meta.size}`);
    res.json({ code: 'range_not_satisfiable', message: 'The requested range is outside the file' });
    return;
  }
  if (range && range.start === 0 && range.end === meta.size - 1) range = null;

  let body: Readable | undefined;
  if (req.method !== 'HEAD') {
    try {
      body = await storageOf(ctx(req)).read(ref.kind === 'logo' ? logoKey(ref.id) : objectKey(ref.path, ref.id), range ?? undefined);
    } catch (e) {
      // Registered but the bytes are gone (removed by hand): an honest 404, not a 500.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as { name?: string }).name === 'NoSuchKey') throw notFound('File not found');
      throw e;
    }
  }
  const disposition = req.query.download !== undefined || !INLINE.test(meta.type) ? 'attachment' : 'inline';
  validators();
  res.setHeader('Content-Type', meta.type.startsWith('text/') ? `${meta.type}; charset=utf-8` : meta.type);
  res.setHeader('Content-Disposition', contentDisposition(disposition, meta.filename));
  res.setHeader('Accept-Ranges', 'bytes');
  // Other sites (an account's own pages) may embed media; helmet's default would be same-origin.
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  res.setHeader('Content-Security-Policy', MEDIA_CSP);
  if (range) {
    res.status(206);
    res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${meta.size}`);
    res.setHeader('Content-Length', String(range.end - range.start + 1));
  } else {
    res.setHeader('Content-Length', String(meta.size));
  }
  if (!body) {
    res.end();
    return;
  }
  try {
    await pipeline(body, res);
  } catch {
    // The client went away mid-download (e.g. a video seek): nothing to answer.
    body.destroy();
  }
}

/** Past this many unread bytes a refused upload's connection is closed instead of drained. */
const DRAIN_LIMIT = 1 << 20;

async function receive(req: Request, res: Response): Promise<void> {
  const ref = parseObjectPath(req.path);
  const context = ctx(req);
  const storage = storageOf(context);
  let consumed = 0;
  try {
    // S3 uploads go to the bucket; only the local driver takes bytes here.
    if (!ref || !(storage instanceof LocalDriver)) throw notFound();
    const key = objectKey(ref.path, ref.id);
    const verdict = verifyUpload(context.config.sessionSecret, key, req.query as Record<string, unknown>);
    if (!verdict.ok) {
      throw verdict.reason === 'expired'
        ? new ApiError(403, 'signature_expired', 'The upload URL has expired; request a new one')
        : new ApiError(403, 'signature_invalid', 'The upload URL is not valid');
    }
    // The bytes are stored and served as they arrive: an encoded body would be kept encoded and served as garbage.
    const encoding = req.headers['content-encoding']?.trim().toLowerCase();
    if (encoding && encoding !== 'identity') throw new ApiError(415, 'unsupported_encoding', 'Upload the file as it is, without a Content-Encoding');
    const maxBytes = verdict.grant.maxBytes;
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > maxBytes) throw new ApiError(413, 'file_too_large', 'The file is too large');
    if (ref.kind === 'file' && (await context.db('files').where('fs_id', ref.id).first('fs_id'))) {
      throw new ApiError(409, 'file_already_exists', 'This file is already registered; its bytes cannot be replaced');
    }
    if (ref.kind === 'asset' && (await context.db('assets').where('as_fileid', ref.id).orWhere('as_thumb_fileid', ref.id).first('as_id'))) {
      throw new ApiError(409, 'file_already_exists', 'This file is already registered; its bytes cannot be replaced');
    }
    req.on('data', (chunk: Buffer) => (consumed += chunk.length));
    const { size } = await storage.receive(key, req, {
      maxBytes,
      accept: async (head, complete) => allowedFor(ref.kind, await detectType(head, complete)),
    });
    res.json({ code: 'ok', size });
  } catch (e) {
    // The client is gone (the temporary file is already removed): nobody to answer. (req.destroyed is no sign of
    // that: a fully read request is destroyed too.)
    if (req.socket.destroyed || res.destroyed) return;
    if (!req.complete) {
      const declared = Number(req.headers['content-length'] ?? NaN);
      if (Number.isFinite(declared) && declared - consumed <= DRAIN_LIMIT) req.resume();
      else res.setHeader('Connection', 'close');
    }
    throw e;
  }
}
