import { staffAndMembers } from './roles.js';
import { defineAccountResource } from './define.js';

/** A form of an account: its elements are form-elements (account-console.md: forms). */
export const forms = defineAccountResource({
  name: 'forms',
  table: 'forms',
  prefix: 'f',
  group: 'account_forms',
  history: true,
  trash: true,
  grants: staffAndMembers(15, 1),
  icon: 'assignment',
  fields: {
    f_title: { kind: 'text', required: true, list: true, sort: true },
    f_name: { kind: 'identifier', required: true, list: true, sort: true },
  },
  search: ['f_title', 'f_name'],
  unique: [{ field: 'f_name' }],
  labels: {
    en: { name_one: 'Form', name_other: 'Forms', fields: { f_title: 'Title', f_name: 'Data name' } },
    nl: { name_one: 'Formulier', name_other: 'Formulieren', fields: { f_title: 'Titel', f_name: 'Gegevensnaam' } },
  },
});
