/**
 * The renderer's own words. The host passes translated ones (`rendererTexts(t)` reads them from the admin's
 * i18n files, keys ls.form_renderer.*); anything missing falls back to English. {name} marks a value filled in here
 * (single braces, so i18next leaves them alone).
 */
export interface RendererTexts {
  /** Spoken after a required field's label (the visible mark is an asterisk). */
  required: string;
  /** Empty option of a select, and the picker's button before a choice. */
  choose: string;
  /** Placeholder and label of the search boxes. */
  search: string;
  noResults: string;
  /** More matches than are drawn. */
  narrow: string;
  clear: string;
  close: string;
  yes: string;
  no: string;
  /** Read-only view of an element without an answer. */
  noAnswer: string;
  /** A date selector without days, or a list without items. */
  noDays: string;
  noItems: string;
  /** Characters used of a text's maximum. */
  characters: string;
}

export const DEFAULT_TEXTS: RendererTexts = {
  required: 'required',
  choose: 'Choose…',
  search: 'Search',
  noResults: 'No results',
  narrow: 'Showing {shown} of {total}. Type to narrow the list.',
  clear: 'Clear',
  close: 'Close',
  yes: 'Yes',
  no: 'No',
  noAnswer: '—',
  noDays: 'There are no days to choose from.',
  noItems: 'There is nothing to choose from.',
  characters: '{count} of {max} characters',
};

export const TEXT_KEYS = Object.keys(DEFAULT_TEXTS) as (keyof RendererTexts)[];

/** The i18n key of a text: ls.form_renderer.<key in snake case>, e.g. noResults → ls.form_renderer.no_results. */
export const textKey = (key: keyof RendererTexts) => `ls.form_renderer.${key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`;

/** The texts from a translator (the admin's i18next `translate`, or the public pages' tiny one). */
export function rendererTexts(t: (key: string) => string): RendererTexts {
  return Object.fromEntries(TEXT_KEYS.map((k) => [k, t(textKey(k))])) as unknown as RendererTexts;
}

export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in values ? String(values[name]) : m));
}
