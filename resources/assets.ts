import { staffAndMembers } from './roles.js';
import { z } from 'zod';
import { defineAccountResource } from './define.js';
import { isUuid } from './fields.js';
import { FILE_TYPES } from './files.js';

/**
 * What an asset may be: what carousels, collections and form styles show or offer for download. Images and video
 * play on totems; PDFs and audio are downloads of a collection; fonts serve form styles. SVG stays out (script).
 */
export const ASSET_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'video/mp4', 'video/webm', 'application/pdf', 'audio/mpeg', 'font/woff', 'font/woff2'];
export const ASSET_EXTENSIONS = FILE_TYPES.filter((t) => ASSET_TYPES.includes(t.mime)).flatMap((t) => t.extensions);

/** A thumbnail or a video poster, made by the browser: small and an image. */
export const THUMB_TYPES = ['image/jpeg', 'image/webp', 'image/png'];
export const THUMB_MAX_BYTES = 512 * 1024;

/** The kinds of asset the screens and the player tell apart. */
export const ASSET_KINDS = ['image', 'video', 'audio', 'pdf', 'font'] as const;
export type AssetKind = (typeof ASSET_KINDS)[number] | 'other';

export function assetKind(type: string): AssetKind {
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  if (type === 'application/pdf') return 'pdf';
  if (type.startsWith('font/')) return 'font';
  return 'other';
}

/**
 * An account's media file (account-console.md: assets). Created from a signed upload (POST /assets/sign, PUT the
 * bytes, POST /assets with the upload's id and path); the file fields are the server's, read-only. PUT
 * /assets/{id}/file replaces the bytes: same id, as_version + 1.
 */
export const assets = defineAccountResource({
  name: 'assets',
  table: 'assets',
  prefix: 'as',
  group: 'account_assets',
  trash: true,
  grants: staffAndMembers(15, 1),
  icon: 'perm_media',
  fields: {
    as_title: { kind: 'text', required: true, list: true, sort: true },
    as_name: { kind: 'identifier', required: true, list: true, sort: true },
    as_type: { kind: 'text', required: true, readOnly: true, list: true, filter: true, sort: true },
    as_size: { kind: 'number', required: true, readOnly: true, list: true, sort: true },
    as_version: { kind: 'number', default: 1, readOnly: true, list: true },
    as_fileid: { kind: 'text', required: true, readOnly: true, formHidden: true },
    as_filename: { kind: 'text', required: true, readOnly: true, formHidden: true },
    as_sha256: { kind: 'text', required: true, readOnly: true, formHidden: true },
  },
  search: ['as_title', 'as_name'],
  unique: [{ field: 'as_name' }],
  codes: ['asset_upload_not_found', 'asset_type_not_allowed'],
  labels: {
    en: {
      name_one: 'Asset',
      name_other: 'Assets',
      fields: {
        as_title: 'Title',
        as_name: 'Name',
        as_type: 'Type',
        as_size: 'Size',
        as_version: 'Version',
        as_fileid: 'File',
        as_filename: 'File name',
        as_sha256: 'SHA-256',
      },
    },
    nl: {
      name_one: 'Asset',
      name_other: 'Assets',
      fields: {
        as_title: 'Titel',
        as_name: 'Naam',
        as_type: 'Type',
        as_size: 'Grootte',
        as_version: 'Versie',
        as_fileid: 'Bestand',
        as_filename: 'Bestandsnaam',
        as_sha256: 'SHA-256',
      },
    },
  },
});

const uuid = z
  .string({ error: 'error_uuid_invalid' })
  .refine(isUuid, { error: 'error_uuid_invalid' })
  .transform((v) => v.toLowerCase());
const filename = z
  .string({ error: 'error_invalid_value' })
  .trim()
  .min(1, { error: 'error_required' })
  .max(255, { error: 'error_too_long' })
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  .refine((v) => !/[\u0000-\u001f/\\]/.test(v), { error: 'error_filename_invalid' });

/** POST /assets/sign {ids}: one signed upload per client-chosen id (the asset's file and its thumbnail, say). */
export const assetSignSchema = z.object({
  ids: z.array(uuid, { error: 'error_ids_required' }).min(1, { error: 'error_ids_required' }).max(20, { error: 'error_too_many' }),
});

/** The uploaded file of a create or a replacement (the media library's register fields). */
export const assetFileSchema = z.object({
  as_fileid: uuid,
  fs_filename: filename,
  fs_type: z.string({ error: 'error_invalid_value' }).trim().max(200, { error: 'error_too_long' }).optional().default(''),
  fs_path: z.string({ error: 'error_invalid_value' }).max(200, { error: 'error_too_long' }),
  /** Optional thumbnail or video poster, uploaded under the same signature. */
  as_thumb_fileid: uuid.nullable().optional(),
});
export type AssetFileInput = z.infer<typeof assetFileSchema>;

/** The public URL of an asset's current bytes (immutable: a replacement has a new file id and version). */
export function assetUrl(a: { as_path: string; as_fileid: string; as_version: number }): string {
  return `/storage${a.as_path}/${a.as_fileid}?v=${a.as_version}`;
}

/** The types of the given kinds (a list filter: filter.as_type = these). */
export function typesOfKinds(kinds: readonly string[]): string[] {
  return ASSET_TYPES.filter((t) => kinds.includes(assetKind(t)));
}

export function assetThumbUrl(a: { as_path: string; as_thumb_fileid: string | null }): string | null {
  return a.as_thumb_fileid ? `/storage${a.as_path}/${a.as_thumb_fileid}` : null;
}
