import { memo, useCallback, useEffect, useMemo, useRef, useState, type DragEvent, type KeyboardEvent, type ReactElement } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputBase from '@mui/material/InputBase';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import DownloadIcon from '@mui/icons-material/Download';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import UnfoldLessIcon from '@mui/icons-material/UnfoldLess';
import UnfoldMoreIcon from '@mui/icons-material/UnfoldMore';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { useLocaleState, useTranslate } from 'react-admin';
import { LIST_MAX_DEPTH } from '../../../resources/listItems';
import { failureText } from '../providers/failure';
import { ApiRequestError } from '../providers/http';
import { useSession } from '../layout/useSession';
import { canInAccount } from '../permissions';
import { listApi, type ListImportFailure } from './listApi';
import { ListImportDialog, type ListImportState } from './ListImportDialog';
import {
  countNodes,
  findPlace,
  insertNode,
  isWithin,
  mapNode,
  parentIds,
  planIndent,
  planMove,
  planOutdent,
  planShift,
  removeNode,
  subtreeHeight,
  subtreeSize,
  visibleRows,
  type ListItemNode,
  type Move,
  type TreeRow,
} from './listTree';
import { useWindow } from './useWindow';

export const ROW_HEIGHT = 40;
const INDENT = 24;
/** The tree's viewport when the page gives it no measured height. */
const DEFAULT_HEIGHT = 560;

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** What is being typed (the text itself lives in the field): a new title for an item, or a new item below a parent (null: top level). */
type Editing = { kind: 'rename'; id: string; error?: string; busy?: boolean } | { kind: 'add'; parentId: string | null; error?: string; busy?: boolean };

/** What a row asks of the editor; one stable object, so rows that did not change do not render again. */
interface RowActions {
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

interface Permissions {
  create: boolean;
  update: boolean;
  delete: boolean;
}

type Row = ({ kind: 'node' } & TreeRow) | { kind: 'add'; depth: number; parentId: string | null };

type DropPosition = 'before' | 'inside' | 'after';

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
  const number = (n: number) => new Intl.NumberFormat(locale).format(n);
  const { session } = useSession();
  const allowed = (bit: string) => canInAccount(session, accountId, 'account_lists', bit);
  const canCreate = allowed('create');
  const canUpdate = allowed('update');
  const canDelete = allowed('delete');
  const client = useMemo(() => listApi(accountId, listId), [accountId, listId]);

  const [tree, setTree] = useState<ListItemNode[] | null>(null);
  const [loadError, setLoadError] = useState<string | undefined>();
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const [editing, setEditingState] = useState<Editing | null>(null);
  const editingRef = useRef<Editing | null>(null);
  const setEditing = (next: Editing | null) => {
    editingRef.current = next;
    setEditingState(next);
  };
  const [confirm, setConfirm] = useState<{ node: ListItemNode; count: number; busy?: boolean; error?: string } | null>(null);
  const [notice, setNotice] = useState<string | undefined>();
  const [announcement, setAnnouncement] = useState('');
  const [drag, setDrag] = useState<{ id: string; overId?: string; position?: DropPosition } | null>(null);
  const [importState, setImportState] = useState<ListImportState>({ state: 'idle' });
  const fileInput = useRef<HTMLInputElement>(null);
  const treeRef = useRef<ListItemNode[] | null>(null);
  treeRef.current = tree;
  const moveQueue = useRef<Promise<unknown>>(Promise.resolve());
  const focusAfterRender = useRef(false);

  const load = useCallback(
    async (signal?: AbortSignal, expandAll = false) => {
      try {
        const nodes = await client.tree(signal);
        setTree(nodes);
        setLoadError(undefined);
        if (expandAll) setExpanded(new Set(parentIds(nodes)));
      } catch (e) {
        if (signal?.aborted) return;
        setLoadError(failureText(e, translate));
      }
    },
    [client, translate],
  );

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal, true);
    return () => controller.abort();
  }, [load]);

  const rows: Row[] = useMemo(() => {
    const list: Row[] = visibleRows(tree ?? [], expanded).map((r) => ({ kind: 'node', ...r }));
    if (editing?.kind !== 'add') return list;
    if (editing.parentId === null) return [...list, { kind: 'add', depth: 1, parentId: null }];
    const at = list.findIndex((r) => r.kind === 'node' && r.node.li_id === editing.parentId);
    if (at < 0) return list;
    let end = at + 1;
    while (end < list.length && list[end].depth > list[at].depth) end++;
    list.splice(end, 0, { kind: 'add', depth: list[at].depth + 1, parentId: editing.parentId });
    return list;
  }, [tree, expanded, editing?.kind, editing?.kind === 'add' ? editing.parentId : undefined]);

  const viewport = Math.min(height, Math.max(rows.length, 1) * ROW_HEIGHT);
  const { ref: scrollRef, onScroll, start, end, totalHeight, scrollToIndex } = useWindow(rows.length, ROW_HEIGHT, viewport);
  const indexOf = (id: string) => rows.findIndex((r) => r.kind === 'node' && r.node.li_id === id);

  /** Moves keyboard focus to a row, scrolling it into view (and rendering it) first. */
  const focusRow = (id: string | null) => {
    if (!id) return;
    setFocusedId(id);
    focusAfterRender.current = true;
  };
  // After a render that moved keyboard focus: scroll the row into the window first (it renders), then focus it.
  useEffect(() => {
    if (!focusAfterRender.current || !focusedId) return;
    const index = indexOf(focusedId);
    if (index >= 0 && (index < start || index >= end)) return scrollToIndex(index);
    focusAfterRender.current = false;
    const el = [...(scrollRef.current?.querySelectorAll<HTMLElement>('[data-id]') ?? [])].find((x) => x.dataset.id === focusedId);
    if (el) {
      if (index >= 0) scrollToIndex(index);
      el.focus({ preventScroll: true });
    }
  });

  const expand = (id: string, open = true) =>
    setExpanded((prev) => {
      if (prev.has(id) === open) return prev;
      const next = new Set(prev);
      if (open) next.add(id);
      else next.delete(id);
      return next;
    });

  /** Runs API calls one after another (a quick series of moves arrives in order), reloading after a failure. */
  const enqueue = (work: () => Promise<unknown>) => {
    moveQueue.current = moveQueue.current.then(work).catch(async (e) => {
      setNotice(failureText(e, translate));
      await load();
    });
    return moveQueue.current;
  };

  function applyMove(move: Move | undefined) {
    if (!move || !canUpdate || !tree) return;
    const place = findPlace(tree, move.id)!;
    const parentDepth = move.toParentId === null ? 0 : findPlace(tree, move.toParentId)!.depth;
    if (parentDepth + subtreeHeight(place.node) > LIST_MAX_DEPTH) {
      setNotice(translate('error_list_too_deep'));
      return;
    }
    setNotice(undefined);
    setTree(move.tree);
    if (move.toParentId) expand(move.toParentId);
    setAnnouncement(translate('ls.lists.moved', { title: place.node.li_title }));
    const ids = move.siblings.map((n) => n.li_id);
    void enqueue(async () => {
      if (move.fromParentId !== move.toParentId) {
        await client.reparent(move.id, move.toParentId);
        // The server puts a moved item last among its new siblings.
        if (move.toIndex === ids.length - 1) return;
      }
      await client.order(ids);
    });
  }

  /** A drop on a row: before or after it (its sibling), or inside (its last child). */
  function dropMove(id: string, targetId: string, position: DropPosition): Move | undefined {
    if (!tree || id === targetId) return undefined;
    if (position === 'inside') return planMove(tree, id, targetId, Number.MAX_SAFE_INTEGER);
    const without = removeNode(tree, id);
    const target = findPlace(without, targetId);
    if (!target) return undefined;
    return planMove(tree, id, target.parentId, target.index + (position === 'after' ? 1 : 0));
  }

  /** Saves what the field holds; 'cleared' when the field should empty for the next new item. */
  async function saveEditing(current: Editing, draft: string): Promise<'cleared' | undefined> {
    const still = editingRef.current;
    if (!still || still.kind !== current.kind || (still.kind === 'rename' ? still.id !== (current as { id: string }).id : still.parentId !== (current as { parentId: string | null }).parentId)) return;
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
        setEditing({ ...current, busy: false, error: failureText(e, translate) });
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
      setAnnouncement(translate('ls.lists.added', { title: saved.li_title }));
      return 'cleared';
    } catch (e) {
      setEditing({ ...current, busy: false, error: failureText(e, translate) });
    }
  }

  const startAdd = (parentId: string | null) => {
    if (!canCreate) return;
    if (parentId) expand(parentId);
    setEditing({ kind: 'add', parentId });
    const index = parentId === null ? rows.length : indexOf(parentId);
    if (index >= 0) scrollToIndex(index + 1);
  };
  const startRename = (node: ListItemNode) => canUpdate && setEditing({ kind: 'rename', id: node.li_id });
  const askDelete = (node: ListItemNode) => canDelete && setConfirm({ node, count: subtreeSize(node) });

  async function deleteConfirmed() {
    if (!confirm) return;
    const { node } = confirm;
    setConfirm({ ...confirm, busy: true });
    try {
      await client.remove(node.li_id);
      const index = indexOf(node.li_id);
      setTree((t) => t && removeNode(t, node.li_id));
      setConfirm(null);
      setAnnouncement(translate('ls.lists.deleted', { title: node.li_title, count: confirm.count }));
      // Focus stays near: the row that takes the deleted one's place, else the one above.
      const after = rows.slice(index + 1).find((r) => r.kind === 'node' && !isWithin(tree ?? [], r.node.li_id, node.li_id));
      const before = rows[index - 1];
      const next = after?.kind === 'node' ? after.node.li_id : before?.kind === 'node' ? before.node.li_id : null;
      if (next) focusRow(next);
    } catch (e) {
      setConfirm({ ...confirm, busy: false, error: failureText(e, translate) });
    }
  }

  async function importFile(file: File) {
    if (!/\.(csv|txt)$/i.test(file.name)) {
      setImportState({ state: 'wrong_type' });
      return;
    }
    setImportState({ state: 'busy', file: file.name });
    try {
      const result = await client.importFile(file);
      setImportState({ state: 'success', created: result.created });
      await load(undefined, true);
    } catch (e) {
      setImportState({ state: 'failed', body: e instanceof ApiRequestError ? (e.body as ListImportFailure) : { code: 'network' } });
    }
  }

  function onRowKeyDown(e: KeyboardEvent<HTMLElement>, node: ListItemNode, parentId: string | null) {
    if (e.target !== e.currentTarget) return; // keys typed in the row's field or on its buttons
    const index = indexOf(node.li_id);
    const hasChildren = node.children.length > 0;
    const open = expanded.has(node.li_id);
    const handled = () => {
      e.preventDefault();
      e.stopPropagation();
    };
    if (e.altKey) {
      const plan = { ArrowUp: () => planShift(tree!, node.li_id, -1), ArrowDown: () => planShift(tree!, node.li_id, 1), ArrowRight: () => planIndent(tree!, node.li_id), ArrowLeft: () => planOutdent(tree!, node.li_id) }[e.key];
      if (!plan) return;
      handled();
      applyMove(plan());
      focusAfterRender.current = true;
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
        startRename(node);
        break;
      case 'Insert':
        handled();
        startAdd(node.li_id);
        break;
      case 'Delete':
        handled();
        askDelete(node);
        break;
    }
  }

  function onDragOver(e: DragEvent<HTMLElement>, node: ListItemNode) {
    if (!drag || !tree || isWithin(tree, node.li_id, drag.id)) return;
    const rect = e.currentTarget.getBoundingClientRect();
    const y = e.clientY - rect.top;
    const position: DropPosition = y < rect.height * 0.25 ? 'before' : y > rect.height * 0.75 ? 'after' : 'inside';
    e.preventDefault();
    e.dataTransfer.dropEffect = 'move';
    if (drag.overId !== node.li_id || drag.position !== position) setDrag({ ...drag, overId: node.li_id, position });
  }

  const total = useMemo(() => (tree ? countNodes(tree) : 0), [tree]);
  const may: Permissions = useMemo(() => ({ create: canCreate, update: canUpdate, delete: canDelete }), [canCreate, canUpdate, canDelete]);
  const live = useRef<RowActions>(null!);
  live.current = {
    keyDown: onRowKeyDown,
    focus: setFocusedId,
    toggle: expand,
    addChild: (node) => startAdd(node ? node.li_id : null),
    rename: startRename,
    remove: askDelete,
    dragStart(e, id) {
      e.dataTransfer.setData('text/plain', id);
      e.dataTransfer.effectAllowed = 'move';
      setDrag({ id });
    },
    dragOver: onDragOver,
    drop(e, id) {
      e.preventDefault();
      if (drag?.position && drag.overId === id) applyMove(dropMove(drag.id, id, drag.position));
      setDrag(null);
    },
    dragEnd: () => setDrag(null),
  };
  const actions = useMemo<RowActions>(
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
  // The toolbar does not change while the tree scrolls: kept out of each scroll step's render.
  const loaded = tree !== null;
  const toolbar = useMemo(
    () => (
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center', mb: 1 }}>
        {canCreate && (
          <Button size="small" variant="contained" startIcon={<AddIcon />} onClick={() => live.current.addChild(null)} disabled={!loaded}>
            {translate('ls.lists.add')}
          </Button>
        )}
        {canCreate && (
          <Button size="small" startIcon={<UploadFileIcon />} onClick={() => fileInput.current?.click()} data-testid="list-import">
            {translate('ls.lists.import')}
          </Button>
        )}
        <Button size="small" startIcon={<DownloadIcon />} href={client.exportUrl} download>
          {translate('ls.lists.export')}
        </Button>
        <Button size="small" startIcon={<UnfoldMoreIcon />} onClick={() => treeRef.current && setExpanded(new Set(parentIds(treeRef.current)))}>
          {translate('ls.lists.expand_all')}
        </Button>
        <Button size="small" startIcon={<UnfoldLessIcon />} onClick={() => setExpanded(new Set())}>
          {translate('ls.lists.collapse_all')}
        </Button>
        <Typography variant="body2" color="text.secondary" sx={{ ml: 'auto' }} data-testid="list-count">
          {loaded ? translate('ls.lists.items', { count: total, smart_count: total, total: number(total) }) : translate('ls.common.loading')}
        </Typography>
      </Stack>
    ),
    [canCreate, loaded, total, translate, locale, client],
  );
  const tabbable = rows.slice(start, end).some((r) => r.kind === 'node' && r.node.li_id === focusedId) ? focusedId : (rows.slice(start, end).find((r) => r.kind === 'node') as (Row & { kind: 'node' }) | undefined)?.node.li_id;

  if (loadError && !tree)
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void load(undefined, true)}>
            {translate('ls.lists.retry')}
          </Button>
        }
      >
        {translate('ls.lists.load_failed')} {loadError}
      </Alert>
    );

  return (
    <Box data-testid="list-tree-editor">
      {toolbar}
      <input
        ref={fileInput}
        type="file"
        accept=".csv,.txt,text/csv,text/plain"
        hidden
        data-testid="list-import-input"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void importFile(file);
        }}
      />
      {canUpdate && (
        <Typography variant="caption" color="text.secondary" component="p" id={`list-tree-help-${listId}`} sx={{ mb: 1, display: { xs: 'none', sm: 'block' } }}>
          {translate('ls.lists.keyboard_help')}
        </Typography>
      )}
      {notice && (
        <Alert severity="error" onClose={() => setNotice(undefined)} sx={{ mb: 1 }}>
          {notice}
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
        <Box
          ref={scrollRef}
          onScroll={onScroll}
          role="tree"
          aria-label={translate('ls.lists.tree')}
          aria-describedby={canUpdate ? `list-tree-help-${listId}` : undefined}
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
                  over={drag?.overId === node.li_id ? drag.position : undefined}
                  draggable={canUpdate && !editing}
                  may={may}
                  actions={actions}
                />
              );
            })}
          </Box>
        </Box>
      )}

      <Dialog open={!!confirm} onClose={confirm?.busy ? undefined : () => setConfirm(null)} aria-labelledby="list-delete-title" maxWidth="xs" fullWidth>
        <DialogTitle id="list-delete-title">{confirm && translate('ls.lists.delete_title', { title: confirm.node.li_title })}</DialogTitle>
        <DialogContent>
          <DialogContentText data-testid="list-delete-text">{confirm && translate('ls.lists.delete_text', { count: confirm.count, smart_count: confirm.count, total: number(confirm.count), title: confirm.node.li_title })}</DialogContentText>
          {confirm?.error && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {confirm.error}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirm(null)} disabled={confirm?.busy}>
            {translate('ls.common.cancel')}
          </Button>
          <Button color="error" variant="contained" onClick={() => void deleteConfirmed()} disabled={confirm?.busy} data-testid="list-delete-confirm">
            {translate('ls.lists.delete_confirm')}
          </Button>
        </DialogActions>
      </Dialog>

      <ListImportDialog status={importState} onClose={() => setImportState({ state: 'idle' })} />
    </Box>
  );
}

/** One item's row: expand toggle, title, value, and its buttons (memoised: only rows whose props change render). */
const TreeItemRow = memo(function TreeItemRow({
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

/**
 * The row's title field, holding its own text (typing renders only this row): Enter saves, Escape cancels, leaving
 * the field saves what was typed. After a new item is saved the field empties for the next one.
 */
function EditRow({
  top,
  depth,
  initial,
  error,
  busy,
  label,
  placeholder,
  onEdit,
  onSave,
  onCancel,
}: {
  top: number;
  depth: number;
  initial: string;
  error?: string;
  busy?: boolean;
  label: string;
  placeholder?: string;
  onEdit: () => void;
  onSave: (draft: string) => Promise<'cleared' | undefined>;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  // Escape pressed, a save under way, or the row leaving: a blur then saves nothing.
  const done = useRef(false);
  const saving = useRef(false);
  useEffect(
    () => () => {
      done.current = true;
    },
    [],
  );
  const save = async () => {
    if (saving.current || done.current) return;
    saving.current = true;
    try {
      if ((await onSave(draft)) === 'cleared') setDraft('');
    } finally {
      saving.current = false;
    }
  };
  return (
    <Box
      role="treeitem"
      aria-level={depth}
      aria-selected
      style={{ top, paddingLeft: (depth - 1) * INDENT + 38 }}
      sx={{ position: 'absolute', left: 0, right: 0, height: ROW_HEIGHT, display: 'flex', alignItems: 'center', gap: 1, pr: 1 }}
    >
      <InputBase
        autoFocus
        value={draft}
        placeholder={placeholder}
        readOnly={busy}
        onChange={(e) => {
          setDraft(e.target.value);
          if (error) onEdit();
        }}
        onKeyDown={(e) => {
          e.stopPropagation();
          if (e.key === 'Enter') {
            e.preventDefault();
            void save();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            done.current = true;
            onCancel();
          }
        }}
        onBlur={() => void save()}
        inputProps={{ 'aria-label': label, 'aria-invalid': error ? true : undefined, 'data-testid': 'list-tree-input', maxLength: 500 }}
        sx={{ flex: '1 1 auto', px: 1, border: 1, borderColor: error ? 'error.main' : 'primary.main', borderRadius: 1, fontSize: 'body1.fontSize' }}
      />
      {error && (
        <Typography variant="caption" color="error" role="alert" noWrap sx={{ flex: '0 1 auto', maxWidth: '50%' }}>
          {error}
        </Typography>
      )}
    </Box>
  );
}

export default ListTreeEditor;
