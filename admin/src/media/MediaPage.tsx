import { useEffect, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import CreateNewFolderIcon from '@mui/icons-material/CreateNewFolderOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Title, useLogoutIfAccessDenied, useNotify, useTranslate } from 'react-admin';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { isUuid } from '../../../resources/fields';
import { ApiRequestError } from '../providers/http';
import { canEntry } from '../permissions';
import { useSession } from '../layout/useSession';
import { DelayedProgress } from '../layout/DelayedProgress';
import { mediaApi, mediaKeys, type MediaFile, type MediaFolder } from './mediaApi';
import { MediaBreadcrumb } from './MediaBreadcrumb';
import { FolderList } from './FolderList';
import { FileList } from './FileList';
import { Uploader } from './Uploader';
import { failureText } from '../providers/failure';
import { ConfirmDeleteDialog, FolderDialog } from './dialogs';

/** A 4xx is an answer (not found, no access): asking again will not change it. */
const retry = (count: number, e: unknown) => !(e instanceof ApiRequestError && e.status < 500) && count < 2;

type Dialog = { kind: 'new' } | { kind: 'rename'; folder: MediaFolder } | { kind: 'delete-folder'; folder: MediaFolder } | { kind: 'delete-file'; file: MediaFile } | null;

/**
 * /media (spec 2 and 4): breadcrumb, folders, files and the uploader of the current folder, which lives in the
 * address (?folder=<id>), so reload, back and forward keep it. Gated by entry_files; each action by its own bit.
 */
export default function MediaPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  const { session } = useSession();
  const [params] = useSearchParams();
  const raw = params.get('folder');
  const folderId = raw ? raw.toLowerCase() : null;
  const valid = folderId === null || isUuid(folderId);
  // The dialog's subject stays while it closes (its title does not blank out during the transition).
  const [dialog, setDialogState] = useState<Dialog>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const setDialog = (d: Dialog) => {
    if (d) setDialogState(d);
    setDialogOpen(!!d);
  };
  const isOpen = (kind: NonNullable<Dialog>['kind']) => dialogOpen && dialog?.kind === kind;

  const can = (action: 'create' | 'edit' | 'delete') => canEntry(session, 'media', action);

  const parents = useQuery({ queryKey: mediaKeys.parents(folderId), queryFn: () => mediaApi.parents(folderId), enabled: valid, retry });
  const folders = useQuery({ queryKey: mediaKeys.folders(folderId), queryFn: () => mediaApi.folders(folderId), enabled: valid, retry });
  const files = useQuery({ queryKey: mediaKeys.files(folderId), queryFn: () => mediaApi.files(folderId), enabled: valid, retry });
  const failed = [parents.error, folders.error, files.error].find(Boolean);
  useEffect(() => {
    // An expired session: react-admin's usual way out (to /login).
    if (failed instanceof ApiRequestError && failed.status === 401) void logoutIfAccessDenied(failed);
  }, [failed, logoutIfAccessDenied]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: mediaKeys.all });
  const chain = parents.data ?? [];
  const current = chain[chain.length - 1];
  const currentName = folderId ? (current?.fo_title ?? '…') : translate('ls.media.root');

  const notFound = !valid || (failed instanceof ApiRequestError && failed.status === 404);

  let body: ReactNode;
  if (notFound) {
    body = (
      <Alert
        severity="warning"
        data-testid="folder-not-found"
        action={
          <Button component={RouterLink} to="/media" color="inherit" size="small">
            {translate('ls.media.back_to_root')}
          </Button>
        }
      >
        {translate('ls.media.folder_not_found')}
      </Alert>
    );
  } else if (failed) {
    body = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void refresh()}>
            {translate('ls.media.retry')}
          </Button>
        }
      >
        {failureText(failed, translate)}
      </Alert>
    );
  } else {
    body = (
      <>
        {can('create') && <Uploader folderId={folderId} folderName={currentName} onUploaded={() => void refresh()} />}
        <Section title={translate('ls.media.folders')} count={folders.data?.length} testId="folders-section">
          {folders.data ? (
            <FolderList
              folders={folders.data}
              canRename={can('edit')}
              canDelete={can('delete')}
              onRename={(folder) => setDialog({ kind: 'rename', folder })}
              onDelete={(folder) => setDialog({ kind: 'delete-folder', folder })}
            />
          ) : (
            <DelayedProgress />
          )}
        </Section>
        <Section title={translate('ls.media.files')} count={files.data?.length} testId="files-section">
          {files.data ? <FileList files={files.data} canDelete={can('delete')} onDelete={(file) => setDialog({ kind: 'delete-file', file })} /> : <DelayedProgress />}
        </Section>
      </>
    );
  }

  return (
    <Box sx={{ mt: { xs: 1, sm: 2 }, mb: 4, display: 'grid', gap: 2, minWidth: 0 }} data-testid="media-page">
      <Title title={translate('ls.media.title')} />
      <Paper variant="outlined" sx={{ px: { xs: 1.5, sm: 2 }, py: 1.25, display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, justifyContent: 'space-between' }}>
        <Box sx={{ minWidth: 0, flex: '1 1 240px' }}>
          {/* The chain is known once the parents arrive; until then only the root shows. */}
          <MediaBreadcrumb chain={notFound ? [] : chain} />
        </Box>
        {can('create') && !notFound && !failed && (
          <Button variant="contained" startIcon={<CreateNewFolderIcon />} onClick={() => setDialog({ kind: 'new' })} data-testid="new-folder">
            {translate('ls.media.new_folder')}
          </Button>
        )}
      </Paper>
      {body}

      <FolderDialog
        open={isOpen('new')}
        title={translate('ls.media.new_folder_in', { folder: currentName })}
        submitLabel={translate('ls.media.create')}
        onClose={() => setDialog(null)}
        onSubmit={async (title) => {
          const created = await mediaApi.createFolder(title, folderId);
          await refresh();
          notify('ls.media.folder_created', { type: 'success', messageArgs: { name: created.fo_title } });
        }}
      />
      <FolderDialog
        open={isOpen('rename')}
        title={translate('ls.media.rename_folder')}
        initial={dialog?.kind === 'rename' ? dialog.folder.fo_title : ''}
        submitLabel={translate('ls.media.rename')}
        onClose={() => setDialog(null)}
        onSubmit={async (title) => {
          if (dialog?.kind !== 'rename') return;
          await mediaApi.renameFolder(dialog.folder.fo_id, title);
          await refresh();
        }}
      />
      <ConfirmDeleteDialog
        open={isOpen('delete-folder')}
        title={dialog?.kind === 'delete-folder' ? translate('ls.media.delete_folder_title', { name: dialog.folder.fo_title }) : ''}
        text={translate('ls.media.delete_folder_text')}
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete-folder') return;
          await mediaApi.deleteFolder(dialog.folder.fo_id);
          await refresh();
          notify('ls.media.folder_deleted', { type: 'success', messageArgs: { name: dialog.folder.fo_title } });
        }}
      />
      <ConfirmDeleteDialog
        open={isOpen('delete-file')}
        title={dialog?.kind === 'delete-file' ? translate('ls.media.delete_file_title', { name: dialog.file.fs_filename }) : ''}
        text={translate('ls.media.delete_file_text')}
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete-file') return;
          await mediaApi.deleteFile(dialog.file.fs_id);
          await refresh();
          notify('ls.media.file_deleted', { type: 'success', messageArgs: { name: dialog.file.fs_filename } });
        }}
      />
    </Box>
  );
}

function Section({ title, count, testId, children }: { title: string; count?: number; testId: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title} data-testid={testId} sx={{ minWidth: 0 }}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1, display: 'flex', alignItems: 'center', gap: 1 }}>
        {title}
        {count !== undefined && <Chip size="small" label={count} />}
      </Typography>
      {children}
    </Box>
  );
}
