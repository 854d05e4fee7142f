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

/** Loads Dutch on demand (and react-admin's and the console's texts, once the admin has asked for them). */
let withReactAdminTexts = false;
let withConsoleTexts = false;

/** The entry admin's screen texts in one language (their own chunk, loaded with react-admin's). */
const adminTexts = (language: string): Promise<Record<string, unknown>> =>
  (language === 'nl' ? import('./admin/nl') : import('./admin/en')).then((m) => m.default as unknown as Record<string, unknown>);

/** The account console's labels in one language (their own chunk: the sign-in page does not carry them). */
const consoleTexts = (language: string): Promise<Record<string, unknown>> =>
  (language === 'nl' ? import('./console/nl') : import('./console/en')).then((m) => m.default as unknown as Record<string, unknown>);
const backend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, _namespace, callback) {
    const load = async (): Promise<ResourceKey> => {
      const lng = language === 'nl' ? 'nl' : 'en';
      const [base, ra, admin, own] = await Promise.all([
        lng === 'nl' ? import('./nl').then((m) => m.default) : en,
        withReactAdminTexts ? import('./ra').then((m) => m.raMessages(lng)) : undefined,
        withReactAdminTexts ? adminTexts(lng) : undefined,
        withConsoleTexts ? consoleTexts(lng) : undefined,
      ]);
      let data: Record<string, unknown> = base;
      if (ra) data = mergeDeep(data, ra);
      if (admin) data = mergeDeep(data, admin);
      if (own) data = mergeDeep(data, own);
      return data as ResourceKey;
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

/** Called by the admin app: adds react-admin's own texts (ra.*) and the entry admin's screen texts for every loaded language. */
export async function addReactAdminTexts(): Promise<void> {
  withReactAdminTexts = true;
  const { raMessages } = await import('./ra');
  await Promise.all(
    (['en', 'nl'] as const).map(async (lng) => {
      if (!i18n.hasResourceBundle(lng, 'translation')) return;
      i18n.addResourceBundle(lng, 'translation', raMessages(lng), true, false);
      i18n.addResourceBundle(lng, 'translation', await adminTexts(lng), true, true);
    }),
  );
}

/** Called by the account console: adds its labels for every loaded language (and any loaded later). */
export async function addConsoleTexts(): Promise<void> {
  withConsoleTexts = true;
  await Promise.all(
    (['en', 'nl'] as const).map(async (lng) => {
      if (i18n.hasResourceBundle(lng, 'translation')) i18n.addResourceBundle(lng, 'translation', await consoleTexts(lng), true, true);
    }),
  );
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
