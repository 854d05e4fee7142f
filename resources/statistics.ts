import { isDate } from './define.js';

/**
 * The account's statistics (account-console.md: statistics, group account_statistics): counts of leads and of plays
 * over a date range, grouped. Shared by the API (parameters, row shapes) and the console's statistics page.
 *
 * - Dates are `YYYY-MM-DD`, both ends included, as days in UTC (accounts have no time zone of their own).
 * - Without `from`/`to` the range is the last 30 days up to today. With only `to`, `from` is 29 days before it; with
 *   only `from`, `to` is today (or 29 days after `from` when that is in the future). At most STATS_MAX_DAYS days.
 * - `day` and `week` answer every day (week: every week, starting on Monday) of the range, zeros included; the
 *   enumerations (source, status, valid) answer each of their values; event, owner, carousel, slide and code only
 *   what was counted, the largest first.
 */
export const LEAD_STAT_GROUPS = ['day', 'week', 'event', 'source', 'owner', 'status', 'valid'] as const;
export const PLAY_STAT_GROUPS = ['day', 'week', 'carousel', 'slide', 'code'] as const;
/** Meetings by the day their slot starts (UTC), by status (every status), by host (platform-and-flows.md 5). */
export const MEETING_STAT_GROUPS = ['day', 'status', 'host'] as const;
export type MeetingStatGroup = (typeof MEETING_STAT_GROUPS)[number];
export type LeadStatGroup = (typeof LEAD_STAT_GROUPS)[number];
export type PlayStatGroup = (typeof PLAY_STAT_GROUPS)[number];
export type StatKind = 'leads' | 'plays' | 'meetings';

/** The counted columns of each kind's rows, in the order of the CSV. */
export const STAT_MEASURES = { leads: ['count'], plays: ['plays', 'hotspot_taps', 'qr_shows'], meetings: ['count'] } as const satisfies Record<StatKind, readonly string[]>;

/** Longest range one request may ask for (ten years of days). */
export const STATS_MAX_DAYS = 3660;
/** The default range: this many days up to today. */
export const STATS_DEFAULT_DAYS = 30;

export const STAT_FORMATS = ['json', 'csv'] as const;
export type StatFormat = (typeof STAT_FORMATS)[number];

/** One row: what it is (key; null for "no owner"), how it reads (label), and its counts. */
export interface StatRow {
  key: string | null;
  label: string | null;
  [measure: string]: string | number | null;
}

/** GET /accounts/{a}/stats/<kind>: the range and group actually used, the measures, the rows and their totals. */
export interface StatsAnswer {
  kind: StatKind;
  from: string;
  to: string;
  group: string;
  measures: string[];
  rows: StatRow[];
  totals: Record<string, number>;
}

export interface StatsQuery {
  from: string;
  to: string;
  group: string;
  format: StatFormat;
}

const DAY_MS = 86_400_000;
export const utcDay = (d: Date) => d.toISOString().slice(0, 10);
export const addDays = (day: string, n: number) => utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));
/** Days from `from` to `to`, both included (1 for a single day). */
export const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

/** The default range ending on `today` (UTC). */
export function defaultStatsRange(today = utcDay(new Date())): { from: string; to: string } {
  return { from: addDays(today, -(STATS_DEFAULT_DAYS - 1)), to: today };
}

/** The Monday on or before a day (weeks start on Monday, spec 9). */
export function mondayOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 = Sunday
  return addDays(day, -((weekday + 6) % 7));
}

export type StatsParseResult = { ok: true; query: StatsQuery } | { ok: false; fields: Record<string, string> };

/**
 * Reads the query string of a stats request: `from`, `to` (YYYY-MM-DD), `group` (one of `groups`; default day),
 * `format` (json or csv). Field errors are message keys, like every 400 of the API.
 */
export function parseStatsQuery(raw: Record<string, unknown>, groups: readonly string[], today = utcDay(new Date())): StatsParseResult {
  const fields: Record<string, string> = {};
  const one = (name: string): string | undefined => {
    const v = raw[name];
    if (v === undefined || v === '') return undefined;
    if (typeof v !== 'string') {
      fields[name] = 'error_invalid_value';
      return undefined;
    }
    return v.trim();
  };
  const date = (name: 'from' | 'to') => {
    const v = one(name);
    if (v !== undefined && !isDate(v)) {
      fields[name] = 'error_date_invalid';
      return undefined;
    }
    return v;
  };
  let from = date('from');
  let to = date('to');
  const group = one('group') ?? 'day';
  const format = one('format') ?? 'json';
  if (!groups.includes(group) && !fields.group) fields.group = 'error_stats_group_invalid';
  if (!(STAT_FORMATS as readonly string[]).includes(format) && !fields.format) fields.format = 'error_stats_format_invalid';
  if (fields.from || fields.to) return { ok: false, fields };
  if (!from && !to) ({ from, to } = defaultStatsRange(today));
  else if (!from) from = addDays(to!, -(STATS_DEFAULT_DAYS - 1));
  else if (!to) to = from > today ? addDays(from, STATS_DEFAULT_DAYS - 1) : today;
  if (to! < from!) fields.to = 'error_stats_range_invalid';
  else if (daysBetween(from!, to!) > STATS_MAX_DAYS) fields.to = 'error_stats_range_too_long';
  if (Object.keys(fields).length) return { ok: false, fields };
  return { ok: true, query: { from: from!, to: to!, group, format: format as StatFormat } };
}
