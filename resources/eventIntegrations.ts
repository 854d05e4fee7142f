import { staffAndMembers } from './roles.js';
import { defineAccountResource } from './define.js';

/** An integration used by an event, with the event's id at the provider (account-console.md: event-integrations). */
export const eventIntegrations = defineAccountResource({
  name: 'event-integrations',
  table: 'event_integrations',
  prefix: 'ei',
  group: 'account_event_integrations',
  grants: staffAndMembers(15, 1),
  fields: {
    ei_eventid: { kind: 'reference', reference: 'events', parent: true, required: true, createOnly: true },
    ei_integrationid: { kind: 'reference', reference: 'integrations', required: true, list: true, filter: true },
    ei_external_event_id: { kind: 'text', max: 200, list: true },
  },
  title: 'ei_external_event_id',
  unique: [{ field: 'ei_integrationid', code: 'event_integration_exists' }],
  labels: {
    en: {
      name_one: 'Event integration',
      name_other: 'Event integrations',
      fields: {
        ei_eventid: 'Event',
        ei_integrationid: 'Integration',
        ei_external_event_id: 'Event ID at the provider',
      },
    },
    nl: {
      name_one: 'Evenementkoppeling',
      name_other: 'Evenementkoppelingen',
      fields: {
        ei_eventid: 'Evenement',
        ei_integrationid: 'Koppeling',
        ei_external_event_id: 'Evenement-ID bij de aanbieder',
      },
    },
  },
});
