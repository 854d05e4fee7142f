import { defineAccountResource } from './define.js';

/** A list of choices (a tree of list-items) that form elements draw from (account-console.md: lists). */
export const lists = defineAccountResource({
  name: 'lists',
  table: 'lists',
  prefix: 'l',
  group: 'account_lists',
  fields: {
    l_title: { kind: 'text', required: true, list: true, sort: true },
    l_name: { kind: 'identifier', required: true, list: true, sort: true },
  },
  search: ['l_title', 'l_name'],
  unique: [{ field: 'l_name' }],
});
