import { z } from 'zod';
import { defineAccountResource, isDate } from './define.js';
import { staffAndMembers } from './roles.js';
import { isEmail, isUuid } from './fields.js';

/** The longest slot (platform-and-flows.md 5). */
export const SLOT_MAX_MS = 8 * 3600_000;

/** A slot's own rule: end after start, at most 8 hours. */
export function slotTimesProblem(start: unknown, end: unknown): Record<string, string> | undefined {
  if (typeof start !== 'string' && !(start instanceof Date)) return undefined;
  if (typeof end !== 'string' && !(end instanceof Date)) return undefined;
  const s = new Date(start).getTime();
  const e = new Date(end).getTime();
  if (Number.isNaN(s) || Number.isNaN(e)) return undefined;
  if (e <= s) return { ms_end: 'error_slot_end_before_start' };
  if (e - s > SLOT_MAX_MS) return { ms_end: 'error_slot_too_long' };
  return undefined;
}

/**
 * A bookable time of an event (platform-and-flows.md 5): ms_start/ms_end in UTC, a capacity (how many requested or
 * accepted meetings it holds at once) and a host (a member's user id; empty: any member with account_meetings update).
 * Two slots of one host may not overlap (409 slot_overlaps); slots without a host may not overlap within their event.
 */
export const meetingSlots = defineAccountResource({
  name: 'meeting-slots',
  table: 'meeting_slots',
  prefix: 'ms',
  group: 'account_meetings',
  grants: staffAndMembers(15, 15),
  icon: 'schedule',
  fields: {
    ms_eventid: { kind: 'reference', reference: 'events', required: true, trashWith: true, list: true, filter: true },
    ms_start: { kind: 'datetime', required: true, list: true, sort: true, range: { from: 'ms_start_from', to: 'ms_start_to' } },
    ms_end: { kind: 'datetime', required: true, list: true, sort: true },
    ms_location: { kind: 'text', max: 200, list: true },
    ms_capacity: { kind: 'number', integer: true, min: 1, max: 1000, default: 1, list: true },
    ms_hostid: { kind: 'reference', reference: 'members', referenceKey: 'au_userid', list: true, filter: true },
  },
  defaultSort: { field: 'ms_start', order: 'ASC' },
  title: 'ms_start',
  check: (r) => slotTimesProblem(r.ms_start, r.ms_end),
  labels: {
    en: {
      name_one: 'Meeting slot',
      name_other: 'Meeting slots',
      fields: { ms_eventid: 'Event', ms_start: 'Start', ms_end: 'End', ms_location: 'Location', ms_capacity: 'Capacity', ms_hostid: 'Host' },
    },
    nl: {
      name_one: 'Afspraakmoment',
      name_other: 'Afspraakmomenten',
      fields: { ms_eventid: 'Evenement', ms_start: 'Begin', ms_end: 'Einde', ms_location: 'Locatie', ms_capacity: 'Capaciteit', ms_hostid: 'Gastheer/-vrouw' },
    },
  },
});

export const MEETING_STATUSES = ['requested', 'accepted', 'declined', 'cancelled', 'done', 'no_show'] as const;
export type MeetingStatus = (typeof MEETING_STATUSES)[number];

/** The statuses that hold a place in their slot (the capacity counts them). */
export const HOLDING_STATUSES: readonly MeetingStatus[] = ['requested', 'accepted'];

/**
 * Where a status may go (a PUT of mg_status; the same status again is no change): a request is answered (accepted,
 * declined) or withdrawn (cancelled); an accepted meeting is cancelled or, once held, done or a no-show; done and
 * no_show may be corrected into each other. Declined and cancelled are final.
 */
export const MEETING_TRANSITIONS: Record<MeetingStatus, readonly MeetingStatus[]> = {
  requested: ['accepted', 'declined', 'cancelled'],
  accepted: ['cancelled', 'done', 'no_show'],
  declined: [],
  cancelled: [],
  done: ['no_show'],
  no_show: ['done'],
};

/**
 * A visitor's meeting with a host in a slot (platform-and-flows.md 5). The visitor is a lead of the event; a request
 * expires (becomes declined) when unanswered by mg_expires_at. The record also carries the slot's times and location,
 * the lead's names and e-mail and the host's names (joined, read-only).
 */
export const meetings = defineAccountResource({
  name: 'meetings',
  table: 'meetings',
  prefix: 'mg',
  group: 'account_meetings',
  icon: 'calendar_month',
  fields: {
    mg_eventid: { kind: 'reference', reference: 'events', required: true, createOnly: true, trashWith: true, list: true, filter: true },
    mg_slotid: { kind: 'reference', reference: 'meeting-slots', required: true, createOnly: true, list: true, filter: true },
    mg_leadid: { kind: 'reference', reference: 'leads', createOnly: true, list: true, filter: true },
    mg_hostid: { kind: 'reference', reference: 'members', referenceKey: 'au_userid', list: true, filter: true },
    mg_status: { kind: 'enum', options: MEETING_STATUSES, default: 'requested', list: true, filter: true, sort: true },
    mg_message: { kind: 'longtext', max: 2000 },
    mg_expires_at: { kind: 'datetime', readOnly: true, list: true, sort: true },
  },
  defaultSort: { field: 'mg_created_at', order: 'DESC' },
  title: 'mg_status',
  labels: {
    en: {
      name_one: 'Meeting',
      name_other: 'Meetings',
      fields: { mg_eventid: 'Event', mg_slotid: 'Slot', mg_leadid: 'Visitor', mg_hostid: 'Host', mg_status: 'Status', mg_message: 'Message', mg_expires_at: 'Expires' },
      options: {
        mg_status: { requested: 'Requested', accepted: 'Accepted', declined: 'Declined', cancelled: 'Cancelled', done: 'Done', no_show: 'No-show' },
      },
    },
    nl: {
      name_one: 'Afspraak',
      name_other: 'Afspraken',
      fields: {
        mg_eventid: 'Evenement',
        mg_slotid: 'Moment',
        mg_leadid: 'Bezoeker',
        mg_hostid: 'Gastheer/-vrouw',
        mg_status: 'Status',
        mg_message: 'Bericht',
        mg_expires_at: 'Verloopt',
      },
      options: {
        mg_status: { requested: 'Aangevraagd', accepted: 'Geaccepteerd', declined: 'Afgewezen', cancelled: 'Geannuleerd', done: 'Gehouden', no_show: 'Niet verschenen' },
      },
    },
  },
});

const HHMM_RE = /^([01]\d|2[0-3]):[0-5]\d$/;
const optionalText = (max: number) =>
  z.preprocess(
    (v) => (v === null || v === undefined || (typeof v === 'string' && v.trim() === '') ? undefined : v),
    z.string({ error: 'error_invalid_value' }).trim().max(max, { error: 'error_too_long' }).optional(),
  );
const uuid = (message = 'error_uuid_invalid') =>
  z
    .string({ error: message })
    .refine(isUuid, { error: message })
    .transform((v) => v.toLowerCase());

/** POST …/meeting-slots/generate: a day of slots, times in the account's ls_timezone. */
export const slotGenerateSchema = z
  .object({
    ms_eventid: uuid(),
    date: z.string({ error: 'error_date_invalid' }).refine(isDate, { error: 'error_date_invalid' }),
    from: z.string({ error: 'error_time_invalid' }).regex(HHMM_RE, { error: 'error_time_invalid' }),
    to: z.string({ error: 'error_time_invalid' }).regex(HHMM_RE, { error: 'error_time_invalid' }),
    minutes: z
      .number({ error: 'error_number_invalid' })
      .int({ error: 'error_number_invalid' })
      .min(5, { error: 'error_number_too_small' })
      .max(480, { error: 'error_number_too_large' }),
    gap_minutes: z
      .number({ error: 'error_number_invalid' })
      .int({ error: 'error_number_invalid' })
      .min(0, { error: 'error_number_too_small' })
      .max(480, { error: 'error_number_too_large' })
      .optional()
      .default(0),
    ms_location: optionalText(200),
    ms_capacity: z
      .number({ error: 'error_number_invalid' })
      .int({ error: 'error_number_invalid' })
      .min(1, { error: 'error_number_too_small' })
      .max(1000, { error: 'error_number_too_large' })
      .optional()
      .default(1),
    ms_hostid: z.preprocess((v) => (v === '' ? null : v), uuid().nullable().optional()),
  })
  .superRefine((v, ctx) => {
    if (v.to <= v.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'error_time_range_invalid' });
  });
export type SlotGenerate = z.output<typeof slotGenerateSchema>;

/** POST /meet/{eventId}: a visitor asks for a meeting in a slot. */
export const meetingRequestSchema = z.object({
  ms_id: uuid('error_slot_invalid'),
  email: z
    .string({ error: 'error_required' })
    .trim()
    .max(254, { error: 'error_too_long' })
    .refine((v) => v !== '', { error: 'error_required' })
    .refine((v) => v === '' || isEmail(v), { error: 'error_email_invalid' }),
  first_name: optionalText(200),
  last_name: optionalText(200),
  message: optionalText(2000),
  website: z.unknown().optional(),
  lang: z.unknown().optional(),
});

export const MEETING_DECISIONS = ['accepted', 'declined'] as const;
export type MeetingDecision = (typeof MEETING_DECISIONS)[number];

/** POST /meeting/accept {token, decision}. */
export const meetingAcceptSchema = z.object({
  token: z.string({ error: 'error_meeting_invalid' }).max(200, { error: 'error_meeting_invalid' }),
  decision: z.enum(MEETING_DECISIONS, { error: 'error_meeting_decision_invalid' }),
});
