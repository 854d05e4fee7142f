import { staffAndMembers } from './roles.js';
import { defineAccountResource } from './define.js';

/** A badge-scan provider the account connects to (account-console.md: integrations). The secret is write-only. */
export const integrations = defineAccountResource({
  name: 'integrations',
  table: 'integrations',
  prefix: 'in',
  group: 'account_integrations',
  history: true,
  grants: staffAndMembers(15, 1),
  icon: 'extension',
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
  labels: {
    en: {
      name_one: 'Integration',
      name_other: 'Integrations',
      fields: {
        in_title: 'Title',
        in_name: 'Name',
        in_type: 'Type',
        in_api_url: 'API address',
        in_key: 'Key or ID',
        in_secret: 'Secret',
      },
      options: { in_type: { badge_scan: 'Badge scan' } },
    },
    nl: {
      name_one: 'Koppeling',
      name_other: 'Koppelingen',
      fields: {
        in_title: 'Titel',
        in_name: 'Naam',
        in_type: 'Soort',
        in_api_url: 'API-adres',
        in_key: 'Sleutel of ID',
        in_secret: 'Geheim',
      },
      options: { in_type: { badge_scan: 'Badgescan' } },
    },
  },
});
