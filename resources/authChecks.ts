import { isEmail } from './checks.js';

/**
 * The sign-in, forgot-password and reset-password rules of resources/auth.ts without zod, for the public pages: zod
 * (about 25 KB gzipped) would otherwise travel with /login. Each function answers what `issuesByField` answers for the
 * matching zod schema (every field's message keys, in order); test/unit/authChecks.test.ts holds them to that. The API
 * keeps validating with the zod schemas.
 */

export type FieldIssues = Record<string, string[]>;

export const LOGIN_PASSWORD_MIN_LENGTH = 4;
/** The longest password and reset token the API takes (auth.ts). */
export const PASSWORD_MAX_LENGTH = 1024;
export const RESET_TOKEN_MAX_LENGTH = 200;

const add = (out: FieldIssues, field: string, message: string) => (out[field] ??= []).push(message);

/** loginSchema: the e-mail may be empty or must be valid; a password of LOGIN_PASSWORD_MIN_LENGTH to 1024 characters. */
export function loginIssues(values: Record<string, unknown>): FieldIssues {
  const out: FieldIssues = {};
  const email = values.u_email;
  if (typeof email !== 'string' || (email.trim() !== '' && !isEmail(email.trim()))) add(out, 'u_email', 'error_email_invalid');
  const password = values.u_password;
  if (typeof password !== 'string' || password.length < LOGIN_PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    add(out, 'u_password', 'error_password_too_short');
  }
  return out;
}

/** emailOnlySchema: a required, valid address. */
export function emailOnlyIssues(values: Record<string, unknown>): FieldIssues {
  const out: FieldIssues = {};
  const email = values.u_email;
  if (typeof email !== 'string') add(out, 'u_email', 'error_email_required');
  else {
    const trimmed = email.trim();
    if (trimmed.length < 1) add(out, 'u_email', 'error_email_required');
    if (!isEmail(trimmed)) add(out, 'u_email', 'error_email_invalid');
  }
  return out;
}

/**
 * resetPasswordSchema(minLength): a token, a password of minLength or more and its confirmation. A mismatch shows on
 * both fields once the password is long enough; a field of the wrong type stops the length and match rules.
 */
export function resetPasswordIssues(values: Record<string, unknown>, minLength: number): FieldIssues {
  const out: FieldIssues = {};
  const { token, password, password_confirm: confirm } = values;
  if (typeof token !== 'string' || token.length < 1 || token.length > RESET_TOKEN_MAX_LENGTH) add(out, 'token', 'error_token_invalid');
  if (typeof password !== 'string' || password.length > PASSWORD_MAX_LENGTH) add(out, 'password', 'error_password_too_short');
  if (typeof confirm !== 'string' || confirm.length > PASSWORD_MAX_LENGTH) add(out, 'password_confirm', 'error_passwords_do_not_match');
  if (typeof token !== 'string' || typeof password !== 'string' || typeof confirm !== 'string') return out;
  if (password.length < minLength) add(out, 'password', 'error_password_too_short');
  if (password !== confirm) {
    add(out, 'password_confirm', 'error_passwords_do_not_match');
    if (password.length >= minLength) add(out, 'password', 'error_passwords_do_not_match');
  }
  return out;
}
