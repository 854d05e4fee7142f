import { z } from 'zod';
import { emailOnlySchema } from './auth.js';
import { checkPasswords } from './users.js';

/**
 * Self sign-up (platform-and-flows.md section 3): e-mail, both names (required) and a password with its confirmation,
 * by the same rules as a user's (checkPasswords: too short, mismatch shown on both fields). A module of its own, not
 * resources/auth.ts: the sign-in page imports that one, and resources/users.ts would come along into its budget.
 * (It does import auth.ts: the sign-in pages then share one chunk for it and the fields, as before; see README.)
 */
export function signupSchema(passwordMinLength: number) {
  const required = (max: number) => z.string({ error: 'error_required' }).trim().min(1, { error: 'error_required' }).max(max, { error: 'error_too_long' });
  return z
    .object({
      u_email: emailOnlySchema.shape.u_email.refine((v) => v.length <= 254, { error: 'error_too_long' }),
      u_first_name: required(100),
      u_last_name: required(100),
      u_password: z.string({ error: 'error_password_too_short' }).max(1024, { error: 'error_too_long' }),
      u_password_confirm: z.string({ error: 'error_passwords_do_not_match' }).max(1024, { error: 'error_too_long' }),
    })
    .superRefine(checkPasswords(passwordMinLength, true));
}
export type SignupInput = z.output<ReturnType<typeof signupSchema>>;
