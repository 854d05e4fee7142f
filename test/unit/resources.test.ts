import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { userSchemas } from '../../resources/users.js';
import { accountCreate } from '../../resources/accounts.js';
import { loginSchema, resetPasswordSchema } from '../../resources/auth.js';
import { isEmail, isUuid } from '../../resources/fields.js';

/** First message key per field, as the API answers it. */
function errors(schema: z.ZodTypeAny, value: unknown): Record<string, string> {
  const r = schema.safeParse(value);
  if (r.success) return {};
  const out: Record<string, string> = {};
  for (const i of r.error.issues) out[i.path.join('.')] ??= i.message;
  return out;
}

describe('user schemas (spec 5)', () => {
  const { create, update } = userSchemas(12);
  const base = { u_email: 'ann@example.com', u_first_name: 'Ann', u_last_name: 'Able', u_role: 'member' };

  it('create needs a password of the minimum length and a matching confirmation', () => {
    expect(errors(create, { ...base })).toEqual({ u_password: 'error_password_too_short' });
    expect(errors(create, { ...base, u_password: 'short', u_password_confirm: 'short' })).toEqual({ u_password: 'error_password_too_short' });
    expect(errors(create, { ...base, u_password: 'long-enough-pw', u_password_confirm: 'long-enough-px' })).toEqual({
      u_password: 'error_passwords_do_not_match',
      u_password_confirm: 'error_passwords_do_not_match',
    });
    expect(errors(create, { ...base, u_password: 'long-enough-pw', u_password_confirm: 'long-enough-pw' })).toEqual({});
  });

  it('update: password optional, but if either field is filled both rules apply', () => {
    expect(errors(update, { u_first_name: 'Ann' })).toEqual({});
    expect(errors(update, { u_password: '', u_password_confirm: '' })).toEqual({});
    expect(errors(update, { u_password_confirm: 'something-long' })).toMatchObject({ u_password: 'error_password_too_short', u_password_confirm: 'error_passwords_do_not_match' });
    expect(errors(update, { u_password: 'long-enough-pw' })).toEqual({ u_password: 'error_passwords_do_not_match', u_password_confirm: 'error_passwords_do_not_match' });
  });

  it('e-mail is required and must be valid; role must be one of the four', () => {
    expect(errors(create, { ...base, u_email: '', u_password: 'long-enough-pw', u_password_confirm: 'long-enough-pw' })).toEqual({ u_email: 'error_email_required' });
    expect(errors(create, { ...base, u_email: 'ann@', u_password: 'long-enough-pw', u_password_confirm: 'long-enough-pw' })).toEqual({ u_email: 'error_email_invalid' });
    expect(errors(create, { ...base, u_role: 'king', u_password: 'long-enough-pw', u_password_confirm: 'long-enough-pw' })).toEqual({ u_role: 'error_role_invalid' });
  });

  it('the minimum length follows the configuration', () => {
    expect(errors(userSchemas(4).create, { ...base, u_password: 'abcd', u_password_confirm: 'abcd' })).toEqual({});
  });
});

describe('login and reset schemas', () => {
  it('login: the e-mail may be empty or must be valid; password of 4 or more', () => {
    expect(errors(loginSchema, { u_email: 'a@b.co', u_password: 'abcd' })).toEqual({});
    expect(errors(loginSchema, { u_email: '', u_password: 'abcd' })).toEqual({});
    expect(errors(loginSchema, { u_email: 'a@b', u_password: 'abc' })).toEqual({ u_email: 'error_email_invalid', u_password: 'error_password_too_short' });
  });

  it('reset: token required, length and match', () => {
    const s = resetPasswordSchema(12);
    expect(errors(s, { token: '', password: 'long-enough-pw', password_confirm: 'long-enough-pw' })).toEqual({ token: 'error_token_invalid' });
    expect(errors(s, { token: 't', password: 'long-enough-pw', password_confirm: 'nope' })).toEqual({
      password: 'error_passwords_do_not_match',
      password_confirm: 'error_passwords_do_not_match',
    });
  });
});

describe('account schema', () => {
  it('a_name needs at least one character; domains and URLs are checked', () => {
    expect(errors(accountCreate, { a_name: '  ' })).toEqual({ a_name: 'error_name_required' });
    expect(errors(accountCreate, { a_name: 'Acme', a_email_domain: 'not a domain' })).toEqual({ a_email_domain: 'error_domain_invalid' });
    expect(errors(accountCreate, { a_name: 'Acme', a_api_url: 'ftp://x' })).toEqual({ a_api_url: 'error_url_invalid' });
    expect(accountCreate.parse({ a_name: 'Acme', a_email_domain: '@Acme.COM' }).a_email_domain).toBe('acme.com');
  });
});

describe('field helpers', () => {
  it('isEmail and isUuid (v4 only)', () => {
    expect(isEmail('a.b+c@sub.example.org')).toBe(true);
    expect(isEmail('a b@example.org')).toBe(false);
    expect(isEmail('a@example')).toBe(false);
    expect(isUuid('3f1c2a9e-8b7d-4c6e-9f01-23456789abcd')).toBe(true);
    expect(isUuid('3f1c2a9e-8b7d-1c6e-9f01-23456789abcd')).toBe(false);
    expect(isUuid('../../etc/passwd')).toBe(false);
  });
});

describe('resource registry', () => {
  it('every declaration names a known group and a real permission for each operation (fail closed)', async () => {
    const { RESOURCES, isGroup, permissionBits, NOBODY } = await import('../../resources/index.js');
    expect(RESOURCES.map((r) => r.name)).toEqual([
      'accounts', 'accountUsers', 'users', 'folders', 'files',
      // account-console.md section 3: the REST names are the contract's
      'members', 'invites', 'events', 'event-forms', 'forms', 'form-elements', 'lists', 'list-items', 'form-styles',
      'integrations', 'event-integrations', 'mail-templates', 'settings', 'leads', 'handoffs',
      'assets', 'collections', 'carousels', 'variants', 'slides', 'layers', 'carousel-groups', 'codes',
    ]);
    for (const r of RESOURCES) {
      expect(isGroup(r.group), r.name).toBe(true);
      for (const [op, perm] of Object.entries(r.operations)) {
        // an operation offered to nobody says so by name (a misspelt bit would also be 0, and be refused here)
        if (perm === NOBODY) continue;
        expect(permissionBits(r.group, perm!), `${r.name}.${op}`).toBeGreaterThan(0);
      }
    }
  });

  it('crudRouter refuses a declaration with an operation that has no permission', async () => {
    const { crudRouter } = await import('../../api/crud/router.js');
    const { accounts } = await import('../../resources/accounts.js');
    const broken = { ...accounts, operations: { ...accounts.operations, delete: undefined } };
    expect(() => crudRouter(broken, { query: () => { throw new Error('unused'); }, create: async () => '', update: async () => {}, remove: async () => {} })).toThrow(/fail closed/);
  });
});
