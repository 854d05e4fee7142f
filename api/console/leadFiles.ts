import { pipeline } from 'node:stream/promises';
import { Router, type Request, type Response } from 'express';
import type { Knex } from 'knex';
import type { AppContext } from '../context.js';
import { ctx } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { requirePermission, requireUser, resolveAccount } from '../middleware/auth.js';
import { scoped, accountOf } from '../models/scope.js';
import { storageOf } from '../storage/index.js';
import { newLeadFilesPath, objectKey } from '../storage/keys.js';
import { detectType } from '../storage/fileTypes.js';
import { parseRange } from '../storage/http.js';
import { isUuid } from '../../resources/fields.js';
import { LEAD_FILE_MAX_BYTES, LEAD_MEMO_MAX_BYTES, LEAD_MEMO_TYPES, LEAD_PHOTO_TYPES, leadFiles } from '../../resources/leads.js';

type Row = Record<string, unknown>;

/** Where a lead file is served (the console and the capture app show card photos from here). */
export const leadFileUrl = (accountId: string, id: string) => `/api/1/accounts/${accountId}/lead-files/${id}`;

/** What some devices send for JPEG, and for the audio a recorder makes (a WebM or MP4 of sound alone is still audio). */
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'video/webm': 'audio/webm',
  'audio/x-m4a': 'audio/mp4',
  'audio/m4a': 'audio/mp4',
  'audio/aac': 'audio/mp4',
  'audio/opus': 'audio/ogg',
};
/**
 * What file-type reads in the bytes of each accepted type: a WebM is video/webm to it whatever it holds, an MP4's
 * brand decides between audio/x-m4a (M4A), audio/mp4 and video/mp4 (isom, mp42, what Safari's recorder writes).
 */
const DETECTED: Record<string, readonly string[]> = {
  'image/jpeg': ['image/jpeg'],
  'image/png': ['image/png'],
  'image/webp': ['image/webp'],
  'audio/webm': ['video/webm'],
  'audio/ogg': ['audio/ogg', 'audio/ogg; codecs=opus'],
  'audio/mp4': ['audio/mp4', 'audio/x-m4a', 'video/mp4'],
};
const isMemo = (type: string) => (LEAD_MEMO_TYPES as readonly string[]).includes(type);
/** The largest file of a type: a photo 10 MB, a voice memo (2 minutes) 5 MB. */
const maxBytesOf = (type: string) => (isMemo(type) ? LEAD_MEMO_MAX_BYTES : LEAD_FILE_MAX_BYTES);
const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
/** A card photo's bytes never change under its id. */
const CACHE = 'private, max-age=31536000, immutable';
/** Past this many unread bytes a refused upload's connection is closed instead of drained. */
const DRAIN_LIMIT = LEAD_FILE_MAX_BYTES;

const COLUMNS = ['lf_id', 'lf_accountid', 'lf_type', 'lf_size', 'lf_path', 'lf_created_by', 'lf_created_at', 'lf_updated_at'];

function serialize(row: Row): Row {
  return { ...row, lf_size: Number(row.lf_size), id: row.lf_id, url: leadFileUrl(String(row.lf_accountid), String(row.lf_id)) };
}

/**
 * The declared type (parameters such as ;codecs=opus dropped): a card photo's (JPEG, PNG, WebP) or a voice memo's
 * (WebM, Ogg, MP4 audio); anything else 415 file_type_not_allowed.
 */
function declaredType(req: Request): string {
  const raw = String(req.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  const type = ALIASES[raw] ?? raw;
  if (![...LEAD_PHOTO_TYPES, ...LEAD_MEMO_TYPES].includes(type as never))
    throw new ApiError(
      415,
      'file_type_not_allowed',
      'A card photo must be a JPEG, PNG or WebP image, a voice memo WebM, Ogg or MP4 audio (Content-Type image/jpeg, image/png, image/webp, audio/webm, audio/ogg or audio/mp4)',
    );
  return type;
}

/** The whole body, at most `max` bytes (413 file_too_large past it, as soon as it is known). */
function readBody(req: Request, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (err?: unknown) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      if (err) reject(err);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) done(new ApiError(413, 'file_too_large', `The file is at most ${mb(max)}`));
      else chunks.push(chunk);
    };
    const onEnd = () => done();
    const onError = () => done(new ApiError(400, 'request_aborted', 'The request body was cut off'));
    const onClose = () => {
      if (!req.complete) done(new ApiError(400, 'request_aborted', 'The request body was cut off'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/**
 * Before answering without keeping the body: read and drop one of at most the photo limit first, so the device sees
 * the answer (a client still sending when the server answers and closes often sees only a broken connection, and an
 * offline queue would retry for ever); past that, or of unknown length, close the connection after the answer.
 */
async function letBodyGo(req: Request, res: Response): Promise<void> {
  if (req.complete || req.readableEnded) return;
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (!Number.isFinite(declared) || declared > DRAIN_LIMIT) {
    res.setHeader('Connection', 'close');
    return;
  }
  await new Promise<void>((resolve) => {
    req.on('end', resolve);
    req.on('close', resolve);
    req.on('error', resolve);
    req.resume();
  });
}

/**
 * PUT /accounts/{a}/lead-files/{id} (account_leads create): the body is the photo (image/jpeg, image/png or image/webp,
 * at most 10 MB, its bytes must be of that type); the id is the device's own v4 UUID, so an offline queue retries
 * without making a second file. 201 with the record the first time; 200 with the same record when this account
 * already has the id (the bytes are not replaced); 404 when another account has it. Stored through the storage
 * layer (local disk or S3) under /lead-files/<account>/<yyyy>/<mm>/<id>, a path the server makes.
 */
async function put(req: Request, res: Response): Promise<void> {
  const id = String(req.params.id).toLowerCase();
  const accountId = accountOf(req);
  const app = ctx(req);
  try {
    if (!isUuid(id)) throw notFound();
    const mine = async () => scoped(app.db, leadFiles, accountId).where('lf_id', id).first(COLUMNS);
    const taken = async () => Boolean(await app.db('lead_files').where('lf_id', id).first('lf_id'));
    const already = await mine();
    if (already) {
      await letBodyGo(req, res);
      res.status(200).json(serialize(already));
      return;
    }
    if (await taken()) throw notFound();
    const type = declaredType(req);
    const encoding = req.headers['content-encoding']?.trim().toLowerCase();
    if (encoding && encoding !== 'identity') throw new ApiError(415, 'unsupported_encoding', 'Upload the photo as it is, without a Content-Encoding');
    const max = maxBytesOf(type);
    const what = isMemo(type) ? 'A voice memo' : 'A card photo';
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > max) throw new ApiError(413, 'file_too_large', `${what} is at most ${mb(max)}`);
    const body = await readBody(req, max);
    if (!body.length) throw new ApiError(400, 'file_empty', `${what} is empty`);
    const detected = await detectType(body.subarray(0, 4100), body.length <= 4100);
    if (!detected || !DETECTED[type].includes(detected))
      throw new ApiError(
        415,
        'file_content_mismatch',
        `The file's bytes are not ${isMemo(type) ? `${type.slice(6).toUpperCase()} audio` : `a ${type.slice(6).toUpperCase()} image`}`,
      );

    await sweepOrphanPhotos(app);
    const path = newLeadFilesPath(accountId);
    const created = await app.db.transaction(async (trx) => {
      const [row] = await trx('lead_files')
        .insert({ lf_id: id, lf_accountid: accountId, lf_type: type, lf_size: body.length, lf_path: path, lf_created_by: req.user!.u_id })
        .onConflict('lf_id')
        .ignore()
        .returning(COLUMNS);
      // Stored before the row commits: a failed write leaves no record pointing at nothing.
      if (row) await storageOf(app).put(objectKey(path, id), body, type);
      return row as Row | undefined;
    });
    if (created) {
      res.status(201).json(serialize(created));
      return;
    }
    // The same id uploaded twice at once: the other request stored it.
    const winner = await mine();
    if (!winner) throw notFound();
    res.status(200).json(serialize(winner));
  } catch (err) {
    if (req.socket.destroyed || res.destroyed) return;
    await letBodyGo(req, res);
    throw err;
  }
}

/** GET /accounts/{a}/lead-files/{id} (account_leads read): the photo's or memo's bytes (or a range of them), private to the caller's browser. */
async function get(req: Request, res: Response): Promise<void> {
  const id = String(req.params.id);
  if (!isUuid(id)) throw notFound();
  const app = ctx(req);
  const row = await scoped(app.db, leadFiles, accountOf(req)).where('lf_id', id.toLowerCase()).first(COLUMNS);
  if (!row) throw notFound();
  const etag = `"${row.lf_id}"`;
  res.setHeader('Cache-Control', CACHE);
  res.setHeader('ETag', etag);
  if (req.headers['if-none-match']?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
    res.status(304).end();
    return;
  }
  const type = String(row.lf_type);
  const size = Number(row.lf_size);
  // A byte range (an <audio> element seeks, and Safari plays media only from a server that answers ranges); the
  // bytes never change under the id, so If-Range needs no check.
  const range = parseRange(req.headers.range, size);
  if (range === 'unsatisfiable') {
    res.setHeader('Content-Range', `bytes */${size}`);
    res.status(416).end();
    return;
  }
  let body;
  try {
    body = await storageOf(app).read(objectKey(String(row.lf_path), String(row.lf_id)), range ?? undefined);
  } catch (e) {
    // Recorded but the bytes are gone (removed by hand): an honest 404, not a 500.
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as { name?: string }).name === 'NoSuchKey') throw notFound('The file is gone');
    throw e;
  }
  const ext = type === 'image/jpeg' ? 'jpg' : type === 'audio/mp4' ? 'm4a' : type.slice(6);
  const name = isMemo(type) ? 'memo' : 'card';
  res.setHeader('Content-Type', type);
  res.setHeader('Accept-Ranges', 'bytes');
  if (range) {
    res.status(206);
    res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
    res.setHeader('Content-Length', String(range.end - range.start + 1));
  } else res.setHeader('Content-Length', String(size));
  res.setHeader('Content-Disposition', `inline; filename="${name}-${row.lf_id}.${ext}"`);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "default-src 'none'; frame-ancestors 'self'");
  try {
    await pipeline(body, res);
  } catch {
    body.destroy(); // the client went away
  }
}

/** A card photo no lead names is kept this long (its lead may still be on its way from an offline device). */
export const ORPHAN_PHOTO_GRACE_MS = 7 * 86400_000;
const SWEEP_BATCH = 25;

/** A lead's columns that name its files (card photos, voice memo): they go with the lead. */
export const LEAD_FILE_COLUMNS = ['ld_front_fileid', 'ld_back_fileid', 'ld_memo_fileid'] as const;

/** Removes the bytes of deleted card photos; a failure is logged (a stray file is not worth a 500). */
export async function removeLeadFileBytes(app: AppContext, files: { lf_id: string; lf_path: string }[]): Promise<void> {
  const storage = storageOf(app);
  for (const f of files) await storage.remove(objectKey(f.lf_path, f.lf_id)).catch((e) => app.log(`lead file ${f.lf_id}: ${e}`));
}

/**
 * Deletes the card photos of leads that are being deleted (in the same transaction) and answers them, so their bytes
 * can be removed once that commits: a deleted lead leaves no photo of a person behind.
 */
export async function deletePhotosOf(trx: Knex.Transaction, fileIds: (string | null | undefined)[]): Promise<{ lf_id: string; lf_path: string }[]> {
  const ids = fileIds.filter((id): id is string => Boolean(id));
  if (!ids.length) return [];
  return trx('lead_files').whereIn('lf_id', ids).del().returning(['lf_id', 'lf_path']);
}

/**
 * Card photos that no lead names, older than the grace period (a device uploaded them, then never sent its lead, or
 * the lead was changed to other photos): a batch at a time, on each upload, like the media library's sweep.
 */
export async function sweepOrphanPhotos(app: AppContext): Promise<number> {
  const { db } = app;
  const orphan = (q: Knex.QueryBuilder) =>
    q.whereNotExists((sub) =>
      sub
        .select(db.raw('1'))
        .from('leads')
        .where((w) =>
          w.whereRaw('leads.ld_front_fileid = lead_files.lf_id').orWhereRaw('leads.ld_back_fileid = lead_files.lf_id').orWhereRaw('leads.ld_memo_fileid = lead_files.lf_id'),
        ),
    );
  const ids: string[] = await orphan(db('lead_files').where('lf_created_at', '<', new Date(Date.now() - ORPHAN_PHOTO_GRACE_MS)))
    .limit(SWEEP_BATCH)
    .pluck('lf_id');
  if (!ids.length) return 0;
  // The condition again in the delete: a lead that names a photo in between keeps it.
  const stale: { lf_id: string; lf_path: string }[] = await orphan(db('lead_files').whereIn('lf_id', ids)).del().returning(['lf_id', 'lf_path']);
  await removeLeadFileBytes(app, stale);
  return stale.length;
}

/** The card photos of an account, mounted at /accounts/:accountId/lead-files. */
export function leadFilesRouter(): Router {
  const router = Router({ mergeParams: true });
  router.use(requireUser, resolveAccount());
  router.put('/:id', requirePermission(leadFiles.group, 'create'), put);
  router.get('/:id', requirePermission(leadFiles.group, 'read'), get);
  return router;
}

/**
 * An event's purge (its delete moves it to the trash): the event, its leads with it (the foreign key's cascade), and
 * their card photos — records now, bytes once committed, as a lead's own purge does.
 */
export async function purgeEvent(trx: Knex.Transaction, id: string, req: Request): Promise<{ afterCommit: () => Promise<void> }> {
  const photoIds = (await trx('leads').where({ ld_eventid: id, ld_accountid: req.account!.a_id }).select(LEAD_FILE_COLUMNS)) as Record<string, string | null>[];
  await trx('events').where({ ev_id: id, ev_accountid: req.account!.a_id }).del();
  const ids = photoIds.flatMap((r) => LEAD_FILE_COLUMNS.map((c) => r[c])).filter(Boolean);
  const photos: { lf_id: string; lf_path: string }[] = [];
  // In slices: a big event's photos are more than one statement's parameters.
  for (let i = 0; i < ids.length; i += 5000) photos.push(...(await deletePhotosOf(trx, ids.slice(i, i + 5000))));
  return { afterCommit: () => removeLeadFileBytes(ctx(req), photos) };
}
