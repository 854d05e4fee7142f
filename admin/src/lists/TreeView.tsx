import type { RefObject, UIEvent } from 'react';
import Box from '@mui/material/Box';
import { useTranslate } from 'react-admin';
import { EditRow } from './EditRow';
import { TreeItemRow } from './TreeItemRow';
import { ROW_HEIGHT, type DropPosition, type Editing, type Permissions, type Row, type RowActions } from './treeRows';

export interface TreeViewProps {
  rows: readonly Row[];
  /** The window of rows drawn: [start, end). */
  start: number;
  end: number;
  totalHeight: number;
  viewport: number;
  scrollRef: RefObject<HTMLDivElement | null>;
  onScroll: (e: UIEvent<HTMLDivElement>) => void;
  /** The keyboard help's id (editors only). */
  describedBy: string | undefined;
  expanded: ReadonlySet<string>;
  focusedId: string | null;
  tabbable: string | null | undefined;
  /** The row a drag is over, and where on it the item would land. */
  overId: string | undefined;
  overPosition: DropPosition | undefined;
  draggable: boolean;
  may: Permissions;
  actions: RowActions;
  editing: Editing | null;
  setEditing: (next: Editing | null) => void;
  saveEditing: (current: Editing, draft: string) => Promise<'cleared' | undefined>;
  focusRow: (id: string | null) => void;
}

/** The tree's scroll box with the rows in the window drawn at their places: items, and the row being typed as a field. */
export function TreeView({
  rows,
  start,
  end,
  totalHeight,
  viewport,
  scrollRef,
  onScroll,
  describedBy,
  expanded,
  focusedId,
  tabbable,
  overId,
  overPosition,
  draggable,
  may,
  actions,
  editing,
  setEditing,
  saveEditing,
  focusRow,
}: TreeViewProps) {
  const translate = useTranslate();
  return (
    <Box
      ref={scrollRef}
      onScroll={onScroll}
      role="tree"
      aria-label={translate('ls.lists.tree')}
      aria-describedby={describedBy}
      data-testid="list-tree"
      sx={{ height: viewport, maxHeight: '70vh', overflow: 'auto', position: 'relative', border: 1, borderColor: 'divider', borderRadius: 1 }}
    >
      <Box sx={{ height: totalHeight, position: 'relative' }}>
        {rows.slice(start, end).map((row, k) => {
          const top = (start + k) * ROW_HEIGHT;
          if (row.kind === 'add') {
            const current = editing?.kind === 'add' ? editing : undefined;
            return (
              <EditRow
                key="__add"
                top={top}
                depth={row.depth}
                initial=""
                error={current?.error}
                busy={current?.busy}
                label={translate('ls.lists.new_item')}
                placeholder={translate('ls.lists.new_item_placeholder')}
                onEdit={() => current?.error && setEditing({ ...current, error: undefined })}
                onSave={(draft) => (current ? saveEditing(current, draft) : Promise.resolve(undefined))}
                onCancel={() => {
                  setEditing(null);
                  if (row.parentId) focusRow(row.parentId);
                }}
              />
            );
          }
          const { node } = row;
          const renaming = editing?.kind === 'rename' && editing.id === node.li_id ? editing : undefined;
          if (renaming)
            return (
              <EditRow
                key={node.li_id}
                top={top}
                depth={row.depth}
                initial={node.li_title}
                error={renaming.error}
                busy={renaming.busy}
                label={translate('ls.lists.rename', { title: node.li_title })}
                onEdit={() => renaming.error && setEditing({ ...renaming, error: undefined })}
                onSave={(draft) => saveEditing(renaming, draft)}
                onCancel={() => {
                  setEditing(null);
                  focusRow(node.li_id);
                }}
              />
            );
          return (
            <TreeItemRow
              key={node.li_id}
              node={node}
              depth={row.depth}
              parentId={row.parentId}
              index={row.index}
              siblings={row.siblings}
              top={top}
              open={expanded.has(node.li_id)}
              focused={focusedId === node.li_id}
              tabbable={tabbable === node.li_id}
              over={overId === node.li_id ? overPosition : undefined}
              draggable={draggable}
              may={may}
              actions={actions}
            />
          );
        })}
      </Box>
    </Box>
  );
}
