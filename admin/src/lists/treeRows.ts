/** The tree editor's rows as drawn (no React): the visible items and, while one is being typed, the new item's row. */
import type { DragEvent, KeyboardEvent } from 'react';
import { visibleRows, type ListItemNode, type TreeRow } from './listTree';

export const ROW_HEIGHT = 40;
export const INDENT = 24;

/** What is being typed (the text itself lives in the field): a new title for an item, or a new item below a parent (null: top level). */
export type Editing = { kind: 'rename'; id: string; error?: string; busy?: boolean } | { kind: 'add'; parentId: string | null; error?: string; busy?: boolean };

export type Row = ({ kind: 'node' } & TreeRow) | { kind: 'add'; depth: number; parentId: string | null };
export type NodeRow = Extract<Row, { kind: 'node' }>;

export type DropPosition = 'before' | 'inside' | 'after';

export interface Permissions {
  create: boolean;
  update: boolean;
  delete: boolean;
}

/** What a row asks of the editor; one stable object, so rows that did not change do not render again. */
export interface RowActions {
  keyDown(e: KeyboardEvent<HTMLElement>, node: ListItemNode, parentId: string | null): void;
  focus(id: string): void;
  toggle(id: string, open: boolean): void;
  addChild(node: ListItemNode | null): void;
  rename(node: ListItemNode): void;
  remove(node: ListItemNode): void;
  dragStart(e: DragEvent<HTMLElement>, id: string): void;
  dragOver(e: DragEvent<HTMLElement>, node: ListItemNode): void;
  drop(e: DragEvent<HTMLElement>, id: string): void;
  dragEnd(): void;
}

/** The open items' rows in order, with the new item's row (while one is typed) last among its parent's descendants. */
export function rowsOf(tree: ListItemNode[] | null, expanded: ReadonlySet<string>, adding: string | null | undefined): Row[] {
  const list: Row[] = visibleRows(tree ?? [], expanded).map((r) => ({ kind: 'node', ...r }));
  if (adding === undefined) return list;
  if (adding === null) return [...list, { kind: 'add', depth: 1, parentId: null }];
  const at = list.findIndex((r) => r.kind === 'node' && r.node.li_id === adding);
  if (at < 0) return list;
  let end = at + 1;
  while (end < list.length && list[end].depth > list[at].depth) end++;
  list.splice(end, 0, { kind: 'add', depth: list[at].depth + 1, parentId: adding });
  return list;
}

/** The row index of an item (-1: not shown). */
export const rowIndexOf = (rows: readonly Row[], id: string): number => rows.findIndex((r) => r.kind === 'node' && r.node.li_id === id);
