import type { ApiErrorBody } from './http';

/**
 * The text of a failed API call, one rule for every screen (react-admin's translate in the console, the tiny
 * translators of the public pages): no framework here, the translate function comes in.
 *
 * - no answer (the network): `network` (error_network);
 * - validation_failed or a 409 conflict that names a field: that field's message key (a conflict's field key is its
 *   own text, e.g. error_name_taken; validation_failed alone only says "check the fields", which a screen without
 *   field errors cannot show);
 * - else the translation of error_{code} when there is one, else the API's English message, else `fallback`.
 */

/** react-admin's translate, the public pages' `t`, or a catalogue lookup that answers undefined for an unknown key. */
export type FailureTranslate = (key: string, options?: Record<string, unknown>) => string | undefined;

/** A failure the API answered: its HTTP status and error body (DESIGN.md). */
export interface ApiFailure {
  status: number;
  body: ApiErrorBody;
}

export interface FailureTextOptions {
  /** The message key when the answer has no text of its own (default error_generic). */
  fallback?: string;
  /** The message key when no answer came (default error_network). */
  network?: string;
}

export const NETWORK_KEY = 'error_network';
export const GENERIC_KEY = 'error_generic';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * The API's answer in a thrown value: an ApiRequestError, a plain `{status, body}`, or an error carrying
 * `status`, `code` and `fields` itself (the public pages' RegisterError). Undefined when no answer came.
 */
export function apiFailureOf(e: unknown): ApiFailure | undefined {
  if (!isRecord(e) || typeof e.status !== 'number') return undefined;
  const source = isRecord(e.body) ? e.body : e;
  const code = typeof source.code === 'string' ? source.code : '';
  const fields = isRecord(source.fields) ? (source.fields as Record<string, string>) : undefined;
  // an error carrying the code itself has its own (English, technical) message, not the API's
  const message = source === e.body && typeof source.message === 'string' ? source.message : undefined;
  return { status: e.status, body: { code, message, fields } };
}

const MISSING = '\u0000missing';

/** The translation of `key`, or undefined when the translator has none (it answers the default, the key, or nothing). */
function translated(translate: FailureTranslate, key: string): string | undefined {
  const text = translate(key, { _: MISSING });
  return typeof text === 'string' && text !== '' && text !== MISSING && text !== key ? text : undefined;
}

/** The field message key a failure is about: validation_failed and 409 conflicts only. */
export function failureField(failure: ApiFailure): string | undefined {
  if (failure.body.code !== 'validation_failed' && failure.status !== 409) return undefined;
  return Object.values(failure.body.fields ?? {}).find((key) => typeof key === 'string' && key !== '');
}

/** The text to show for a thrown value (an API failure or no answer at all), by the rule above. */
export function failureText(e: unknown, translate: FailureTranslate, options: FailureTextOptions = {}): string {
  const fallback = options.fallback ?? GENERIC_KEY;
  const failure = apiFailureOf(e);
  if (!failure) return translated(translate, options.network ?? NETWORK_KEY) ?? translated(translate, fallback) ?? fallback;
  const field = failureField(failure);
  const { code, message } = failure.body;
  return (field && translated(translate, field)) || (code && translated(translate, `error_${code}`)) || message || translated(translate, fallback) || fallback;
}
