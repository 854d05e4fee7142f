import type { FormElementSpec } from '../../../resources/answers';

/** The fields of a form style the public page reads (account-console.md: form-styles). */
export interface PublicFormStyle {
  st_id?: string;
  st_form_logo_assetid?: string | null;
  st_form_title?: string | null;
  st_form_description?: string | null;
  st_thanks_logo_assetid?: string | null;
  st_thanks_title?: string | null;
  st_thanks_description?: string | null;
  st_external_url_title?: string | null;
  st_external_url?: string | null;
  st_font_1?: string | null;
  st_font_2?: string | null;
  st_font_3?: string | null;
}

/** What the page draws: the style (or none: the page's own look), the form's elements, and the event. */
export interface PublicFormData {
  style: PublicFormStyle | null;
  form: { elements: FormElementSpec[] } | null;
  event?: { ev_title?: string | null; ev_consent_text?: string | null; ev_description?: string | null } | null;
  /** URLs of the style's logos and fonts by asset id. */
  style_assets?: Record<string, string>;
}

export type PublicView = 'form' | 'thanks';

/** What a visitor sends (the shape of POST /api/1/register/{eventId}, less the access code). */
export interface PublicSubmission {
  answers: Record<string, unknown>;
  consent_news: boolean;
  /** The honeypot: people leave it empty, form-filling robots do not. */
  website: string;
}

/** Font families the style's fonts are loaded under, in st_font_1…3 order (custom CSS may name them too). */
export const STYLE_FONT_FAMILIES = ['ls-style-font-1', 'ls-style-font-2', 'ls-style-font-3'] as const;

/** Only http(s) links are drawn (the API allows no other; this keeps a javascript: URL out whatever the data). */
export function safeHttpUrl(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

const text = (v: string | null | undefined) => (typeof v === 'string' && v.trim() ? v : undefined);

/** The page's texts with their fallbacks: the style's, else the event's title, else the page's own word. */
export function pageTexts(data: PublicFormData, fallback: { formTitle: string; thanksTitle: string }) {
  const style = data.style ?? {};
  return {
    formTitle: text(style.st_form_title) ?? text(data.event?.ev_title ?? undefined) ?? fallback.formTitle,
    // rich text (HTML of the allow-list), drawn by RichText.tsx
    formDescription: text(style.st_form_description),
    eventDescription: text(data.event?.ev_description ?? undefined),
    thanksTitle: text(style.st_thanks_title) ?? fallback.thanksTitle,
    thanksDescription: text(style.st_thanks_description),
    externalUrl: safeHttpUrl(style.st_external_url),
    externalTitle: text(style.st_external_url_title),
  };
}

/**
 * A refused submit (onSubmit rejects with it): the text to show above the form, and the API's field errors
 * ({ <data name>: message key }) to show under the fields.
 */
export class SubmitFailure extends Error {
  constructor(
    message: string,
    public fields?: Record<string, string>,
  ) {
    super(message);
  }
}
