import { useMemo, useRef } from 'react';
import type { RowActions } from './treeRows';

/** One object for every row whose methods call this render's handlers: the rows are memoised on it and need not render again when a handler does. */
export function useRowActions(current: RowActions): RowActions {
  const live = useRef<RowActions>(current);
  live.current = current;
  return useMemo<RowActions>(
    () => ({
      keyDown: (e, node, parentId) => live.current.keyDown(e, node, parentId),
      focus: (id) => live.current.focus(id),
      toggle: (id, open) => live.current.toggle(id, open),
      addChild: (node) => live.current.addChild(node),
      rename: (node) => live.current.rename(node),
      remove: (node) => live.current.remove(node),
      dragStart: (e, id) => live.current.dragStart(e, id),
      dragOver: (e, node) => live.current.dragOver(e, node),
      drop: (e, id) => live.current.drop(e, id),
      dragEnd: () => live.current.dragEnd(),
    }),
    [],
  );
}
