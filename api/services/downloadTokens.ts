import crypto from 'node:crypto';

/**
 * The download token of a collection's public page (/c/{co_token}): proof that this visitor sent the download form
 * of that collection within the last hour. Stateless like the guest token (an HMAC of the collection id, the expiry
 * and a random value), so visitors write nothing to the database beyond their lead. Short-lived on purpose: a link
 * copied from the page and shared later asks the next person for the form again.
 */
export const DOWNLOAD_TOKEN_TTL_MS = 60 * 60 * 1000;

/** The cookie that carries it, scoped to the collection's API path (one cookie per collection). */
export const DOWNLOAD_COOKIE = 'ls.download';

const mac = (secret: string, collectionId: string, body: string) => crypto.createHmac('sha256', `download:${secret}`).update(`${collectionId}.${body}`).digest('base64url');

export function createDownloadToken(secret: string, collectionId: string, now = Date.now()): { token: string; expiresAt: Date } {
  const expires = now + DOWNLOAD_TOKEN_TTL_MS;
  const body = `${expires.toString(36)}.${crypto.randomBytes(9).toString('base64url')}`;
  return { token: `${body}.${mac(secret, collectionId, body)}`, expiresAt: new Date(expires) };
}

/** True for an unexpired token made for this collection with this secret. */
export function isValidDownloadToken(secret: string, collectionId: string, token: unknown, now = Date.now()): boolean {
  if (typeof token !== 'string' || token.length > 120) return false;
  const i = token.lastIndexOf('.');
  if (i < 0) return false;
  const body = token.slice(0, i);
  const expected = Buffer.from(mac(secret, collectionId, body));
  const given = Buffer.from(token.slice(i + 1));
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return false;
  return parseInt(body.split('.')[0], 36) > now;
}
