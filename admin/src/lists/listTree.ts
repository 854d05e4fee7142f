import type { ListItemNode } from '../../../resources/listItems';

/**
 * The tree editor's model without React: the visible rows of a tree, where a node is, and the tree after a move,
 * an insert, a rename or a delete (new arrays along the changed path; untouched subtrees are shared).
 */

export type { ListItemNode };

/** One visible row: the node, its depth (top level 1), its parent and place among its siblings. */
export interface TreeRow {
  node: ListItemNode;
  depth: number;
  parentId: string | null;
  index: number;
  siblings: number;
}

/** The rows a reader sees, in order: a collapsed node hides its subtree. */
export function visibleRows(roots: readonly ListItemNode[], expanded: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const stack: [readonly ListItemNode[], number, string | null, number][] = [[roots, 1, null, 0]];
  while (stack.length) {
    const top = stack[stack.length - 1];
    const [siblings, depth, parentId, i] = top;
    if (i >= siblings.length) {
      stack.pop();
      continue;
    }
    top[3] = i + 1;
    const node = siblings[i];
    rows.push({ node, depth, parentId, index: i, siblings: siblings.length });
    if (node.children.length && expanded.has(node.li_id)) stack.push([node.children, depth + 1, node.li_id, 0]);
  }
  return rows;
}

/** Where a node is: its parent's id (null: top level), its index, and the siblings array. */
export interface Place {
  node: ListItemNode;
  parentId: string | null;
  index: number;
  siblings: readonly ListItemNode[];
  depth: number;
}

export function findPlace(roots: readonly ListItemNode[], id: string): Place | undefined {
  const stack: [readonly ListItemNode[], string | null, number][] = [[roots, null, 1]];
  while (stack.length) {
    const [siblings, parentId, depth] = stack.pop()!;
    for (let i = 0; i < siblings.length; i++) {
      const node = siblings[i];
      if (node.li_id === id) return { node, parentId, index: i, siblings, depth };
      if (node.children.length) stack.push([node.children, node.li_id, depth + 1]);
    }
  }
  return undefined;
}

/** How many nodes the subtree holds, itself included. */
export function subtreeSize(node: ListItemNode): number {
  let n = 0;
  const stack = [node];
  while (stack.length) {
    const x = stack.pop()!;
    n++;
    for (const c of x.children) stack.push(c);
  }
  return n;
}

/** How many levels the subtree spans (a leaf: 1). */
export function subtreeHeight(node: ListItemNode): number {
  let h = 0;
  const stack: [ListItemNode, number][] = [[node, 1]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    h = Math.max(h, d);
    for (const c of x.children) stack.push([c, d + 1]);
  }
  return h;
}

export function countNodes(roots: readonly ListItemNode[]): number {
  return roots.reduce((n, r) => n + subtreeSize(r), 0);
}

/** True when `id` is `ancestorId` or lies below it. */
export function isWithin(roots: readonly ListItemNode[], id: string, ancestorId: string): boolean {
  const ancestor = findPlace(roots, ancestorId)?.node;
  if (!ancestor) return false;
  const stack = [ancestor];
  while (stack.length) {
    const x = stack.pop()!;
    if (x.li_id === id) return true;
    for (const c of x.children) stack.push(c);
  }
  return false;
}

/** The tree with one parent's children replaced (null: the top level). */
export function withChildren(roots: readonly ListItemNode[], parentId: string | null, children: ListItemNode[]): ListItemNode[] {
  if (parentId === null) return children;
  return mapNode(roots, parentId, (n) => ({ ...n, children }));
}

/** The tree with one node changed by `fn` (copies along the path to it). */
export function mapNode(roots: readonly ListItemNode[], id: string, fn: (node: ListItemNode) => ListItemNode): ListItemNode[] {
  const walk = (nodes: readonly ListItemNode[]): ListItemNode[] | undefined => {
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i];
      if (n.li_id === id) {
        const copy = nodes.slice();
        copy[i] = fn(n);
        return copy;
      }
      if (n.children.length) {
        const changed = walk(n.children);
        if (changed) {
          const copy = nodes.slice();
          copy[i] = { ...n, children: changed };
          return copy;
        }
      }
    }
    return undefined;
  };
  return walk(roots) ?? (roots as ListItemNode[]);
}

export function removeNode(roots: readonly ListItemNode[], id: string): ListItemNode[] {
  const place = findPlace(roots, id);
  if (!place) return roots as ListItemNode[];
  return withChildren(
    roots,
    place.parentId,
    place.siblings.filter((n) => n.li_id !== id),
  );
}

export function childrenOf(roots: readonly ListItemNode[], parentId: string | null): readonly ListItemNode[] {
  if (parentId === null) return roots;
  return findPlace(roots, parentId)?.node.children ?? [];
}

/** The tree with `node` inserted among `parentId`'s children at `index` (clamped; default last). */
export function insertNode(roots: readonly ListItemNode[], parentId: string | null, node: ListItemNode, index?: number): ListItemNode[] {
  const siblings = childrenOf(roots, parentId).slice();
  siblings.splice(index === undefined ? siblings.length : Math.max(0, Math.min(index, siblings.length)), 0, node);
  return withChildren(roots, parentId, siblings);
}

/** A move: the node, where it goes, and the tree after it. */
export interface Move {
  id: string;
  fromParentId: string | null;
  toParentId: string | null;
  /** Index among the new parent's children after the move. */
  toIndex: number;
  tree: ListItemNode[];
  /** The new parent's children, in their new order. */
  siblings: ListItemNode[];
}

/**
 * Moves a node under `toParentId` at `toIndex` (of the children as they are without the node). Undefined when the
 * move is not one: into itself or its own subtree, or to where it already is.
 */
export function planMove(roots: readonly ListItemNode[], id: string, toParentId: string | null, toIndex: number): Move | undefined {
  const place = findPlace(roots, id);
  if (!place) return undefined;
  if (toParentId !== null && isWithin(roots, toParentId, id)) return undefined;
  const without = removeNode(roots, id);
  const target = childrenOf(without, toParentId);
  const index = Math.max(0, Math.min(toIndex, target.length));
  if (toParentId === place.parentId && index === place.index) return undefined;
  const tree = insertNode(without, toParentId, place.node, index);
  return { id, fromParentId: place.parentId, toParentId, toIndex: index, tree, siblings: childrenOf(tree, toParentId).slice() };
}

/** Alt+Up / Alt+Down: one place up or down among the siblings. */
export function planShift(roots: readonly ListItemNode[], id: string, delta: -1 | 1): Move | undefined {
  const place = findPlace(roots, id);
  if (!place) return undefined;
  const index = place.index + delta;
  if (index < 0 || index >= place.siblings.length) return undefined;
  return planMove(roots, id, place.parentId, index);
}

/** Alt+Right: under the sibling above, as its last child. */
export function planIndent(roots: readonly ListItemNode[], id: string): Move | undefined {
  const place = findPlace(roots, id);
  if (!place || place.index === 0) return undefined;
  const above = place.siblings[place.index - 1];
  return planMove(roots, id, above.li_id, above.children.length);
}

/** Alt+Left: out of its parent, right after it. */
export function planOutdent(roots: readonly ListItemNode[], id: string): Move | undefined {
  const place = findPlace(roots, id);
  if (!place || place.parentId === null) return undefined;
  const parent = findPlace(roots, place.parentId)!;
  return planMove(roots, id, parent.parentId, parent.index + 1);
}

/** Every node id that has children (to expand all). */
export function parentIds(roots: readonly ListItemNode[]): string[] {
  const ids: string[] = [];
  const stack = [...roots];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.children.length) {
      ids.push(n.li_id);
      stack.push(...n.children);
    }
  }
  return ids;
}
