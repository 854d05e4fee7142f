import crypto from 'node:crypto';

/**
 * The reset page's guest token (spec 4): proof that the caller loaded our page within the last hour. Stateless, an
 * HMAC of its expiry and a random value, so anonymous visitors write nothing to the database.
 */
export const GUEST_TOKEN_TTL_MS = 60 * 60 * 1000;

const mac = (secret: string, body: string) => crypto.createHmac('sha256', `guest:${secret}`).update(body).digest('base64url');

export function createGuestToken(secret: string, now = Date.now()): string {
  const body = `${(now + GUEST_TOKEN_TTL_MS).toString(36)}.${crypto.randomBytes(12).toString('base64url')}`;
  return `${body}.${mac(secret, body)}`;
}

export function isValidGuestToken(secret: string, token: unknown, now = Date.now()): boolean {
  if (typeof token !== 'string' || token.length > 100) return false;
  const i = token.lastIndexOf('.');
  if (i < 0) return false;
  const body = token.slice(0, i);
  const expected = Buffer.from(mac(secret, body));
  const given = Buffer.from(token.slice(i + 1));
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return false;
  return parseInt(body.split('.')[0], 36) > now;
}
