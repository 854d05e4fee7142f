import { memo, type ReactElement } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { useTranslate } from 'react-admin';
import type { ListItemNode } from './listTree';
import { INDENT, ROW_HEIGHT, type DropPosition, type Permissions, type RowActions } from './treeRows';

/** One item's row: expand toggle, title, value, and its buttons (memoised: only rows whose props change render). */
export const TreeItemRow = memo(function TreeItemRow({
  node,
  depth,
  parentId,
  index,
  siblings,
  top,
  open,
  focused,
  tabbable,
  over,
  draggable,
  may,
  actions,
}: {
  node: ListItemNode;
  depth: number;
  parentId: string | null;
  index: number;
  siblings: number;
  top: number;
  open: boolean;
  focused: boolean;
  tabbable: boolean;
  over: DropPosition | undefined;
  draggable: boolean;
  may: Permissions;
  actions: RowActions;
}) {
  const translate = useTranslate();
  const actionTab = focused ? 0 : -1;
  const title = node.li_title;
  // A plain title rather than MUI's Tooltip: a screenful of rows mounts on every scroll step.
  const button = (label: string, icon: ReactElement, onClick: () => void) => (
    <IconButton size="small" tabIndex={actionTab} aria-label={label} title={label} onClick={onClick}>
      {icon}
    </IconButton>
  );
  return (
    <Box
      role="treeitem"
      aria-level={depth}
      aria-setsize={siblings}
      aria-posinset={index + 1}
      aria-expanded={node.children.length ? open : undefined}
      aria-selected={focused}
      aria-label={title}
      tabIndex={tabbable ? 0 : -1}
      data-id={node.li_id}
      data-testid="list-tree-row"
      draggable={draggable}
      onFocus={(e) => e.target === e.currentTarget && actions.focus(node.li_id)}
      onKeyDown={(e) => actions.keyDown(e, node, parentId)}
      onDoubleClick={() => actions.rename(node)}
      onDragStart={(e) => actions.dragStart(e, node.li_id)}
      onDragOver={(e) => actions.dragOver(e, node)}
      onDrop={(e) => actions.drop(e, node.li_id)}
      onDragEnd={() => actions.dragEnd()}
      // Position and indent inline: as sx each distinct top would add a CSS class per row ever shown.
      style={{ top, paddingLeft: (depth - 1) * INDENT + 4 }}
      sx={{
        position: 'absolute',
        left: 0,
        right: 0,
        height: ROW_HEIGHT,
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        pr: 0.5,
        cursor: draggable ? 'grab' : 'default',
        outline: 'none',
        bgcolor: over === 'inside' ? 'action.selected' : focused ? 'action.hover' : undefined,
        borderTop: 2,
        borderBottom: 2,
        borderTopColor: over === 'before' ? 'primary.main' : 'transparent',
        borderBottomColor: over === 'after' ? 'primary.main' : 'transparent',
        '&:focus-visible': { boxShadow: (theme) => `inset 0 0 0 2px ${theme.palette.primary.main}` },
        '&:hover .ls-row-actions, &:focus-within .ls-row-actions, &:focus .ls-row-actions': { opacity: 1 },
      }}
    >
      {node.children.length ? (
        <IconButton size="small" tabIndex={-1} aria-label={translate(open ? 'ls.lists.collapse' : 'ls.lists.expand', { title })} onClick={() => actions.toggle(node.li_id, !open)}>
          {open ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
        </IconButton>
      ) : (
        <Box sx={{ width: 34, flex: 'none' }} />
      )}
      <Typography noWrap sx={{ flex: '0 1 auto', minWidth: 0 }}>
        {title}
      </Typography>
      <Typography noWrap variant="caption" sx={{ flex: '1 1 0', minWidth: 0, color: 'text.secondary', display: { xs: 'none', sm: 'block' } }}>
        {node.li_value}
      </Typography>
      <Box className="ls-row-actions" sx={{ display: 'flex', flex: 'none', ml: 'auto', opacity: { xs: 1, md: focused ? 1 : 0.35 } }}>
        {may.create && button(translate('ls.lists.add_child', { title }), <AddIcon fontSize="small" />, () => actions.addChild(node))}
        {may.update && button(translate('ls.lists.rename', { title }), <EditOutlinedIcon fontSize="small" />, () => actions.rename(node))}
        {may.delete && button(translate('ls.lists.delete', { title }), <DeleteOutlineIcon fontSize="small" />, () => actions.remove(node))}
      </Box>
    </Box>
  );
});
