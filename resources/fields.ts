import { z } from 'zod';
import { ROLES } from './permissions.js';

/** Field rules shared by several resources. Error messages are message keys (resources/messages.ts). */

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

export const email = z
  .string({ error: 'error_email_required' })
  .trim()
  .min(1, { error: 'error_email_required' })
  .refine(isEmail, { error: 'error_email_invalid' });

export const role = z.enum(ROLES, { error: 'error_role_invalid' });

export const uuid = z.string({ error: 'error_uuid_invalid' }).refine(isUuid, { error: 'error_uuid_invalid' });

export const name = (max = 100) => z.string().trim().max(max, { error: 'error_too_long' });

/**
 * Optional fields: '' and null clear the value (null); a missing key stays missing (undefined), so a partial update
 * leaves the stored value alone. (`.optional()` outside the transform: zod 4 runs a transform under `nullish()`
 * even for a missing key.)
 */
export const optionalUrl = z
  .string()
  .trim()
  .max(2048, { error: 'error_too_long' })
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), { error: 'error_url_invalid' })
  .nullable()
  .transform((v) => (v ? v : null))
  .optional();

export const optionalText = (max = 10000) =>
  z
    .string()
    .max(max, { error: 'error_too_long' })
    .nullable()
    .transform((v) => (v ? v : null))
    .optional();

