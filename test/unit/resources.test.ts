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
  it('every declaration has a unique name, a known group and a real permission for each operation (fail closed)', async () => {
    const { RESOURCES, isGroup, permissionBits, NOBODY } = await import('../../resources/index.js');
    const names = RESOURCES.map((r) => r.name);
    expect(new Set(names).size, names.join(', ')).toBe(names.length);
    for (const r of RESOURCES) {
      expect(isGroup(r.group), r.name).toBe(true);
      for (const [op, perm] of Object.entries(r.operations)) {
        // an operation offered to nobody says so by name (a misspelt bit would also be 0, and be refused here)
        if (perm === NOBODY) continue;
        expect(permissionBits(r.group, perm!), `${r.name}.${op}`).toBeGreaterThan(0);
      }
    }
  });

  it("every group's default grants are declared once, for every role; the matrix is built from them", async () => {
    const { RESOURCES, ROLES, GROUPS, OTHER_GROUPS, PERMISSIONS, groupGrants } = await import('../../resources/index.js');
    const grants = groupGrants(RESOURCES, OTHER_GROUPS);
    expect(new Set(GROUPS)).toEqual(new Set([...RESOURCES.map((r) => r.group), ...Object.keys(OTHER_GROUPS)]));
    for (const group of GROUPS) for (const role of ROLES) expect(PERMISSIONS[role][group], `${role} ${group}`).toBe(grants.get(group)![role]);
    // A new resource's group without grants, or a group whose grants two resources declare, stops the registry.
    const events = RESOURCES.find((r) => r.name === 'events')!;
    expect(() => groupGrants([...RESOURCES, { ...events, name: 'sponsors', group: 'account_sponsors', grants: undefined }], OTHER_GROUPS)).toThrow(/account_sponsors/);
    expect(() => groupGrants([...RESOURCES, { ...events, name: 'sponsors' }], OTHER_GROUPS)).toThrow(/account_events: grants declared by both events and sponsors/);
  });

  it('every console resource names a drawable icon and has English and Dutch labels of the same shape', async () => {
    const { ACCOUNT_RESOURCES, RESOURCE_ICONS } = { ...(await import('../../resources/index.js')), ...(await import('../../resources/types.js')) };
    const shape = (v: unknown): unknown => (typeof v === 'object' && v ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)])) : typeof v);
    for (const r of ACCOUNT_RESOURCES) {
      if (r.icon) expect(RESOURCE_ICONS, r.name).toContain(r.icon);
      expect(r.labels, r.name).toBeDefined();
      expect(shape(r.labels!.nl), r.name).toEqual(shape(r.labels!.en));
    }
  });

  it('resourceRouter refuses a declaration with an operation that has no permission', async () => {
    const { resourceRouter } = await import('../../api/crud/router.js');
    const { accounts } = await import('../../resources/accounts.js');
    const broken = { ...accounts, operations: { ...accounts.operations, delete: undefined } };
    expect(() => resourceRouter(broken)).toThrow(/fail closed/);
    expect(() => resourceRouter(accounts)).not.toThrow();
  });
});
