import { useState } from 'react';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import BookmarkIcon from '@mui/icons-material/Bookmark';
import BookmarksIcon from '@mui/icons-material/Bookmarks';
import CheckIcon from '@mui/icons-material/Check';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import GroupIcon from '@mui/icons-material/Group';
import SaveIcon from '@mui/icons-material/Save';
import AddIcon from '@mui/icons-material/Add';
import { Confirm, useCreate, useDelete, useGetList, useListContext, useNotify, useTranslate, useUpdate } from 'react-admin';
import type { ResourceDeclaration } from '../../../resources/types';
import { useSession } from '../layout/useSession';
import { failureText } from '../providers/failure';
import { useResourceAccess } from '../generated/access';
import { useListColumns } from '../generated/columns';
import { activeFilter } from '../generated/listTools';

/** A saved view as the API answers it (resources/views.ts). */
export interface SavedView {
  id: string;
  vw_id: string;
  vw_resource: string;
  vw_title: string;
  vw_filter: Record<string, unknown>;
  vw_sort: [string, 'ASC' | 'DESC'] | null;
  vw_columns: string[] | null;
  vw_shared: boolean;
  vw_ownerid: string;
}

type Asked = { kind: 'save' } | { kind: 'rename'; view: SavedView } | null;

/** The dialog that names a new view (and shares it, when the caller may change the list) or renames one. */
function ViewDialog({ asked, canShare, busy, onClose, onSave }: { asked: Asked; canShare: boolean; busy: boolean; onClose(): void; onSave(title: string, shared: boolean): void }) {
  const translate = useTranslate();
  const [title, setTitle] = useState(asked?.kind === 'rename' ? asked.view.vw_title : '');
  const [shared, setShared] = useState(false);
  const valid = title.trim().length > 0 && title.trim().length <= 200;
  return (
    <Dialog open={!!asked} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="view-dialog-title">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) onSave(title.trim(), shared);
        }}
      >
        <DialogTitle id="view-dialog-title">{translate(asked?.kind === 'rename' ? 'ls.list_tools.view_rename_title' : 'ls.list_tools.view_save_title')}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            label={translate('ls.list_tools.view_title')}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            slotProps={{ htmlInput: { maxLength: 200, 'data-testid': 'view-title' } }}
          />
          {asked?.kind === 'save' && canShare && (
            <FormControlLabel
              control={<Checkbox checked={shared} onChange={(e) => setShared(e.target.checked)} data-testid="view-shared" />}
              label={translate('ls.list_tools.view_shared_label')}
            />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={!valid || busy} data-testid="view-dialog-save">
            {translate('ra.action.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/**
 * A list's "Views" menu (platform-and-flows.md 1): the caller's own and the account's shared views of this list (apply:
 * filter, sort and columns), save what the list shows as a new view (shared only with the list's update bit), and for
 * the view applied, if it is one's own: save the list's current state into it, rename, share or stop sharing, delete
 * (confirmed).
 */
export function ViewsMenu({ decl }: { decl: ResourceDeclaration }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { filterValues, setFilters, sort, setSort } = useListContext();
  const { canUpdate: canShare } = useResourceAccess(decl.name);
  const { session } = useSession();
  const columns = useListColumns(decl);
  const { data: views = [], refetch } = useGetList<SavedView>('views', {
    filter: { vw_resource: decl.name },
    sort: { field: 'vw_title', order: 'ASC' },
    pagination: { page: 1, perPage: 100 },
  });
  const [create] = useCreate();
  const [update] = useUpdate();
  const [remove] = useDelete();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [current, setCurrent] = useState<string | null>(null);
  const [asked, setAsked] = useState<Asked>(null);
  const [deleting, setDeleting] = useState<SavedView | null>(null);
  const [busy, setBusy] = useState(false);
  const active = views.find((v) => v.id === current);
  const own = !!active && active.vw_ownerid === session?.user.u_id;

  /** What the list shows now, as a view's fields. */
  const state = () => ({
    vw_filter: activeFilter(filterValues ?? {}),
    vw_sort: [sort.field, sort.order] as [string, 'ASC' | 'DESC'],
    vw_columns: columns.shown,
  });

  const apply = (view: SavedView) => {
    setAnchor(null);
    const [field, order] = view.vw_sort ?? [decl.defaultSort.field, decl.defaultSort.order];
    setSort({ field, order });
    const filter = view.vw_filter ?? {};
    setFilters(filter, Object.fromEntries(Object.keys(filter).map((k) => [k, true])));
    columns.show(view.vw_columns);
    setCurrent(view.id);
  };

  const run = async (work: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await work();
      notify(done, { type: 'success' });
      await refetch();
      return true;
    } catch (err) {
      notify(failureText(err, translate), { type: 'error' });
      return false;
    } finally {
      setBusy(false);
    }
  };

  const save = async (title: string, shared: boolean) => {
    if (asked?.kind === 'rename') {
      const view = asked.view;
      if (await run(() => update('views', { id: view.id, data: { vw_title: title }, previousData: view }, { returnPromise: true }), translate('ls.list_tools.view_saved')))
        setAsked(null);
      return;
    }
    let created: SavedView | undefined;
    const ok = await run(async () => {
      created = (await create('views', { data: { vw_resource: decl.name, vw_title: title, vw_shared: shared, ...state() } }, { returnPromise: true })) as SavedView;
    }, translate('ls.list_tools.view_saved'));
    if (ok) {
      setAsked(null);
      if (created) setCurrent(created.id);
    }
  };

  const change = (view: SavedView, data: Partial<SavedView>, done: string) => {
    setAnchor(null);
    void run(() => update('views', { id: view.id, data, previousData: view }, { returnPromise: true }), done);
  };

  return (
    <>
      <Button size="small" startIcon={<BookmarksIcon />} onClick={(e) => setAnchor(e.currentTarget)} aria-haspopup="menu" aria-expanded={!!anchor} data-testid="views-button">
        {active ? `${translate('ls.list_tools.views')}: ${active.vw_title}` : translate('ls.list_tools.views')}
      </Button>
      {anchor && (
        <Menu anchorEl={anchor} open onClose={() => setAnchor(null)} slotProps={{ list: { dense: true, 'aria-label': translate('ls.list_tools.views') } }}>
          {views.length === 0 && (
            <MenuItem disabled>
              <ListItemText>{translate('ls.list_tools.views_none')}</ListItemText>
            </MenuItem>
          )}
          {views.map((view) => (
            <MenuItem key={view.id} selected={view.id === current} onClick={() => apply(view)} data-testid="view-item">
              <ListItemIcon>
                {view.id === current ? <CheckIcon fontSize="small" /> : view.vw_shared ? <GroupIcon fontSize="small" /> : <BookmarkIcon fontSize="small" />}
              </ListItemIcon>
              <ListItemText
                secondary={view.vw_shared ? translate(view.vw_ownerid === session?.user.u_id ? 'ls.list_tools.view_shared' : 'ls.list_tools.view_shared_by_other') : undefined}
              >
                {view.vw_title}
              </ListItemText>
            </MenuItem>
          ))}
          <Divider />
          <MenuItem
            onClick={() => {
              setAnchor(null);
              setAsked({ kind: 'save' });
            }}
            data-testid="view-save-new"
          >
            <ListItemIcon>
              <AddIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{translate('ls.list_tools.view_save')}</ListItemText>
          </MenuItem>
          {active &&
            own && [
              <MenuItem key="update" onClick={() => change(active, state(), translate('ls.list_tools.view_saved'))} data-testid="view-update">
                <ListItemIcon>
                  <SaveIcon fontSize="small" />
                </ListItemIcon>
                <ListItemText>{translate('ls.list_tools.view_update', { title: active.vw_title })}</ListItemText>
              </MenuItem>,
              <MenuItem
                key="rename"
                onClick={() => {
                  setAnchor(null);
                  setAsked({ kind: 'rename', view: active });
                }}
                data-testid="view-rename"
              >
                <ListItemIcon>
                  <EditIcon fontSize="small" />
                </ListItemIcon>
                <ListItemText>{translate('ls.list_tools.view_rename')}</ListItemText>
              </MenuItem>,
              // Sharing needs the list's update bit; stopping needs nothing.
              (canShare || active.vw_shared) && (
                <MenuItem
                  key="share"
                  onClick={() => change(active, { vw_shared: !active.vw_shared }, translate(active.vw_shared ? 'ls.list_tools.view_unshared' : 'ls.list_tools.view_now_shared'))}
                  data-testid="view-share"
                >
                  <ListItemIcon>
                    <GroupIcon fontSize="small" />
                  </ListItemIcon>
                  <ListItemText>{translate(active.vw_shared ? 'ls.list_tools.view_unshare' : 'ls.list_tools.view_share')}</ListItemText>
                </MenuItem>
              ),
              <MenuItem
                key="delete"
                onClick={() => {
                  setAnchor(null);
                  setDeleting(active);
                }}
                sx={{ color: 'error.main' }}
                data-testid="view-delete"
              >
                <ListItemIcon>
                  <DeleteIcon fontSize="small" color="error" />
                </ListItemIcon>
                <ListItemText>{translate('ls.list_tools.view_delete')}</ListItemText>
              </MenuItem>,
            ]}
        </Menu>
      )}
      {asked && <ViewDialog asked={asked} canShare={canShare} busy={busy} onClose={() => setAsked(null)} onSave={save} />}
      <Confirm
        isOpen={!!deleting}
        loading={busy}
        title={translate('ls.list_tools.view_delete_title', { title: deleting?.vw_title ?? '' })}
        content={translate('ls.list_tools.view_delete_text')}
        confirm={translate('ra.action.delete')}
        confirmColor="warning"
        onConfirm={async () => {
          const view = deleting!;
          if (await run(() => remove('views', { id: view.id, previousData: view }, { returnPromise: true }), translate('ls.list_tools.view_deleted'))) {
            setDeleting(null);
            if (current === view.id) setCurrent(null);
          }
        }}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
