import { staffAndMembers } from './roles.js';
import { defineAccountResource } from './define.js';

/** The forms booth staff fill for a lead of an event, in order (account-console.md: event-forms). */
export const eventForms = defineAccountResource({
  name: 'event-forms',
  table: 'event_forms',
  prefix: 'ef',
  group: 'account_event_forms',
  grants: staffAndMembers(15, 1),
  fields: {
    ef_eventid: { kind: 'reference', reference: 'events', parent: true, required: true, createOnly: true },
    ef_formid: { kind: 'reference', reference: 'forms', required: true, list: true, filter: true },
    ef_order: { kind: 'number', integer: true, min: 0, max: 1_000_000, formHidden: true },
  },
  order: { field: 'ef_order', parent: ['ef_eventid'] },
  title: 'ef_formid',
  unique: [{ field: 'ef_formid', code: 'event_form_exists' }],
  labels: {
    en: {
      name_one: 'Event form',
      name_other: 'Event forms',
      fields: { ef_eventid: 'Event', ef_formid: 'Form', ef_order: 'Order' },
    },
    nl: {
      name_one: 'Evenementformulier',
      name_other: 'Evenementformulieren',
      fields: { ef_eventid: 'Evenement', ef_formid: 'Formulier', ef_order: 'Volgorde' },
    },
  },
});
