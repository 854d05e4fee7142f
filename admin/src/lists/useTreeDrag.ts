import { useState, type DragEvent } from 'react';
import { findPlace, isWithin, planMove, removeNode, type ListItemNode, type Move } from './listTree';
import type { DropPosition } from './treeRows';

/** A drop on a row: before or after it (its sibling), or inside (its last child). */
function dropMove(tree: ListItemNode[] | null, id: string, targetId: string, position: DropPosition): Move | undefined {
  if (!tree || id === targetId) return undefined;
  if (position === 'inside') return planMove(tree, id, targetId, Number.MAX_SAFE_INTEGER);
  const without = removeNode(tree, id);
  const target = findPlace(without, targetId);
  if (!target) return undefined;
  return planMove(tree, id, target.parentId, target.index + (position === 'after' ? 1 : 0));
}

/** Dragging an item onto another: where it would land (the top quarter: before, the bottom one: after, else inside), and the move on drop. */
export function useTreeDrag(tree: ListItemNode[] | null, applyMove: (move: Move | undefined) => void) {
  const [drag, setDrag] = useState<{ id: string; overId?: string; position?: DropPosition } | null>(null);

  function dragStart(e: DragEvent<HTMLElement>, id: string) {
    e.dataTransfer.setData('text/plain', id);
    e.dataTransfer.effectAllowed = 'move';
    setDrag({ id });
  }

  function dragOver(e: DragEvent<HTMLElement>, node: ListItemNode) {
    if (!drag || !tree || isWithin(tree, node.li_id, drag.id)) return;
    const rect = e.currentTarget.getBoundingClientRect();
    const y = e.clientY - rect.top;
    const position: DropPosition = y < rect.height * 0.25 ? 'before' : y > rect.height * 0.75 ? 'after' : 'inside';
    e.preventDefault();
    e.dataTransfer.dropEffect = 'move';
    if (drag.overId !== node.li_id || drag.position !== position) setDrag({ ...drag, overId: node.li_id, position });
  }

  function drop(e: DragEvent<HTMLElement>, id: string) {
    e.preventDefault();
    if (drag?.position && drag.overId === id) applyMove(dropMove(tree, drag.id, id, drag.position));
    setDrag(null);
  }

  const dragEnd = () => setDrag(null);

  return { drag, dragStart, dragOver, drop, dragEnd };
}
