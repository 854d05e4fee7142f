import { defineAccountResource } from './define.js';

/** An integration used by an event, with the event's id at the provider (account-console.md: event-integrations). */
export const eventIntegrations = defineAccountResource({
  name: 'event-integrations',
  table: 'event_integrations',
  prefix: 'ei',
  group: 'account_event_integrations',
  fields: {
    ei_eventid: { kind: 'reference', reference: 'events', parent: true, required: true, createOnly: true },
    ei_integrationid: { kind: 'reference', reference: 'integrations', required: true, list: true, filter: true },
    ei_external_event_id: { kind: 'text', max: 200, list: true },
  },
  title: 'ei_external_event_id',
  unique: [{ field: 'ei_integrationid', code: 'event_integration_exists' }],
});
