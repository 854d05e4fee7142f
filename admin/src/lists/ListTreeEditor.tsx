import { useCallback, useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useLocaleState, useTranslate } from 'react-admin';
import { failureText } from '../providers/failure';
import { ConfirmDeleteDialog } from '../editing/ConfirmDeleteDialog';
import { LoadFailed } from '../editing/LoadFailed';
import { useLatest } from '../editing/useLatest';
import { useSession } from '../layout/useSession';
import { canInAccount } from '../permissions';
import { listApi } from './listApi';
import { ListImportDialog } from './ListImportDialog';
import { countNodes, parentIds } from './listTree';
import { ListToolbar } from './ListToolbar';
import { handleRowKey } from './treeKeys';
import { ROW_HEIGHT, rowsOf, type Permissions } from './treeRows';
import { TreeView } from './TreeView';
import { useExpanded } from './useExpanded';
import { useListDelete } from './useListDelete';
import { useListImport } from './useListImport';
import { useListTree } from './useListTree';
import { useRowActions } from './useRowActions';
import { useTreeDrag } from './useTreeDrag';
import { useTreeEditing, useEditingState } from './useTreeEditing';
import { useTreeFocus } from './useTreeFocus';
import { useTreeMoves } from './useTreeMoves';
import { useWindow } from './useWindow';

export { ROW_HEIGHT } from './treeRows';
/** The tree's viewport when the page gives it no measured height. */
const DEFAULT_HEIGHT = 560;

export interface ListTreeEditorProps {
  accountId: string;
  listId: string;
  /** The tree's visible height in px (default 560, at most 70% of the window). */
  height?: number;
}

/**
 * The items of one list as a tree (account-console.md: lists, list-items): add a child, rename inline (Enter saves,
 * Escape cancels), reorder and move by drag and drop or by keyboard (Alt+arrows), delete a subtree after a
 * confirmation that says how many items go, import a CSV or indented text and export CSV. Only the rows in view are
 * rendered, so a list of thousands stays quick. Buttons follow the caller's account_lists bits.
 */
export function ListTreeEditor({ accountId, listId, height = DEFAULT_HEIGHT }: ListTreeEditorProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { session } = useSession();
  const allowed = (bit: string) => canInAccount(session, accountId, 'account_lists', bit);
  const canCreate = allowed('create');
  const canUpdate = allowed('update');
  const canDelete = allowed('delete');
  const may: Permissions = useMemo(() => ({ create: canCreate, update: canUpdate, delete: canDelete }), [canCreate, canUpdate, canDelete]);
  const client = useMemo(() => listApi(accountId, listId), [accountId, listId]);
  const failure = useCallback((e: unknown) => failureText(e, translate), [translate]);
  const [announcement, setAnnouncement] = useState('');

  const { expanded, setExpanded, expand } = useExpanded();
  const { tree, setTree, loadError, load } = useListTree(client, failure, setExpanded);
  const treeRef = useLatest(tree);
  const reload = () => load();
  const edit = useEditingState();
  const { editing, setEditing } = edit;

  const addingUnder = editing?.kind === 'add' ? editing.parentId : undefined;
  const rows = useMemo(() => rowsOf(tree, expanded, addingUnder), [tree, expanded, addingUnder]);
  const viewport = Math.min(height, Math.max(rows.length, 1) * ROW_HEIGHT);
  const win = useWindow(rows.length, ROW_HEIGHT, viewport);
  const focus = useTreeFocus(rows, win);
  const { focusRow } = focus;

  const moves = useTreeMoves({ client, tree, setTree, canUpdate, reload, expand, announce: setAnnouncement, failure, translate });
  const editor = useTreeEditing({ edit, client, tree, setTree, rows, may, expand, scrollToIndex: win.scrollToIndex, focusRow, announce: setAnnouncement, failure, translate });
  const deletion = useListDelete({ client, tree, setTree, rows, canDelete, focusRow, announce: setAnnouncement, failure, translate });
  const importing = useListImport(client, () => load(undefined, true));
  const drag = useTreeDrag(tree, moves.applyMove);

  const actions = useRowActions({
    keyDown: (e, node, parentId) =>
      handleRowKey(e, node, parentId, {
        tree,
        rows,
        expanded,
        expand,
        focusRow,
        focusAfterRender: focus.focusAfterRender,
        applyMove: moves.applyMove,
        startRename: editor.startRename,
        startAdd: editor.startAdd,
        askDelete: deletion.askDelete,
      }),
    focus: focus.setFocusedId,
    toggle: expand,
    addChild: (node) => editor.startAdd(node ? node.li_id : null),
    rename: editor.startRename,
    remove: deletion.askDelete,
    dragStart: drag.dragStart,
    dragOver: drag.dragOver,
    drop: drag.drop,
    dragEnd: drag.dragEnd,
  });
  const total = useMemo(() => (tree ? countNodes(tree) : 0), [tree]);
  const addTopLevel = useCallback(() => actions.addChild(null), [actions]);
  const expandAll = useCallback(() => treeRef.current && setExpanded(new Set(parentIds(treeRef.current))), [treeRef, setExpanded]);
  const collapseAll = useCallback(() => setExpanded(new Set()), [setExpanded]);
  const { confirm } = deletion;

  if (loadError && !tree)
    return (
      <LoadFailed retryLabel={translate('ls.lists.retry')} onRetry={() => void load(undefined, true)}>
        {translate('ls.lists.load_failed')} {loadError}
      </LoadFailed>
    );

  return (
    <Box data-testid="list-tree-editor">
      <ListToolbar
        canCreate={canCreate}
        loaded={tree !== null}
        total={total}
        exportUrl={client.exportUrl}
        onAdd={addTopLevel}
        onImport={importing.chooseFile}
        onExpandAll={expandAll}
        onCollapseAll={collapseAll}
      />
      <input
        ref={importing.fileInput}
        type="file"
        accept=".csv,.txt,text/csv,text/plain"
        hidden
        data-testid="list-import-input"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void importing.importFile(file);
        }}
      />
      {canUpdate && (
        <Typography variant="caption" color="text.secondary" component="p" id={`list-tree-help-${listId}`} sx={{ mb: 1, display: { xs: 'none', sm: 'block' } }}>
          {translate('ls.lists.keyboard_help')}
        </Typography>
      )}
      {moves.notice && (
        <Alert severity="error" onClose={() => moves.setNotice(undefined)} sx={{ mb: 1 }}>
          {moves.notice}
        </Alert>
      )}
      <Box sx={{ position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' }} aria-live="polite" role="status">
        {announcement}
      </Box>
      {tree && total === 0 && editing?.kind !== 'add' ? (
        <Typography color="text.secondary" sx={{ py: 2 }}>
          {translate('ls.lists.empty')}
        </Typography>
      ) : (
        <TreeView
          rows={rows}
          start={win.start}
          end={win.end}
          totalHeight={win.totalHeight}
          viewport={viewport}
          scrollRef={win.ref}
          onScroll={win.onScroll}
          describedBy={canUpdate ? `list-tree-help-${listId}` : undefined}
          expanded={expanded}
          focusedId={focus.focusedId}
          tabbable={focus.tabbable}
          overId={drag.drag?.overId}
          overPosition={drag.drag?.position}
          draggable={canUpdate && !editing}
          may={may}
          actions={actions}
          editing={editing}
          setEditing={setEditing}
          saveEditing={editor.saveEditing}
          focusRow={focusRow}
        />
      )}

      <ConfirmDeleteDialog
        open={!!confirm}
        titleId="list-delete-title"
        title={confirm && translate('ls.lists.delete_title', { title: confirm.node.li_title })}
        text={
          confirm &&
          translate('ls.lists.delete_text', {
            count: confirm.count,
            smart_count: confirm.count,
            total: new Intl.NumberFormat(locale).format(confirm.count),
            title: confirm.node.li_title,
          })
        }
        error={confirm?.error}
        busy={confirm?.busy}
        cancelLabel={translate('ls.common.cancel')}
        confirmLabel={translate('ls.lists.delete_confirm')}
        onCancel={() => deletion.setConfirm(null)}
        onConfirm={() => void deletion.deleteConfirmed()}
        maxWidth="xs"
        fullWidth
        textTestId="list-delete-text"
        confirmTestId="list-delete-confirm"
      />

      <ListImportDialog status={importing.importState} onClose={importing.closeDialog} />
    </Box>
  );
}

export default ListTreeEditor;
