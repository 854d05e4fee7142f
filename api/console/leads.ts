import type { Knex } from 'knex';
import type { Request, Router } from 'express';
import { ctx } from '../context.js';
import { ApiError } from '../errors.js';
import { requirePermission } from '../middleware/auth.js';
import { scoped, accountOf } from '../models/scope.js';
import { type FormGraph } from '../models/graphs.js';
import { eventGraphIn } from '../services/graphCache.js';
import { parseFilter } from '../crud/list.js';
import { elementsOf, leadFromAnswers, OWN_FIELDS } from '../services/leads.js';
import { leadsCsvFromFilter } from './leadExport.js';
import { deletePhotosOf, LEAD_FILE_COLUMNS, leadFileUrl, removeLeadFileBytes } from './leadFiles.js';
import { consentTextFor } from '../../resources/consent.js';
import { isEmail, isUuid } from '../../resources/fields.js';
import { resourceNamed } from '../../resources/index.js';
import { leadFiles, leads } from '../../resources/leads.js';
import type { Answers, FormElementSpec } from '../../resources/answers.js';
import type { ResourceDeclaration } from '../../resources/types.js';
import { checkReferences } from '../crud/rules.js';
import { invalid } from '../crud/input.js';
import { type ResourceHooks } from '../crud/adapter.js';
import { EveryRowRefused } from '../crud/bulk.js';

type Row = Record<string, unknown>;
type OwnColumn = (typeof OWN_FIELDS)[keyof typeof OWN_FIELDS];
const OWN = Object.entries(OWN_FIELDS) as [keyof typeof OWN_FIELDS, OwnColumn][];

/** How far ahead of the server's clock a device's capture time may be (clocks drift); beyond it the server's time is stored. */
export const CAPTURED_AT_FUTURE_MS = 5 * 60 * 1000;
/** A capture time before this is a device clock reset (a phone after a flat battery shows 1970): the server's time is stored. */
const CAPTURED_AT_EARLIEST_YEAR = 2000;
/** Transcription states in which a card lead may still miss required answers. */
const OPEN_TRANSCRIPTION = ['pending', 'postponed'];

/** References of a lead, with the card photos (lead files are not a registered resource) checked like the rest. */
const registry = (name: string): ResourceDeclaration | undefined => (name === leadFiles.name ? leadFiles : resourceNamed(name));

/**
 * The elements a lead's answers are checked against: a registration's against the event's registration form (what
 * the person filled), every other lead's against the event's forms in order (what booth staff fill).
 */
export function elementsForLead(graph: { forms: FormGraph[]; registration?: FormGraph }, source: unknown): FormElementSpec[] {
  return source === 'registration' && graph.registration ? elementsOf([graph.registration]) : elementsOf(graph.forms);
}

const incomplete = (fields: Record<string, string>) => new ApiError(400, 'lead_incomplete', 'Please complete all mandatory fields', fields);

/**
 * Answers into what to store: checked against the elements (required ones only when `complete`), normalised, and the
 * lead's own fields (email, first_name, last_name) kept in step with them. `ownWins`: an own field sent in `data`
 * replaces its answer (an edit of the name alone); otherwise the answer wins and an own field only fills a missing
 * answer. A name no element has still fills its own field from the answers (a badge scan's e-mail on a form without
 * an e-mail element). Stored answers under names the elements do not have (`keep`) stay as they were.
 */
export function applyAnswers(elements: FormElementSpec[], given: unknown, data: Row, { complete, ownWins, keep = {} }: { complete: boolean; ownWins: boolean; keep?: Row }): void {
  if (given !== undefined && given !== null && (typeof given !== 'object' || Array.isArray(given))) throw incomplete({ ld_answers: 'error_invalid_value' });
  const raw: Row = { ...((given as Row | null | undefined) ?? {}) };
  const names = new Set(elements.map((e) => e.fe_name));
  const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
  for (const [name, column] of OWN) {
    if (!(column in data) || !names.has(name)) continue;
    if (ownWins || blank(raw[name])) {
      if (data[column] === null || data[column] === undefined) {
        if (ownWins) delete raw[name];
      } else raw[name] = data[column];
    }
  }
  const checked = complete ? elements : elements.map((e) => ({ ...e, fe_is_required: false }));
  const result = leadFromAnswers(checked, raw);
  for (const [name, column] of OWN) {
    if (names.has(name)) {
      if (Object.hasOwn(result.answers, name)) data[column] = result[column] ?? null;
      continue;
    }
    const v = raw[name];
    if (typeof v !== 'string' || !v.trim()) continue;
    if (name === 'email') {
      if (!isEmail(v.trim())) throw incomplete({ email: 'error_email_invalid' });
      data[column] = v.trim().toLowerCase();
    } else data[column] = v.trim().slice(0, 100);
  }
  const kept: Answers = {};
  for (const [k, v] of Object.entries(keep)) if (!names.has(k)) kept[k] = v as Answers[string];
  data.ld_answers = { ...kept, ...result.answers };
}

/**
 * A device's capture time: ISO 8601 (anything else 400 error_date_invalid). A time the device's clock got plainly
 * wrong — more than a few minutes ahead of the server, or before 2000 — is replaced by the server's time: the lead
 * itself is good, and an offline queue takes a 400 as final, so refusing it would lose the lead.
 */
function capturedAt(value: unknown): string {
  const v = String(value);
  const at = new Date(v);
  const m = /^(\d{4})-(\d{2})-(\d{2})([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/i.exec(v);
  // A calendar date that exists (JavaScript would read 2026-02-30 as 2 March).
  const day = m && new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  if (!m || !day || day.getUTCMonth() !== +m[2] - 1 || day.getUTCDate() !== +m[3] || Number.isNaN(at.getTime())) throw invalid(leads, { ld_captured_at: 'error_date_invalid' });
  const now = Date.now();
  if (at.getTime() > now + CAPTURED_AT_FUTURE_MS || at.getUTCFullYear() < CAPTURED_AT_EARLIEST_YEAR) return new Date(now).toISOString();
  return at.toISOString();
}

/**
 * A lead's files are of their kind: the card photos images, the voice memo audio (both are lead files, uploaded the
 * same way), else 400 error_file_kind_invalid on the field.
 */
async function assertFileKinds(trx: Knex.Transaction, accountId: string, data: Row): Promise<void> {
  const wanted: [string, string][] = [
    ['ld_front_fileid', 'image/'],
    ['ld_back_fileid', 'image/'],
    ['ld_memo_fileid', 'audio/'],
  ];
  const named = wanted.filter(([c]) => typeof data[c] === 'string');
  if (!named.length) return;
  const rows: Row[] = await scoped(trx, leadFiles, accountId)
    .whereIn(
      'lf_id',
      named.map(([c]) => data[c] as string),
    )
    .select('lf_id', 'lf_type');
  const types = new Map(rows.map((r) => [String(r.lf_id), String(r.lf_type)]));
  const fields: Record<string, string> = {};
  for (const [c, prefix] of named) if (!types.get(data[c] as string)?.startsWith(prefix)) fields[c] = 'error_file_kind_invalid';
  if (Object.keys(fields).length) throw invalid(leads, fields);
}

/** A pending or postponed transcription needs a card photo to transcribe. */
function assertTranscribable(status: unknown, front: unknown): void {
  if (OPEN_TRANSCRIPTION.includes(String(status)) && !front) throw invalid(leads, { ld_transcription_status: 'error_transcription_needs_card' });
}

const REGISTRATION_UNIQUE = 'leads_registration_email_unique';
/** The one registration per event and e-mail, as 409 with the field. */
function registrationConflict(err: unknown): unknown {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code === '23505' && (e.constraint === REGISTRATION_UNIQUE || e.message?.includes(REGISTRATION_UNIQUE)))
    return new ApiError(409, 'lead_already_registered', 'This e-mail address is already registered for the event', { ld_email: 'error_lead_already_registered' });
  return err;
}

/** A photo's URL, or null without one. */
const fileUrl = (row: Record<string, unknown>, file: unknown) => (file ? leadFileUrl(String(row.ld_accountid), String(file)) : null);

/** The page's language for the built-in consent text. */
const localeOf = (req: Request): string => req.acceptsLanguages('en', 'nl') || 'en';

/** The event's graph for a write in `trx`: the process's kept one (api/services/graphCache.ts) or read in the transaction. */
async function graphOf(trx: Knex.Transaction, req: Request, accountId: string, eventId: string) {
  const graph = await eventGraphIn(ctx(req).db, trx, accountId, eventId);
  if (!graph) throw invalid(leads, { ld_eventid: 'error_reference_invalid' });
  return graph;
}

/**
 * leads (account-console.md section 3): create and update keep the answers and the lead's own fields checked and in
 * step (400 lead_incomplete with the fields); the owner defaults to the caller and must be a member when given; a
 * card lead with a front photo may wait for its transcription with incomplete answers; ld_client_id makes a create
 * idempotent per account (a retry, or a race of two, answers the first lead with 200).
 */
export const leadsHooks: ResourceHooks = {
  // The photo URLs added to the row itself: the adapter copies what it answers out of it anyway (a list page made two
  // copies of every row), and a row is read for its answer alone. Added by name: properties added under a computed
  // key (row[url]) turned every lead into a dictionary-mode object, which JSON.stringify writes out half again as slowly
  // (test/unit/fastRows.test.ts).
  serialize(row) {
    row.ld_front_url = fileUrl(row, row.ld_front_fileid);
    row.ld_back_url = fileUrl(row, row.ld_back_fileid);
    row.ld_memo_url = fileUrl(row, row.ld_memo_fileid);
    return row;
  },

  // The purge (a delete moves the lead to the trash): the lead takes its card photos with it (record now, bytes once
  // committed).
  async remove(trx, id, req) {
    const [gone] = await scoped(trx, leads, accountOf(req), 'all')
      .where('ld_id', id)
      .del()
      .returning([...LEAD_FILE_COLUMNS]);
    const photos = gone
      ? await deletePhotosOf(
          trx,
          LEAD_FILE_COLUMNS.map((c) => gone[c] as string | null),
        )
      : [];
    return { afterCommit: () => removeLeadFileBytes(ctx(req), photos) };
  },

  async create(trx, data, req) {
    const accountId = accountOf(req);
    const firstOf = async () =>
      data.ld_client_id
        ? // A retry of a lead since moved to the trash names it too (and answers 404, as the lead is not to be seen).
          await scoped(trx, leads, accountId, 'all')
            .where('ld_client_id', data.ld_client_id as string)
            .first('ld_id')
        : undefined;
    // A device's retry answers the first lead, whatever this body says.
    const first = await firstOf();
    if (first) return { id: first.ld_id as string, existing: true };

    await checkReferences(trx, leads, data, accountId, registry);
    await assertFileKinds(trx, accountId, data);
    const graph = await graphOf(trx, req, accountId, String(data.ld_eventid));
    const given = (req.body as Row | undefined)?.ld_transcription_status;
    const card = data.ld_source === 'card' && Boolean(data.ld_front_fileid);
    if (given === undefined || given === null || given === '') data.ld_transcription_status = card ? 'pending' : 'none';
    assertTranscribable(data.ld_transcription_status, data.ld_front_fileid);
    if (data.ld_captured_at !== null && data.ld_captured_at !== undefined) data.ld_captured_at = capturedAt(data.ld_captured_at);
    else delete data.ld_captured_at; // the database's now()
    if (typeof data.ld_email === 'string') data.ld_email = data.ld_email.toLowerCase();
    applyAnswers(elementsForLead(graph, data.ld_source), data.ld_answers, data, {
      complete: !OPEN_TRANSCRIPTION.includes(String(data.ld_transcription_status)),
      ownWins: false,
    });
    if (data.ld_consent_news === true && !data.ld_consent_text) data.ld_consent_text = consentTextFor(graph.event, localeOf(req));

    const row = { ...data, ld_accountid: accountId, ld_ownerid: data.ld_ownerid ?? req.user!.u_id, ld_captured_by: req.user!.u_id };
    let inserted: Row[];
    try {
      const insert = trx('leads').insert(row);
      // Two creates with the same ld_client_id at once: the second waits for the first and inserts nothing.
      if (data.ld_client_id) insert.onConflict(trx.raw('(ld_accountid, ld_client_id) where ld_client_id is not null')).ignore();
      inserted = await insert.returning(['ld_id']);
    } catch (err) {
      throw registrationConflict(err);
    }
    if (inserted.length) return inserted[0].ld_id as string;
    const winner = await firstOf();
    return { id: winner!.ld_id as string, existing: true };
  },

  async update(trx, id, data, req, existing) {
    const accountId = accountOf(req);
    await checkReferences(trx, leads, data, accountId, registry);
    await assertFileKinds(trx, accountId, data);
    const status = data.ld_transcription_status ?? existing.ld_transcription_status;
    const front = 'ld_front_fileid' in data ? data.ld_front_fileid : existing.ld_front_fileid;
    if (data.ld_transcription_status !== undefined || 'ld_front_fileid' in data) assertTranscribable(status, front);
    if (typeof data.ld_email === 'string') data.ld_email = data.ld_email.toLowerCase();

    const answersSent = 'ld_answers' in data;
    const ownSent = OWN.some(([, column]) => column in data);
    const statusChanged = data.ld_transcription_status !== undefined && data.ld_transcription_status !== existing.ld_transcription_status;
    const open = OPEN_TRANSCRIPTION.includes(String(status));
    if (answersSent || ownSent || (statusChanged && !open)) {
      const graph = await graphOf(trx, req, accountId, String(existing.ld_eventid));
      const elements = elementsForLead(graph, existing.ld_source);
      const names = new Set(elements.map((e) => e.fe_name));
      // Only own fields without an element, and no other change to the answers: nothing to check.
      const touchesAnswers = answersSent || (statusChanged && !open) || OWN.some(([name, column]) => column in data && names.has(name));
      if (touchesAnswers) {
        const stored = (existing.ld_answers ?? {}) as Row;
        applyAnswers(elements, answersSent ? data.ld_answers : stored, data, { complete: !open, ownWins: !answersSent, keep: stored });
      }
    }
    if (!Object.keys(data).length) return;
    await scoped(trx, leads, accountId)
      .where('ld_id', id)
      .update({ ...data, ld_updated_at: trx.fn.now() })
      .catch((err: unknown) => {
        throw registrationConflict(err);
      });
  },
};

/** Rows a bulk statement names at once (a list of ids as bind parameters: PostgreSQL takes at most 65,535). */
const BULK_CHUNK = 5_000;
/** Fields whose change the update checks the same way for every lead (no answers, transcription or photo rules). */
const ROW_FREE = new Set(['ld_is_valid', 'ld_ownerid', 'ld_consent_news', 'ld_rating', 'ld_tags', 'ld_notes']);
const rowFree = (data: Row) => Object.keys(data).every((k) => ROW_FREE.has(k));
/** The check of a row-free change, once for every lead (an owner who is not a member refuses them all). */
async function checkRowFree(trx: Knex.Transaction, data: Row, req: Request): Promise<void> {
  try {
    await checkReferences(trx, leads, data, accountOf(req), registry);
  } catch (err) {
    throw err instanceof ApiError ? new EveryRowRefused(err) : err;
  }
}
/** The row-free change written to the leads `ids` names (a list, or a subquery of ids): the number changed. */
const setRowFree = (trx: Knex.Transaction, req: Request, ids: string[] | Knex.QueryBuilder, data: Row): Promise<number> =>
  scoped(trx, leads, accountOf(req))
    .whereIn('ld_id', ids)
    .update({ ...data, ld_updated_at: trx.fn.now() });
const chunksOf = <T>(xs: T[]): T[][] => Array.from({ length: Math.ceil(xs.length / BULK_CHUNK) }, (_, i) => xs.slice(i * BULK_CHUNK, (i + 1) * BULK_CHUNK));

/**
 * The leads' bulk (the generic POST /leads/bulk) as a set: a change of fields the update checks the same way for every
 * lead (the owner must be a member: once, and when it fails every lead is refused for it) is one statement per
 * 5,000 leads; any other change goes lead by lead through update. A delete takes the leads' card photos like remove.
 */
export const leadsBulkHooks: Pick<ResourceHooks, 'updateMany' | 'updateMatching' | 'removeMany'> = {
  async updateMany(trx, rows, data, req) {
    if (!rowFree(data)) {
      for (const row of rows) await leadsHooks.update!(trx, String(row.ld_id), { ...data }, req, row);
      return;
    }
    await checkRowFree(trx, data, req);
    for (const ids of chunksOf(rows.map((r) => String(r.ld_id)))) await setRowFree(trx, req, ids, data);
  },

  // By filter: one UPDATE of the leads the list's query selects (100,000 leads: the statement alone, without reading
  // them into the server and writing them back in 20 statements of 5,000 ids).
  async updateMatching(trx, matching, data, req) {
    if (!rowFree(data)) return undefined;
    await checkRowFree(trx, data, req);
    return setRowFree(trx, req, matching, data);
  },

  async removeMany(trx, rows, req) {
    const photos: { lf_id: string; lf_path: string }[] = [];
    for (const ids of chunksOf(rows.map((r) => String(r.ld_id)))) {
      const gone: Row[] = await scoped(trx, leads, accountOf(req))
        .whereIn('ld_id', ids)
        .del()
        .returning([...LEAD_FILE_COLUMNS]);
      photos.push(
        ...(await deletePhotosOf(
          trx,
          gone.flatMap((g) => LEAD_FILE_COLUMNS.map((c) => g[c] as string | null)),
        )),
      );
    }
    return { afterCommit: () => removeLeadFileBytes(ctx(req), photos) };
  },
};

/** The filter of the export: the list's filter object, as JSON in the query. */
function filterFrom(raw: unknown) {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new ApiError(400, 'invalid_query', 'The filter parameter must be JSON');
    }
  } else if (raw !== undefined) throw new ApiError(400, 'invalid_query', 'The filter parameter must be JSON');
  return parseFilter(value ?? {}, leads, 'ld_id');
}

/** The most people one GET /leads/owners names. */
export const OWNERS_MAX = 100;

/**
 * The people behind owner ids of the account's leads, by name and e-mail: an owner need not be a member (a root user
 * who captured a lead, a member who left), so the members list does not know them all. Only users who own a lead of
 * this account are answered, so no other user can be looked up through it.
 */
async function leadOwners(req: Request): Promise<Row[]> {
  const raw = req.query.ids;
  const ids = typeof raw === 'string' && raw ? [...new Set(raw.split(','))] : [];
  if (!ids.length || ids.length > OWNERS_MAX || !ids.every(isUuid))
    throw new ApiError(400, 'invalid_query', `ids: 1 to ${OWNERS_MAX} user ids, separated by commas`, { ids: 'error_invalid_value' });
  const db = ctx(req).db;
  return db('users')
    .whereIn('u_id', ids)
    .whereExists(scoped(db, leads, accountOf(req)).whereRaw('leads.ld_ownerid = users.u_id').select(db.raw('1')))
    .orderBy('u_id')
    .select('u_id as id', 'u_email', 'u_first_name', 'u_last_name');
}

/**
 * The leads' own routes: GET /leads/owners?ids=… (account_leads read): the people who own the account's leads (see
 * leadOwners). GET /leads/export.csv?filter=… (account_leads read): every lead the console's filter shows, as
 * CSV with a column per form element (leadExport.ts). Bulk is the generic POST /leads/bulk (api/crud/bulk.ts): each
 * lead through leadsHooks' update or remove, so an owner is checked like a single update and card photos go with a
 * deleted lead.
 */
export function leadsRoutes(router: Router): void {
  router.get('/owners', requirePermission(leads.group, 'read'), async (req, res) => {
    res.json(await leadOwners(req));
  });
  router.get('/export.csv', requirePermission(leads.group, 'read'), async (req, res) => {
    await leadsCsvFromFilter(req, res, filterFrom(req.query.filter));
  });
}
