import { fileTypeFromBuffer } from 'file-type';
import { FILE_TYPES, LOGO_TYPES, type FileType } from '../../resources/files.js';
import { ASSET_TYPES } from '../../resources/assets.js';

/** How many leading bytes the type check reads (file-type's own recommendation). */
export const SNIFF_BYTES = 4100;

/** A type by its first bytes: a MIME type from the magic number, 'text' for plain UTF-8 text, or undefined. */
export async function detectType(head: Buffer, complete: boolean): Promise<string | undefined> {
  if (head.length === 0) return undefined;
  const found = await fileTypeFromBuffer(head);
  if (found) return found.mime;
  return looksLikeText(head, complete) ? 'text' : undefined;
}

/**
 * Plain text: valid UTF-8 (an optional BOM), no NUL or other control characters but tab, line breaks and form feed.
 * When the sample is only the start of the file, a multi-byte character cut off at its end is allowed.
 */
export function looksLikeText(head: Buffer, complete: boolean): boolean {
  let buf = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? head.subarray(3) : head;
  for (const c of buf) {
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0c && c !== 0x0d) || c === 0x7f) return false;
  }
  if (!complete) {
    // Drop an incomplete trailing sequence: walk back over continuation bytes to the lead byte.
    let i = buf.length - 1;
    let back = 0;
    while (i >= 0 && back < 3 && (buf[i] & 0xc0) === 0x80) {
      i--;
      back++;
    }
    if (i >= 0 && buf[i] >= 0xc0) {
      const need = buf[i] >= 0xf0 ? 3 : buf[i] >= 0xe0 ? 2 : 1;
      if (back < need) buf = buf.subarray(0, i);
    }
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buf);
    return true;
  } catch {
    return false;
  }
}

export function contentMatches(detected: string | undefined, type: FileType): boolean {
  if (!detected) return false;
  return type.text ? detected === 'text' : detected === type.mime;
}

/** Whether bytes of the detected kind may be stored at all under a key of this kind (checked while uploading). */
export function allowedFor(kind: 'file' | 'logo' | 'asset', detected: string | undefined): boolean {
  if (!detected) return false;
  if (kind === 'logo') return LOGO_TYPES.includes(detected);
  // An asset's file or thumbnail (thumbnails are images, which assets allow anyway).
  if (kind === 'asset') return ASSET_TYPES.includes(detected);
  return FILE_TYPES.some((t) => contentMatches(detected, t));
}
