import { z } from 'zod';
import { ROLES } from './roles.js';

/** Field rules shared by several resources. Error messages are message keys (resources/messages.ts). */

import { isEmail, isUuid } from './checks.js';

export { isEmail, isUuid, UUID_RE } from './checks.js';

export const email = z.string({ error: 'error_email_required' }).trim().min(1, { error: 'error_email_required' }).refine(isEmail, { error: 'error_email_invalid' });

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

/** An IANA time zone this runtime knows (Intl), e.g. Europe/Amsterdam. */
export function isTimeZone(v: unknown): v is string {
  if (typeof v !== 'string' || !v || v.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: v });
    return true;
  } catch {
    return false;
  }
}
