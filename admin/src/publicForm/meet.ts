import { errorOf, postWithCsrf } from './register';
import type { PublicLocale } from './texts';
import type { PublicFormStyle } from './model';

/**
 * The meeting page's calls (/meet/{eventId}): GET /api/1/meet/{eventId} (the event, the account's time zone and the
 * free slots) and POST /api/1/meet/{eventId} with the CSRF header of the page's cookie.
 */
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const MEET_RE = new RegExp(`^/meet/(${UUID})/?$`);

export const meetEventId = (pathname: string): string | undefined => MEET_RE.exec(pathname)?.[1].toLowerCase();

export interface MeetSlot {
  ms_id: string;
  ms_start: string;
  ms_end: string;
  ms_location: string | null;
  free: number;
  host: { u_first_name: string | null; u_last_name: string | null } | null;
}

export interface MeetInfo {
  event: { ev_id: string; ev_title: string; ev_start_date: string | null; ev_end_date: string | null };
  account: { a_name: string };
  time_zone: string;
  slots: MeetSlot[];
  /** The event's form style (like the registration page's), its logos' and fonts' URLs, its custom CSS as a stylesheet. */
  style?: PublicFormStyle | null;
  style_assets?: Record<string, string>;
  stylesheet?: string | null;
}

export interface MeetRequest {
  ms_id: string;
  email: string;
  first_name: string;
  last_name: string;
  message: string;
  website: string;
  lang: PublicLocale;
}

const base = (eventId: string) => `/api/1/meet/${eventId}`;

export async function loadMeet(eventId: string, fetcher: typeof fetch = fetch): Promise<MeetInfo> {
  const res = await fetcher(base(eventId), { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  if (!res.ok) throw await errorOf(res);
  return (await res.json()) as MeetInfo;
}

/** POST the request; 201 → the meeting's id. */
export async function requestMeeting(eventId: string, body: MeetRequest, fetcher: typeof fetch = fetch): Promise<string> {
  const res = await postWithCsrf(base(eventId), body, base(eventId), fetcher);
  return ((await res.json()) as { mg_id: string }).mg_id;
}

/** The slots by local day (in the account's zone), in order: [day label, slots]. */
export function slotsByDay(slots: MeetSlot[], timeZone: string, locale: PublicLocale): [string, MeetSlot[]][] {
  const day = new Intl.DateTimeFormat(locale === 'nl' ? 'nl-NL' : 'en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone });
  const out = new Map<string, MeetSlot[]>();
  for (const s of slots) {
    const key = day.format(new Date(s.ms_start));
    out.set(key, [...(out.get(key) ?? []), s]);
  }
  return [...out];
}

/** "09:30–10:00" in the account's zone. */
export function slotTimes(slot: MeetSlot, timeZone: string, locale: PublicLocale): string {
  const time = new Intl.DateTimeFormat(locale === 'nl' ? 'nl-NL' : 'en-GB', { hour: '2-digit', minute: '2-digit', timeZone });
  return `${time.format(new Date(slot.ms_start))}–${time.format(new Date(slot.ms_end))}`;
}

const en = {
  title: 'Book a meeting',
  logo: 'Logo',
  intro: 'Pick a time and tell us who you are; you will hear by e-mail once it is confirmed.',
  times_in: 'Times in {zone}',
  no_slots: 'There are no free times left for this event.',
  slot_legend: 'Time',
  with_host: 'with {name}',
  email: 'E-mail',
  first_name: 'First name',
  last_name: 'Last name',
  message: 'Message (optional)',
  submit: 'Request meeting',
  submitting: 'Sending…',
  sent_title: 'Request sent',
  sent_text: 'Thank you! We will confirm your meeting by e-mail.',
  pick_slot: 'Please pick a time',
  check_fields: 'Please check the fields marked below.',
  send_failed: 'Your request could not be sent. Please check your connection and try again.',
  error_required: 'This field is required',
  error_email_invalid: 'Please enter a valid email',
  error_slot_full: 'This slot is fully booked, please pick another time',
  error_too_many_attempts: 'Too many attempts, please wait a few minutes and try again',
  loading: 'Loading…',
  not_found: 'This page does not exist.',
  load_failed: 'The page could not be loaded. Please try again.',
};
export type MeetTextKey = keyof typeof en;
const nl: Record<MeetTextKey, string> = {
  title: 'Maak een afspraak',
  logo: 'Logo',
  intro: 'Kies een tijd en vertel wie je bent; je hoort per e-mail zodra de afspraak bevestigd is.',
  times_in: 'Tijden in {zone}',
  no_slots: 'Er zijn geen vrije tijden meer voor dit evenement.',
  slot_legend: 'Tijd',
  with_host: 'met {name}',
  email: 'E-mail',
  first_name: 'Voornaam',
  last_name: 'Achternaam',
  message: 'Bericht (optioneel)',
  submit: 'Afspraak aanvragen',
  submitting: 'Versturen…',
  sent_title: 'Aanvraag verstuurd',
  sent_text: 'Dank je! We bevestigen je afspraak per e-mail.',
  pick_slot: 'Kies een tijd',
  check_fields: 'Controleer de gemarkeerde velden hieronder.',
  send_failed: 'Je aanvraag kon niet worden verstuurd. Controleer je verbinding en probeer het opnieuw.',
  error_required: 'Dit veld is verplicht',
  error_email_invalid: 'Vul een geldig e-mailadres in',
  error_slot_full: 'Dit moment is volgeboekt, kies een andere tijd',
  error_too_many_attempts: 'Te veel pogingen, wacht een paar minuten en probeer het opnieuw',
  loading: 'Laden…',
  not_found: 'Deze pagina bestaat niet.',
  load_failed: 'De pagina kon niet worden geladen. Probeer het opnieuw.',
};

export const MEET_TEXTS: Record<PublicLocale, Record<MeetTextKey, string>> = { en, nl };

export type MeetTranslate = (key: MeetTextKey, values?: Record<string, string>) => string;
export const meetTranslator =
  (locale: PublicLocale): MeetTranslate =>
  (key, values = {}) =>
    MEET_TEXTS[locale][key].replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');
