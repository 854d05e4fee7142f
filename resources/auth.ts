import { z } from 'zod';
import { isEmail } from './fields.js';
import { checkPasswords } from './users.js';

/**
 * Login (spec 5): the e-mail may be empty or must be valid (error_email_invalid); an empty one simply matches no
 * user (401 invalid_credentials). Password at least 4 characters.
 */
export const LOGIN_PASSWORD_MIN_LENGTH = 4;

export const loginSchema = z.object({
  u_email: z
    .string({ error: 'error_email_invalid' })
    .trim()
    .refine((v) => v === '' || isEmail(v), { error: 'error_email_invalid' }),
  u_password: z.string({ error: 'error_password_too_short' }).min(LOGIN_PASSWORD_MIN_LENGTH, { error: 'error_password_too_short' }).max(1024),
});

export const emailOnlySchema = z.object({
  u_email: z.string({ error: 'error_email_required' }).trim().min(1, { error: 'error_email_required' }).refine(isEmail, { error: 'error_email_invalid' }),
});

export function resetPasswordSchema(minLength: number) {
  return z
    .object({
      token: z.string({ error: 'error_token_invalid' }).min(1, { error: 'error_token_invalid' }).max(200),
      password: z.string({ error: 'error_password_too_short' }).max(1024),
      password_confirm: z.string({ error: 'error_passwords_do_not_match' }).max(1024),
    })
    .superRefine((v, ctx) => {
      if (v.password.length < minLength) ctx.addIssue({ code: 'custom', message: 'error_password_too_short', path: ['password'] });
      if (v.password !== v.password_confirm) {
        ctx.addIssue({ code: 'custom', message: 'error_passwords_do_not_match', path: ['password_confirm'] });
        if (v.password.length >= minLength) ctx.addIssue({ code: 'custom', message: 'error_passwords_do_not_match', path: ['password'] });
      }
    });
}

/**
 * Self sign-up (platform-and-flows.md section 3): e-mail, both names (required) and a password with its confirmation,
 * by the same rules as a user's (checkPasswords: too short, mismatch shown on both fields).
 */
export function signupSchema(passwordMinLength: number) {
  const required = (max: number) => z.string({ error: 'error_required' }).trim().min(1, { error: 'error_required' }).max(max, { error: 'error_too_long' });
  return z
    .object({
      u_email: z
        .string({ error: 'error_email_required' })
        .trim()
        .min(1, { error: 'error_email_required' })
        .max(254, { error: 'error_too_long' })
        .refine(isEmail, { error: 'error_email_invalid' }),
      u_first_name: required(100),
      u_last_name: required(100),
      u_password: z.string({ error: 'error_password_too_short' }).max(1024, { error: 'error_too_long' }),
      u_password_confirm: z.string({ error: 'error_passwords_do_not_match' }).max(1024, { error: 'error_too_long' }),
    })
    .superRefine(checkPasswords(passwordMinLength, true));
}
export type SignupInput = z.output<ReturnType<typeof signupSchema>>;
