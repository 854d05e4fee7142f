import type { Knex } from 'knex';
import { JSON_ROWS } from '../db/jsonRows.js';
import { allRows } from '../db/firstRow.js';
import { trashParentsLeftOut } from '../models/scope.js';
import type { Request, Response } from 'express';
import { ApiError } from '../errors.js';
import { totalDependencies, totalsFor } from './totals.js';
import { indexOrdersOf, orderByIndex } from './indexOrder.js';
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
  /** Tags fields (kind tags): rows holding any of these values (`column && array`). */
  anyOf?: Record<string, string[]>;
  /** Range bounds (declaration's `ranges`): column, comparison, value as ISO text. */
  ranges: RangeBound[];
}

export interface RangeBound {
  field: string;
  op: '>=' | '<' | '<=';
  value: string | number;
}

/** What a filter object asks for (the part of a list query that picks rows, not their order or page). */
export type ListFilter = Pick<ListQuery, 'q' | 'ids' | 'equals' | 'anyOf' | 'ranges'>;

/** A query parameter that holds JSON (filter, sort, range): 400 invalid_query when it is not. */
export function parseJson(value: unknown, name: string): unknown {
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
  const query: ListQuery = { paged, start: 0, end: MAX_PAGE - 1, sort: decl.defaultSort, equals: {}, ranges: [] };

  if (range !== undefined) {
    if (!Array.isArray(range) || range.length !== 2 || !range.every((n) => Number.isSafeInteger(n) && n >= 0 && n <= MAX_OFFSET) || range[1] < range[0])
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
  Object.assign(query, parseFilter(filter, decl, idColumn));
  return query;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** A real calendar date YYYY-MM-DD as its UTC midnight, else undefined. */
function dateOnly(v: string): Date | undefined {
  const m = DATE_ONLY.exec(v);
  if (!m) return undefined;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3] ? d : undefined;
}

/**
 * One bound of a range filter. A date bounds a datetime by whole days (UTC): from = its first moment, to = before the
 * next day; an ISO time bounds it exactly (a time without zone is UTC). A date field takes dates only. Anything else,
 * or a year outside 1900..9999, is the client's mistake: 400 invalid_filter.
 */
function rangeBound(range: NonNullable<ResourceDeclaration['ranges']>[number], side: 'from' | 'to', raw: unknown): RangeBound {
  if (range.kind === 'number') {
    // A number, or its text (a query string's value); each bound inclusive.
    const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw.trim()) : NaN;
    if (!Number.isFinite(n) || Math.abs(n) > Number.MAX_SAFE_INTEGER) throw new ApiError(400, 'invalid_filter', `filter.${range[side]} must be a number`);
    return { field: range.field, op: side === 'from' ? '>=' : '<=', value: n };
  }
  const bad = () => new ApiError(400, 'invalid_filter', `filter.${range[side]} must be a date (YYYY-MM-DD)${range.kind === 'datetime' ? ' or an ISO 8601 time' : ''}`);
  if (typeof raw !== 'string') throw bad();
  const v = raw.trim();
  const day = dateOnly(v);
  if (range.kind === 'date') {
    if (!day) throw bad();
    return { field: range.field, op: side === 'from' ? '>=' : '<=', value: v };
  }
  let at: Date;
  if (day) at = side === 'from' ? day : new Date(day.getTime() + DAY_MS);
  else if (ISO_TIME.test(v)) at = new Date(/(Z|[+-]\d{2}:?\d{2})$/i.test(v) ? v : `${v}Z`);
  else throw bad();
  if (Number.isNaN(at.getTime()) || at.getUTCFullYear() < 1900 || at.getUTCFullYear() > 9999) throw bad();
  return { field: range.field, op: side === 'from' ? '>=' : day ? '<' : '<=', value: at.toISOString() };
}

const rangeNamed = (decl: ResourceDeclaration, key: string) => decl.ranges?.find((r) => r.from === key || r.to === key);

/**
 * A filter object ({q, id, <column>: value | [values], <range name>: bound}) checked against the declaration: what a
 * list, an export or a bulk action over "everything this filter shows" selects. Unknown keys and bad values: 400
 * invalid_filter.
 */
export function parseFilter(filter: unknown, decl: ResourceDeclaration, idColumn: string): ListFilter {
  const out: ListFilter = { equals: {}, ranges: [] };
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) throw new ApiError(400, 'invalid_filter', 'filter must be an object');
  for (const [key, raw] of Object.entries(filter as Record<string, unknown>)) {
    if (raw === undefined || raw === null || raw === '') continue;
    if (key === 'q') {
      if (typeof raw !== 'string' || raw.includes('\u0000')) throw new ApiError(400, 'invalid_filter', 'filter.q must be text');
      out.q = raw.trim().slice(0, 200);
    } else if (key === 'id' || key === idColumn) {
      const list = (Array.isArray(raw) ? raw : [raw]).map(String);
      out.ids = list.filter(isUuid); // a malformed id simply matches nothing
    } else if (rangeNamed(decl, key)) {
      const range = rangeNamed(decl, key)!;
      out.ranges.push(rangeBound(range, range.from === key ? 'from' : 'to', raw));
    } else if (decl.filterable.includes(key) && decl.fields?.[key]?.kind === 'tags') {
      // Any of these tags: a tag or a list of them (identifiers; anything else could never match).
      const list = Array.isArray(raw) ? raw : [raw];
      if (!list.every((v) => typeof v === 'string' && v.length <= 63 && !v.includes('\u0000')))
        throw new ApiError(400, 'invalid_filter', `filter.${key} must be a tag or a list of tags`);
      const tags = [...new Set(list.map((v) => (v as string).trim()).filter(Boolean))];
      if (tags.length) (out.anyOf ??= {})[key] = tags;
    } else if (decl.filterable.includes(key)) {
      const list = Array.isArray(raw) ? raw : [raw];
      if (!list.every((v) => ['string', 'number', 'boolean'].includes(typeof v) && !String(v).includes('\u0000')))
        throw new ApiError(400, 'invalid_filter', `filter.${key} must be a value or a list of values`);
      // Values go to the database as text, which casts them to the column's type (a bad value: invalid_filter).
      out.equals[key] = list.map((v) => (v === 'true' || v === true ? true : v === 'false' || v === false ? false : String(v)));
    } else {
      throw new ApiError(400, 'invalid_filter', `Cannot filter by ${key}`);
    }
  }
  return out;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The words of q, lowercased (none: no search). */
const searchWords = (q: string | undefined): string[] => (q ?? '').toLowerCase().split(/\s+/).filter(Boolean);

/**
 * q is a case-insensitive prefix search (served by lower(col) text_pattern_ops indexes): a row matches when the whole
 * q is a prefix of one search column ("acme events" finds the account "Acme Events"), or when each word of q is a
 * prefix of one of the search columns ("ann smi" finds Ann Smith).
 */
function whereWords(qb: Knex.QueryBuilder, words: string[], decl: ResourceDeclaration): Knex.QueryBuilder {
  const anyColumn = (w: Knex.QueryBuilder, text: string) => {
    for (const col of decl.search) w.orWhereRaw('lower(??) like ?', [col, `${escapeLike(text)}%`]);
  };
  return qb.where((outer) => {
    outer.where((w) => anyColumn(w, words.join(' ')));
    if (words.length > 1)
      outer.orWhere((all) => {
        for (const word of words) all.where((w) => anyColumn(w, word));
      });
  });
}

/** Filters without q: what picks rows, q aside. */
function applyOtherFilters(qb: Knex.QueryBuilder, query: ListFilter, idColumn: string): Knex.QueryBuilder {
  if (query.ids) qb.whereIn(idColumn, query.ids.length ? query.ids : ['00000000-0000-4000-8000-000000000000']);
  for (const [col, values] of Object.entries(query.equals)) qb.whereIn(col, values as string[]);
  // A tags column holding any of them: && is served by the column's GIN index.
  for (const [col, tags] of Object.entries(query.anyOf ?? {})) qb.whereRaw(`?? && array[${tags.map(() => '?').join(', ')}]::text[]`, [col, ...tags]);
  for (const r of query.ranges ?? []) qb.where(r.field, r.op, r.value);
  return qb;
}

/** Every filter of a list, an export or a bulk action (q as a condition on each row; see runList for the page's form). */
export function applyFilters(qb: Knex.QueryBuilder, query: ListFilter, decl: ResourceDeclaration, idColumn: string): Knex.QueryBuilder {
  const words = searchWords(query.q);
  if (words.length) whereWords(qb, words, decl);
  return applyOtherFilters(qb, query, idColumn);
}

/**
 * A paged list whose filter no index serves in its order first walks this many rows of the sort order and tests the
 * filter on them: a filter that matches many rows finds its page there. See runList.
 */
export const WALK_ROWS = 4000;

/**
 * A filter value the column's type cannot hold (e.g. a_is_enabled: "maybe") as 400 invalid_filter: the client's
 * mistake, not ours. PostgreSQL says so with a 22xxx code; PGlite serialises parameters itself and throws "Invalid
 * input for <type> type". Anything else is returned as it is.
 */
export function filterValueError(err: unknown): unknown {
  const { code, message } = (err ?? {}) as { code?: string; message?: string };
  if (code === '22P02' || code === '22007' || code === '22008' || code === '22003' || /Invalid input for \w+ type/.test(message ?? ''))
    return new ApiError(400, 'invalid_filter', 'A filter value does not fit its field');
  return err;
}

/** The planner's row estimate for a query (EXPLAIN without running it). */
async function estimateRows(db: Knex, qb: Knex.QueryBuilder): Promise<number> {
  const { sql, bindings } = qb.toSQL();
  const res = (await db.raw(`explain (format json) ${sql}`, bindings as Knex.RawBinding[])) as { rows?: Record<string, unknown>[] } | Record<string, unknown>[];
  const rows = Array.isArray(res) ? res : (res.rows ?? []);
  const raw = rows[0]?.['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan?: { 'Plan Rows'?: number } }[] | undefined;
  return Math.round(Number(plan?.[0]?.Plan?.['Plan Rows'] ?? 0));
}

/**
 * Whether a page of a large table (a declaration with exactTotalUpTo) must be walked: when the filters include
 * conditions no index evaluates in the sort's order (a search, a second equality, a list of values, tags, a range of
 * another column), the planner may read the sort's index testing each row, which costs the whole table when few rows
 * match. Then the walk is bounded (runList). Undefined when an index serves the filter and the sort exactly (the
 * plan reads only the page) or no index gives the sort's order (the plan sorts the matches anyway).
 */
async function walkFor(db: Knex, query: ListQuery, decl: ResourceDeclaration, words: string[]): Promise<{ prefix: string[] } | undefined> {
  const single = Object.entries(query.equals)
    .filter(([, values]) => values.length === 1)
    .map(([column]) => column);
  const account = decl.tenancy === 'account' ? decl.accountKey : undefined;
  const equal = [...(account ? [account] : []), ...single];
  const unserved =
    words.length > 0 || single.length < Object.keys(query.equals).length || Object.keys(query.anyOf ?? {}).length > 0 || query.ranges.some((r) => r.field !== query.sort.field);
  const order = orderByIndex(await indexOrdersOf(db, decl.table), equal, query.sort.field, account);
  if (order.how === 'none' || (order.how === 'served' && !unserved)) return undefined;
  const prefix = order.how === 'served' ? single.filter((c) => c !== query.sort.field) : order.prefix.filter((c) => c !== account);
  return { prefix };
}

export interface ListResult {
  rows: Record<string, unknown>[];
  total: number;
  /** The total is an estimate (ResourceDeclaration.exactTotalUpTo). */
  estimated?: boolean;
}

/**
 * Runs a list. Paged: one page, and the total for Content-Range, which is exact without a count when the page ends
 * the list, reused across pages of the same filter (api/crud/totals.ts), else counted: exactly, or for a declaration
 * with exactTotalUpTo exactly up to that many rows and estimated past it. Unpaged: every row up to `maxRows`; a longer
 * list answers its first `maxRows` rows and says how many there are (Content-Range).
 *
 * A paged list of a large table (a declaration with exactTotalUpTo) whose filter no index serves in the sort's order
 * (a search, or an event and a source sorted by e-mail; walkFor) never lets the planner walk the sort order through
 * the whole table testing each row (a prefix only old leads match, sorted newest first, or a source no lead of the
 * event has, read a million rows that way): it first walks at most WALK_ROWS rows of the sort order, under the
 * conditions the index itself evaluates, and tests the filter on those (a filter that matches often finds its page
 * there); when that does not fill the page it takes the rows the filter matches from the indexes that serve it and
 * sorts them (ordered by expressions no index provides, so the plan must). Work is bounded by WALK_ROWS plus
 * the rows the filter matches, never by the table.
 */
export async function runList(
  db: Knex,
  base: () => Knex.QueryBuilder,
  query: ListQuery,
  decl: ResourceDeclaration,
  idColumn: string,
  maxRows = Number.MAX_SAFE_INTEGER,
  /** The rows go to the JSON answer and nowhere else: their timestamps may arrive as its strings (api/db/jsonRows.ts). */
  asJson = false,
): Promise<ListResult> {
  const direction = query.sort.order.toLowerCase() as 'asc' | 'desc';
  // Read on a pooled connection without knex's runner on PostgreSQL (api/db/firstRow.ts).
  const rowsQuery = (qb: Knex.QueryBuilder) => allRows(asJson ? qb.options(JSON_ROWS) : qb);
  /** The sort and its ties; `unindexed`: as expressions no index provides (the plan sorts the matches). */
  const ordered = (qb: Knex.QueryBuilder, unindexed = false) => {
    const by = (column: string, dir: 'asc' | 'desc') => (unindexed ? qb.orderByRaw(`coalesce(??, ??) ${dir}`, [column, column]) : qb.orderBy(column, dir));
    by(query.sort.field, direction);
    // A stable order across pages: ties by the declaration's tie-break column (in the sort's direction, so an index
    // serves it), then by the key.
    if (decl.tieBreak && query.sort.field !== decl.tieBreak && query.sort.field !== idColumn) by(decl.tieBreak, direction);
    if (query.sort.field !== idColumn) by(idColumn, decl.tieBreak ? direction : 'asc');
    return qb;
  };
  const filtered = () => applyFilters(base(), query, decl, idColumn);
  const words = searchWords(query.q);
  try {
    if (!query.paged) {
      const rows = await rowsQuery(ordered(filtered()).limit(Math.min(maxRows, Number.MAX_SAFE_INTEGER - 1) + 1));
      if (rows.length <= maxRows) return { rows, total: rows.length };
      return { rows: rows.slice(0, maxRows), ...(await countOf(db, filtered, decl)) };
    }
    const size = query.end - query.start + 1;
    let rowsOf: RowsOf = () => rowsQuery(ordered(filtered()).offset(query.start).limit(size));
    const walk = decl.exactTotalUpTo && !query.ids ? await walkFor(db, query, decl, words) : undefined;
    if (walk) {
      // The first rows of the sort order under the conditions the index evaluates, then every filter on them: the
      // derived table keeps the table's name, so the columns read as before.
      const walked = () => {
        const first = base();
        for (const column of walk.prefix) first.whereIn(column, query.equals[column] as string[]);
        for (const r of query.ranges) if (r.field === query.sort.field) first.where(r.field, r.op, r.value);
        return rowsQuery(
          ordered(applyFilters(db.select('*').from(ordered(first).limit(WALK_ROWS).as(decl.table)), query, decl, idColumn))
            .offset(query.start)
            .limit(size),
        );
      };
      rowsOf = async (count) => {
        if (query.start + size <= WALK_ROWS) {
          const rows: Record<string, unknown>[] = await walked();
          if (rows.length === size) return rows;
        }
        // Before sorting every match: none past this page's start (an event and a source its leads never have), as
        // the total says, whose count an index may answer alone where the page's rows would be read one by one.
        const { total, estimated } = await count();
        if (!estimated && total <= query.start) return [];
        return rowsQuery(ordered(filtered(), true).offset(query.start).limit(size));
      };
    }
    return await pageOf(db, query, decl, filtered, rowsOf, words.length > 0);
  } catch (err) {
    throw filterValueError(err);
  }
}

/**
 * A search (`q`) on a table with exactTotalUpTo whose planner estimate exceeds that limit this many times is answered
 * with the estimate, without counting up to the limit first. A search's matches are found through several indexes and
 * checked in the table, so the bounded count read 10,001 rows of it (180–340 ms of PostgreSQL each on the event day's
 * million leads, the largest item of its pg_stat_statements: a fifth of the execution time) only to answer the
 * estimate anyway. The prefix searches' estimates there were 1–2.1 times the true counts (ann: 80,115 for 39,479; lov:
 * 51,051 for 50,322; oldfi: 2,148 for 2,000), and in a test half of it (29,314 for 60,000): past twice the limit, the
 * answer is the estimate (flagged X-Total-Estimated); a rare search overestimated more than that whose true count is
 * under the limit gets an estimate where it could have had the exact figure. Below it, counted as before.
 */
export const SEARCH_ESTIMATE_TRUSTED_PAST = 2;

/**
 * The total of a filter: exact, or (with exactTotalUpTo, unless `exact`) exact up to the limit and estimated past it;
 * a `search` asks the planner first (SEARCH_ESTIMATE_TRUSTED_PAST).
 */
async function countOf(db: Knex, filteredQuery: () => Knex.QueryBuilder, decl: ResourceDeclaration, exact = false, search = false): Promise<Total> {
  const filtered = () => filteredQuery().clearSelect().clearOrder();
  const estimateOf = () => estimateRows(db, filtered().select(db.raw('1 as one')));
  const limit = decl.exactTotalUpTo;
  if (!limit || exact) return { total: Number(((await filtered().count({ n: '*' }).first()) as { n: string | number } | undefined)?.n ?? 0), estimated: false };
  let estimate: number | undefined;
  if (search) {
    estimate = await estimateOf();
    if (estimate > SEARCH_ESTIMATE_TRUSTED_PAST * limit) return { total: estimate, estimated: true };
  }
  const bounded = await db
    .from(
      filtered()
        .select(db.raw('1 as one'))
        .limit(limit + 1)
        .as('bounded'),
    )
    .count({ n: '*' })
    .first();
  const n = Number((bounded as { n: string | number } | undefined)?.n ?? 0);
  if (n <= limit) return { total: n, estimated: false };
  return { total: Math.max(limit + 1, estimate ?? (await estimateOf())), estimated: true };
}

type Total = { total: number; estimated: boolean };
/** A page's rows; `total` gives the filter's total when a way of finding them needs it. */
type RowsOf = (total: () => Promise<Total>) => Promise<Record<string, unknown>[]>;

/** One page (`rowsOf`) and its total. */
async function pageOf(db: Knex, query: ListQuery, decl: ResourceDeclaration, filtered: () => Knex.QueryBuilder, rowsOf: RowsOf, search: boolean): Promise<ListResult> {
  const size = query.end - query.start + 1;
  const totals = totalsFor(db);
  // The filter's query, its conditions on parents in the trash left out (api/models/scope.ts), as its text and its
  // values: compiled, not written out with its values quoted (which cost a list page more than its own query did).
  const compiled = trashParentsLeftOut(() => filtered().toSQL());
  const key = `${compiled.sql}\u0000${JSON.stringify(compiled.bindings)}`;
  const cached = totals.get(key);
  const epochs = totals.epochsNow(totalDependencies(decl));
  // The filter's total, counted at most once for the page and its rows (a fresh one known: none).
  let counting: Promise<Total> | undefined;
  const count = () => (counting ??= countOf(db, filtered, decl, false, search));
  const known = (): Promise<Total> => (cached !== undefined ? Promise.resolve({ total: cached, estimated: totals.estimated(key) }) : count());
  // Counted alongside the page unless a fresh total is known.
  const [rows, counted] = cached === undefined ? await Promise.all([rowsOf(known), count()]) : [await rowsOf(known), undefined];
  let result: Total;
  let reused: Total | undefined;
  if (rows.length > 0 && rows.length < size)
    result = { total: query.start + rows.length, estimated: false }; // the page ends the list: exact
  else if (counted !== undefined && !(counted.estimated && rows.length === 0)) result = counted;
  else if (cached !== undefined && cached >= query.start + rows.length && (rows.length > 0 || cached <= query.start))
    reused = result = { total: cached, estimated: totals.estimated(key) };
  else result = await countOf(db, filtered, decl, rows.length === 0); // the cached total contradicts the page, or a page past an estimated end: recount
  // An estimate never says the list ends before what has been seen.
  if (result.estimated) result.total = Math.max(result.total, query.start + rows.length + 1);
  // A reused total keeps its age (an estimate must not outlive TOTAL_TTL_MS by being read).
  if (result !== reused) totals.set(key, result.total, result.estimated, epochs);
  return { rows, ...result };
}

/** The page and its total: Content-Range (exposed to the browser), and X-Total-Estimated when the total is an estimate. */
export function sendList(res: Response, name: string, query: ListQuery, rows: unknown[], total: number, estimated = false): void {
  const end = rows.length ? query.start + rows.length - 1 : query.start;
  res.setHeader('Content-Range', rows.length ? `${name} ${query.start}-${end}/${total}` : `${name} */${total}`);
  if (estimated) res.setHeader('X-Total-Estimated', 'true');
  res.setHeader('Access-Control-Expose-Headers', estimated ? 'Content-Range, X-Total-Estimated' : 'Content-Range');
  res.json(rows);
}
