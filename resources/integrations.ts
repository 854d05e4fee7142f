import { defineAccountResource } from './define.js';

/** A badge-scan provider the account connects to (account-console.md: integrations). The secret is write-only. */
export const integrations = defineAccountResource({
  name: 'integrations',
  table: 'integrations',
  prefix: 'in',
  group: 'account_integrations',
  fields: {
    in_title: { kind: 'text', required: true, list: true, sort: true },
    in_name: { kind: 'identifier', required: true, list: true, sort: true },
    in_type: { kind: 'enum', options: ['badge_scan'], required: true, default: 'badge_scan', list: true, filter: true },
    in_api_url: { kind: 'url', required: true, list: true },
    in_key: { kind: 'text', max: 500 },
    in_secret: { kind: 'secret', max: 500 },
  },
  search: ['in_title', 'in_name'],
  unique: [{ field: 'in_name' }],
  check(r) {
    if (typeof r.in_api_url === 'string' && !/^https:\/\//i.test(r.in_api_url)) return { in_api_url: 'error_url_https_required' };
    return undefined;
  },
});
