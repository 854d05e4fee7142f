import { ASSET_TYPES, assets } from '../../../resources/assets';
import { extensionOf, typeForExtension } from '../../../resources/files';
import { issuesByField } from '../layout/zod';
import { apiErrorOf, newId, REGISTER_FAILED, STORAGE_FAILED, type PutBytes, type PutResult } from '../uploads/transfer';
import type { AssetFileFields, AssetRecord, SignedAssetUpload } from './assetsApi';

/**
 * An asset's upload without React (account-console.md: assets): the browser's thumbnail is made, both files are
 * signed in one call, each PUT to its URL with progress, then the asset is registered (POST /assets) or its file
 * replaced (PUT /assets/{id}/file). Failures are message keys with the fields they concern; what an upload already
 * stored is kept for a retry when the failure was about the record (a taken name), not the bytes.
 */

export type AssetFieldErrors = Partial<Record<'as_title' | 'as_name', string>>;

export class AssetUploadError extends Error {
  constructor(
    /** A message key (translated by the screen). */
    public key: string,
    /** Errors of the title and name fields, shown under their inputs. */
    public fields: AssetFieldErrors = {},
    /** Trying again can work (after the fields are corrected, or the network is back). */
    public retryable = true,
    /** The stored bytes can still be registered (the failure was about the record, not the file). */
    public keepsUpload = false,
  ) {
    super(key);
    this.name = 'AssetUploadError';
  }
}

/** What an asset's file is by its extension (the server decides the same way), or undefined when no asset may be one. */
export function assetTypeOf(filename: string): string | undefined {
  const type = typeForExtension(extensionOf(filename));
  return type && ASSET_TYPES.includes(type.mime) ? type.mime : undefined;
}

const withoutExtension = (filename: string) => {
  const i = filename.lastIndexOf('.');
  return i > 0 ? filename.slice(0, i) : filename;
};

/** "Hall map 2026.PNG" → "Hall map 2026": the title a new asset starts with. */
export function titleFromFilename(filename: string): string {
  const title = withoutExtension(filename).replace(/[_]+/g, ' ').replace(/\s+/g, ' ').trim();
  return (title || filename).slice(0, 200);
}

/** "Hall map é 2026" → "hall-map-e-2026": an identifier (^[a-z][a-z0-9_-]{0,62}$) from a text. */
export function identifierFrom(text: string): string {
  const name = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .slice(0, 63)
    .replace(/[-_]+$/, '');
  return name || 'asset';
}

/** "Hall map 2026.PNG" → "hall-map-2026": the name a new asset starts with. */
export const nameFromFilename = (filename: string): string => identifierFrom(withoutExtension(filename));

/** `name`, or name-2, name-3… when one of `taken` has it (files of one upload that share a name). */
export function uniqueName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${name.slice(0, 63 - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The form's own checks of a title and name before anything is sent: the declaration's create rules, as the API's. */
export function checkFields(title: string, name: string): AssetFieldErrors {
  const issues = issuesByField(assets.create, { as_title: title, as_name: name });
  const errors: AssetFieldErrors = {};
  for (const field of ['as_title', 'as_name'] as const) if (issues[field]?.length) errors[field] = issues[field][0];
  return errors;
}

/** Field keys that tell the person what is wrong with the file. */
const FILE_KEYS = new Set([
  'error_asset_type_not_allowed',
  'error_file_content_mismatch',
  'error_file_too_large',
  'error_file_empty',
  'error_upload_not_found',
  'error_upload_mismatch',
]);
/** Codes whose own text is clearer than the generic upload messages (file_type_not_allowed: the local store's). */
const CODE_KEYS: Record<string, string> = {
  asset_type_not_allowed: 'error_asset_type_not_allowed',
  file_type_not_allowed: 'error_asset_type_not_allowed',
  file_content_mismatch: 'error_file_content_mismatch',
  file_too_large: 'error_file_too_large',
  payload_too_large: 'error_file_too_large',
  file_empty: 'error_file_empty',
  asset_upload_not_found: 'error_upload_not_found',
  file_already_exists: 'error_file_already_exists',
  signature_expired: 'error_signature_expired',
  forbidden: 'error_forbidden',
  not_logged_in: 'error_not_logged_in',
  name_taken: 'error_name_taken',
};
/** Failures no retry mends: the file itself is refused, or the caller may not upload. */
const FINAL = new Set(['error_asset_type_not_allowed', 'error_file_content_mismatch', 'error_file_too_large', 'error_file_empty', 'error_forbidden']);

/** An API or storage failure as an AssetUploadError. */
export function assetErrorOf(e: unknown, stage: 'storage' | 'register'): AssetUploadError {
  if (e instanceof AssetUploadError) return e;
  const { status, body } = apiErrorOf(e);
  const fields: AssetFieldErrors = {};
  for (const f of ['as_title', 'as_name'] as const) if (body?.fields?.[f]) fields[f] = body.fields[f];
  if (Object.keys(fields).length) return new AssetUploadError(Object.values(fields)[0]!, fields, true, true);
  const fileKey = Object.values(body?.fields ?? {}).find((k) => FILE_KEYS.has(k));
  // fetch rejects with a TypeError when the API cannot be reached.
  const offline = !body && e instanceof TypeError && stage === 'register';
  const key = fileKey ?? (body?.code ? CODE_KEYS[body.code] : undefined) ?? (offline ? 'error_network' : stage === 'storage' ? STORAGE_FAILED : REGISTER_FAILED);
  // A server that failed (or could not be reached) has not looked at the bytes: they can still be registered.
  const keepsUpload = stage === 'register' && (!body || (status ?? 500) >= 500);
  return new AssetUploadError(key, {}, !FINAL.has(key), keepsUpload);
}

export interface AssetUploadDeps {
  sign(ids: string[]): Promise<SignedAssetUpload[]>;
  put: PutBytes;
}

/**
 * Sends a file's bytes and its thumbnail (optional: a thumbnail that fails to arrive is left out, never the file);
 * answers the file fields of a create or replacement. `onProgress` gets 0..1 of all bytes sent.
 */
export async function uploadAssetBytes(file: File, thumb: Blob | null, deps: AssetUploadDeps, onProgress: (fraction: number) => void = () => undefined): Promise<AssetFileFields> {
  const type = assetTypeOf(file.name);
  if (!type) throw new AssetUploadError('error_asset_type_not_allowed', {}, false);
  if (file.size === 0) throw new AssetUploadError('error_file_empty', {}, false);
  const ids = [newId(), ...(thumb ? [newId()] : [])];
  let signed: SignedAssetUpload[];
  try {
    signed = await deps.sign(ids);
  } catch (e) {
    throw assetErrorOf(e, 'register');
  }
  const [entry, thumbEntry] = ids.map((id) => signed.find((s) => s.id === id));
  if (!entry) throw new AssetUploadError(REGISTER_FAILED);
  // The storage would refuse it after the first bytes: say so without sending them.
  if (entry.max_bytes !== undefined && file.size > entry.max_bytes) throw new AssetUploadError('error_file_too_large', {}, false);
  const total = file.size + (thumb && thumbEntry ? thumb.size : 0);
  let put: PutResult;
  try {
    put = await deps.put(entry.url, file, (f) => onProgress((f * file.size) / total));
  } catch {
    throw new AssetUploadError(STORAGE_FAILED);
  }
  if (put.status < 200 || put.status >= 300) throw assetErrorOf(put.body, 'storage');
  let thumbId: string | null = null;
  if (thumb && thumbEntry) {
    const sent = await deps.put(thumbEntry.url, thumb, (f) => onProgress((file.size + f * thumb.size) / total)).catch(() => undefined);
    if (sent && sent.status >= 200 && sent.status < 300) thumbId = thumbEntry.id;
  }
  onProgress(1);
  return { as_fileid: entry.id, fs_filename: file.name, fs_type: file.type || type, fs_path: entry.path, as_thumb_fileid: thumbId };
}

/** One file of an upload: what the person chose and typed, and what is stored so far. */
export interface AssetJob {
  file: File;
  title: string;
  name: string;
  thumb: Blob | null;
  /** The bytes already stored by an earlier try (registered again without sending them). */
  uploaded?: AssetFileFields;
}

export interface AssetJobDeps extends AssetUploadDeps {
  create(body: AssetFileFields & { as_title: string; as_name: string }): Promise<AssetRecord>;
}

export type AssetJobStage = 'uploading' | 'registering';

/**
 * Uploads (unless an earlier try did) and registers one file as a new asset. `onStage` reports the step, the
 * progress and the stored file fields (kept by the caller for a retry); a failure rejects with an AssetUploadError.
 */
export async function runAssetJob(
  job: AssetJob,
  deps: AssetJobDeps,
  onStage: (patch: { stage?: AssetJobStage; progress?: number; uploaded?: AssetFileFields | undefined }) => void,
): Promise<AssetRecord> {
  const fields = checkFields(job.title, job.name);
  if (Object.keys(fields).length) throw new AssetUploadError(Object.values(fields)[0]!, fields, true, true);
  let uploaded = job.uploaded;
  if (!uploaded) {
    onStage({ stage: 'uploading', progress: 0 });
    uploaded = await uploadAssetBytes(job.file, job.thumb, deps, (progress) => onStage({ progress }));
    onStage({ uploaded });
  }
  onStage({ stage: 'registering', progress: 1 });
  try {
    return await deps.create({ ...uploaded, as_title: job.title.trim(), as_name: job.name });
  } catch (e) {
    const err = assetErrorOf(e, 'register');
    if (!err.keepsUpload) onStage({ uploaded: undefined });
    throw err;
  }
}

export interface ReplaceDeps extends AssetUploadDeps {
  thumbnail(file: File, type: string): Promise<Blob | null>;
  replace(id: string, fields: AssetFileFields): Promise<AssetRecord>;
}

/** Replaces an asset's file (PUT /assets/{id}/file): the same id answers with its version + 1. */
export async function replaceAssetFile(id: string, file: File, deps: ReplaceDeps, onProgress: (fraction: number) => void = () => undefined): Promise<AssetRecord> {
  const type = assetTypeOf(file.name);
  if (!type) throw new AssetUploadError('error_asset_type_not_allowed', {}, false);
  const thumb = await deps.thumbnail(file, type).catch(() => null);
  const fields = await uploadAssetBytes(file, thumb, deps, onProgress);
  try {
    return await deps.replace(id, fields);
  } catch (e) {
    throw assetErrorOf(e, 'register');
  }
}
