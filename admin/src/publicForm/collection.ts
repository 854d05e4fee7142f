import type { FormElementSpec } from '../../../resources/answers';
import type { PublicFormStyle, PublicSubmission } from './model';
import { errorOf, postWithCsrf } from './register';
import type { PublicLocale } from './texts';

/**
 * A collection's public page (/c/{co_token}?l={layerId}): GET /api/1/c/{token} for the assets (and the download form
 * of the showing layer), POST /api/1/c/{token}/leads for the answers, which sets the download cookie.
 */
const COLLECTION_RE = /^\/c\/([A-Za-z0-9_-]{16,64})\/?$/;
const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export const collectionToken = (pathname: string): string | undefined => COLLECTION_RE.exec(pathname)?.[1];

/** The showing layer (?l=), when it looks like an id; the API ignores one that is not this collection's. */
export function layerOf(search: string): string | undefined {
  const l = new URLSearchParams(search).get('l') ?? '';
  return UUID_RE.test(l) ? l.toLowerCase() : undefined;
}

export type AssetKind = 'image' | 'video' | 'audio' | 'pdf' | 'font' | 'other';

export interface CollectionAsset {
  as_id: string;
  as_title: string;
  as_type: string;
  kind: AssetKind;
  as_size: number;
  as_version: number;
  /** To show or open it; null while locked for what does not show inline. */
  url: string | null;
  thumbnail_url: string | null;
  /** null while the download form has not been sent. */
  download_url: string | null;
}

export interface CollectionInfo {
  collection: { co_title: string };
  assets: CollectionAsset[];
  locked: boolean;
  form: { f_id: string; f_title: string; elements: FormElementSpec[] } | null;
  /** false: the form has no event to file its answers under, so it cannot be sent yet. */
  can_submit: boolean;
  style: PublicFormStyle | null;
  /** Logos and fonts of the style: asset id → URL. */
  style_assets: Record<string, string>;
  stylesheet: string | null;
  consent_text: string;
  event: { ev_title: string; ev_consent_text: string | null } | null;
}

const base = (token: string) => `/api/1/c/${token}`;
const pageUrl = (token: string, layer?: string) => `${base(token)}${layer ? `?l=${layer}` : ''}`;

export async function loadCollection(token: string, layer?: string, fetcher: typeof fetch = fetch): Promise<CollectionInfo> {
  const res = await fetcher(pageUrl(token, layer), { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  if (!res.ok) throw await errorOf(res);
  return (await res.json()) as CollectionInfo;
}

/** Sends the download form; the answer's cookie unlocks the downloads for this visitor (reload the page's data). */
export async function submitDownloadForm(token: string, layer: string, submission: PublicSubmission & { lang: PublicLocale }, fetcher: typeof fetch = fetch): Promise<string> {
  const res = await postWithCsrf(`${base(token)}/leads`, { l: layer, ...submission }, pageUrl(token, layer), fetcher);
  return ((await res.json()) as { id: string }).id;
}
