import type { FormElementSpec } from '../../../resources/answers';
import { accountPath, accountUrl } from '../providers/accountPath';
import type { PublicFormData, PublicFormStyle, PublicView } from './model';

/**
 * The console's preview of a form style (/preview/form-styles/{accountId}/{styleId}?form=…&view=form|thanks): the
 * style, its event and a form come from the console API with the visitor's own session (same origin, GETs only), and
 * the custom CSS from …/form-styles/{id}/style.css as a stylesheet.
 */
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const PREVIEW_RE = new RegExp(`^/preview/form-styles/(${UUID})/(${UUID})/?$`);

export interface PreviewRoute {
  accountId: string;
  styleId: string;
  formId?: string;
  view: PublicView;
  /** The console's save counter: part of the stylesheet URL so a saved style is fetched anew. */
  version?: string;
}

export function previewRoute(pathname: string, search: string): PreviewRoute | undefined {
  const m = PREVIEW_RE.exec(pathname);
  if (!m) return undefined;
  const q = new URLSearchParams(search);
  const form = q.get('form') ?? '';
  return {
    accountId: m[1].toLowerCase(),
    styleId: m[2].toLowerCase(),
    formId: new RegExp(`^${UUID}$`).test(form) ? form.toLowerCase() : undefined,
    view: q.get('view') === 'thanks' ? 'thanks' : 'form',
    version: /^\w{1,32}$/.test(q.get('v') ?? '') ? q.get('v')! : undefined,
  };
}

export const stylesheetUrl = (accountId: string, styleId: string, version?: string) =>
  `${accountUrl(accountId, 'form-styles', styleId, 'style.css')}${version ? `?v=${version}` : ''}`;

/** A failed GET: its HTTP status (401 not signed in, 403 no access, 404 not found). */
export class PreviewLoadError extends Error {
  constructor(public status: number) {
    super(`HTTP ${status}`);
  }
}

async function get<T>(path: string, fetcher: typeof fetch): Promise<T> {
  const res = await fetcher(`/api/1${path}`, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  if (!res.ok) throw new PreviewLoadError(res.status);
  return (await res.json()) as T;
}

type Row = Record<string, unknown>;

/**
 * The style, its event (for the opt-in text and, without ?form, the event's registration form) and the form graph.
 * An event or form the caller cannot read, or that is gone, leaves it out; the style itself must load.
 */
export async function loadPreview(route: PreviewRoute, fetcher: typeof fetch = fetch): Promise<PublicFormData> {
  const path = (...segments: string[]) => accountPath(route.accountId, ...segments);
  const style = await get<PublicFormStyle & Row>(path('form-styles', route.styleId), fetcher);
  const optional = <T>(p: Promise<T>) => p.catch((e) => (e instanceof PreviewLoadError && [403, 404].includes(e.status) ? null : Promise.reject(e)));
  const eventId = typeof style.st_eventid === 'string' ? style.st_eventid : undefined;
  const event = eventId ? await optional(get<Row>(path('events', eventId), fetcher)) : null;
  const formId = route.formId ?? (typeof event?.ev_registration_formid === 'string' ? event.ev_registration_formid : undefined);
  const graph = formId ? await optional(get<{ form: Row; elements: FormElementSpec[] }>(path('forms', formId, 'graph'), fetcher)) : null;
  // the style's logos and fonts, each as the console reads it (an asset the caller may not read shows as a placeholder)
  const assetIds = [
    ...new Set(['st_form_logo_assetid', 'st_thanks_logo_assetid', 'st_font_1', 'st_font_2', 'st_font_3'].map((f) => style[f]).filter((v): v is string => typeof v === 'string')),
  ];
  const assets = await Promise.all(assetIds.map((id) => optional(get<Row>(path('assets', id), fetcher))));
  return {
    style_assets: Object.fromEntries(assets.filter((a): a is Row => !!a && typeof a.url === 'string').map((a) => [String(a.as_id), String(a.url)])),
    style,
    event: event
      ? { ev_title: event.ev_title as string | null, ev_consent_text: event.ev_consent_text as string | null, ev_description: event.ev_description as string | null }
      : null,
    form: graph ? { elements: graph.elements } : null,
  };
}
