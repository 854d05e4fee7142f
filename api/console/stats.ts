import { Router, type Request, type Response } from 'express';
import type { Knex } from 'knex';
import pLimit from 'p-limit';
import { ctx } from '../context.js';
import { poolOf } from '../db/knex.js';
import { perHandle } from '../db/perDatabase.js';
import { ApiError } from '../errors.js';
import { requirePermission, requireUser, resolveAccount } from '../middleware/auth.js';
import { CSV_BOM, csvLine } from '../services/csv.js';
import { scoped, accountOf, trashParentsOf } from '../models/scope.js';
import { leads, LEAD_SOURCES, TRANSCRIPTION_STATUSES } from '../../resources/leads.js';
import { meetings, MEETING_STATUSES } from '../../resources/meetings.js';
import {
  addDays,
  LEAD_STAT_GROUPS,
  MEETING_STAT_GROUPS,
  type MeetingStatGroup,
  parseStatsQuery,
  PLAY_STAT_GROUPS,
  STAT_MEASURES,
  type LeadStatGroup,
  type PlayStatGroup,
  type StatKind,
  type StatRow,
  type StatsAnswer,
  type StatsQuery,
} from '../../resources/statistics.js';

type Db = Knex | Knex.Transaction;
interface Range {
  accountId: string;
  from: string;
  to: string;
}

/** A dimension of lead_counts: each lead is counted once in each, by day and by month (migrations 20261128001800, 20261128002100). */
type CountDimension = 'owner' | 'source' | 'status' | 'valid';

/**
 * The days of a range that whole months cover, and the days at either end outside them: [from, to] is `head` (days
 * before the first whole month), `months` (first days of the whole months) and `tail` (days after the last one), each
 * a pair of ISO dates or null when empty. Dates are UTC calendar days ('YYYY-MM-DD').
 */
function monthsOf(from: string, to: string): { head: [string, string] | null; months: [string, string] | null; tail: [string, string] | null } {
  const monthAfter = (day: string) => addDays(`${day.slice(0, 8)}01`, 32).slice(0, 8) + '01';
  const firstWhole = from.endsWith('-01') ? from : monthAfter(from);
  // The first day after the last whole month: the day after `to` when that starts a month, else the first of `to`'s.
  const next = addDays(to, 1);
  const afterWhole = next.endsWith('-01') ? next : `${to.slice(0, 8)}01`;
  if (firstWhole >= afterWhole) return { head: [from, to], months: null, tail: null };
  return {
    head: firstWhole > from ? [from, addDays(firstWhole, -1)] : null,
    months: [firstWhole, `${addDays(afterWhole, -1).slice(0, 8)}01`],
    tail: afterWhole <= to ? [afterWhole, to] : null,
  };
}

/**
 * The account's lead counts of one dimension over a range of UTC days, of the events the leads' trash check lets
 * through (a lead is hidden with its event in the trash; leads in the trash themselves are not counted at all). The
 * counts are kept by triggers on `leads` as leads are written (lead_counts, migration 20261128001800), so a year of a
 * million leads is a few rows per event and day, read by the key (account, dimension, day, …), never the leads.
 * `byMonth` reads the whole months of the range from the monthly rows (`<dim>.month`, migration 20261128002100) and
 * only the days at its ends from the daily ones: a year is twelve rows per event and value instead of 365. Without
 * it (by day, by week) every row is a day's and `lc_day` is the day.
 */
function countsIn(db: Db, r: Range, dim: CountDimension, byMonth: boolean): Knex.QueryBuilder {
  const [trashParent, ...more] = trashParentsOf(leads);
  // The counts know the event only: a second trash parent of leads would have to be kept in lead_counts too.
  if (!trashParent || trashParent.field !== 'ld_eventid' || more.length) throw new Error('lead_counts knows the event as the only trash parent of a lead');
  const parent = trashParent.parent;
  const parts = byMonth ? monthsOf(r.from, r.to) : { head: [r.from, r.to] as [string, string], months: null, tail: null };
  const ranges = [parts.head && { dim, days: parts.head }, parts.months && { dim: `${dim}.month`, days: parts.months }, parts.tail && { dim, days: parts.tail }].filter(
    (p): p is { dim: string; days: [string, string] } => !!p,
  );
  return db('lead_counts')
    .where('lead_counts.lc_accountid', r.accountId)
    .where((q) => {
      for (const p of ranges) q.orWhere((one) => one.where('lead_counts.lc_dim', p.dim).whereBetween('lead_counts.lc_day', p.days));
    })
    .whereExists(scoped(db, parent, r.accountId).select(db.raw('1')).whereRaw('??.?? = lead_counts.lc_eventid', [parent.table, parent.primaryKey]));
}

/**
 * Leads per day (or per week, starting on Monday) in UTC, every day of the range answered, zeros included: the sums
 * of the validity's counts (each lead is in one of its two rows) per bucket (a week that starts before `from` counts
 * from `from`), joined to the buckets generate_series gives.
 */
async function leadsByDate(db: Db, r: Range, unit: 'day' | 'week'): Promise<StatRow[]> {
  const counts = countsIn(db, r, 'valid', false)
    .select(db.raw(`date_trunc('${unit}', lead_counts.lc_day::timestamp) as bucket`))
    .sum({ n: 'lead_counts.lc_n' })
    .groupBy('bucket');
  const rows: { key: string; n: number | string | null }[] = await db
    .select(db.raw(`to_char(series.bucket, 'YYYY-MM-DD') as key`), 'counts.n')
    .from(db.raw(`generate_series(date_trunc('${unit}', ?::timestamp), ?::timestamp, interval '1 ${unit}') as series(bucket)`, [r.from, r.to]))
    .leftJoin(counts.as('counts'), 'counts.bucket', 'series.bucket')
    .orderBy('series.bucket');
  return rows.map((row) => ({ key: row.key, label: row.key, count: Number(row.n ?? 0) }));
}

/** Counts per value of a dimension, every value of an enumeration answered in its declared order (zeros included). */
async function leadsByValue(db: Db, r: Range, dim: CountDimension, values: readonly string[]): Promise<StatRow[]> {
  const rows: { key: string; n: number | string }[] = await countsIn(db, r, dim, true)
    .select('lead_counts.lc_value as key')
    .sum({ n: 'lead_counts.lc_n' })
    .groupBy('lead_counts.lc_value');
  const byKey = new Map(rows.map((row) => [row.key, Number(row.n)]));
  return values.map((v) => ({ key: v, label: v, count: byKey.get(v) ?? 0 }));
}

/** Leads per event of the account (those with leads in the range), the most first; label = the event's title. */
async function leadsByEvent(db: Db, r: Range): Promise<StatRow[]> {
  const counts = countsIn(db, r, 'valid', true)
    .select('lead_counts.lc_eventid')
    .sum({ n: 'lead_counts.lc_n' })
    .groupBy('lead_counts.lc_eventid')
    .havingRaw('sum(lead_counts.lc_n) > 0');
  const rows: { key: string; label: string | null; n: number | string }[] = await db
    .from(counts.as('counts'))
    .join('events', 'events.ev_id', 'counts.lc_eventid')
    .select('counts.lc_eventid as key', 'events.ev_title as label', 'counts.n')
    .orderBy([{ column: 'counts.n', order: 'desc' }, { column: 'events.ev_title' }, { column: 'counts.lc_eventid' }]);
  return rows.map((row) => ({ key: row.key, label: row.label, count: Number(row.n) }));
}

/**
 * Leads per owner (those with leads in the range), the most first; label = the owner's names, else the e-mail;
 * leads without an owner (the member left; counted under '') are one row with key and label null.
 */
async function leadsByOwner(db: Db, r: Range): Promise<StatRow[]> {
  const counts = countsIn(db, r, 'owner', true)
    .select(db.raw(`nullif(lead_counts.lc_value, '')::uuid as owner`))
    .sum({ n: 'lead_counts.lc_n' })
    .groupBy('lead_counts.lc_value')
    .havingRaw('sum(lead_counts.lc_n) > 0');
  const rows: { key: string | null; label: string | null; n: number | string }[] = await db
    .from(counts.as('counts'))
    .leftJoin('users', 'users.u_id', 'counts.owner')
    .select('counts.owner as key', db.raw(`coalesce(nullif(trim(concat_ws(' ', users.u_first_name, users.u_last_name)), ''), users.u_email) as label`), 'counts.n')
    .orderBy([{ column: 'counts.n', order: 'desc' }, { column: 'label' }, { column: 'counts.owner' }]);
  return rows.map((row) => ({ key: row.key, label: row.label, count: Number(row.n) }));
}

/** The rows of the leads statistics for one grouping. */
export async function leadStats(db: Db, r: Range, group: LeadStatGroup): Promise<StatRow[]> {
  switch (group) {
    case 'day':
    case 'week':
      return leadsByDate(db, r, group);
    case 'event':
      return leadsByEvent(db, r);
    case 'owner':
      return leadsByOwner(db, r);
    case 'source':
      return leadsByValue(db, r, 'source', LEAD_SOURCES);
    case 'status':
      return leadsByValue(db, r, 'status', TRANSCRIPTION_STATUSES);
    case 'valid': {
      const rows = await leadsByValue(db, r, 'valid', ['true', 'false']);
      return rows.map((row) => ({ ...row, key: row.key === 'true' ? 'valid' : 'invalid', label: row.key === 'true' ? 'valid' : 'invalid' }));
    }
  }
}

/** The account's player events in a range of UTC days (index play_events_account_at). */
function playedIn(db: Db, r: Range): Knex.QueryBuilder {
  return db('play_events')
    .where('play_events.pe_accountid', r.accountId)
    .where('play_events.pe_at', '>=', db.raw(`(?::date)::timestamp at time zone 'UTC'`, [r.from]))
    .where('play_events.pe_at', '<', db.raw(`(?::date + 1)::timestamp at time zone 'UTC'`, [r.to]));
}

const PLAY_MEASURES = [
  `count(*) filter (where pe_kind = 'play')::integer as plays`,
  `count(*) filter (where pe_kind = 'hotspot')::integer as hotspot_taps`,
  `count(*) filter (where pe_kind = 'qr')::integer as qr_shows`,
].join(', ');

type PlayRow = { key: string | null; label: string | null; plays: number; hotspot_taps: number; qr_shows: number };
const playRow = (row: PlayRow): StatRow => ({ key: row.key, label: row.label, plays: Number(row.plays), hotspot_taps: Number(row.hotspot_taps), qr_shows: Number(row.qr_shows) });

/**
 * The rows of the plays statistics (plays, hotspot taps and QR shows the players report through POST
 * /play/{code}/events) for one grouping: by day or week (every bucket of the range, zeros included), or by carousel,
 * slide or code (those with events in the range, the most plays first; label = the title, or null once it is deleted).
 */
export async function playStats(db: Db, r: Range, group: PlayStatGroup): Promise<StatRow[]> {
  if (group === 'day' || group === 'week') {
    const counts = playedIn(db, r)
      .select(db.raw(`date_trunc('${group}', pe_at at time zone 'UTC') as bucket`), db.raw(PLAY_MEASURES))
      .groupBy('bucket');
    const rows: PlayRow[] = await db
      .select(db.raw(`to_char(series.bucket, 'YYYY-MM-DD') as key`), db.raw(`to_char(series.bucket, 'YYYY-MM-DD') as label`))
      .select(db.raw('coalesce(counts.plays, 0) as plays, coalesce(counts.hotspot_taps, 0) as hotspot_taps, coalesce(counts.qr_shows, 0) as qr_shows'))
      .from(db.raw(`generate_series(date_trunc('${group}', ?::timestamp), ?::timestamp, interval '1 ${group}') as series(bucket)`, [r.from, r.to]))
      .leftJoin(counts.as('counts'), 'counts.bucket', 'series.bucket')
      .orderBy('series.bucket');
    return rows.map(playRow);
  }
  // The title now, else (the record deleted or purged) the latest title the events kept when they were played.
  const by = {
    carousel: ['pe_carouselid', 'carousels', 'c_id', 'c_title', 'pe_carousel_title'],
    slide: ['pe_slideid', 'slides', 'sl_id', 'sl_title', 'pe_slide_title'],
    code: ['pe_codeid', 'carousel_codes', 'cc_id', "coalesce(nullif(cc_title, ''), cc_code)", 'pe_code_title'],
  }[group];
  const [column, table, key, label, kept] = by;
  const counts = playedIn(db, r)
    .select(`${column} as key`, db.raw(PLAY_MEASURES), db.raw(`(array_agg(${kept} order by pe_at desc) filter (where ${kept} is not null))[1] as kept_title`))
    .groupBy(column);
  const rows: PlayRow[] = await db
    .from(counts.as('counts'))
    .leftJoin(table, `${table}.${key}`, 'counts.key')
    .select('counts.key', 'counts.plays', 'counts.hotspot_taps', 'counts.qr_shows', db.raw(`coalesce(${label}, counts.kept_title) as label`))
    .orderBy([{ column: 'counts.plays', order: 'desc' }, { column: 'label' }, { column: 'counts.key' }]);
  return rows.map(playRow);
}

/**
 * The account's meetings whose slot starts in the range (UTC days), by the slot's day (every day, zeros included), by
 * status (every status in its order) or by host (those with meetings, the most first; label the names, else the
 * e-mail; meetings without a host one row with key and label null).
 */
export async function meetingStats(db: Db, r: Range, group: MeetingStatGroup): Promise<StatRow[]> {
  const inRange = scoped(db, meetings, r.accountId)
    .join('meeting_slots', 'meeting_slots.ms_id', 'meetings.mg_slotid')
    .where('meeting_slots.ms_start', '>=', db.raw(`(?::date)::timestamp at time zone 'UTC'`, [r.from]))
    .where('meeting_slots.ms_start', '<', db.raw(`(?::date + 1)::timestamp at time zone 'UTC'`, [r.to]));
  if (group === 'day') {
    const counts = inRange.select(db.raw(`date_trunc('day', meeting_slots.ms_start at time zone 'UTC') as bucket`)).count({ n: '*' }).groupBy('bucket');
    const rows: { key: string; n: number | string | null }[] = await db
      .select(db.raw(`to_char(series.bucket, 'YYYY-MM-DD') as key`), 'counts.n')
      .from(db.raw(`generate_series(?::timestamp, ?::timestamp, interval '1 day') as series(bucket)`, [r.from, r.to]))
      .leftJoin(counts.as('counts'), 'counts.bucket', 'series.bucket')
      .orderBy('series.bucket');
    return rows.map((row) => ({ key: row.key, label: row.key, count: Number(row.n ?? 0) }));
  }
  if (group === 'status') {
    const rows: { key: string; n: number | string }[] = await inRange.select('meetings.mg_status as key').count({ n: '*' }).groupBy('meetings.mg_status');
    const byKey = new Map(rows.map((row) => [row.key, Number(row.n)]));
    return MEETING_STATUSES.map((v) => ({ key: v, label: v, count: byKey.get(v) ?? 0 }));
  }
  const counts = inRange.select('meetings.mg_hostid').count({ n: '*' }).groupBy('meetings.mg_hostid');
  const rows: { key: string | null; label: string | null; n: number | string }[] = await db
    .from(counts.as('counts'))
    .leftJoin('users', 'users.u_id', 'counts.mg_hostid')
    .select('counts.mg_hostid as key', db.raw(`coalesce(nullif(trim(concat_ws(' ', users.u_first_name, users.u_last_name)), ''), users.u_email) as label`), 'counts.n')
    .orderBy([{ column: 'counts.n', order: 'desc' }, { column: 'label' }, { column: 'counts.mg_hostid' }]);
  return rows.map((row) => ({ key: row.key, label: row.label, count: Number(row.n) }));
}

const totalsOf = (kind: StatKind, rows: StatRow[]) => Object.fromEntries(STAT_MEASURES[kind].map((m) => [m, rows.reduce((sum, row) => sum + (Number(row[m]) || 0), 0)]));

/** The same rows as CSV: a header, then one line per row; UTF-8 with a BOM, cells neutralised like every export. */
function sendCsv(res: Response, answer: StatsAnswer): void {
  const columns = ['key', 'label', ...answer.measures];
  const parts = [CSV_BOM, csvLine(columns), ...answer.rows.map((row) => csvLine(columns.map((c) => row[c])))];
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${answer.kind}-by-${answer.group}-${answer.from}-${answer.to}.csv"`);
  res.send(parts.join(''));
}

/**
 * How a process computes statistics, per database handle:
 *
 * - the same question asked while it is computed (an account's organisers opening the statistics page at the start of
 *   a day) waits for that computation instead of running its own, as if it had come a moment earlier; nothing is kept
 *   once answered;
 * - at most a third of the handle's pool computes statistics at once (3 of DATABASE_POOL_MAX's default 10; PGlite's
 *   one connection: one), the other questions waiting their turn in order. A statistic reads many rows (tens of ms of
 *   the database, seconds on a cold cache) while a lead, a registration or a list page holds a connection for a few
 *   ms: the one event-day start that answered 503s (bench/README.md) had seven statistics holding seven of the ten
 *   connections for 4–5 s when the others' 5 s acquire timeout ran out. Distinct questions (other ranges, other
 *   groupings) are what the sharing cannot join.
 */
const runOf = perHandle((db) => ({ computing: new Map<string, Promise<StatRow[]>>(), gate: pLimit(statisticsAtOnce(poolOf(db)?.max ?? 1)) }));

export function statisticsAtOnce(poolMax: number): number {
  return Math.max(1, Math.floor(poolMax / 3));
}

function computeOnce(db: Knex, key: string, compute: () => Promise<StatRow[]>): Promise<StatRow[]> {
  const { computing, gate } = runOf(db);
  const found = computing.get(key);
  if (found) return found;
  const promise = gate(compute).finally(() => computing.delete(key));
  computing.set(key, promise);
  return promise;
}

function statsHandler(kind: StatKind, groups: readonly string[], rowsOf: (db: Db, r: Range, group: string) => Promise<StatRow[]>) {
  return async (req: Request, res: Response) => {
    const parsed = parseStatsQuery(req.query as Record<string, unknown>, groups);
    if (!parsed.ok) throw new ApiError(400, 'stats_query_invalid', 'Please check the date range and the grouping', parsed.fields);
    const { from, to, group, format }: StatsQuery = parsed.query;
    const { db } = ctx(req);
    const accountId = accountOf(req);
    const rows = await computeOnce(db, JSON.stringify([kind, accountId, from, to, group]), () => rowsOf(db, { accountId, from, to }, group));
    const answer: StatsAnswer = { kind, from, to, group, measures: [...STAT_MEASURES[kind]], rows, totals: totalsOf(kind, rows) };
    if (format === 'csv') sendCsv(res, answer);
    else res.json(answer);
  };
}

/**
 * /accounts/{a}/stats (account-console.md: statistics, account_statistics read): `leads?from&to&group=` day | week |
 * event | source | owner | status | valid and `plays?from&to&group=` day | week | carousel | slide | code, as JSON or,
 * with `&format=csv`, the same rows as a download. Bad parameters answer 400 stats_query_invalid with the fields.
 */
export function statsRouter(): Router {
  const router = Router({ mergeParams: true });
  router.use(requireUser, resolveAccount(), requirePermission('account_statistics', 'read'));
  router.get(
    '/leads',
    statsHandler('leads', LEAD_STAT_GROUPS, (db, r, g) => leadStats(db, r, g as LeadStatGroup)),
  );
  router.get(
    '/plays',
    statsHandler('plays', PLAY_STAT_GROUPS, (db, r, g) => playStats(db, r, g as PlayStatGroup)),
  );
  router.get(
    '/meetings',
    statsHandler('meetings', MEETING_STAT_GROUPS, (db, r, g) => meetingStats(db, r, g as MeetingStatGroup)),
  );
  return router;
}
