import { describe, expect, it } from 'vitest';
import en from '../../admin/src/i18n/en';
import nl from '../../admin/src/i18n/nl';
import raNl from '../../admin/src/i18n/raNl';
import englishMessages from 'ra-language-english';
import { createTranslator, lookup, type Messages } from '../../admin/src/i18n/tiny';
import { MESSAGES } from '../../resources/messages';

/** Every key path of a nested message object ("a.b.c"). */
function paths(obj: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) =>
    typeof v === 'object' && v !== null ? paths(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

const languages = { en: en as unknown as Messages, nl: nl as unknown as Messages };

describe('translations', () => {
  it('English and Dutch have exactly the same keys, none empty', () => {
    expect(paths(languages.nl).sort()).toEqual(paths(languages.en).sort());
    for (const [lang, messages] of Object.entries(languages)) {
      for (const key of paths(messages)) expect(lookup(messages, key), `${lang}: ${key}`).toMatch(/\S/);
    }
  });

  it("react-admin's Dutch texts cover every key of its English ones", () => {
    expect(paths(raNl as unknown as Record<string, unknown>).sort()).toEqual(paths(englishMessages as unknown as Record<string, unknown>).sort());
  });

  it('translate every message key of resources/messages.ts', () => {
    for (const key of Object.keys(MESSAGES)) {
      expect(lookup(languages.en, key), `en: ${key}`).toBeDefined();
      expect(lookup(languages.nl, key), `nl: ${key}`).toBeDefined();
    }
  });

  it('translate every key the spec names', () => {
    const keys = [
      'error_email_invalid',
      'error_password_too_short',
      'error_user_already_exists',
      'error_user_already_exists_description',
      'message_no_admin_access',
      'message_no_admin_access_description',
      'message_saved',
      'user_import_success_title',
      // error_{code} for every login failure code of the API (api/routes/auth.ts)
      'error_invalid_credentials',
      'error_user_not_verified',
      'error_user_disabled',
      'error_invalid_login_info',
      'error_too_many_attempts',
      'error_already_verified',
      'error_invalid_token',
    ];
    for (const [lang, messages] of Object.entries(languages)) {
      const t = createTranslator(messages, lang as 'en' | 'nl');
      for (const key of keys) expect(t.exists(key), `${lang}: ${key}`).toBe(true);
      expect(t.t('user_import_success_description', { count: 3, created: 2, memberships: 1 })).toMatch(/3/);
    }
  });

  it('give every CSV import code its own title and a description naming first name, last name and e-mail', () => {
    const codes = ['unknown_account', 'invalid_email', 'user_exists', 'duplicate_user', 'invalid_role'];
    for (const [lang, messages] of Object.entries(languages)) {
      const { t, exists } = createTranslator(messages, lang as 'en' | 'nl');
      const titles = new Set<string>();
      for (const code of codes) {
        expect(exists(`user_import_error_${code}`), `${lang}: ${code}`).toBe(true);
        titles.add(t(`user_import_error_${code}`));
        const description = t(`user_import_error_${code}_description`, { row: 7, first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' });
        expect(description).toContain('Grace');
        expect(description).toContain('Hopper');
        expect(description).toContain('grace@example.com');
      }
      expect(titles.size).toBe(codes.length);
    }
  });

  it('the small translator interpolates and picks plural forms like i18next', () => {
    const { t } = createTranslator(languages.en, 'en');
    expect(t('ls.users.import_errors', { count: 1 })).toBe('1 row could not be imported; nothing was imported.');
    expect(t('ls.users.import_errors', { count: 4 })).toBe('4 rows could not be imported; nothing was imported.');
    expect(t('error_password_too_short', { min: 12 })).toBe('Invalid password, please use 12 characters.');
    expect(t('no_such_key', { _: 'fallback' })).toBe('fallback');
    expect(t('no_such_key')).toBe('no_such_key');
  });
});
