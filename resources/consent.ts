/**
 * The GDPR news opt-in: the event's own text (ev_consent_text) or, when it is empty, a built-in one (account-console.md,
 * events). Headless and zod-free: the public form page shows it, and the registration API stores the text the person
 * saw (ld_consent_text), so both take it from here.
 */
export type ConsentLocale = 'en' | 'nl';

export const BUILTIN_CONSENT_TEXT: Record<ConsentLocale, string> = {
  en: 'Yes, the organiser may send me news and information about its events by e-mail. I can withdraw this consent at any time.',
  nl: 'Ja, de organisator mag mij per e-mail nieuws en informatie over zijn evenementen sturen. Ik kan deze toestemming altijd intrekken.',
};

/** The opt-in text the visitor sees: the event's, else the built-in one in the page's language. */
export function consentTextFor(event: { ev_consent_text?: unknown } | null | undefined, locale: string): string {
  const own = typeof event?.ev_consent_text === 'string' ? event.ev_consent_text.trim() : '';
  if (own) return own;
  return BUILTIN_CONSENT_TEXT[locale === 'nl' ? 'nl' : 'en'];
}
