import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import FolderIcon from '@mui/icons-material/FolderOutlined';
import RenameIcon from '@mui/icons-material/DriveFileRenameOutline';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router';
import type { MediaFolder } from './mediaApi';
import { folderHref } from './MediaBreadcrumb';

/** The current folder's subfolders; each opens by link (keyboard: Tab + Enter), with rename and delete by permission. */
export function FolderList({
  folders,
  canRename,
  canDelete,
  onRename,
  onDelete,
}: {
  folders: MediaFolder[];
  canRename: boolean;
  canDelete: boolean;
  onRename: (folder: MediaFolder) => void;
  onDelete: (folder: MediaFolder) => void;
}) {
  const translate = useTranslate();
  if (!folders.length)
    return (
      <Typography color="text.secondary" variant="body2" data-testid="no-folders">
        {translate('ls.media.no_folders')}
      </Typography>
    );
  return (
    <Box
      component="ul"
      aria-label={translate('ls.media.folders')}
      data-testid="folder-list"
      sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', sm: 'repeat(auto-fill, minmax(220px, 1fr))' } }}
    >
      {folders.map((folder) => (
        <Paper
          component="li"
          key={folder.fo_id}
          variant="outlined"
          data-testid="folder"
          data-id={folder.fo_id}
          sx={{ display: 'flex', alignItems: 'center', minWidth: 0, '&:hover': { borderColor: 'primary.main' }, '&:focus-within': { borderColor: 'primary.main' } }}
        >
          <Box
            component={RouterLink}
            to={folderHref(folder.fo_id)}
            data-testid="open-folder"
            sx={{
              flex: 1,
              minWidth: 0,
              display: 'flex',
              alignItems: 'center',
              gap: 1.25,
              px: 1.5,
              py: 1.25,
              color: 'text.primary',
              textDecoration: 'none',
              borderRadius: 'inherit',
              outlineOffset: -2,
              '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineStyle: 'solid' },
            }}
          >
            <FolderIcon sx={{ color: 'primary.main', flexShrink: 0 }} />
            <Typography component="span" sx={{ fontWeight: 500, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={folder.fo_title}>
              {folder.fo_title}
            </Typography>
          </Box>
          {(canRename || canDelete) && (
            <Box sx={{ display: 'flex', pr: 0.5, flexShrink: 0 }}>
              {canRename && (
                <Tooltip title={translate('ls.media.rename')}>
                  <IconButton size="small" onClick={() => onRename(folder)} aria-label={translate('ls.media.rename_named', { name: folder.fo_title })} data-testid="rename-folder">
                    <RenameIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              )}
              {canDelete && (
                <Tooltip title={translate('ls.media.delete')}>
                  <IconButton size="small" onClick={() => onDelete(folder)} aria-label={translate('ls.media.delete_named', { name: folder.fo_title })} data-testid="delete-folder">
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              )}
            </Box>
          )}
        </Paper>
      ))}
    </Box>
  );
}
