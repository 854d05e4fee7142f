import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, Router } from 'express';
import type { Knex } from 'knex';
import { ctx } from '../context.js';
import { ApiError } from '../errors.js';
import { requirePermission } from '../middleware/auth.js';
import type { Adapter } from './adapter.js';
import { applyFilters, filterValueError, parseFilter, parseJson } from './list.js';
import { CSV_BOM, csvLine } from '../services/csv.js';
import type { ResourceDeclaration } from '../../resources/types.js';

type Row = Record<string, unknown>;
type Lang = 'en' | 'nl';

/** Rows per query: the export holds one batch at a time, whatever the size of the list. */
export const EXPORT_BATCH = 1000;

const YES_NO: Record<Lang, [string, string]> = { en: ['yes', 'no'], nl: ['ja', 'nee'] };

function langOf(req: Request): Lang {
  const asked = req.query.lang;
  if (asked === 'en' || asked === 'nl') return asked;
  return req.acceptsLanguages('en', 'nl') === 'nl' ? 'nl' : 'en';
}

/** A stored value in the caller's words: yes/no, an option's label, times as ISO 8601, lists (tags) joined by ", ", objects as JSON. */
export function cellOf(decl: ResourceDeclaration, field: string, value: unknown, lang: Lang): unknown {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return YES_NO[lang][value ? 0 : 1];
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => cellOf(decl, field, v, lang)).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  const option = decl.labels?.[lang]?.options?.[field]?.[String(value)];
  return option ?? value;
}

/**
 * The rows after the last one in the order (sort column, id), both in the sort's direction, within one part of the
 * export: PostgreSQL puts nulls last ascending and first descending, so the export reads the rows with a value and the
 * rows without one as two parts, each along its own keyset. Within the part with values the condition is a row
 * comparison, `(column, id) > ((select column … where id = last), last)`, which an index on (column, id) serves as a
 * range: every batch starts where the last one ended (an `or` of the cases, as first written, was a filter that
 * re-read every row before the cursor: 1,000,000 users took minutes). The last row's value is read back by the
 * database (the subquery on its id), so no value passes through JavaScript and loses precision.
 */
function after(qb: Knex.QueryBuilder, sub: Knex.QueryBuilder, sortCol: string, idCol: string, lastId: string, desc: boolean): Knex.QueryBuilder {
  return qb.whereRaw(`(??, ??) ${desc ? '<' : '>'} ((?), ?)`, [sortCol, idCol, sub, lastId]);
}

/**
 * GET …/{resource}/export.csv?filter=&sort=&lang= (the list permission): every row the filter selects, in the sort,
 * streamed in batches along a keyset cursor (no row cap, one batch in memory, the next read only when the client has
 * taken the last), one column per list field with its label in the caller's language (?lang=en|nl, else the
 * browser's), UTF-8 with a BOM, and a cell that a spreadsheet would run as a formula neutralised.
 */
export function exportRoute(router: Router, decl: ResourceDeclaration, adapter: Adapter): void {
  router.get('/export.csv', requirePermission(decl.group, decl.operations.list!), async (req, res) => {
    const { db } = ctx(req);
    const lang = langOf(req);
    const filter = parseFilter(parseJson(req.query.filter, 'filter') ?? {}, decl, adapter.idColumn);
    const sortParam = parseJson(req.query.sort, 'sort');
    let sort = decl.defaultSort;
    if (sortParam !== undefined) {
      if (!Array.isArray(sortParam) || sortParam.length !== 2 || !['ASC', 'DESC'].includes(String(sortParam[1]).toUpperCase()))
        throw new ApiError(400, 'invalid_sort', 'sort must be [field, "ASC" | "DESC"]');
      const field = String(sortParam[0]);
      if (field !== adapter.idColumn && field !== 'id' && !decl.sortable.includes(field)) throw new ApiError(400, 'invalid_sort', `Cannot sort by ${field}`);
      sort = { field: field === 'id' ? adapter.idColumn : field, order: String(sortParam[1]).toUpperCase() as 'ASC' | 'DESC' };
    }
    const desc = sort.order === 'DESC';
    const idCol = adapter.idColumn;
    const columns = decl.listColumns;
    // The parts of the export in order: by id alone; or the rows with a sort value and those without, nulls where
    // PostgreSQL sorts them (last ascending, first descending).
    type Part = 'id' | 'values' | 'nulls';
    const parts: Part[] = sort.field === idCol ? ['id'] : desc ? ['nulls', 'values'] : ['values', 'nulls'];
    const batch = (part: Part, lastId?: string): Promise<Row[]> => {
      const q = applyFilters(adapter.query(db, req), filter, decl, idCol);
      if (part === 'values') {
        q.whereNotNull(sort.field);
        if (lastId !== undefined) after(q, adapter.query(db, req).clearSelect().select(sort.field).where(idCol, lastId), sort.field, idCol, lastId, desc);
        q.orderBy(sort.field, desc ? 'desc' : 'asc');
      } else {
        if (part === 'nulls') q.whereNull(sort.field);
        if (lastId !== undefined) q.where(idCol, desc ? '<' : '>', lastId);
      }
      return q.orderBy(idCol, desc ? 'desc' : 'asc').limit(EXPORT_BATCH) as unknown as Promise<Row[]>;
    };

    // The first batch before any byte: a filter value that does not fit its column still answers a clean 400.
    let part = 0;
    let rows: Row[];
    try {
      rows = await batch(parts[0]);
    } catch (err) {
      throw filterValueError(err);
    }
    const header = columns.map((c) => decl.labels?.[lang]?.fields?.[c] ?? c);
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${decl.name}-${new Date().toISOString().slice(0, 10)}.csv"`);
    async function* csv(): AsyncGenerator<string> {
      yield `${CSV_BOM}${csvLine(header)}`;
      for (;;) {
        let chunk = '';
        for (const r of rows) chunk += csvLine(columns.map((c) => cellOf(decl, c, r[c], lang)));
        if (chunk) yield chunk;
        if (rows.length === EXPORT_BATCH) rows = await batch(parts[part], String(rows[rows.length - 1][idCol]));
        else if (++part < parts.length) rows = await batch(parts[part]);
        else return;
      }
    }
    try {
      await pipeline(Readable.from(csv(), { objectMode: false }), res);
    } catch (err) {
      // The client went away, or a batch failed when the status was already sent: the download is cut off, so it
      // cannot pass for complete.
      if ((err as NodeJS.ErrnoException)?.code !== 'ERR_STREAM_PREMATURE_CLOSE') ctx(req).log(`${decl.name} export failed`, err);
    }
  });
}
