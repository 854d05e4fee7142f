import englishMessages from 'ra-language-english';
import { convertRaTranslationsToI18next } from 'ra-i18n-i18next';
import raNl from './raNl';

/** React-admin's own texts (ra.*) in i18next format; loaded only by the admin app, not by the public pages. */
export function raMessages(locale: 'en' | 'nl'): Record<string, unknown> {
  return convertRaTranslationsToI18next(locale === 'nl' ? raNl : englishMessages) as Record<string, unknown>;
}
