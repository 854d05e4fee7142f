import { defineAccountResource } from './define.js';

/** A form of an account: its elements are form-elements (account-console.md: forms). */
export const forms = defineAccountResource({
  name: 'forms',
  table: 'forms',
  prefix: 'f',
  group: 'account_forms',
  fields: {
    f_title: { kind: 'text', required: true, list: true, sort: true },
    f_name: { kind: 'identifier', required: true, list: true, sort: true },
  },
  search: ['f_title', 'f_name'],
  unique: [{ field: 'f_name' }],
});
