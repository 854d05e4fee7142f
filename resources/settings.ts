import { staffAndMembers } from './roles.js';
import { defineAccountResource } from './define.js';
import { isTimeZone } from './fields.js';

/** The account's local settings: one record, GET/PUT /accounts/{a}/settings (account-console.md: settings). */
export const settings = defineAccountResource({
  name: 'settings',
  table: 'account_settings',
  prefix: 'ls',
  group: 'account_settings',
  history: true,
  grants: staffAndMembers(15, 0),
  icon: 'settings',
  fields: {
    ls_instance_name: { kind: 'text', max: 200 },
    ls_customer_api_url: { kind: 'url' },
    ls_customer_api_key: { kind: 'secret', max: 500 },
    ls_customer_site_url: { kind: 'url' },
    ls_app_width: { kind: 'number', integer: true, min: 100, max: 10_000 },
    ls_app_height: { kind: 'number', integer: true, min: 100, max: 10_000 },
    ls_local_server_url: { kind: 'url' },
    ls_debug_mode: { kind: 'boolean', default: false },
    // The account's local time (platform-and-flows.md 5 and 7: meeting slots, dayparting): an IANA zone.
    ls_timezone: { kind: 'text', max: 64, default: 'Europe/Amsterdam' },
  },
  check: (r) => (r.ls_timezone === undefined || isTimeZone(r.ls_timezone) ? undefined : { ls_timezone: 'error_timezone_invalid' }),
  title: 'ls_instance_name',
  singleton: true,
  // One record: read it and change it (GET/PUT on the resource path), nothing to list, create or delete.
  operations: { get: 'read', update: 'update' },
  labels: {
    en: {
      name_one: 'Local settings',
      name_other: 'Local settings',
      fields: {
        ls_instance_name: 'Instance name',
        ls_customer_api_url: 'Customer API address',
        ls_customer_api_key: 'Customer API key',
        ls_customer_site_url: 'Customer site address',
        ls_app_width: 'App width (px)',
        ls_app_height: 'App height (px)',
        ls_local_server_url: 'Local server address',
        ls_debug_mode: 'Debug mode',
        ls_timezone: 'Time zone',
      },
    },
    nl: {
      name_one: 'Lokale instellingen',
      name_other: 'Lokale instellingen',
      fields: {
        ls_instance_name: 'Naam van de installatie',
        ls_customer_api_url: 'API-adres van de klant',
        ls_customer_api_key: 'API-sleutel van de klant',
        ls_customer_site_url: 'Website van de klant',
        ls_app_width: 'Breedte app (px)',
        ls_app_height: 'Hoogte app (px)',
        ls_local_server_url: 'Adres lokale server',
        ls_debug_mode: 'Debugmodus',
        ls_timezone: 'Tijdzone',
      },
    },
  },
});
