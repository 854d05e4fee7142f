import { defineAccountResource } from './define.js';

/** A tree is at most this deep (a top-level item has depth 1). */
export const LIST_MAX_DEPTH = 8;

/** An item of a list: a node of its tree (account-console.md: list-items). */
export const listItems = defineAccountResource({
  name: 'list-items',
  table: 'list_items',
  prefix: 'li',
  group: 'account_lists',
  fields: {
    li_listid: { kind: 'reference', reference: 'lists', parent: true, required: true, createOnly: true },
    li_parentid: { kind: 'reference', reference: 'list-items', filter: true },
    li_title: { kind: 'text', required: true, list: true, sort: true },
    li_value: { kind: 'text', max: 200, filled: 'server', list: true, sort: true },
    li_order: { kind: 'number', integer: true, min: 0, max: 1_000_000, formHidden: true },
  },
  search: ['li_title', 'li_value'],
  order: { field: 'li_order', parent: ['li_listid', 'li_parentid'] },
  unique: [{ field: 'li_value', code: 'list_item_value_taken' }],
  labels: {
    en: {
      name_one: 'List item',
      name_other: 'List items',
      fields: {
        li_listid: 'List',
        li_parentid: 'Parent item',
        li_title: 'Title',
        li_value: 'Value',
        li_order: 'Order',
      },
    },
    nl: {
      name_one: 'Lijstitem',
      name_other: 'Lijstitems',
      fields: {
        li_listid: 'Lijst',
        li_parentid: 'Bovenliggend item',
        li_title: 'Titel',
        li_value: 'Waarde',
        li_order: 'Volgorde',
      },
    },
  },
});

/** The value an item gets when none is given: its title, lower case, spaces as underscores. */
export function valueFromTitle(title: string): string {
  return title.trim().toLowerCase().replace(/\s+/g, '_').slice(0, 200);
}

/** The most text a title may hold (the text kind's limit) and a value (li_value's max). */
export const LIST_TITLE_MAX = 500;
export const LIST_VALUE_MAX = 200;

/** A node of a list's tree as screens and the form renderer read it (GET /lists/{id}/tree): answers.ts's. */
export type { ListItemNode } from './answers.js';
import type { ListItemNode } from './answers.js';

/** A stored item as the tree builder needs it. */
export interface ListItemRow {
  li_id: string;
  li_parentid: string | null;
  li_title: string;
  li_value: string;
}

/**
 * Nests a list's items (already sorted by li_order) into trees, siblings in the given order. An item whose parent is
 * not among the rows hangs at the top level.
 */
export function buildListTree(rows: readonly ListItemRow[]): ListItemNode[] {
  const nodes = new Map<string, ListItemNode>();
  for (const r of rows) nodes.set(r.li_id, { li_id: r.li_id, li_title: r.li_title, li_value: r.li_value, children: [] });
  const roots: ListItemNode[] = [];
  for (const r of rows) {
    const node = nodes.get(r.li_id)!;
    const parent = r.li_parentid ? nodes.get(r.li_parentid) : undefined;
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/** Every node of the trees in reading order (a parent before its children), with its depth (top level 1). */
export function walkListTree(roots: readonly ListItemNode[], visit: (node: ListItemNode, depth: number, parent: ListItemNode | null) => void): void {
  const stack: [ListItemNode, number, ListItemNode | null][] = [];
  for (let i = roots.length - 1; i >= 0; i--) stack.push([roots[i], 1, null]);
  while (stack.length) {
    const [node, depth, parent] = stack.pop()!;
    visit(node, depth, parent);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push([node.children[i], depth + 1, node]);
  }
}
