import { apiErrorOf, inParallel, newId, REGISTER_FAILED, STORAGE_FAILED, type PutBytes, type PutResult, type QueuedFile } from '../uploads/transfer';
import type { MediaFile, SignedEntry } from './mediaApi';

/**
 * The upload pipeline of spec 4, without React: request signed URLs for every queued file, PUT each file's bytes to
 * its URL (with progress), register it, and carry on with the next when one fails. Failures are message keys, so
 * the screen translates them.
 */

export interface UploadItem extends QueuedFile {
  uploaded?: MediaFile;
}

/** API error codes whose own text says more than the generic upload messages. */
const CLEAR_CODES = new Set([
  'file_type_not_allowed',
  'file_too_large',
  'file_empty',
  'file_content_mismatch',
  'file_already_exists',
  'signature_expired',
  'forbidden',
  'not_logged_in',
  'payload_too_large',
]);
/** Field message keys of a 400 validation_failed that a person can act on (the others mean a bug: see the log). */
const CLEAR_FIELDS = new Set([
  'error_file_type_not_allowed',
  'error_file_type_mismatch',
  'error_file_content_mismatch',
  'error_filename_invalid',
  'error_filename_required',
  'error_folder_not_found',
  'error_too_long',
]);

/** The message key for a failed step: the API's clearer reason when it gives one, else the spec's generic text. */
export function uploadErrorKey(stage: 'storage' | 'register', error: unknown): string {
  const { body } = apiErrorOf(error);
  if (body?.code === 'validation_failed' && body.fields) {
    const clear = Object.values(body.fields).find((k) => CLEAR_FIELDS.has(k));
    if (clear) return clear;
  } else if (body?.code && CLEAR_CODES.has(body.code)) {
    return `error_${body.code}`;
  }
  return stage === 'storage' ? STORAGE_FAILED : REGISTER_FAILED;
}

/** Failures worth another try as they are (a dropped connection, a server error, an expired link). */
export const RETRYABLE = new Set([STORAGE_FAILED, REGISTER_FAILED, 'error_signature_expired', 'error_not_logged_in']);

export interface UploadDeps {
  sign(ids: string[], destination: string | null): Promise<SignedEntry[]>;
  put: PutBytes;
  register(body: { fs_id: string; fs_folderid: string | null; fs_filename: string; fs_type: string; fs_path: string }): Promise<MediaFile>;
}

/** The API signs at most this many ids per call. */
export const SIGN_BATCH = 100;
/** Files sent at the same time. */
export const PARALLEL_UPLOADS = 3;

/**
 * Uploads the given items into a folder (null = root). `update` receives every change of an item. A file that fails
 * at any step is marked failed with its reason and the others go on. Resolves with the counts.
 */
export async function runUploads(
  items: UploadItem[],
  folderId: string | null,
  deps: UploadDeps,
  update: (key: string, patch: Partial<UploadItem>) => void,
  parallel = PARALLEL_UPLOADS,
): Promise<{ done: number; failed: number }> {
  let done = 0;
  let failed = 0;
  const fail = (item: UploadItem, error: string) => {
    failed++;
    update(item.key, { status: 'failed', error });
  };

  for (let i = 0; i < items.length; i += SIGN_BATCH) {
    const batch = items.slice(i, i + SIGN_BATCH);
    const ids = batch.map(() => newId());
    let signed: SignedEntry[];
    try {
      signed = await deps.sign(ids, folderId);
    } catch (e) {
      // Nothing of this batch can go anywhere without its URL.
      for (const item of batch) fail(item, uploadErrorKey('register', e));
      continue;
    }
    const byId = new Map(signed.map((s) => [s.id, s]));
    const work = batch.map((item, n) => ({ item, entry: byId.get(ids[n]) }));
    await inParallel(work, parallel, async ({ item, entry }) => {
      if (!entry) {
        fail(item, REGISTER_FAILED);
        return;
      }
      if (entry.max_bytes !== undefined && item.file.size > entry.max_bytes) {
        // The storage server would refuse it after the first bytes; say so without sending them.
        fail(item, 'error_file_too_large');
        return;
      }
      update(item.key, { status: 'uploading', progress: 0, error: undefined });
      let put: PutResult;
      try {
        put = await deps.put(entry.url, item.file, (progress) => update(item.key, { progress }));
      } catch {
        fail(item, STORAGE_FAILED);
        return;
      }
      if (put.status < 200 || put.status >= 300) {
        fail(item, uploadErrorKey('storage', put.body));
        return;
      }
      update(item.key, { status: 'registering', progress: 1 });
      try {
        const uploaded = await deps.register({
          fs_id: entry.id,
          fs_folderid: folderId,
          fs_filename: item.file.name,
          fs_type: item.file.type,
          fs_path: entry.path,
        });
        done++;
        update(item.key, { status: 'done', uploaded });
      } catch (e) {
        fail(item, uploadErrorKey('register', e));
      }
    });
  }
  return { done, failed };
}
