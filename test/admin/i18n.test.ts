import { describe, expect, it } from 'vitest';
import en from '../../admin/src/i18n/en';
import nl from '../../admin/src/i18n/nl';
import adminEn from '../../admin/src/i18n/admin/en';
import adminNl from '../../admin/src/i18n/admin/nl';
import { mergeDeep } from '../../admin/src/i18n';
import raNl from '../../admin/src/i18n/raNl';
import englishMessages from 'ra-language-english';
import { createTranslator, lookup, type Messages } from '../../admin/src/i18n/tiny';
import { CONSOLE_MESSAGES, ENTRY_MESSAGES, MESSAGES } from '../../resources/messages';
import consoleEn from '../../admin/src/i18n/console/en';
import consoleNl from '../../admin/src/i18n/console/nl';
import { ACCOUNT_RESOURCES } from '../../resources/index';
import { fieldsOf } from '../../resources/define';

/** Every key path of a nested message object ("a.b.c"). */
function paths(obj: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) => (typeof v === 'object' && v !== null ? paths(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`]));
}

// The entry catalogue with the entry admin's screen texts (loaded with the admin, i18n/admin/).
const languages = {
  en: mergeDeep(en as unknown as Record<string, unknown>, adminEn) as unknown as Messages,
  nl: mergeDeep(nl as unknown as Record<string, unknown>, adminNl) as unknown as Messages,
};
/** The admin's texts once the console has loaded its own (i18n/console/): what console screens translate with. */
const withConsole = {
  en: { ...(en as unknown as Messages), ...(consoleEn as unknown as Messages) } as Messages,
  nl: { ...(nl as unknown as Messages), ...(consoleNl as unknown as Messages) } as Messages,
};

describe('translations', () => {
  it('English and Dutch have exactly the same keys, none empty', () => {
    expect(paths(languages.nl).sort()).toEqual(paths(languages.en).sort());
    for (const [lang, messages] of Object.entries(languages)) {
      for (const key of paths(messages)) expect(lookup(messages, key), `${lang}: ${key}`).toMatch(/\S/);
    }
  });

  it('the console texts: English and Dutch have the same keys, none empty', () => {
    const en = consoleEn as unknown as Messages;
    const nl = consoleNl as unknown as Messages;
    expect(paths(nl).sort()).toEqual(paths(en).sort());
    for (const [lang, messages] of Object.entries({ en, nl })) for (const key of paths(messages)) expect(lookup(messages, key), `${lang}: ${key}`).toMatch(/\S/);
    // No key of the console's texts shadows one of the admin's.
    for (const key of paths(en)) expect(lookup(languages.en, key), key).toBeUndefined();
  });

  it('label every account resource, each of its fields and each enum option, in English and Dutch', () => {
    for (const messages of [consoleEn, consoleNl] as unknown as Messages[]) {
      for (const decl of ACCOUNT_RESOURCES) {
        expect(lookup(messages, `resources.${decl.name}.name_one`), decl.name).toMatch(/\S/);
        expect(lookup(messages, `resources.${decl.name}.name_other`), decl.name).toMatch(/\S/);
        for (const [field, meta] of fieldsOf(decl)) {
          expect(lookup(messages, meta.label ?? `resources.${decl.name}.fields.${field}`), `${decl.name}.${field}`).toMatch(/\S/);
          for (const option of meta.options ?? []) expect(lookup(messages, `resources.${decl.name}.options.${field}.${option}`), `${decl.name}.${field}.${option}`).toMatch(/\S/);
        }
      }
    }
  });

  it('every message key the account resources and the console API use has English and Dutch', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const files = ['resources', 'api/console'].flatMap((dir) =>
      fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => path.join(dir, f)),
    );
    const keys = new Set(files.flatMap((f) => fs.readFileSync(f, 'utf8').match(/\berror_[a-z0-9_]+/g) ?? []));
    expect(keys.size).toBeGreaterThan(20);
    for (const key of keys) {
      expect(lookup(withConsole.en, key), `en: ${key}`).toBeDefined();
      expect(lookup(withConsole.nl, key), `nl: ${key}`).toBeDefined();
    }
  });

  it("react-admin's Dutch texts cover every key of its English ones", () => {
    expect(paths(raNl as unknown as Record<string, unknown>).sort()).toEqual(paths(englishMessages as unknown as Record<string, unknown>).sort());
  });

  it('translate every message key of resources/messages.ts (the console ones with the console)', () => {
    for (const key of Object.keys(MESSAGES)) {
      expect(lookup(withConsole.en, key), `en: ${key}`).toBeDefined();
      expect(lookup(withConsole.nl, key), `nl: ${key}`).toBeDefined();
    }
    // The sign-in page carries the entry admin's keys, not the console's.
    for (const key of Object.keys(ENTRY_MESSAGES)) expect(lookup(languages.nl, key), `nl: ${key}`).toBeDefined();
    for (const key of Object.keys(CONSOLE_MESSAGES)) expect(lookup(languages.en, key), `en: ${key}`).toBeUndefined();
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
