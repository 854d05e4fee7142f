import { z } from 'zod';
import { isEmail } from './fields.js';
import { LOGIN_PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH, RESET_TOKEN_MAX_LENGTH } from './authChecks.js';

export { LOGIN_PASSWORD_MIN_LENGTH };

/**
 * Login (spec 5): the e-mail may be empty or must be valid (error_email_invalid); an empty one simply matches no
 * user (401 invalid_credentials). Password at least 4 characters. The public pages check the same rules without zod
 * (resources/authChecks.ts, held to these schemas by test/unit/authChecks.test.ts): change both together.
 */

export const loginSchema = z.object({
  u_email: z
    .string({ error: 'error_email_invalid' })
    .trim()
    .refine((v) => v === '' || isEmail(v), { error: 'error_email_invalid' }),
  u_password: z.string({ error: 'error_password_too_short' }).min(LOGIN_PASSWORD_MIN_LENGTH, { error: 'error_password_too_short' }).max(PASSWORD_MAX_LENGTH),
});

export const emailOnlySchema = z.object({
  u_email: z.string({ error: 'error_email_required' }).trim().min(1, { error: 'error_email_required' }).refine(isEmail, { error: 'error_email_invalid' }),
});

export function resetPasswordSchema(minLength: number) {
  return z
    .object({
      token: z.string({ error: 'error_token_invalid' }).min(1, { error: 'error_token_invalid' }).max(RESET_TOKEN_MAX_LENGTH),
      password: z.string({ error: 'error_password_too_short' }).max(PASSWORD_MAX_LENGTH),
      password_confirm: z.string({ error: 'error_passwords_do_not_match' }).max(PASSWORD_MAX_LENGTH),
    })
    .superRefine((v, ctx) => {
      if (v.password.length < minLength) ctx.addIssue({ code: 'custom', message: 'error_password_too_short', path: ['password'] });
      if (v.password !== v.password_confirm) {
        ctx.addIssue({ code: 'custom', message: 'error_passwords_do_not_match', path: ['password_confirm'] });
        if (v.password.length >= minLength) ctx.addIssue({ code: 'custom', message: 'error_passwords_do_not_match', path: ['password'] });
      }
    });
}
