import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { AppContext } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { storageOf } from '../storage/index.js';
import { newAssetsPath, objectKey } from '../storage/keys.js';
import { contentMatches, detectType, SNIFF_BYTES } from '../storage/fileTypes.js';
import { sweepUploads } from '../storage/library.js';
import { ASSET_TYPES, THUMB_MAX_BYTES, THUMB_TYPES, type AssetFileInput } from '../../resources/assets.js';
import { extensionOf, typeForExtension, type SignedUpload } from '../../resources/files.js';

type Row = Record<string, unknown>;

/**
 * An account's assets (account-console.md: assets): signed uploads like the media library's (the same
 * storage_uploads rows and sweep, marked with the account), registered as an asset's file with its SHA-256, replaced
 * under the same asset id with a new file and version. Bytes a check refuses are deleted at once; bytes an asset no
 * longer uses (replaced, or the asset deleted) are deleted after the change is committed.
 */

const bad = (field: string, key: string, message: string, code = 'validation_failed') => new ApiError(400, code, message, { [field]: key });

/** POST /assets/sign: one signed PUT URL per id (the file and, say, its thumbnail), under the account's asset path. */
export async function signAssetUploads(
  context: AppContext,
  accountId: string,
  ids: string[],
  userId: string,
): Promise<(SignedUpload & { expires_at: string; max_bytes: number })[]> {
  const { db, config } = context;
  const storage = storageOf(context);
  const taken = await db('assets').whereIn('as_fileid', ids).orWhereIn('as_thumb_fileid', ids).pluck('as_fileid');
  if (taken.length) throw new ApiError(409, 'file_already_exists', 'A file with this id already exists');
  // An id already signed elsewhere (the media library, another account) is not this account's to re-sign.
  const foreign = await db('storage_uploads')
    .whereIn('su_id', ids)
    .andWhere((q) => q.whereNull('su_accountid').orWhereNot('su_accountid', accountId))
    .pluck('su_id');
  if (foreign.length) throw new ApiError(409, 'file_already_exists', 'A file with this id already exists');
  await sweepUploads(context);
  const ttl = config.storage.signedUrlTtlSeconds;
  const expiresAt = new Date(Date.now() + ttl * 1000);
  const path = newAssetsPath(accountId);
  const rows: { su_id: string; su_path: string }[] = await db('storage_uploads')
    .insert(ids.map((id) => ({ su_id: id, su_path: path, su_accountid: accountId, su_userid: userId, su_expires_at: expiresAt })))
    .onConflict('su_id')
    .merge(['su_userid', 'su_expires_at'])
    .returning(['su_id', 'su_path']);
  const pathOf = new Map(rows.map((r) => [r.su_id, r.su_path]));
  return Promise.all(
    ids.map(async (id) => {
      const p = pathOf.get(id)!;
      const url = await storage.signUpload(objectKey(p, id), { maxBytes: config.storage.maxFileBytes, ttlSeconds: ttl });
      return { id, url, path: p, expires_at: expiresAt.toISOString(), max_bytes: config.storage.maxFileBytes };
    }),
  );
}

export interface CheckedFile {
  id: string;
  path: string;
  filename: string;
  type: string;
  size: number;
  sha256: string;
}

async function sha256Of(context: AppContext, key: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of await storageOf(context).read(key)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The uploaded bytes of a signed asset upload, checked: signed for this account and path, arrived, within the size
 * limit, of an allowed type by extension and by content. Refused bytes are deleted with their upload row.
 */
async function checkUpload(
  context: AppContext,
  accountId: string,
  field: string,
  id: string,
  path: string,
  filename: string,
  allowed: readonly string[],
  maxBytes: number,
): Promise<CheckedFile> {
  const { db } = context;
  const storage = storageOf(context);
  const pending = await db('storage_uploads').where({ su_id: id, su_accountid: accountId }).first();
  if (!pending) throw bad(field, 'error_upload_not_found', 'No upload for this file was signed, or it was not completed', 'asset_upload_not_found');
  if (pending.su_path !== path) throw bad('fs_path', 'error_upload_mismatch', 'This does not match the signed upload');
  const key = objectKey(path, id);
  const info = await storage.stat(key);
  if (!info) throw bad(field, 'error_upload_not_found', 'No upload for this file was signed, or it was not completed', 'asset_upload_not_found');
  const discard = async () => {
    await storage.remove(key);
    await db('storage_uploads').where('su_id', id).del();
  };
  if (info.size > maxBytes) {
    await discard();
    throw new ApiError(413, 'file_too_large', 'The file is too large', { [field]: 'error_file_too_large' });
  }
  if (info.size === 0) {
    await discard();
    throw new ApiError(400, 'file_empty', 'The file is empty', { [field]: 'error_file_empty' });
  }
  const head = await storage.readHead(key, SNIFF_BYTES);
  const detected = await detectType(head, info.size <= SNIFF_BYTES);
  const byName = typeForExtension(extensionOf(filename));
  const type = byName && allowed.includes(byName.mime) ? byName : undefined;
  if (!type) {
    await discard();
    throw new ApiError(400, 'asset_type_not_allowed', 'This type of file cannot be an asset', { fs_filename: 'error_asset_type_not_allowed' });
  }
  if (!contentMatches(detected, type)) {
    await discard();
    throw new ApiError(400, 'file_content_mismatch', 'The contents of the file do not match its type', { fs_type: 'error_file_content_mismatch' });
  }
  return { id, path, filename, type: type.mime, size: info.size, sha256: await sha256Of(context, key) };
}

/** The file (and thumbnail) of a create or replacement, checked; the thumbnail must sit beside the file. */
export async function checkAssetFiles(context: AppContext, accountId: string, input: AssetFileInput): Promise<{ file: CheckedFile; thumb?: CheckedFile }> {
  const file = await checkUpload(context, accountId, 'as_fileid', input.as_fileid, input.fs_path, input.fs_filename, ASSET_TYPES, context.config.storage.maxFileBytes);
  if (!input.as_thumb_fileid) return { file };
  const ext = { 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/png': 'png' };
  const pending = await context.db('storage_uploads').where({ su_id: input.as_thumb_fileid, su_accountid: accountId }).first('su_path');
  const thumbPath = pending?.su_path ?? input.fs_path;
  if (thumbPath !== input.fs_path) throw bad('as_thumb_fileid', 'error_upload_mismatch', 'Sign the thumbnail together with its file');
  // The thumbnail's type comes from its bytes (a browser's canvas makes JPEG or WebP).
  const head = (await storageOf(context).stat(objectKey(thumbPath, input.as_thumb_fileid)))
    ? await storageOf(context).readHead(objectKey(thumbPath, input.as_thumb_fileid), SNIFF_BYTES)
    : Buffer.alloc(0);
  const detected = await detectType(head, false);
  const name = `thumbnail.${ext[detected as keyof typeof ext] ?? 'jpg'}`;
  const thumb = await checkUpload(context, accountId, 'as_thumb_fileid', input.as_thumb_fileid, thumbPath, name, THUMB_TYPES, THUMB_MAX_BYTES);
  return { file, thumb };
}

/** The asset columns of checked files (the upload rows are claimed in the same transaction). */
export async function claimAssetFiles(trx: Knex.Transaction, files: { file: CheckedFile; thumb?: CheckedFile }): Promise<Row> {
  const ids = [files.file.id, ...(files.thumb ? [files.thumb.id] : [])];
  // returning(): knex-pglite answers a bare del() inside a transaction with its result object, not a count.
  const claimed = await trx('storage_uploads').whereIn('su_id', ids).del().returning('su_id');
  if (claimed.length !== ids.length) throw new ApiError(409, 'file_already_exists', 'A file with this id already exists');
  return {
    as_fileid: files.file.id,
    as_path: files.file.path,
    as_filename: files.file.filename,
    as_type: files.file.type,
    as_size: files.file.size,
    as_sha256: files.file.sha256,
    as_thumb_fileid: files.thumb?.id ?? null,
    as_thumb_type: files.thumb?.type ?? null,
  };
}

/** Removes the bytes an asset no longer uses; a failure is logged (the sweep of orphans is not worth a 500). */
export async function removeAssetBytes(context: AppContext, row: { as_path: string; as_fileid: string; as_thumb_fileid?: string | null }): Promise<void> {
  const storage = storageOf(context);
  for (const id of [row.as_fileid, row.as_thumb_fileid]) {
    if (!id) continue;
    await storage.remove(objectKey(row.as_path, id)).catch((e) => context.log(`asset bytes ${row.as_path}/${id}: ${e}`));
  }
}

/** The asset of the account, locked for a replacement (404 otherwise). */
export async function lockAsset(trx: Knex.Transaction, accountId: string, id: string): Promise<Row> {
  const row = await trx('assets').where({ as_id: id, as_accountid: accountId }).forUpdate().first();
  if (!row) throw notFound('The asset does not exist');
  return row;
}
