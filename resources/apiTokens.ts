import { z } from 'zod';
import { role, uuid } from './fields.js';

/**
 * Personal API tokens (platform-and-flows.md section 2), headless: the create body, checked by the API and by the
 * profile page's dialog. The role's ceiling (the caller's own role in the account) and the account's export_curl
 * bit are the API's checks (api/routes/apiTokens.ts): they need the database.
 */

export const API_TOKEN_TITLE_MAX = 100;
/** Without tk_expires_at a token lives 90 days. */
export const API_TOKEN_DEFAULT_DAYS = 90;
/** At most one year ahead; 366 days, so "a year from today" picked on any day (leap years too) is accepted. */
export const API_TOKEN_MAX_DAYS = 366;
/** The expiry choices the profile page offers, in days. */
export const API_TOKEN_EXPIRY_CHOICES = [7, 30, 90, 180, 365] as const;

const DAY_MS = 24 * 3600 * 1000;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The default expiry of a token made at `now`. */
export const defaultTokenExpiry = (now = Date.now()) => new Date(now + API_TOKEN_DEFAULT_DAYS * DAY_MS);

const expiresAt = z
  .string({ error: 'error_invalid_value' })
  .trim()
  .refine((v) => ISO_DATE_TIME.test(v) && !Number.isNaN(Date.parse(v)), { error: 'error_expiry_invalid' })
  .transform((v) => new Date(v))
  .refine((d) => d.getTime() > Date.now(), { error: 'error_expiry_past' })
  .refine((d) => d.getTime() <= Date.now() + API_TOKEN_MAX_DAYS * DAY_MS, { error: 'error_expiry_too_far' });

/** POST /auth/tokens. */
export const apiTokenCreateSchema = z.object({
  tk_title: z.string({ error: 'error_title_required' }).trim().min(1, { error: 'error_title_required' }).max(API_TOKEN_TITLE_MAX, { error: 'error_too_long' }),
  tk_accountid: uuid,
  tk_role: role,
  tk_expires_at: expiresAt.nullish(),
});

export type ApiTokenCreate = z.output<typeof apiTokenCreateSchema>;

/** What the API answers for a token (the secret only once, as `token`, in the create answer). */
export interface ApiToken {
  id: string;
  tk_id: string;
  tk_title: string;
  tk_accountid: string;
  tk_role: string;
  tk_expires_at: string;
  tk_last_used_at: string | null;
  tk_created_at: string;
  /** The account's name, for the list. */
  a_name: string;
}

/** The prefix of every token's secret: a leaked one is recognisable (secret scanners, logs). */
export const API_TOKEN_PREFIX = 'lst_';
