import type { ListItemNode } from '../../../resources/answers';

/**
 * What the renderer reads from an element, without React. The option readers are the API's own
 * (resources/answers.ts, which loads no zod: resources/checks.ts), so the form offers exactly what the API accepts.
 */
export { sliderRange, maxLength, booleanDefault, isIsoDate, dayOptions, emptyAnswer, defaultAnswers } from '../../../resources/answers';

// ---- answers as the widgets hold them

export const asString = (v: unknown): string => (typeof v === 'string' ? v : '');
export const asStrings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

// ---- lists: a flat index of the tree, searched cheaply

/** More list items than this: a search box (spec 9: "select search appears above 15 list items"). */
export const SEARCH_THRESHOLD = 15;
/** At most this many options, chips or tree rows are drawn at once; a note asks to type to narrow the rest. */
export const RENDER_CAP = 200;

export interface ListEntry {
  index: number;
  value: string;
  title: string;
  depth: number;
  /** Index of the parent entry, -1 at the top level. */
  parent: number;
  children: number[];
  /** 1-based position among its siblings and their number (aria-posinset, aria-setsize). */
  pos: number;
  size: number;
  /** The title folded for search: lower case, accents removed. */
  key: string;
}

export interface ListIndex {
  entries: ListEntry[];
  roots: number[];
  byValue: Map<string, number>;
}

/** Lower case without accents, so "cafe" finds "Café". */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** The list tree flattened depth first, built once per list. */
export function indexList(items: readonly ListItemNode[] | undefined): ListIndex {
  const entries: ListEntry[] = [];
  const byValue = new Map<string, number>();
  const walk = (nodes: readonly ListItemNode[], depth: number, parent: number): number[] => {
    const ids: number[] = [];
    nodes.forEach((node, i) => {
      const index = entries.length;
      const entry: ListEntry = { index, value: node.li_value, title: node.li_title, depth, parent, children: [], pos: i + 1, size: nodes.length, key: fold(node.li_title) };
      entries.push(entry);
      if (!byValue.has(node.li_value)) byValue.set(node.li_value, index);
      ids.push(index);
      if (node.children?.length) entry.children = walk(node.children, depth + 1, index);
    });
    return ids;
  };
  const roots = items ? walk(items, 0, -1) : [];
  return { entries, roots, byValue };
}

export interface SearchResult {
  /** Matching entry indexes, titles that start with the query first, then those that contain it; at most `cap`. */
  matches: number[];
  total: number;
}

/** A linear scan over the folded titles: well under a millisecond for 5,000 items. */
export function searchList(index: ListIndex, query: string, cap = RENDER_CAP): SearchResult {
  const q = fold(query.trim());
  if (!q) {
    return { matches: index.entries.slice(0, cap).map((e) => e.index), total: index.entries.length };
  }
  const prefix: number[] = [];
  const inner: number[] = [];
  for (const e of index.entries) {
    const at = e.key.indexOf(q);
    if (at === 0) prefix.push(e.index);
    else if (at > 0) inner.push(e.index);
  }
  const total = prefix.length + inner.length;
  return { matches: prefix.concat(inner).slice(0, cap), total };
}

/** The entries to draw: the first matches, plus the chosen ones further down so a choice never disappears. */
export function withChosen(matches: number[], chosen: Iterable<number>): number[] {
  const shown = new Set(matches);
  const extra = [...chosen].filter((i) => i >= 0 && !shown.has(i)).sort((a, b) => a - b);
  return extra.length ? matches.concat(extra) : matches;
}

// ---- checkbox trees

export const UNCHECKED = 0;
export const CHECKED = 1;
export const MIXED = 2;
export type CheckState = typeof UNCHECKED | typeof CHECKED | typeof MIXED;

/**
 * Each entry's box: a leaf is checked when its value is; a parent is checked when all its children are, mixed when
 * some descendant is, and otherwise follows its own value.
 */
export function checkStates(index: ListIndex, values: ReadonlySet<string>): CheckState[] {
  const states: CheckState[] = new Array(index.entries.length).fill(UNCHECKED);
  // children come after their parent in depth-first order, so walking backwards settles children first
  for (let i = index.entries.length - 1; i >= 0; i--) {
    const e = index.entries[i];
    if (!e.children.length) {
      states[i] = values.has(e.value) ? CHECKED : UNCHECKED;
      continue;
    }
    let all = true;
    let any = false;
    for (const c of e.children) {
      if (states[c] !== CHECKED) all = false;
      if (states[c] !== UNCHECKED) any = true;
    }
    states[i] = all ? CHECKED : any ? MIXED : values.has(e.value) ? MIXED : UNCHECKED;
  }
  return states;
}

/**
 * The checked values after a click on one entry: a parent checks or clears its whole subtree; then every ancestor
 * is checked exactly when all its children are. The result is in list order.
 */
export function toggleChecked(index: ListIndex, values: readonly string[], at: number): string[] {
  const states = checkStates(index, new Set(values));
  const on = states[at] !== CHECKED;
  const checked = new Set(values);
  const mark = (i: number) => {
    const e = index.entries[i];
    if (on) checked.add(e.value);
    else checked.delete(e.value);
    e.children.forEach(mark);
  };
  mark(at);
  for (let p = index.entries[at].parent; p >= 0; p = index.entries[p].parent) {
    const e = index.entries[p];
    if (e.children.every((c) => checked.has(index.entries[c].value))) checked.add(e.value);
    else checked.delete(e.value);
  }
  const inList = index.entries.filter((e) => checked.has(e.value)).map((e) => e.value);
  const unknown = values.filter((v) => !index.byValue.has(v) && checked.has(v));
  return [...new Set(inList.concat(unknown))];
}

/** Indexes of the entry's ancestors, nearest first. */
export function ancestors(index: ListIndex, at: number): number[] {
  const out: number[] = [];
  for (let p = index.entries[at]?.parent ?? -1; p >= 0; p = index.entries[p].parent) out.push(p);
  return out;
}

/**
 * The tree rows to draw, in order. Without a query: the top level and the children of expanded entries. With one:
 * the matching entries and their ancestors (drawn open). `total` counts the rows before the cap.
 */
export function treeRows(index: ListIndex, expanded: ReadonlySet<number>, query: string, cap = RENDER_CAP): { rows: number[]; total: number; open: (i: number) => boolean } {
  const q = fold(query.trim());
  if (!q) {
    const rows: number[] = [];
    let total = 0;
    const walk = (ids: number[]) => {
      for (const i of ids) {
        total++;
        if (rows.length < cap) rows.push(i);
        if (expanded.has(i)) walk(index.entries[i].children);
      }
    };
    walk(index.roots);
    return { rows, total, open: (i) => expanded.has(i) };
  }
  const keep = new Uint8Array(index.entries.length);
  for (const e of index.entries) {
    if (e.key.includes(q)) {
      keep[e.index] = 1;
      for (const a of ancestors(index, e.index)) {
        if (keep[a] === 2) break;
        keep[a] = keep[a] || 2; // 2: drawn because a descendant matches
      }
    }
  }
  const rows: number[] = [];
  let total = 0;
  for (const e of index.entries) {
    if (!keep[e.index]) continue;
    total++;
    if (rows.length < cap) rows.push(e.index);
  }
  return { rows, total, open: (i) => keep[i] === 2 || (keep[i] === 1 && index.entries[i].children.some((c) => keep[c])) };
}

// ---- dates (UTC, so no time zone shifts a day)

export function parseDate(iso: string): number {
  return Date.UTC(+iso.slice(0, 4), +iso.slice(5, 7) - 1, +iso.slice(8, 10));
}
export function isoOf(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}
export const DAY_MS = 86_400_000;
export function addDays(iso: string, n: number): string {
  return isoOf(parseDate(iso) + n * DAY_MS);
}
/** 0 = Monday … 6 = Sunday (spec 9: weeks start on Monday). */
export function weekdayMon(iso: string): number {
  return (new Date(parseDate(iso)).getUTCDay() + 6) % 7;
}
export function addMonths(iso: string, n: number): string {
  const d = new Date(parseDate(iso));
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + n;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return isoOf(Date.UTC(y, m, Math.min(d.getUTCDate(), last)));
}

export interface CalendarMonth {
  /** YYYY-MM */
  month: string;
  first: string;
  /** Weeks from Monday to Sunday; null outside the month. */
  weeks: (string | null)[][];
}

/** The months from the first to the last given day, each as Monday-first weeks. */
export function calendarMonths(days: readonly string[]): CalendarMonth[] {
  if (!days.length) return [];
  const out: CalendarMonth[] = [];
  const lastMonth = days[days.length - 1].slice(0, 7);
  let first = `${days[0].slice(0, 7)}-01`;
  for (let guard = 0; guard < 600 && first.slice(0, 7) <= lastMonth; guard++) {
    const weeks: (string | null)[][] = [];
    let week: (string | null)[] = new Array(weekdayMon(first)).fill(null);
    for (let day = first; day.slice(0, 7) === first.slice(0, 7); day = addDays(day, 1)) {
      week.push(day);
      if (week.length === 7) {
        weeks.push(week);
        week = [];
      }
    }
    if (week.length) weeks.push(week.concat(new Array(7 - week.length).fill(null)));
    out.push({ month: first.slice(0, 7), first, weeks });
    first = addMonths(first, 1);
  }
  return out;
}

/** Rounds a slider value onto its steps within min..max (and drops float noise such as 0.30000000000000004). */
export function snapToStep(value: number, range: { min: number; max: number; step: number }): number {
  const { min, max, step } = range;
  const steps = Math.round((Math.min(Math.max(value, min), max) - min) / step);
  let v = min + steps * step;
  if (v > max) v -= step;
  const decimals = Math.max(decimalsOf(step), decimalsOf(min));
  return Number(v.toFixed(Math.min(decimals, 10)));
}
function decimalsOf(n: number): number {
  const s = String(n);
  if (s.includes('e-')) return Number(s.split('e-')[1]);
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : s.length - dot - 1;
}
