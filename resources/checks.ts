/**
 * Value checks without zod, so the public pages (registration, capture app) can use them and stay small
 * (resources/fields.ts builds the zod rules on them).
 */

// A pragmatic address check: one @, no spaces or control characters, a dot in the domain part, TLD of 2+ letters.
// eslint-disable-next-line no-control-regex
const EMAIL_RE = /^[^\s@\x00-\x1f\x7f]+@[^\s@\x00-\x1f\x7f]+\.[^\s@.\x00-\x1f\x7f]{2,}$/;
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function isEmail(value: string): boolean {
  return EMAIL_RE.test(value) && value.length <= 254;
}

export function isUuid(value: unknown): boolean {
  return typeof value === 'string' && UUID_RE.test(value);
}
