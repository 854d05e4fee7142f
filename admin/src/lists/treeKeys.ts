import type { KeyboardEvent, MutableRefObject } from 'react';
import { planIndent, planOutdent, planShift, type ListItemNode, type Move } from './listTree';
import { rowIndexOf, type Row } from './treeRows';

export interface TreeKeyContext {
  tree: ListItemNode[] | null;
  rows: readonly Row[];
  expanded: ReadonlySet<string>;
  expand: (id: string, open?: boolean) => void;
  focusRow: (id: string | null) => void;
  /** Set to keep the focus on the moved row after the render that moves it. */
  focusAfterRender: MutableRefObject<boolean>;
  applyMove: (move: Move | undefined) => void;
  startRename: (node: ListItemNode) => void;
  startAdd: (parentId: string | null) => void;
  askDelete: (node: ListItemNode) => void;
}

/**
 * A key on a focused row (the tree pattern of WAI-ARIA): arrows move the focus and open or close items, Home and End
 * jump, Alt+arrows move the item (up, down, in, out), Enter or F2 renames, Insert adds a child, Delete asks to delete.
 */
export function handleRowKey(e: KeyboardEvent<HTMLElement>, node: ListItemNode, parentId: string | null, ctx: TreeKeyContext): void {
  if (e.target !== e.currentTarget) return; // keys typed in the row's field or on its buttons
  const { tree, rows, expanded, expand, focusRow } = ctx;
  const index = rowIndexOf(rows, node.li_id);
  const hasChildren = node.children.length > 0;
  const open = expanded.has(node.li_id);
  const handled = () => {
    e.preventDefault();
    e.stopPropagation();
  };
  if (e.altKey) {
    const plan = {
      ArrowUp: () => planShift(tree!, node.li_id, -1),
      ArrowDown: () => planShift(tree!, node.li_id, 1),
      ArrowRight: () => planIndent(tree!, node.li_id),
      ArrowLeft: () => planOutdent(tree!, node.li_id),
    }[e.key];
    if (!plan) return;
    handled();
    ctx.applyMove(plan());
    ctx.focusAfterRender.current = true;
    return;
  }
  const nodeAt = (i: number) => {
    const r = rows[i];
    return r?.kind === 'node' ? r.node.li_id : null;
  };
  switch (e.key) {
    case 'ArrowDown':
      handled();
      focusRow(nodeAt(index + 1) ?? nodeAt(index + 2));
      break;
    case 'ArrowUp':
      handled();
      focusRow(nodeAt(index - 1) ?? nodeAt(index - 2));
      break;
    case 'Home':
      handled();
      focusRow(nodeAt(0));
      break;
    case 'End':
      handled();
      focusRow(nodeAt(rows.length - 1) ?? nodeAt(rows.length - 2));
      break;
    case 'ArrowRight':
      handled();
      if (hasChildren && !open) expand(node.li_id);
      else if (hasChildren) focusRow(node.children[0].li_id);
      break;
    case 'ArrowLeft':
      handled();
      if (hasChildren && open) expand(node.li_id, false);
      else focusRow(parentId);
      break;
    case 'Enter':
    case 'F2':
      handled();
      ctx.startRename(node);
      break;
    case 'Insert':
      handled();
      ctx.startAdd(node.li_id);
      break;
    case 'Delete':
      handled();
      ctx.askDelete(node);
      break;
  }
}
