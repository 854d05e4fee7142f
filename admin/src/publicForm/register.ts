import type { FormElementSpec } from '../../../resources/answers';
import { failureText } from '../providers/failure';
import { CSRF_COOKIE, CSRF_HEADER, readCookie } from '../providers/http';
import type { PublicFormStyle, PublicSubmission } from './model';
import type { PublicLocale, PublicTextKey, PublicTranslate } from './texts';

/**
 * The registration page's calls (/register/{eventId}): GET /api/1/register/{eventId} (with ?access_code= once the
 * visitor typed one) and the POST of the answers with the CSRF header of the page's cookie.
 */
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const REGISTER_RE = new RegExp(`^/register/(${UUID})/?$`);

export const registerEventId = (pathname: string): string | undefined => REGISTER_RE.exec(pathname)?.[1].toLowerCase();

export type RegistrationState = 'open' | 'closed' | 'restricted' | 'no_form';

/** GET /api/1/register/{eventId}: the form only when it may be shown (open, or restricted with the right code). */
export interface RegistrationInfo {
  state: RegistrationState;
  event: {
    id: string;
    ev_title: string;
    ev_start_date: string | null;
    ev_end_date: string | null;
    ev_access_type: string;
    ev_consent_text: string | null;
    ev_description: string | null;
  };
  form: { f_id: string; f_title: string; elements: FormElementSpec[] } | null;
  style: PublicFormStyle | null;
  /** URLs of the style's logos and fonts by asset id. */
  style_assets?: Record<string, string>;
  consent_text: string;
}

/** An answer other than 2xx: the status and the API's error code and field errors. */
export class RegisterError extends Error {
  constructor(
    public status: number,
    public code: string,
    public fields?: Record<string, string>,
  ) {
    super(code || `HTTP ${status}`);
  }
}

/**
 * The text of a failed call in the page's own words: error_{code} when the page's catalogue has it, else `fallback`
 * (also when no answer came; the API's English message is not shown on these pages).
 */
export function pageFailureText(t: PublicTranslate, e: unknown, fallback: PublicTextKey): string {
  // the catalogue answers undefined for a key it does not have
  return failureText(e, (key) => t(key as PublicTextKey), { fallback, network: fallback });
}

const base = (eventId: string) => `/api/1/register/${eventId}`;

export async function errorOf(res: Response): Promise<RegisterError> {
  const body = (await res.json().catch(() => null)) as { code?: unknown; fields?: unknown } | null;
  const fields = body?.fields && typeof body.fields === 'object' ? (body.fields as Record<string, string>) : undefined;
  return new RegisterError(res.status, typeof body?.code === 'string' ? body.code : '', fields);
}

export async function loadRegistration(eventId: string, accessCode?: string, fetcher: typeof fetch = fetch): Promise<RegistrationInfo> {
  const query = accessCode ? `?access_code=${encodeURIComponent(accessCode)}` : '';
  const res = await fetcher(`${base(eventId)}${query}`, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  if (!res.ok) throw await errorOf(res);
  return (await res.json()) as RegistrationInfo;
}

export const stylesheetHref = (eventId: string) => `${base(eventId)}/style.css`;

/**
 * POSTs JSON with the CSRF header of the page's cookie and answers the response (2xx) or throws a RegisterError. A 403
 * csrf_invalid (the cookie expired or changed) fetches `reloadUrl` (the page's data) again, which hands out a fresh
 * cookie, and tries once more. The registration and the collection page share it.
 */
export async function postWithCsrf(url: string, body: unknown, reloadUrl: string, fetcher: typeof fetch = fetch): Promise<Response> {
  const send = () => {
    const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': 'application/json' };
    const token = readCookie(CSRF_COOKIE);
    if (token) headers[CSRF_HEADER] = token;
    return fetcher(url, { method: 'POST', credentials: 'same-origin', headers, body: JSON.stringify(body) });
  };
  let res = await send();
  if (res.status === 403) {
    const failure = await errorOf(res.clone());
    if (failure.code === 'csrf_invalid') {
      await fetcher(reloadUrl, { credentials: 'same-origin', headers: { Accept: 'application/json' } }).catch(() => undefined);
      res = await send();
    }
  }
  if (!res.ok) throw await errorOf(res);
  return res;
}

/** POST the answers; 201 → the lead's id. */
export async function submitRegistration(
  eventId: string,
  submission: PublicSubmission & { access_code?: string; lang: PublicLocale },
  fetcher: typeof fetch = fetch,
): Promise<string> {
  const res = await postWithCsrf(base(eventId), submission, base(eventId), fetcher);
  const body = (await res.json()) as { id: string };
  return body.id;
}
