import { describe, expect, it } from 'vitest';
import type { ListItemNode } from '../../admin/src/lists/listTree';
import { rowIndexOf, rowsOf, type Row } from '../../admin/src/lists/treeRows';

/** The list tree editor's rows (admin/src/lists/treeRows.ts): the open items, and the row where a new item is typed. */

const item = (id: string, children: ListItemNode[] = []): ListItemNode => ({ li_id: id, li_title: id, li_value: id.toLowerCase(), children });
const tree = [item('Europe', [item('Benelux', [item('Utrecht')]), item('Nordics')]), item('Asia')];
const open = new Set(['Europe', 'Benelux']);
/** Each row as the item's id, or "+parent" for the new item's row. */
const shape = (rows: Row[]) => rows.map((r) => (r.kind === 'node' ? `${r.node.li_id}@${r.depth}` : `+${r.parentId ?? 'top'}@${r.depth}`));

describe('rowsOf', () => {
  it('without a new item: the open items in order, at their depth', () => {
    expect(shape(rowsOf(tree, open, undefined))).toEqual(['Europe@1', 'Benelux@2', 'Utrecht@3', 'Nordics@2', 'Asia@1']);
    expect(shape(rowsOf(tree, new Set(), undefined))).toEqual(['Europe@1', 'Asia@1']);
    expect(rowsOf(null, open, undefined)).toEqual([]);
  });

  it('a new top-level item is typed in the last row', () => {
    expect(shape(rowsOf(tree, open, null))).toEqual(['Europe@1', 'Benelux@2', 'Utrecht@3', 'Nordics@2', 'Asia@1', '+top@1']);
  });

  it("a new child is typed after the parent's last shown descendant, one level deeper", () => {
    expect(shape(rowsOf(tree, open, 'Europe'))).toEqual(['Europe@1', 'Benelux@2', 'Utrecht@3', 'Nordics@2', '+Europe@2', 'Asia@1']);
    expect(shape(rowsOf(tree, open, 'Benelux'))).toEqual(['Europe@1', 'Benelux@2', 'Utrecht@3', '+Benelux@3', 'Nordics@2', 'Asia@1']);
    expect(shape(rowsOf(tree, open, 'Asia'))).toEqual(['Europe@1', 'Benelux@2', 'Utrecht@3', 'Nordics@2', 'Asia@1', '+Asia@2']);
  });

  it('no new row under a parent that is not shown', () => {
    expect(shape(rowsOf(tree, new Set(), 'Benelux'))).toEqual(['Europe@1', 'Asia@1']);
  });

  it('rowIndexOf finds an item among the rows, -1 when it is not shown', () => {
    const rows = rowsOf(tree, open, 'Europe');
    expect(rowIndexOf(rows, 'Asia')).toBe(5);
    expect(rowIndexOf(rows, 'Utrecht')).toBe(2);
    expect(rowIndexOf(rowsOf(tree, new Set(), undefined), 'Utrecht')).toBe(-1);
  });
});
