import { useRef, useState, type Dispatch, type SetStateAction } from 'react';
import type { ListApi } from './listApi';
import { findPlace, insertNode, mapNode, type ListItemNode } from './listTree';
import { rowIndexOf, type Editing, type Row } from './treeRows';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The row being typed in, if any; the ref knows it at once (a save that finishes checks it is still the same row). */
export function useEditingState() {
  const [editing, setEditingState] = useState<Editing | null>(null);
  const editingRef = useRef<Editing | null>(null);
  const setEditing = (next: Editing | null) => {
    editingRef.current = next;
    setEditingState(next);
  };
  return { editing, setEditing, editingRef };
}

interface Deps {
  edit: ReturnType<typeof useEditingState>;
  client: ListApi;
  tree: ListItemNode[] | null;
  setTree: Dispatch<SetStateAction<ListItemNode[] | null>>;
  rows: readonly Row[];
  may: { create: boolean; update: boolean };
  expand: (id: string) => void;
  scrollToIndex: (index: number) => void;
  focusRow: (id: string | null) => void;
  announce: (text: string) => void;
  failure: (e: unknown) => string;
  translate: Translate;
}

/** Renaming an item and adding items in place: which row is a field, and saving what it holds. */
export function useTreeEditing({ edit, client, tree, setTree, rows, may, expand, scrollToIndex, focusRow, announce, failure, translate }: Deps) {
  const { setEditing, editingRef } = edit;

  /** Saves what the field holds; 'cleared' when the field should empty for the next new item. */
  async function saveEditing(current: Editing, draft: string): Promise<'cleared' | undefined> {
    const still = editingRef.current;
    if (
      !still ||
      still.kind !== current.kind ||
      (still.kind === 'rename' ? still.id !== (current as { id: string }).id : still.parentId !== (current as { parentId: string | null }).parentId)
    )
      return;
    const title = draft.trim();
    if (current.kind === 'rename') {
      const node = tree && findPlace(tree, current.id)?.node;
      if (!node || !title || title === node.li_title) {
        setEditing(null);
        return;
      }
      setEditing({ ...current, busy: true, error: undefined });
      try {
        const saved = await client.rename(current.id, title);
        setTree((t) => t && mapNode(t, current.id, (n) => ({ ...n, li_title: saved.li_title, li_value: saved.li_value })));
        if (editingRef.current?.kind === 'rename' && editingRef.current.id === current.id) setEditing(null);
        focusRow(current.id);
      } catch (e) {
        setEditing({ ...current, busy: false, error: failure(e) });
      }
      return;
    }
    if (!title) {
      setEditing(null);
      if (current.parentId) focusRow(current.parentId);
      return;
    }
    setEditing({ ...current, busy: true, error: undefined });
    try {
      const saved = await client.create(current.parentId, title);
      const node: ListItemNode = { li_id: saved.li_id, li_title: saved.li_title, li_value: saved.li_value, children: [] };
      setTree((t) => insertNode(t ?? [], current.parentId, node));
      // Stay in the new row for the next item.
      setEditing({ kind: 'add', parentId: current.parentId });
      announce(translate('ls.lists.added', { title: saved.li_title }));
      return 'cleared';
    } catch (e) {
      setEditing({ ...current, busy: false, error: failure(e) });
    }
  }

  const startAdd = (parentId: string | null) => {
    if (!may.create) return;
    if (parentId) expand(parentId);
    setEditing({ kind: 'add', parentId });
    const index = parentId === null ? rows.length : rowIndexOf(rows, parentId);
    if (index >= 0) scrollToIndex(index + 1);
  };
  const startRename = (node: ListItemNode) => may.update && setEditing({ kind: 'rename', id: node.li_id });

  return { saveEditing, startAdd, startRename };
}
