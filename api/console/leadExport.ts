import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, Response, Router } from 'express';
import type { Knex } from 'knex';
import { ctx } from '../context.js';
import { notFound } from '../errors.js';
import { requirePermission } from '../middleware/auth.js';
import { scoped, accountOf } from '../models/scope.js';
import { eventGraph, type FormGraph } from '../models/graphs.js';
import { applyFilters, filterValueError, type ListFilter } from '../crud/list.js';
import { elementsOf } from '../services/leads.js';
import { flattenItems, type FormElementSpec } from '../../resources/answers.js';
import { isUuid } from '../../resources/fields.js';
import { events } from '../../resources/events.js';
import { leads } from '../../resources/leads.js';

type Row = Record<string, unknown>;

/**
 * Lead exports as CSV (account-console.md: leads): streamed in batches along (ld_captured_at, ld_id), oldest first —
 * a keyset cursor, so neither the server nor the database holds the result, and each batch is written only when the
 * client has taken the one before (back-pressure). UTF-8 with a BOM (spreadsheet programs then read it as UTF-8),
 * comma-separated, CRLF lines, RFC 4180 quoting.
 *
 * Columns: id, captured at, e-mail, first name, last name, owner e-mail, source, valid, transcription, consent news,
 * badge code, rating, notes, tags (joined by ", ") (the account-wide export adds event), then one per form element by fe_external_name (default fe_name):
 * the event's forms in order, then its registration form, a data name once. A list answer is shown by its items'
 * titles (what the person chose; a value whose item is gone shows as the value); several values, and days, are
 * joined with "; "; yes/no for checkboxes, toggles, valid and consent. A cell that starts with = + - @ tab or CR gets
 * a leading ' so a spreadsheet never runs it as a formula.
 */

/** Rows per query: large enough that the per-query cost is small, small enough to hold in memory many times over. */
export const EXPORT_BATCH = 2000;

const FIXED: [string, (r: Row) => unknown][] = [
  ['id', (r) => r.ld_id],
  ['captured at', (r) => (r.ld_captured_at instanceof Date ? r.ld_captured_at.toISOString() : r.ld_captured_at)],
  ['e-mail', (r) => r.ld_email],
  ['first name', (r) => r.ld_first_name],
  ['last name', (r) => r.ld_last_name],
  ['owner e-mail', (r) => r.owner_email],
  ['source', (r) => r.ld_source],
  ['valid', (r) => yesNo(r.ld_is_valid)],
  ['transcription', (r) => r.ld_transcription_status],
  ['consent news', (r) => yesNo(r.ld_consent_news)],
  ['badge code', (r) => r.ld_badge_code],
  // Qualification (platform-and-flows.md section 4).
  ['rating', (r) => r.ld_rating],
  ['notes', (r) => r.ld_notes],
  ['tags', (r) => (Array.isArray(r.ld_tags) ? r.ld_tags.join(', ') : '')],
];

const yesNo = (v: unknown) => (v === true ? 'yes' : v === false ? 'no' : '');

/** One CSV cell: formula characters neutralised (contract), then quoted when it holds a comma, quote or line break. */
export function csvCell(value: unknown): string {
  let s = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const csvLine = (cells: unknown[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** How one element's answer reads in a cell. */
function answerFormatter(el: FormElementSpec): (v: unknown) => string {
  const titles = new Map(flattenItems(el.items).map((n) => [n.li_value, n.li_title]));
  const title = (v: unknown) => (typeof v === 'string' ? (titles.get(v) ?? v) : v === null || v === undefined ? '' : String(v));
  const plain = (v: unknown): string => {
    if (v === null || v === undefined) return '';
    if (typeof v === 'boolean') return yesNo(v);
    if (Array.isArray(v)) return v.map(plain).join('; ');
    if (typeof v === 'object') return JSON.stringify(v);
    return String(v);
  };
  if (el.fe_listid || titles.size) return (v) => (Array.isArray(v) ? v.map(title).join('; ') : title(v));
  return plain;
}

/** The element columns of these form graphs (a data name once, first form wins). */
function elementColumns(graphs: FormGraph[]): { header: string; name: string; format: (v: unknown) => string }[] {
  return elementsOf(graphs).map((el) => {
    const external = (el as unknown as Row).fe_external_name;
    return { header: typeof external === 'string' && external.trim() ? external : el.fe_name, name: el.fe_name, format: answerFormatter(el) };
  });
}

/** An event's forms in order, then its registration form. */
const graphsOf = (g: { forms: FormGraph[]; registration?: FormGraph }) => (g.registration ? [...g.forms, g.registration] : g.forms);

function safeFilename(name: string): string {
  return (
    name
      .replace(/[^a-z0-9_-]+/gi, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'leads'
  );
}

interface ExportSpec {
  accountId: string;
  filter: ListFilter;
  columns: ReturnType<typeof elementColumns>;
  /** The account-wide export: an event column, by title. */
  eventTitles?: Map<string, string>;
  filename: string;
}

/** Streams the CSV: the first batch is read before anything is sent, so a bad filter still answers a clean 400. */
async function streamCsv(req: Request, res: Response, spec: ExportSpec): Promise<void> {
  const { db } = ctx(req);
  const batch = (after?: { at: string; id: string }): Promise<Row[]> => {
    const q = applyFilters(scoped(db, leads, spec.accountId), spec.filter, leads, 'ld_id')
      .leftJoin('users', 'users.u_id', 'leads.ld_ownerid')
      .select(
        'leads.ld_id',
        'leads.ld_eventid',
        'leads.ld_captured_at',
        'leads.ld_email',
        'leads.ld_first_name',
        'leads.ld_last_name',
        'leads.ld_source',
        'leads.ld_is_valid',
        'leads.ld_transcription_status',
        'leads.ld_consent_news',
        'leads.ld_badge_code',
        'leads.ld_rating',
        'leads.ld_notes',
        'leads.ld_tags',
        'leads.ld_answers',
        'users.u_email as owner_email',
        // The cursor as text: a timestamp read into a JS Date would lose its microseconds and repeat or skip rows.
        db.raw('leads.ld_captured_at::text as cursor_at'),
      )
      .orderBy([
        { column: 'leads.ld_captured_at', order: 'asc' },
        { column: 'leads.ld_id', order: 'asc' },
      ])
      .limit(EXPORT_BATCH);
    if (after) q.whereRaw('(leads.ld_captured_at, leads.ld_id) > (?::timestamptz, ?::uuid)', [after.at, after.id]);
    return q as unknown as Promise<Row[]>;
  };

  let rows: Row[];
  try {
    rows = await batch();
  } catch (err) {
    throw filterValueError(err);
  }
  const header = [...FIXED.map(([h]) => h), ...(spec.eventTitles ? ['event'] : []), ...spec.columns.map((c) => c.header)];
  res.status(200);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${spec.filename}"`);
  res.setHeader('Cache-Control', 'no-store');
  async function* csv(): AsyncGenerator<string> {
    yield `\ufeff${csvLine(header)}`;
    for (;;) {
      let chunk = '';
      for (const r of rows) {
        const answers = (r.ld_answers ?? {}) as Row;
        const cells = FIXED.map(([, get]) => get(r));
        if (spec.eventTitles) cells.push(spec.eventTitles.get(String(r.ld_eventid)) ?? '');
        for (const c of spec.columns) cells.push(c.format(answers[c.name]));
        chunk += csvLine(cells);
      }
      if (chunk) yield chunk;
      if (rows.length < EXPORT_BATCH) return;
      const last = rows[rows.length - 1];
      rows = await batch({ at: String(last.cursor_at), id: String(last.ld_id) });
    }
  }
  try {
    // The next batch is read only when the client has taken the last one (a byte stream: one chunk held at a time).
    await pipeline(Readable.from(csv(), { objectMode: false }), res);
  } catch (err) {
    // The client went away (nothing to do: the generator has stopped reading), or a batch failed halfway through
    // the download, when there is no status left to send: the response is cut off, so it cannot pass for complete.
    if ((err as NodeJS.ErrnoException)?.code !== 'ERR_STREAM_PREMATURE_CLOSE') ctx(req).log('lead export failed', err);
  }
}

const today = () => new Date().toISOString().slice(0, 10);

/** GET /events/{id}/leads/export.csv (account_event_leads read): the event's leads. */
async function eventLeadsCsv(req: Request, res: Response): Promise<void> {
  const id = String(req.params.id);
  const accountId = accountOf(req);
  const graph = isUuid(id) ? await eventGraph(ctx(req).db, accountId, id.toLowerCase()) : undefined;
  if (!graph) throw notFound();
  await streamCsv(req, res, {
    accountId,
    filter: { equals: { ld_eventid: [String(graph.event.ev_id)] }, ranges: [] },
    columns: elementColumns(graphsOf(graph)),
    filename: `leads-${safeFilename(String(graph.event.ev_name))}-${today()}.csv`,
  });
}

/**
 * GET /leads/export.csv?filter=… (account_leads read): every lead the console's filter shows, whatever the page; the
 * same columns plus event, and the elements of every event among them (events by start date, then title).
 */
export async function leadsCsvFromFilter(req: Request, res: Response, filter: ListFilter): Promise<void> {
  const { db } = ctx(req);
  const accountId = accountOf(req);
  let eventRows: Row[];
  try {
    eventRows = await scoped(db, events, accountId)
      .whereExists((sub: Knex.QueryBuilder) => {
        applyFilters(
          sub.select(db.raw('1')).from('leads').where('leads.ld_accountid', accountId).whereNull('leads.ld_deleted_at').whereRaw('leads.ld_eventid = events.ev_id'),
          filter,
          leads,
          'ld_id',
        );
      })
      .orderBy([{ column: 'ev_start_date', order: 'asc', nulls: 'last' }, { column: 'ev_title' }, { column: 'ev_id' }])
      .select('ev_id', 'ev_title');
  } catch (err) {
    throw filterValueError(err);
  }
  const graphs: FormGraph[] = [];
  for (const e of eventRows) {
    const g = await eventGraph(db, accountId, String(e.ev_id));
    if (g) graphs.push(...graphsOf(g));
  }
  await streamCsv(req, res, {
    accountId,
    filter,
    columns: elementColumns(graphs),
    eventTitles: new Map(eventRows.map((e) => [String(e.ev_id), String(e.ev_title)])),
    filename: `leads-${today()}.csv`,
  });
}

/** The event's own lead routes: the export. */
export function eventExportRoute(router: Router): void {
  router.get('/:id/leads/export.csv', requirePermission('account_event_leads', 'read'), eventLeadsCsv);
}
