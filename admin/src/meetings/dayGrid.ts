import { MEETING_TRANSITIONS, type MeetingStatus } from '../../../resources/meetings';

/** A slot as GET …/meeting-slots answers it. */
export interface GridSlot {
  id: string;
  ms_id: string;
  ms_start: string;
  ms_end: string;
  ms_location: string | null;
  ms_capacity: number;
  ms_hostid: string | null;
}

/** A meeting as GET …/meetings answers it (with the slot's times and the visitor's and host's names). */
export interface GridMeeting {
  id: string;
  mg_id: string;
  mg_slotid: string;
  mg_leadid: string | null;
  mg_hostid: string | null;
  mg_status: MeetingStatus;
  mg_message: string | null;
  mg_expires_at: string | null;
  ld_first_name?: string | null;
  ld_last_name?: string | null;
  ld_email?: string | null;
  host_first_name?: string | null;
  host_last_name?: string | null;
}

export type SlotState = 'free' | 'requested' | 'accepted';

export interface GridCell {
  slot: GridSlot;
  /** Every meeting of the slot, the ones holding a place first. */
  meetings: GridMeeting[];
  /** Places still free (capacity minus accepted and requested ones not expired). */
  free: number;
  state: SlotState;
}

export interface DayGrid {
  /** Column keys: a host's user id, or '' for the slots without a host. */
  columns: string[];
  /** Row keys: the start time (HH:MM in the zone), in order. */
  rows: { key: string; label: string }[];
  cells: Map<string, GridCell>;
}

/** A request holds a place until it lapses; an accepted meeting always (resources/meetings.ts HOLDING_STATUSES). */
export function holdsPlace(m: GridMeeting, now: number): boolean {
  if (m.mg_status === 'accepted') return true;
  return m.mg_status === 'requested' && (!m.mg_expires_at || new Date(m.mg_expires_at).getTime() > now);
}

/** The statuses a meeting may move to from its own (a PUT of mg_status). */
export const nextStatuses = (status: MeetingStatus): readonly MeetingStatus[] => MEETING_TRANSITIONS[status] ?? [];

/** The calendar day (YYYY-MM-DD) of an instant in a time zone. */
export function dayIn(iso: string | Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** HH:MM of an instant in a time zone (24 h). */
export function timeIn(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
}

/** The day before or after (YYYY-MM-DD, calendar arithmetic in UTC). */
export function shiftDay(day: string, by: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + by);
  return d.toISOString().slice(0, 10);
}

/**
 * The day grid of an event: the slots starting on `day` in the account's zone, one row per start time and one column
 * per host (the slots without a host in a column of their own), each cell with its meetings and state.
 */
export function buildDayGrid(slots: GridSlot[], meetings: GridMeeting[], day: string, timeZone: string, now = Date.now()): DayGrid {
  const ofDay = slots.filter((s) => dayIn(s.ms_start, timeZone) === day).sort((a, b) => a.ms_start.localeCompare(b.ms_start));
  const byslot = new Map<string, GridMeeting[]>();
  for (const m of meetings) byslot.set(m.mg_slotid, [...(byslot.get(m.mg_slotid) ?? []), m]);
  const columns: string[] = [];
  const rows: DayGrid['rows'] = [];
  const cells = new Map<string, GridCell>();
  for (const slot of ofDay) {
    const column = slot.ms_hostid ?? '';
    if (!columns.includes(column)) columns.push(column);
    const row = timeIn(slot.ms_start, timeZone);
    if (!rows.some((r) => r.key === row)) rows.push({ key: row, label: row });
    const list = (byslot.get(slot.ms_id) ?? []).slice().sort((a, b) => Number(holdsPlace(b, now)) - Number(holdsPlace(a, now)));
    const holding = list.filter((m) => holdsPlace(m, now));
    const free = Math.max(0, Number(slot.ms_capacity) - holding.length);
    const state: SlotState = holding.length === 0 ? 'free' : holding.some((m) => m.mg_status === 'requested') ? 'requested' : 'accepted';
    cells.set(`${row}|${column}`, { slot, meetings: list, free, state });
  }
  rows.sort((a, b) => a.key.localeCompare(b.key));
  // Hosts first in a stable order, "any host" last.
  columns.sort((a, b) => (a === '' ? 1 : b === '' ? -1 : 0));
  return { columns, rows, cells };
}
