import { createInstance, type BackendModule, type ResourceKey } from 'i18next';
import { getI18nProvider } from 'ra-i18n-i18next';
import type { I18nProvider } from 'ra-core';
import en from './en';
import { detectLocale, LOCALES } from './locale';
import { errorTextWith } from './tiny';

/**
 * The admin app's i18next instance, given to react-admin through ra-i18n-i18next. English is bundled; Dutch and
 * react-admin's own texts load on demand. (The public pages use i18n/tiny.ts over the same message files.)
 */
export { LOCALES, detectLocale, storeLocale, type Locale } from './locale';

/** Loads Dutch on demand (and react-admin's texts, once the admin has asked for them). */
let withReactAdminTexts = false;
const backend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, _namespace, callback) {
    const load = async (): Promise<ResourceKey> => {
      if (language === 'nl') {
        const [{ default: nl }, ra] = await Promise.all([import('./nl'), withReactAdminTexts ? import('./ra').then((m) => m.raMessages('nl')) : undefined]);
        return ra ? mergeDeep(nl, ra) : nl;
      }
      if (withReactAdminTexts) return mergeDeep(en, (await import('./ra')).raMessages('en'));
      return en;
    };
    load().then(
      (data) => callback(null, data),
      (err: Error) => callback(err, false),
    );
  },
};

export const i18n = createInstance().use(backend);

let providerPromise: Promise<I18nProvider> | undefined;

/** Initialises i18next once (English + the detected locale) and answers react-admin's i18nProvider. */
export function i18nReady(): Promise<I18nProvider> {
  providerPromise ??= getI18nProvider(
    // ra-i18n-i18next types its own (older) i18next; it only calls use()/init()/t() on the instance.
    i18n as unknown as Parameters<typeof getI18nProvider>[0],
    {
      lng: detectLocale(),
      fallbackLng: 'en',
      supportedLngs: ['en', 'nl'],
      load: 'languageOnly',
      interpolation: { escapeValue: false },
    },
    LOCALES,
  );
  return providerPromise;
}

/** Called by the admin app: adds react-admin's own texts (ra.*) for every loaded language. */
export async function addReactAdminTexts(): Promise<void> {
  withReactAdminTexts = true;
  const { raMessages } = await import('./ra');
  for (const lng of ['en', 'nl'] as const) {
    if (i18n.hasResourceBundle(lng, 'translation')) i18n.addResourceBundle(lng, 'translation', raMessages(lng), true, false);
  }
}

/** The text for an API error: the translation of error_{code} when there is one, else the server's message. */
export function errorText(body: { code?: string; message?: string } | undefined | null): string {
  return errorTextWith({ t: (k, v) => i18n.t(k, v), exists: (k) => i18n.exists(k) }, body);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function mergeDeep<T extends Record<string, unknown>>(a: T, b: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = isObject(v) && isObject(out[k]) ? mergeDeep(out[k] as Record<string, unknown>, v) : v;
  return out as T;
}
