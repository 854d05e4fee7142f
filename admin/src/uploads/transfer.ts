import { ApiRequestError, type ApiErrorBody } from '../providers/http';

/**
 * What every upload of the admin shares, without React: the steps a queued file goes through, the PUT of its bytes to
 * a signed URL with progress, new ids, the spec's two generic failure texts, and files sent a few at a time.
 */

export type UploadStatus = 'queued' | 'uploading' | 'registering' | 'done' | 'failed';

/** A file in an upload queue, as its row shows it. */
export interface QueuedFile {
  key: string;
  file: File;
  status: UploadStatus;
  /** 0..1 of the bytes sent to the storage server. */
  progress: number;
  /** A message key (or the server's own text when it has no key). */
  error?: string;
}

/** Spec 8: a PUT the storage server refused, and a registration the API refused. */
export const STORAGE_FAILED = 'error_upload_storage_failed';
export const REGISTER_FAILED = 'error_upload_failed';

export interface PutResult {
  status: number;
  body: unknown;
}

/** Sends bytes to a signed URL, reporting 0..1 of them sent (putWithProgress; tests pass fakes). */
export type PutBytes = (url: string, blob: Blob, onProgress: (fraction: number) => void) => Promise<PutResult>;

/** PUT with upload progress (fetch has none). Resolves with the status and the parsed body; rejects on a network error. */
export function putWithProgress(url: string, file: Blob, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<PutResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: unknown = xhr.responseText;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        /* not JSON (an S3 store answers XML): keep the text */
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new Error('network'));
    xhr.onabort = () => reject(new Error('aborted'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

/** The API's error answer in a failed call (an ApiRequestError) or a storage server's parsed body, with the status when known. */
export function apiErrorOf(e: unknown): { status?: number; body?: ApiErrorBody } {
  if (e instanceof ApiRequestError) return { status: e.status, body: e.body };
  const b = e as ApiErrorBody | undefined;
  return b && typeof b === 'object' && typeof b.code === 'string' ? { body: b } : {};
}

/** A v4 UUID (crypto.randomUUID needs a secure context; getRandomValues does not). */
export function newId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Runs `work` for every item, at most `limit` at the same time, in the items' order; resolves when all have ended. */
export async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
