import { FILES_PATH_RE } from '../../resources/files.js';
import { isUuid } from '../../resources/fields.js';

/**
 * Object keys. Every key is built here from a server-generated path and a validated UUID, so nothing a client
 * writes ever becomes part of a file-system path or an S3 key:
 *   files/<yyyy>/<mm>/<fs_id>   a media-library file (fs_path = /files/<yyyy>/<mm>)
 *   logos/<accountId>           an account's logo
 */
export const LOGOS_PATH = '/logos';

export type ObjectRef = { kind: 'file'; path: string; id: string } | { kind: 'logo'; path: typeof LOGOS_PATH; id: string };

/** The fs_path for an upload signed now: /files/<yyyy>/<mm> (UTC). */
export function newFilesPath(now = new Date()): string {
  return `/files/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
}

export function objectKey(path: string, id: string): string {
  if (!isUuid(id)) throw new Error('objectKey: not a uuid');
  if (path !== LOGOS_PATH && !FILES_PATH_RE.test(path)) throw new Error('objectKey: not a storage path');
  return `${path.slice(1)}/${id.toLowerCase()}`;
}

export function logoKey(accountId: string): string {
  return objectKey(LOGOS_PATH, accountId);
}

/**
 * Parses what follows /storage in a URL (already percent-decoded by the caller, or not: encoded dots and slashes
 * simply fail the pattern). Anything that is not exactly a key we generate answers null.
 */
export function parseObjectPath(urlPath: string): ObjectRef | null {
  const m = /^\/(files\/\d{4}\/(?:0[1-9]|1[0-2])|logos)\/([0-9a-fA-F-]{36})$/.exec(urlPath);
  if (!m || !isUuid(m[2])) return null;
  const id = m[2].toLowerCase();
  if (m[1] === 'logos') return { kind: 'logo', path: LOGOS_PATH, id };
  return { kind: 'file', path: `/${m[1]}`, id };
}
