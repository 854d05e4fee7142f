import { staffAndMembers } from './roles.js';
import { defineAccountResource } from './define.js';

/** A list of choices (a tree of list-items) that form elements draw from (account-console.md: lists). */
export const lists = defineAccountResource({
  name: 'lists',
  table: 'lists',
  prefix: 'l',
  group: 'account_lists',
  history: true,
  trash: true,
  grants: staffAndMembers(15, 15),
  icon: 'account_tree',
  fields: {
    l_title: { kind: 'text', required: true, list: true, sort: true },
    l_name: { kind: 'identifier', required: true, list: true, sort: true },
  },
  search: ['l_title', 'l_name'],
  unique: [{ field: 'l_name' }],
  labels: {
    en: { name_one: 'List', name_other: 'Lists', fields: { l_title: 'Title', l_name: 'Name' } },
    nl: { name_one: 'Lijst', name_other: 'Lijsten', fields: { l_title: 'Titel', l_name: 'Naam' } },
  },
});
