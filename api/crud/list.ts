import type { Knex } from 'knex';
import type { Request, Response } from 'express';
import { ApiError } from '../errors.js';
import { isUuid } from '../../resources/fields.js';
import type { ResourceDeclaration } from '../../resources/types.js';

export const MAX_PAGE = 1000;

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
  const query: ListQuery = { paged: range !== undefined, start: 0, end: MAX_PAGE - 1, sort: decl.defaultSort, equals: {} };

  if (range !== undefined) {
    if (!Array.isArray(range) || range.length !== 2 || !range.every((n) => Number.isInteger(n) && n >= 0) || range[1] < range[0])
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
      if (typeof raw !== 'string') throw new ApiError(400, 'invalid_filter', 'filter.q must be text');
      query.q = raw.trim().slice(0, 200);
    } else if (key === 'id' || key === idColumn) {
      const list = (Array.isArray(raw) ? raw : [raw]).map(String);
      query.ids = list.filter(isUuid); // a malformed id simply matches nothing
    } else if (decl.filterable.includes(key)) {
      const list = Array.isArray(raw) ? raw : [raw];
      query.equals[key] = list.map((v) => (v === 'true' ? true : v === 'false' ? false : v));
    } else {
      throw new ApiError(400, 'invalid_filter', `Cannot filter by ${key}`);
    }
  }
  return query;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Each word of q must be a case-insensitive prefix of one of the search columns (served by lower(col) text_pattern_ops indexes). */
export function applyFilters(qb: Knex.QueryBuilder, query: ListQuery, decl: ResourceDeclaration, idColumn: string): Knex.QueryBuilder {
  if (query.q) {
    for (const word of query.q.toLowerCase().split(/\s+/).filter(Boolean)) {
      const pattern = `${escapeLike(word)}%`;
      qb.where((w) => {
        for (const col of decl.search) w.orWhereRaw('lower(??) like ?', [col, pattern]);
      });
    }
  }
  if (query.ids) qb.whereIn(idColumn, query.ids.length ? query.ids : ['00000000-0000-4000-8000-000000000000']);
  for (const [col, values] of Object.entries(query.equals)) qb.whereIn(col, values as string[]);
  return qb;
}

/** Runs a list: count + one page (with Content-Range) when paged, else every row. */
export async function runList(
  base: () => Knex.QueryBuilder,
  query: ListQuery,
  decl: ResourceDeclaration,
  idColumn: string,
): Promise<{ rows: Record<string, unknown>[]; total: number }> {
  const rowsQuery = applyFilters(base(), query, decl, idColumn).orderBy(query.sort.field, query.sort.order.toLowerCase() as 'asc' | 'desc');
  if (query.sort.field !== idColumn) rowsQuery.orderBy(idColumn, 'asc'); // a stable order across pages
  if (!query.paged) {
    const rows = await rowsQuery;
    return { rows, total: rows.length };
  }
  const counted = applyFilters(base(), query, decl, idColumn).clearSelect().clearOrder().count({ n: '*' }).first();
  const [rows, count] = await Promise.all([rowsQuery.offset(query.start).limit(query.end - query.start + 1), counted]);
  return { rows, total: Number((count as { n: string | number } | undefined)?.n ?? 0) };
}

export function sendList(res: Response, name: string, query: ListQuery, rows: unknown[], total: number): void {
  const end = rows.length ? query.start + rows.length - 1 : query.start;
  res.setHeader('Content-Range', rows.length ? `${name} ${query.start}-${end}/${total}` : `${name} */${total}`);
  res.setHeader('Access-Control-Expose-Headers', 'Content-Range');
  res.json(rows);
}
