import { defineAccountResource } from './define.js';

/** The account's local settings: one record, GET/PUT /accounts/{a}/settings (account-console.md: settings). */
export const settings = defineAccountResource({
  name: 'settings',
  table: 'account_settings',
  prefix: 'ls',
  group: 'account_settings',
  fields: {
    ls_instance_name: { kind: 'text', max: 200 },
    ls_customer_api_url: { kind: 'url' },
    ls_customer_api_key: { kind: 'secret', max: 500 },
    ls_customer_site_url: { kind: 'url' },
    ls_app_width: { kind: 'number', integer: true, min: 100, max: 10_000 },
    ls_app_height: { kind: 'number', integer: true, min: 100, max: 10_000 },
    ls_local_server_url: { kind: 'url' },
    ls_debug_mode: { kind: 'boolean', default: false },
  },
  title: 'ls_instance_name',
  singleton: true,
  // One record: read it and change it (GET/PUT on the resource path), nothing to list, create or delete.
  operations: { get: 'read', update: 'update' },
});
