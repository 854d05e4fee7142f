import en from './en';
import type { Locale } from './locale';

/**
 * The public pages' translator: the same message files as the admin (en.ts, nl.ts) and the same i18next format
 * ({{var}}, key_one/key_other with `count`), in a few lines, so the sign-in page does not carry i18next.
 */
export type Messages = Record<string, unknown>;
export type Vars = Record<string, unknown>;
export type Translate = (key: string, vars?: Vars) => string;

export function lookup(messages: Messages, key: string): string | undefined {
  if (typeof messages[key] === 'string') return messages[key] as string;
  let node: unknown = messages;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Messages)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

const interpolate = (text: string, vars: Vars) => text.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));

export function createTranslator(messages: Messages, locale: Locale, fallback: Messages = en) {
  const plurals = new Intl.PluralRules(locale);
  const find = (key: string, vars: Vars) => {
    if (typeof vars.count === 'number') {
      const form = plurals.select(vars.count);
      const plural = lookup(messages, `${key}_${form}`) ?? lookup(messages, `${key}_other`) ?? lookup(fallback, `${key}_${form}`) ?? lookup(fallback, `${key}_other`);
      if (plural !== undefined) return plural;
    }
    return lookup(messages, key) ?? lookup(fallback, key);
  };
  const t: Translate = (key, vars = {}) => {
    const text = find(key, vars);
    return text === undefined ? (typeof vars._ === 'string' ? vars._ : key) : interpolate(text, vars);
  };
  const exists = (key: string) => find(key, {}) !== undefined;
  return { t, exists, locale };
}

export async function loadMessages(locale: Locale): Promise<Messages> {
  if (locale === 'nl') return (await import('./nl')).default as unknown as Messages;
  return en as unknown as Messages;
}

/** The text for an API error: error_{code} when translated, else the server's text (spec 8). */
export function errorTextWith(tr: { t: Translate; exists: (key: string) => boolean }, body: { code?: string; message?: string } | undefined | null): string {
  const code = body?.code;
  if (code && tr.exists(`error_${code}`)) return tr.t(`error_${code}`);
  if (body?.message) return body.message;
  return tr.t('error_generic');
}
