import { describe, expect, it } from 'vitest';
import { emailOnlySchema, loginSchema, resetPasswordSchema } from '../../resources/auth.js';
import { emailOnlyIssues, loginIssues, resetPasswordIssues } from '../../resources/authChecks.js';
import { issuesByField } from '../../admin/src/layout/zod.js';

// The public pages check with resources/authChecks.ts (no zod on /login); the API with the zod schemas. Both must
// answer the same message keys, in the same order, for every input the pages can send and the odd ones they cannot.
const emails: unknown[] = ['', ' ', 'a@b.co', '  a@b.co  ', 'a@b', 'ann@', '@b.co', 'a b@c.de', `${'a'.repeat(250)}@b.co`, 5, null, undefined];
const passwords: unknown[] = ['', 'abc', 'abcd', 'long-enough-pw', 'x'.repeat(1024), 'x'.repeat(1025), 7, null, undefined];
const tokens: unknown[] = ['', 't', 'x'.repeat(200), 'x'.repeat(201), 3, undefined];

describe('the zod-free auth checks answer what the zod schemas answer', () => {
  it('sign-in', () => {
    let n = 0;
    for (const u_email of emails)
      for (const u_password of passwords) {
        const values = { u_email, u_password };
        expect(loginIssues(values), JSON.stringify(values)).toEqual(issuesByField(loginSchema, values));
        n++;
      }
    expect(n).toBe(emails.length * passwords.length);
    expect(loginIssues({ u_email: 'a@b', u_password: 'abc' })).toEqual({ u_email: ['error_email_invalid'], u_password: ['error_password_too_short'] });
  });

  it('forgot password and resend activation', () => {
    for (const u_email of emails) expect(emailOnlyIssues({ u_email }), String(u_email)).toEqual(issuesByField(emailOnlySchema, { u_email }));
    expect(emailOnlyIssues({ u_email: '' })).toEqual({ u_email: ['error_email_required', 'error_email_invalid'] });
  });

  it('reset password, for two minimum lengths', () => {
    for (const min of [4, 12])
      for (const token of tokens)
        for (const password of passwords)
          for (const password_confirm of [...passwords, 'long-enough-pw']) {
            const values = { token, password, password_confirm };
            expect(resetPasswordIssues(values, min), JSON.stringify({ min, ...values })).toEqual(issuesByField(resetPasswordSchema(min), values));
          }
    expect(resetPasswordIssues({ token: 't', password: 'long-enough-pw', password_confirm: 'nope' }, 12)).toEqual({
      password_confirm: ['error_passwords_do_not_match'],
      password: ['error_passwords_do_not_match'],
    });
  });
});
