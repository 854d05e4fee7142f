import type { Knex } from 'knex';
import type { Request, Response } from 'express';
import { ApiError } from '../errors.js';
import { totalsFor } from './totals.js';
import { isUuid } from '../../resources/fields.js';
import type { ResourceDeclaration } from '../../resources/types.js';

export const MAX_PAGE = 1000;
/** Largest row offset a range may start at (keeps OFFSET a plain integer for the database). */
export const MAX_OFFSET = 2 ** 31 - 1;

export interface ListQuery {
  paged: boolean;
  start: number;
  end: number;
  sort: { field: string; order: 'ASC' | 'DESC' };
  q?: string;
  ids?: string[];
  equals: Record<string, unknown[]>;
}

function parseJson(value: unknown, name: string): unknown {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ApiError(400, 'invalid_query', `The ${name} parameter must be JSON`);
  try {
    return JSON.parse(value);
  } catch {
    throw new ApiError(400, 'invalid_query', `The ${name} parameter must be JSON`);
  }
}

/**
 * The ra-data-simple-rest convention: range=[start,end], sort=[field,order], filter={q, id, column: value}.
 * Without any of them the whole list is answered (as the original client expects).
 */
export function parseListQuery(req: Request, decl: ResourceDeclaration, idColumn: string): ListQuery {
  const range = parseJson(req.query.range, 'range');
  const sort = parseJson(req.query.sort, 'sort');
  const filter = parseJson(req.query.filter, 'filter') ?? {};
  // Any of range/sort/filter asks for the paged form (one page, at most MAX_PAGE rows, with Content-Range).
  const paged = range !== undefined || sort !== undefined || req.query.filter !== undefined;
  const query: ListQuery = { paged, start: 0, end: MAX_PAGE - 1, sort: decl.defaultSort, equals: {} };

  if (range !== undefined) {
    if (
      !Array.isArray(range) ||
      range.length !== 2 ||
      !range.every((n) => Number.isSafeInteger(n) && n >= 0 && n <= MAX_OFFSET) ||
      range[1] < range[0]
    )
      throw new ApiError(400, 'invalid_range', 'range must be [start, end] with 0 <= start <= end');
    if (range[1] - range[0] + 1 > MAX_PAGE) throw new ApiError(400, 'invalid_range', `A page holds at most ${MAX_PAGE} rows`);
    query.start = range[0];
    query.end = range[1];
  }
  if (sort !== undefined) {
    if (!Array.isArray(sort) || typeof sort[0] !== 'string') throw new ApiError(400, 'invalid_sort', 'sort must be [field, "ASC"|"DESC"]');
    const field = sort[0] === 'id' ? idColumn : sort[0];
    const order = String(sort[1] ?? 'ASC').toUpperCase();
    if (!decl.sortable.includes(field) && field !== idColumn) throw new ApiError(400, 'invalid_sort', `Cannot sort by ${sort[0]}`);
    if (order !== 'ASC' && order !== 'DESC') throw new ApiError(400, 'invalid_sort', 'sort order must be ASC or DESC');
    query.sort = { field, order };
  }
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) throw new ApiError(400, 'invalid_filter', 'filter must be an object');
  for (const [key, raw] of Object.entries(filter as Record<string, unknown>)) {
    if (raw === undefined || raw === null || raw === '') continue;
    if (key === 'q') {
      if (typeof raw !== 'string' || raw.includes('\u0000')) throw new ApiError(400, 'invalid_filter', 'filter.q must be text');
      query.q = raw.trim().slice(0, 200);
    } else if (key === 'id' || key === idColumn) {
      const list = (Array.isArray(raw) ? raw : [raw]).map(String);
      query.ids = list.filter(isUuid); // a malformed id simply matches nothing
    } else if (decl.filterable.includes(key)) {
      const list = Array.isArray(raw) ? raw : [raw];
      if (!list.every((v) => ['string', 'number', 'boolean'].includes(typeof v) && !String(v).includes('\u0000')))
        throw new ApiError(400, 'invalid_filter', `filter.${key} must be a value or a list of values`);
      // Values go to the database as text, which casts them to the column's type (a bad value: invalid_filter).
      query.equals[key] = list.map((v) => (v === 'true' || v === true ? true : v === 'false' || v === false ? false : String(v)));
    } else {
      throw new ApiError(400, 'invalid_filter', `Cannot filter by ${key}`);
    }
  }
  return query;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * q is a case-insensitive prefix search (served by lower(col) text_pattern_ops indexes): a row matches when the whole
 * q is a prefix of one search column ("acme events" finds the account "Acme Events"), or when each word of q is a
 * prefix of one of the search columns ("ann smi" finds Ann Smith).
 */
export function applyFilters(qb: Knex.QueryBuilder, query: ListQuery, decl: ResourceDeclaration, idColumn: string): Knex.QueryBuilder {
  const words = (query.q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length) {
    const anyColumn = (w: Knex.QueryBuilder, text: string) => {
      for (const col of decl.search) w.orWhereRaw('lower(??) like ?', [col, `${escapeLike(text)}%`]);
    };
    qb.where((outer) => {
      outer.where((w) => anyColumn(w, words.join(' ')));
      if (words.length > 1)
        outer.orWhere((all) => {
          for (const word of words) all.where((w) => anyColumn(w, word));
        });
    });
  }
  if (query.ids) qb.whereIn(idColumn, query.ids.length ? query.ids : ['00000000-0000-4000-8000-000000000000']);
  for (const [col, values] of Object.entries(query.equals)) qb.whereIn(col, values as string[]);
  return qb;
}

/**
 * Runs a list. Paged: one page, and the total for Content-Range, which is exact without a count when the page ends
 * the list, reused across pages of the same filter (api/crud/totals.ts), else counted. Unpaged: every row up to
 * `maxRows`; a longer list answers its first `maxRows` rows and says how many there are (Content-Range).
 */
export async function runList(
  db: Knex,
  base: () => Knex.QueryBuilder,
  query: ListQuery,
  decl: ResourceDeclaration,
  idColumn: string,
  maxRows = Number.MAX_SAFE_INTEGER,
): Promise<{ rows: Record<string, unknown>[]; total: number }> {
  const rowsQuery = applyFilters(base(), query, decl, idColumn).orderBy(query.sort.field, query.sort.order.toLowerCase() as 'asc' | 'desc');
  if (query.sort.field !== idColumn) rowsQuery.orderBy(idColumn, 'asc'); // a stable order across pages
  const countQuery = () => applyFilters(base(), query, decl, idColumn).clearSelect().clearOrder().count({ n: '*' }).first();
  const count = async () => Number(((await countQuery()) as { n: string | number } | undefined)?.n ?? 0);
  try {
    if (!query.paged) {
      const rows = await rowsQuery.limit(Math.min(maxRows, Number.MAX_SAFE_INTEGER - 1) + 1);
      if (rows.length <= maxRows) return { rows, total: rows.length };
      return { rows: rows.slice(0, maxRows), total: await count() };
    }
    const size = query.end - query.start + 1;
    const totals = totalsFor(db);
    const key = countQuery().toString();
    const cached = totals.get(key);
    const [rows, counted] = await Promise.all([
      rowsQuery.offset(query.start).limit(size),
      // Counted alongside the page unless a fresh total is known.
      cached === undefined ? count() : Promise.resolve(undefined),
    ]);
    let total: number;
    if (rows.length > 0 && rows.length < size) total = query.start + rows.length; // the page ends the list: exact
    else if (counted !== undefined) total = counted;
    else if (cached !== undefined && cached >= query.start + rows.length && (rows.length > 0 || cached <= query.start)) total = cached;
    else total = await count(); // the cached total contradicts the page: recount
    totals.set(key, total);
    return { rows, total };
  } catch (err) {
    // A filter value the column's type cannot hold (e.g. a_is_enabled: "maybe"): the client's mistake, not ours.
    // PostgreSQL says so with a 22xxx code; PGlite serialises parameters itself and throws "Invalid input for <type> type".
    const { code, message } = err as { code?: string; message?: string };
    if (code === '22P02' || code === '22007' || code === '22008' || code === '22003' || /Invalid input for \w+ type/.test(message ?? ''))
      throw new ApiError(400, 'invalid_filter', 'A filter value does not fit its field');
    throw err;
  }
}

export function sendList(res: Response, name: string, query: ListQuery, rows: unknown[], total: number): void {
  const end = rows.length ? query.start + rows.length - 1 : query.start;
  res.setHeader('Content-Range', rows.length ? `${name} ${query.start}-${end}/${total}` : `${name} */${total}`);
  res.setHeader('Access-Control-Expose-Headers', 'Content-Range');
  res.json(rows);
}
