/** Locales of the admin and where the choice is kept; no i18n library here (the public pages import it). */
export const LOCALES = [
  { locale: 'en', name: 'English' },
  { locale: 'nl', name: 'Nederlands' },
];
export type Locale = 'en' | 'nl';

/** react-admin keeps the chosen locale in its store (localStorage "RaStore.locale"); the public pages share it. */
export const LOCALE_STORE_KEY = 'RaStore.locale';

export function detectLocale(): Locale {
  try {
    const stored = JSON.parse(localStorage.getItem(LOCALE_STORE_KEY) ?? 'null');
    if (stored === 'en' || stored === 'nl') return stored;
  } catch {
    /* no stored choice */
  }
  const langs = typeof navigator !== 'undefined' ? (navigator.languages ?? [navigator.language]) : [];
  for (const l of langs) {
    const base = String(l).toLowerCase().slice(0, 2);
    if (base === 'nl' || base === 'en') return base;
  }
  return 'en';
}

export function storeLocale(locale: Locale): void {
  try {
    localStorage.setItem(LOCALE_STORE_KEY, JSON.stringify(locale));
  } catch {
    /* private mode: the choice lasts for this page only */
  }
}
