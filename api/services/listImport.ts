import crypto from 'node:crypto';
import Papa from 'papaparse';
import type { Knex } from 'knex';
import { scoped } from '../models/scope.js';
import { unguardCell } from './csv.js';
import { lists } from '../../resources/lists.js';
import { LIST_MAX_DEPTH, LIST_TITLE_MAX, LIST_VALUE_MAX, listItems, valueFromTitle } from '../../resources/listItems.js';

/** The import's row codes (account-console.md: list_import_*), plus two for rows no list could hold. */
export type ListImportCode =
  'list_import_duplicate_value' | 'list_import_unknown_parent' | 'list_import_cycle' | 'list_import_too_deep' | 'list_import_title_required' | 'list_import_invalid_value';

export interface ListImportRowError {
  /** The line of the file the row starts on (the CSV header is line 1). */
  row: number;
  code: ListImportCode;
  title: string;
  value: string;
  parent_value: string;
}

/** One item as read from the file. */
export interface ImportRow {
  row: number;
  title: string;
  /** As written; '' = derived from the title. */
  value: string;
  /** CSV: the parent's value as written ('' = top level). */
  parentValue: string;
  /** Indented text: the index of the parent row in the file (-1 = top level). */
  parentIndex?: number;
}

export interface ParsedImport {
  rows: ImportRow[];
  /** CSV columns the file lacks (title is required). */
  missingColumns: string[];
}

export type ImportFormat = 'csv' | 'text';

/** More rows than any list should hold in one file. */
export const LIST_IMPORT_MAX_ROWS = 100_000;

type Column = 'title' | 'value' | 'parent';

const HEADERS: Record<string, Column> = {
  title: 'title',
  lititle: 'title',
  name: 'title',
  label: 'title',
  value: 'value',
  livalue: 'value',
  parentvalue: 'parent',
  parent: 'parent',
};

const headerOf = (cell: string): Column | undefined =>
  HEADERS[
    cell
      .replace(/^\uFEFF/, '')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')
  ];

/** A counter of the line an offset of the text is on, for texts read front to back. */
function lineCounter(text: string): (offset: number) => number {
  let at = 0;
  let line = 1;
  return (offset) => {
    for (; at < offset && at < text.length; at++) {
      const c = text.charCodeAt(at);
      // \r\n counts once, a lone \r as a break
      if (c === 10 || (c === 13 && text.charCodeAt(at + 1) !== 10)) line++;
    }
    return line;
  };
}

/**
 * A CSV with a header row (title required; value and parent_value optional, any order, case and spacing as people
 * write them); ',' ';' tab or '|' separated (detected), quoted cells, BOM, blank lines skipped. Row numbers are the
 * file's lines, so an error points at what the user sees in an editor.
 */
export function parseListCsv(text: string): ParsedImport {
  const body = text.replace(/^\uFEFF/, '');
  const lineAt = lineCounter(body);
  const rows: ImportRow[] = [];
  let columns: (Column | undefined)[] | undefined;
  let start = 0;
  Papa.parse<string[]>(body, {
    skipEmptyLines: false,
    delimitersToGuess: [',', ';', '\t', '|'],
    step: (result) => {
      const cells = result.data;
      const line = lineAt(start);
      start = result.meta.cursor;
      // The cursor stops before the line break: skip it so the next row starts on its own line.
      if (body[start] === '\r' && body[start + 1] === '\n') start += 2;
      else if (body[start] === '\r' || body[start] === '\n') start += 1;
      if (cells.every((c) => String(c ?? '').trim() === '')) return;
      if (!columns) {
        columns = cells.map((c) => headerOf(String(c ?? '')));
        return;
      }
      const r: ImportRow = { row: line, title: '', value: '', parentValue: '' };
      cells.forEach((cell, i) => {
        const column = columns![i];
        const v = unguardCell(String(cell ?? '').trim());
        if (column === 'title') r.title = v;
        else if (column === 'value') r.value = v;
        else if (column === 'parent') r.parentValue = v;
      });
      rows.push(r);
    },
  });
  return { rows, missingColumns: columns?.includes('title') ? [] : ['title'] };
}

/** Columns of leading whitespace: a tab is 4, a space 1. */
function indentOf(line: string): { width: number; rest: string } {
  let width = 0;
  let i = 0;
  for (; i < line.length; i++) {
    if (line[i] === '\t') width += 4;
    else if (line[i] === ' ' || line[i] === '\u00a0') width += 1;
    else break;
  }
  return { width, rest: line.slice(i) };
}

/**
 * One item per line; indentation (tabs, or two or more spaces per level) makes a line a child of the line above it
 * that is less indented. A single stray space is not a level. A line that steps back to a width between two levels
 * joins the shallower one's children. Blank lines are skipped; row numbers are the file's lines. Values come from the
 * titles.
 */
export function parseIndentedText(text: string): ParsedImport {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const rows: ImportRow[] = [];
  // The open ancestors: indentation width and row index.
  const stack: { width: number; index: number }[] = [];
  lines.forEach((raw, i) => {
    const { width, rest } = indentOf(raw);
    const title = rest.trim();
    if (!title) return;
    while (stack.length && stack[stack.length - 1].width > width + 1) stack.pop();
    // Within one column of the previous level: its sibling.
    if (stack.length && stack[stack.length - 1].width >= width - 1) stack.pop();
    const parentIndex = stack.length ? stack[stack.length - 1].index : -1;
    rows.push({ row: i + 1, title, value: '', parentValue: '', parentIndex });
    stack.push({ width, index: rows.length - 1 });
  });
  return { rows, missingColumns: [] };
}

export function parseListImport(text: string, format: ImportFormat): ParsedImport {
  return format === 'csv' ? parseListCsv(text) : parseIndentedText(text);
}

/** A stored item of the list, as the plan needs it. */
interface Existing {
  li_id: string;
  li_value: string;
  li_parentid: string | null;
  li_order: number;
}

export interface PlannedItem {
  li_id: string;
  li_parentid: string | null;
  li_title: string;
  li_value: string;
  li_order: number;
  depth: number;
}

/** Where a row hangs: an existing item, another row of the file, the top level, or nowhere (unknown parent). */
type ParentRef = { kind: 'top' } | { kind: 'existing'; id: string } | { kind: 'row'; index: number } | { kind: 'unknown' };

const NUL = '\u0000';

/**
 * Checks every row against the list and the rest of the file and, when all are good, plans the inserts: new ids,
 * parents, order after the existing siblings, depth. Pure: no database.
 */
export function planListImport(rows: readonly ImportRow[], existing: readonly Existing[]): { errors: ListImportRowError[]; items: PlannedItem[] } {
  const errors: ListImportRowError[] = [];
  const values = rows.map((r) => r.value || valueFromTitle(r.title));
  const shown = (i: number, parentValue: string): Omit<ListImportRowError, 'code'> => ({ row: rows[i].row, title: rows[i].title, value: values[i], parent_value: parentValue });
  const parentShown = (i: number) => (rows[i].parentIndex !== undefined ? (rows[i].parentIndex! >= 0 ? values[rows[i].parentIndex!] : '') : rows[i].parentValue);
  const fail = (i: number, code: ListImportCode) => errors.push({ ...shown(i, parentShown(i)), code });

  const existingByValue = new Map(existing.map((e) => [e.li_value, e]));
  const existingById = new Map(existing.map((e) => [e.li_id, e]));
  const firstRowOf = new Map<string, number>();
  rows.forEach((r, i) => {
    if (!firstRowOf.has(values[i])) firstRowOf.set(values[i], i);
  });

  // Row by row: the fields, then uniqueness against the list and the rows above.
  rows.forEach((r, i) => {
    if (!r.title) fail(i, 'list_import_title_required');
    else if (r.title.length > LIST_TITLE_MAX || values[i].length > LIST_VALUE_MAX || r.title.includes(NUL) || r.value.includes(NUL) || r.parentValue.includes(NUL))
      fail(i, 'list_import_invalid_value');
    else if (existingByValue.has(values[i]) || firstRowOf.get(values[i]) !== i) fail(i, 'list_import_duplicate_value');
  });

  const parents: ParentRef[] = rows.map((r) => {
    if (r.parentIndex !== undefined) return r.parentIndex >= 0 ? { kind: 'row', index: r.parentIndex } : { kind: 'top' };
    if (!r.parentValue) return { kind: 'top' };
    const stored = existingByValue.get(r.parentValue);
    if (stored) return { kind: 'existing', id: stored.li_id };
    const index = firstRowOf.get(r.parentValue);
    return index === undefined ? { kind: 'unknown' } : { kind: 'row', index };
  });
  parents.forEach((p, i) => p.kind === 'unknown' && fail(i, 'list_import_unknown_parent'));

  // Depth of stored items (the stored tree has no cycles and is at most LIST_MAX_DEPTH deep).
  const storedDepth = new Map<string, number>();
  const depthOfStored = (id: string): number => {
    const chain: string[] = [];
    let at: string | null = id;
    let base = 0;
    while (at) {
      const known = storedDepth.get(at);
      if (known !== undefined) {
        base = known;
        break;
      }
      chain.push(at);
      at = existingById.get(at)?.li_parentid ?? null;
      if (chain.length > 64) break;
    }
    for (let k = chain.length - 1; k >= 0; k--) storedDepth.set(chain[k], base + (chain.length - k));
    return storedDepth.get(id)!;
  };

  // Depth of each row, following parents through the file; a chain that comes back to itself is a cycle.
  const UNSEEN = 0;
  const ON_PATH = 1;
  const DONE = 2;
  const state = new Uint8Array(rows.length);
  const depth = new Array<number>(rows.length).fill(-1); // -1: no depth (below an unknown parent or a cycle)
  const inCycle = new Uint8Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    if (state[i] !== UNSEEN) continue;
    const path: number[] = [];
    let at = i;
    let base: number; // the depth of what the last row on the path hangs below (-1: none)
    for (;;) {
      if (state[at] === DONE) {
        base = depth[at];
        break;
      }
      if (state[at] === ON_PATH) {
        // The rows from `at` to the end of the path hang below each other in a ring.
        for (let k = path.indexOf(at); k < path.length; k++) inCycle[path[k]] = 1;
        base = -1;
        break;
      }
      state[at] = ON_PATH;
      path.push(at);
      const p = parents[at];
      if (p.kind !== 'row') {
        base = p.kind === 'top' ? 0 : p.kind === 'existing' ? depthOfStored(p.id) : -1;
        break;
      }
      at = p.index;
    }
    // Unwind: each row is one deeper than the one it hangs below.
    for (let k = path.length - 1; k >= 0; k--) {
      const r = path[k];
      if (inCycle[r]) depth[r] = -1;
      else depth[r] = base < 0 ? -1 : base + 1;
      base = depth[r];
      state[r] = DONE;
    }
  }
  for (let i = 0; i < rows.length; i++) {
    if (inCycle[i]) fail(i, 'list_import_cycle');
    else if (depth[i] > LIST_MAX_DEPTH) fail(i, 'list_import_too_deep');
  }

  errors.sort((a, b) => a.row - b.row);
  if (errors.length) return { errors, items: [] };

  // The plan: ids first, so children can name parents of the same file.
  const ids = rows.map(() => crypto.randomUUID());
  const nextOrder = new Map<string, number>(); // parent id ('' = top) → next li_order
  for (const e of existing) {
    const key = e.li_parentid ?? '';
    nextOrder.set(key, Math.max(nextOrder.get(key) ?? 0, e.li_order + 1));
  }
  const items: PlannedItem[] = rows.map((r, i) => {
    const p = parents[i];
    const parentId = p.kind === 'existing' ? p.id : p.kind === 'row' ? ids[p.index] : null;
    const key = parentId ?? '';
    const order = nextOrder.get(key) ?? 0;
    nextOrder.set(key, order + 1);
    return { li_id: ids[i], li_parentid: parentId, li_title: r.title, li_value: values[i], li_order: order, depth: depth[i] };
  });
  return { errors: [], items };
}

export interface ListImportResult {
  ok: boolean;
  rows: number;
  created: number;
  errors: ListImportRowError[];
  missingColumns?: string[];
}

/** Rows per INSERT statement (arrays bound as parameters). */
const CHUNK = 10_000;

/**
 * Appends the parsed rows to the list's items: all or nothing, in one transaction, set-based (one read of the list's
 * items, then one INSERT … SELECT FROM unnest() per 10,000 rows, parents before children). The list row is locked
 * so two imports into one list cannot interleave. Answers undefined when the list does not exist in the account.
 */
export async function importListItems(db: Knex, accountId: string, listId: string, parsed: ParsedImport): Promise<ListImportResult | undefined> {
  return db.transaction(async (trx) => {
    const list = await scoped(trx, lists, accountId).where('l_id', listId).forUpdate().first('l_id');
    if (!list) return undefined;
    const result: ListImportResult = { ok: false, rows: parsed.rows.length, created: 0, errors: [] };
    if (parsed.missingColumns.length) return { ...result, missingColumns: parsed.missingColumns };
    if (!parsed.rows.length) return result;
    const existing: Existing[] = await scoped(trx, listItems, accountId).where('li_listid', listId).select('li_id', 'li_value', 'li_parentid', 'li_order');
    const plan = planListImport(parsed.rows, existing);
    if (plan.errors.length) return { ...result, errors: plan.errors };
    const items = [...plan.items].sort((a, b) => a.depth - b.depth);
    for (let i = 0; i < items.length; i += CHUNK) {
      const part = items.slice(i, i + CHUNK);
      await trx.raw(
        `insert into list_items (li_id, li_accountid, li_listid, li_parentid, li_title, li_value, li_order)
         select t.id::uuid, ?::uuid, ?::uuid, nullif(t.parent, '')::uuid, t.title, t.value, t.ord
           from unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::int[]) as t(id, parent, title, value, ord)`,
        [accountId, listId, part.map((p) => p.li_id), part.map((p) => p.li_parentid ?? ''), part.map((p) => p.li_title), part.map((p) => p.li_value), part.map((p) => p.li_order)],
      );
    }
    return { ...result, ok: true, created: items.length };
  });
}
