import type { Request } from 'express';
import type { ByteRange } from './driver.js';

/**
 * One `bytes=` range against a size (RFC 9110 14.1.2). null: serve the whole file (no header, a malformed one, or a
 * multi-range request, which a server may answer in full); 'unsatisfiable': answer 416.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const last = m[2] === '' ? size - 1 : Number(m[2]);
  if (m[2] !== '' && last < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(last, size - 1) };
}

/** RFC 6266 / RFC 5987: a plain ASCII fallback plus filename* with the exact UTF-8 name. */
export function contentDisposition(type: 'inline' | 'attachment', filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => bare(t) === bare(etag));
}

/** If-None-Match (weak comparison), else If-Modified-Since (second precision). */
export function notModified(req: Request, etag: string, modified: Date): boolean {
  const inm = req.headers['if-none-match'];
  if (inm) return etagMatches(inm, etag);
  const ims = req.headers['if-modified-since'];
  if (ims) {
    const since = Date.parse(ims);
    return Number.isFinite(since) && Math.floor(modified.getTime() / 1000) <= Math.floor(since / 1000);
  }
  return false;
}

/** If-Range: the range applies only while the representation is unchanged (a strong ETag or the exact date). */
export function rangeStillValid(req: Request, etag: string, modified: Date): boolean {
  const ifRange = req.get('if-range');
  if (!ifRange) return true;
  if (ifRange.startsWith('"') || ifRange.startsWith('W/')) return ifRange === etag;
  const date = Date.parse(ifRange);
  return Number.isFinite(date) && Math.floor(date / 1000) === Math.floor(modified.getTime() / 1000);
}
