import { staffAndMembers } from './roles.js';
import { defineAccountResource } from './define.js';

export const EVENT_ACCESS_TYPES = ['open', 'closed', 'restricted'] as const;

/** An event of an account (account-console.md: events). Active = enabled and today within the dates. */
export const events = defineAccountResource({
  name: 'events',
  table: 'events',
  prefix: 'ev',
  group: 'account_events',
  history: true,
  trash: true,
  grants: staffAndMembers(15, 1),
  icon: 'event',
  fields: {
    ev_title: { kind: 'text', required: true, requiredMessage: 'error_event_title_required', list: true, sort: true },
    ev_name: { kind: 'identifier', required: true, list: true, sort: true },
    ev_is_enabled: { kind: 'boolean', default: true, list: true, filter: true, sort: true, bulk: true },
    ev_start_date: { kind: 'date', list: true, sort: true },
    ev_end_date: { kind: 'date', list: true, sort: true },
    ev_ownerid: { kind: 'reference', reference: 'members', referenceKey: 'au_userid', filter: true, bulk: true },
    ev_access_type: { kind: 'enum', options: EVENT_ACCESS_TYPES, required: true, requiredMessage: 'error_event_type_required', list: true, filter: true, sort: true },
    ev_access_code: { kind: 'text', max: 100, showWhen: { field: 'ev_access_type', values: ['restricted'] } },
    ev_external_id: { kind: 'text', max: 200 },
    ev_registration_formid: { kind: 'reference', reference: 'forms' },
    ev_description: { kind: 'richtext' },
    ev_consent_text: { kind: 'longtext', max: 10_000 },
  },
  search: ['ev_title', 'ev_name'],
  defaultSort: { field: 'ev_start_date', order: 'DESC' },
  unique: [{ field: 'ev_name' }],
  codes: ['event_title_required', 'event_type_required', 'event_dates_invalid'],
  check(r) {
    const errors: Record<string, string> = {};
    if (r.ev_start_date && r.ev_end_date && String(r.ev_end_date) < String(r.ev_start_date)) errors.ev_end_date = 'error_event_dates_invalid';
    if (r.ev_access_type === 'restricted' && !r.ev_access_code) errors.ev_access_code = 'error_access_code_required';
    return errors;
  },
  labels: {
    en: {
      name_one: 'Event',
      name_other: 'Events',
      fields: {
        ev_title: 'Title',
        ev_name: 'Name',
        ev_is_enabled: 'Enabled',
        ev_start_date: 'Start date',
        ev_end_date: 'End date',
        ev_ownerid: 'Owner',
        ev_access_type: 'Access',
        ev_access_code: 'Access code',
        ev_external_id: 'External ID',
        ev_registration_formid: 'Registration form',
        ev_description: 'Description',
        ev_consent_text: 'News opt-in text',
      },
      options: { ev_access_type: { open: 'Open', closed: 'Closed', restricted: 'Restricted' } },
    },
    nl: {
      name_one: 'Evenement',
      name_other: 'Evenementen',
      fields: {
        ev_title: 'Titel',
        ev_name: 'Naam',
        ev_is_enabled: 'Ingeschakeld',
        ev_start_date: 'Begindatum',
        ev_end_date: 'Einddatum',
        ev_ownerid: 'Eigenaar',
        ev_access_type: 'Toegang',
        ev_access_code: 'Toegangscode',
        ev_external_id: 'Externe ID',
        ev_registration_formid: 'Registratieformulier',
        ev_description: 'Beschrijving',
        ev_consent_text: 'Tekst nieuwsbrief-toestemming',
      },
      options: { ev_access_type: { open: 'Open', closed: 'Gesloten', restricted: 'Besloten' } },
    },
  },
});

/** Active = enabled and today within the dates (open-ended when a date is empty); dates are YYYY-MM-DD. */
export function isEventActive(e: { ev_is_enabled: boolean; ev_start_date: string | null; ev_end_date: string | null }, today: string): boolean {
  return e.ev_is_enabled && (!e.ev_start_date || e.ev_start_date <= today) && (!e.ev_end_date || today <= e.ev_end_date);
}
