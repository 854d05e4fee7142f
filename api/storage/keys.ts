import { FILES_PATH_RE } from '../../resources/files.js';
import { isUuid } from '../../resources/fields.js';

/**
 * Object keys. Every key is built here from a server-generated path and a validated UUID, so nothing a client
 * writes ever becomes part of a file-system path or an S3 key:
 *   files/<yyyy>/<mm>/<fs_id>   a media-library file (fs_path = /files/<yyyy>/<mm>)
 *   logos/<accountId>           an account's logo
 *   profiles/<userId>           a user's profile picture
 *   lead-files/<accountId>/<yyyy>/<mm>/<lf_id>   a lead's card photo (lf_path = /lead-files/<accountId>/<yyyy>/<mm>);
 *                               private: never served under /storage, only by the account's lead-files route
 *   assets/<accountId>/<yyyy>/<mm>/<fileId>   an account asset's file or thumbnail (as_path = /assets/<accountId>/<yyyy>/<mm>);
 *                               public like the media library (the player and collection pages are public)
 */
export const LOGOS_PATH = '/logos';

export type ObjectRef = { kind: 'file'; path: string; id: string } | { kind: 'asset'; path: string; id: string } | { kind: 'logo'; path: typeof LOGOS_PATH; id: string };

/** The fs_path for an upload signed now: /files/<yyyy>/<mm> (UTC). */
export function newFilesPath(now = new Date()): string {
  return `/files/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** Where a lead file's bytes live: /lead-files/<accountId>/<yyyy>/<mm> (server-generated, like fs_path). */
export const LEAD_FILES_PATH_RE = /^\/lead-files\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/\d{4}\/(0[1-9]|1[0-2])$/;

/** The lf_path for a lead file stored now (UTC month). */
export function newLeadFilesPath(accountId: string, now = new Date()): string {
  if (!isUuid(accountId)) throw new Error('newLeadFilesPath: not a uuid');
  return `/lead-files/${accountId.toLowerCase()}/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** Where an asset's bytes live: /assets/<accountId>/<yyyy>/<mm> (server-generated). */
export const ASSETS_PATH_RE = new RegExp(`^/assets/${UUID}/\\d{4}/(0[1-9]|1[0-2])$`);

/** The as_path for an asset upload signed now (UTC month). */
export function newAssetsPath(accountId: string, now = new Date()): string {
  if (!isUuid(accountId)) throw new Error('newAssetsPath: not a uuid');
  return `/assets/${accountId.toLowerCase()}/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
}

export function objectKey(path: string, id: string): string {
  if (!isUuid(id)) throw new Error('objectKey: not a uuid');
  if (path !== LOGOS_PATH && !FILES_PATH_RE.test(path) && !LEAD_FILES_PATH_RE.test(path) && !ASSETS_PATH_RE.test(path)) throw new Error('objectKey: not a storage path');
  return `${path.slice(1)}/${id.toLowerCase()}`;
}

export function logoKey(accountId: string): string {
  return objectKey(LOGOS_PATH, accountId);
}

/** profiles/<userId>: a user's profile picture (api/routes/profile.ts; never served under /storage). */
export function profilePictureKey(userId: string): string {
  if (!isUuid(userId)) throw new Error('profilePictureKey: not a uuid');
  return `profiles/${userId.toLowerCase()}`;
}

/**
 * Parses what follows /storage in a URL (already percent-decoded by the caller, or not: encoded dots and slashes
 * simply fail the pattern). Anything that is not exactly a key we generate answers null.
 */
export function parseObjectPath(urlPath: string): ObjectRef | null {
  const m = new RegExp(`^/(files/\\d{4}/(?:0[1-9]|1[0-2])|logos|assets/${UUID}/\\d{4}/(?:0[1-9]|1[0-2]))/([0-9a-fA-F-]{36})$`).exec(urlPath);
  if (!m || !isUuid(m[2])) return null;
  const id = m[2].toLowerCase();
  if (m[1] === 'logos') return { kind: 'logo', path: LOGOS_PATH, id };
  if (m[1].startsWith('assets/')) return { kind: 'asset', path: `/${m[1]}`, id };
  return { kind: 'file', path: `/${m[1]}`, id };
}
