import { DEFAULT_TEXTS, type RendererTexts } from '../renderer/texts';
import type { AnswerError } from '../../../resources/answers';

/**
 * The public form page's own words in English and Dutch: a small catalogue instead of i18next or the admin's message
 * files (which would cost this page more than its whole budget allows). `{name}` marks a value filled in.
 * The error texts and the renderer's words are the admin's (a unit test keeps them equal to i18n/en.ts and nl.ts).
 */
export type PublicLocale = 'en' | 'nl';

const en = {
  required_note: 'Fields marked * are required.',
  submit: 'Register',
  submitting: 'Sending…',
  check_fields: 'Please check the fields marked below.',
  consent_title: 'News and updates',
  logo: 'Logo',
  thanks_title: 'Thank you!',
  form_title: 'Registration',
  new_window: '(opens in a new window)',
  preview_note: 'Preview: nothing is sent from this page.',
  no_form: 'There is no form to show. Choose a form for the preview.',
  loading: 'Loading…',
  load_failed: 'The page could not be loaded. Please try again.',
  sign_in: 'Sign in to the console to see this preview.',
  not_found: 'This page does not exist.',
  no_access: 'You do not have access to this form style.',
  language: 'Language',
  error_required: 'This field is required',
  error_invalid_value: 'This value is not valid',
  error_too_long: 'This value is too long',
  error_email_invalid: 'Please enter a valid email',
  // the registration page (/register/{eventId}); the error_* texts equal the console's (resources/consoleMessages.ts)
  closed: 'Registration for this event is closed.',
  access_code_intro: 'This event is by invitation. Enter the access code you received to register.',
  access_code_label: 'Access code',
  access_code_submit: 'Continue',
  checking: 'Checking…',
  send_failed: 'Your registration could not be sent. Please check your connection and try again.',
  error_event_closed: 'Registration for this event is closed',
  error_access_code_invalid: 'The access code is not correct',
  error_event_has_no_form: 'The event manager needs to create a details form',
  error_lead_incomplete: 'Please complete all mandatory fields',
  error_too_many_attempts: 'Too many attempts, please wait a few minutes and try again',
  // a collection's page (/c/{token}); error_download_has_no_event equals the console's (resources/consoleMessages.ts)
  collection_title: 'Downloads',
  collection_files: 'Files',
  collection_empty: 'There is nothing in this collection yet.',
  download: 'Download',
  open_file: 'Open',
  download_locked: 'Send the form above to download',
  download_submit: 'Send and download',
  downloads_ready: 'Thank you! Your downloads are ready.',
  download_send_failed: 'Your details could not be sent. Please check your connection and try again.',
  error_download_has_no_event: 'Downloads are not available yet: the event manager needs to link the download form to an event',
  kind_image: 'Image',
  kind_video: 'Video',
  kind_audio: 'Audio',
  kind_pdf: 'PDF',
  kind_font: 'Font',
  kind_other: 'File',
} satisfies Record<string, string> & Record<AnswerError, string>;

export type PublicTextKey = keyof typeof en;

const nl: Record<PublicTextKey, string> = {
  required_note: 'Velden met * zijn verplicht.',
  submit: 'Inschrijven',
  submitting: 'Bezig met verzenden…',
  check_fields: 'Controleer de gemarkeerde velden hieronder.',
  consent_title: 'Nieuws en updates',
  logo: 'Logo',
  thanks_title: 'Bedankt!',
  form_title: 'Inschrijving',
  new_window: '(opent in een nieuw venster)',
  preview_note: 'Voorbeeld: deze pagina verzendt niets.',
  no_form: 'Er is geen formulier om te tonen. Kies een formulier voor het voorbeeld.',
  loading: 'Laden…',
  load_failed: 'De pagina kon niet worden geladen. Probeer het opnieuw.',
  sign_in: 'Meld u aan in de console om dit voorbeeld te zien.',
  not_found: 'Deze pagina bestaat niet.',
  no_access: 'U hebt geen toegang tot deze formulierstijl.',
  language: 'Taal',
  error_required: 'Dit veld is verplicht',
  error_invalid_value: 'Deze waarde is niet geldig',
  error_too_long: 'Deze waarde is te lang',
  error_email_invalid: 'Vul een geldig e-mailadres in',
  closed: 'De inschrijving voor dit evenement is gesloten.',
  access_code_intro: 'Dit evenement is op uitnodiging. Vul de toegangscode in die u hebt gekregen om u in te schrijven.',
  access_code_label: 'Toegangscode',
  access_code_submit: 'Verder',
  checking: 'Bezig met controleren…',
  send_failed: 'Uw inschrijving kon niet worden verzonden. Controleer uw verbinding en probeer het opnieuw.',
  error_event_closed: 'De inschrijving voor dit evenement is gesloten',
  error_access_code_invalid: 'De toegangscode klopt niet',
  error_event_has_no_form: 'De evenementbeheerder moet nog een gegevensformulier maken',
  error_lead_incomplete: 'Vul alle verplichte velden in',
  error_too_many_attempts: 'Te veel pogingen, wacht een paar minuten en probeer het opnieuw',
  collection_title: 'Downloads',
  collection_files: 'Bestanden',
  collection_empty: 'Deze verzameling is nog leeg.',
  download: 'Downloaden',
  open_file: 'Openen',
  download_locked: 'Verstuur het formulier hierboven om te downloaden',
  download_submit: 'Versturen en downloaden',
  downloads_ready: 'Bedankt! Uw downloads staan klaar.',
  download_send_failed: 'Uw gegevens konden niet worden verzonden. Controleer uw verbinding en probeer het opnieuw.',
  error_download_has_no_event: 'Downloads zijn nog niet beschikbaar: de evenementbeheerder moet het downloadformulier nog aan een evenement koppelen',
  kind_image: 'Afbeelding',
  kind_video: 'Video',
  kind_audio: 'Audio',
  kind_pdf: 'PDF',
  kind_font: 'Lettertype',
  kind_other: 'Bestand',
};

const nlRenderer: RendererTexts = {
  required: 'verplicht',
  choose: 'Kies…',
  search: 'Zoeken',
  noResults: 'Geen resultaten',
  narrow: '{shown} van {total} getoond. Typ om de lijst te verkleinen.',
  clear: 'Wissen',
  close: 'Sluiten',
  yes: 'Ja',
  no: 'Nee',
  noAnswer: '—',
  noDays: 'Er zijn geen dagen om uit te kiezen.',
  noItems: 'Er is niets om uit te kiezen.',
  characters: '{count} van {max} tekens',
};

export const PUBLIC_TEXTS: Record<PublicLocale, { page: Record<PublicTextKey, string>; renderer: RendererTexts }> = {
  en: { page: en, renderer: DEFAULT_TEXTS },
  nl: { page: nl, renderer: nlRenderer },
};

export const LOCALE_NAMES: Record<PublicLocale, string> = { en: 'English', nl: 'Nederlands' };

/** Date formats for the renderer's calendar. */
export const DATE_LOCALE: Record<PublicLocale, string> = { en: 'en-GB', nl: 'nl-NL' };

/** True for a word of the page's catalogue (an API's message key may be one). */
export const isPublicTextKey = (key: string): key is PublicTextKey => Object.hasOwn(en, key);

export type PublicTranslate = (key: PublicTextKey, values?: Record<string, string | number>) => string;

export function translator(locale: PublicLocale): PublicTranslate {
  const page = PUBLIC_TEXTS[locale].page;
  return (key, values) => {
    const text = page[key] ?? en[key];
    return values ? text.replace(/\{(\w+)\}/g, (m, name: string) => (name in values ? String(values[name]) : m)) : text;
  };
}

/**
 * The page's language: ?lang=en|nl, else the one chosen in the admin (same origin, so the console's preview follows
 * the console), else the browser's, else English.
 */
export function pickLocale(search: string, stored: string | null, languages: readonly string[]): PublicLocale {
  const asked = new URLSearchParams(search).get('lang');
  if (asked === 'en' || asked === 'nl') return asked;
  try {
    const choice = JSON.parse(stored ?? 'null');
    if (choice === 'en' || choice === 'nl') return choice;
  } catch {
    /* not a stored choice */
  }
  for (const l of languages) {
    const base = String(l).toLowerCase().slice(0, 2);
    if (base === 'nl' || base === 'en') return base;
  }
  return 'en';
}
