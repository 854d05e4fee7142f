import { accountPath } from '../providers/accountPath';
import { API_URL } from '../providers/http';
import { addDays, STATS_DEFAULT_DAYS, utcDay, type StatKind, type StatRow } from '../../../resources/statistics';

export type { StatRow, StatKind };
export { LEAD_STAT_GROUPS, PLAY_STAT_GROUPS, STAT_MEASURES, type StatsAnswer } from '../../../resources/statistics';

/** The statistics route of a kind with the page's parameters (the CSV link is the same with format=csv). */
export function statsPath(accountId: string, kind: StatKind, params: { from: string; to: string; group: string }, format?: 'csv'): string {
  const q = new URLSearchParams({ from: params.from, to: params.to, group: params.group });
  if (format) q.set('format', format);
  return `${accountPath(accountId, 'stats', kind)}?${q}`;
}
export const statsUrl = (...args: Parameters<typeof statsPath>) => `${API_URL}${statsPath(...args)}`;

/** The quick ranges, each ending today (UTC, like the API's days). */
export const QUICK_RANGES = ['last_7', 'last_30', 'last_90', 'last_365', 'this_year'] as const;
export type QuickRange = (typeof QUICK_RANGES)[number];

export function quickRange(name: QuickRange, today = utcDay(new Date())): { from: string; to: string } {
  switch (name) {
    case 'last_7':
      return { from: addDays(today, -6), to: today };
    case 'last_30':
      return { from: addDays(today, -(STATS_DEFAULT_DAYS - 1)), to: today };
    case 'last_90':
      return { from: addDays(today, -89), to: today };
    case 'last_365':
      return { from: addDays(today, -364), to: today };
    case 'this_year':
      return { from: `${today.slice(0, 4)}-01-01`, to: today };
  }
}

/** Date groups draw a line over time; every other group is a category per bar. */
export const isDateGroup = (group: string) => group === 'day' || group === 'week';

/** True when no row counts anything (an empty list, or every day zero). */
export const isEmpty = (rows: StatRow[], measures: readonly string[]) => rows.every((r) => measures.every((m) => !Number(r[m])));
