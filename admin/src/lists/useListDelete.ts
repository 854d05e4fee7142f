import { useState, type Dispatch, type SetStateAction } from 'react';
import type { ListApi } from './listApi';
import { isWithin, removeNode, subtreeSize, type ListItemNode } from './listTree';
import { rowIndexOf, type Row } from './treeRows';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The delete being asked about: the item, how many items go with it, and the call's progress. */
export interface DeleteConfirm {
  node: ListItemNode;
  count: number;
  busy?: boolean;
  error?: string;
}

interface Deps {
  client: ListApi;
  tree: ListItemNode[] | null;
  setTree: Dispatch<SetStateAction<ListItemNode[] | null>>;
  rows: readonly Row[];
  canDelete: boolean;
  focusRow: (id: string | null) => void;
  announce: (text: string) => void;
  failure: (e: unknown) => string;
  translate: Translate;
}

/** Deleting an item and its subtree after a confirmation that says how many items go; the focus stays near. */
export function useListDelete({ client, tree, setTree, rows, canDelete, focusRow, announce, failure, translate }: Deps) {
  const [confirm, setConfirm] = useState<DeleteConfirm | null>(null);

  const askDelete = (node: ListItemNode) => canDelete && setConfirm({ node, count: subtreeSize(node) });

  async function deleteConfirmed() {
    if (!confirm) return;
    const { node } = confirm;
    setConfirm({ ...confirm, busy: true });
    try {
      await client.remove(node.li_id);
      const index = rowIndexOf(rows, node.li_id);
      setTree((t) => t && removeNode(t, node.li_id));
      setConfirm(null);
      announce(translate('ls.lists.deleted', { title: node.li_title, count: confirm.count }));
      // Focus stays near: the row that takes the deleted one's place, else the one above.
      const after = rows.slice(index + 1).find((r) => r.kind === 'node' && !isWithin(tree ?? [], r.node.li_id, node.li_id));
      const before = rows[index - 1];
      const next = after?.kind === 'node' ? after.node.li_id : before?.kind === 'node' ? before.node.li_id : null;
      if (next) focusRow(next);
    } catch (e) {
      setConfirm({ ...confirm, busy: false, error: failure(e) });
    }
  }

  return { confirm, setConfirm, askDelete, deleteConfirmed };
}
