import type { Readable } from 'node:stream';

/** What a stored object looks like from outside: enough for caching headers and checks. */
export interface ObjectInfo {
  size: number;
  modified: Date;
  /** A strong validator, quoted (as in an ETag header). */
  etag: string;
}

/** An inclusive byte range. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The storage layer under the media library and account logos. Keys come from api/storage/keys.ts only.
 * Uploads never pass through a driver method: the browser PUTs to the URL signUpload gives (our own endpoint for
 * the local driver, a presigned URL of the bucket for S3).
 */
export interface StorageDriver {
  readonly name: 'local' | 's3';
  /**
   * A URL the client PUTs the raw bytes to: for the local driver a root-relative URL on this API's own origin
   * (right behind any proxy, whatever the browser used to reach us), for S3 an absolute presigned URL.
   */
  signUpload(key: string, opts: { maxBytes: number; ttlSeconds: number }): Promise<string>;
  /** null when there is no such object. */
  stat(key: string): Promise<ObjectInfo | null>;
  /** Up to `bytes` leading bytes (fewer when the object is smaller). */
  readHead(key: string, bytes: number): Promise<Buffer>;
  read(key: string, range?: ByteRange): Promise<Readable>;
  /**
   * Stores bytes the API itself received and checked (a lead's card photo, at most a few MB), replacing any object
   * under the key; nothing is visible under the key until all of it is stored.
   */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** Removes the object; no error when it is already gone. */
  remove(key: string): Promise<void>;
  /** Resolves when the store is reachable and usable (readiness probe); rejects with the reason otherwise. */
  check(signal?: AbortSignal): Promise<void>;
  close(): Promise<void>;
}
