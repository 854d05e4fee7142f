import { useState } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import DownloadIcon from '@mui/icons-material/Download';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useLocaleState, useTranslate } from 'react-admin';
import { CopyButton } from '../layout/CopyButton';
import type { MediaFile } from './mediaApi';
import { FileKindIcon, fileKind, hasThumbnail } from './fileKinds';
import { formatBytes } from './format';

/** The current folder's files: a thumbnail for png/jpeg/jpg, an icon by type otherwise; open, download, copy, delete. */
export function FileList({ files, canDelete, onDelete }: { files: MediaFile[]; canDelete: boolean; onDelete: (file: MediaFile) => void }) {
  const translate = useTranslate();
  if (!files.length)
    return (
      <Typography color="text.secondary" variant="body2" data-testid="no-files">
        {translate('ls.media.no_files')}
      </Typography>
    );
  return (
    <Box
      component="ul"
      aria-label={translate('ls.media.files')}
      data-testid="file-list"
      sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(auto-fill, minmax(200px, 1fr))' } }}
    >
      {files.map((file) => (
        <FileCard key={file.fs_id} file={file} canDelete={canDelete} onDelete={() => onDelete(file)} />
      ))}
    </Box>
  );
}

function Preview({ file }: { file: MediaFile }) {
  const [broken, setBroken] = useState(false);
  if (hasThumbnail(file.fs_extension) && !broken)
    return (
      <Box
        component="img"
        src={file.url}
        alt={file.fs_filename}
        loading="lazy"
        decoding="async"
        onError={() => setBroken(true)}
        data-testid="thumbnail"
        sx={{ width: '100%', height: '100%', objectFit: 'contain', display: 'block' }}
      />
    );
  return <FileKindIcon kind={fileKind(file.fs_type, file.fs_filename)} sx={{ fontSize: { xs: 36, sm: 48 }, color: 'text.secondary' }} data-testid="file-icon" />;
}

function FileCard({ file, canDelete, onDelete }: { file: MediaFile; canDelete: boolean; onDelete: () => void }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const name = file.fs_filename;
  const absolute = typeof window === 'undefined' ? file.url : new URL(file.url, window.location.origin).toString();
  return (
    <Paper
      component="li"
      variant="outlined"
      data-testid="file"
      data-id={file.fs_id}
      sx={{
        overflow: 'hidden',
        display: 'grid',
        // Phones: a row (preview left); wider: a card (preview on top).
        gridTemplateColumns: { xs: '88px minmax(0, 1fr)', sm: '1fr' },
        gridTemplateRows: { xs: 'auto', sm: 'auto 1fr' },
      }}
    >
      <Box
        component="a"
        href={file.url}
        target="_blank"
        rel="noopener"
        tabIndex={-1}
        aria-hidden
        sx={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          bgcolor: 'action.hover',
          aspectRatio: { xs: '1 / 1', sm: '4 / 3' },
          borderStyle: 'solid',
          borderColor: 'divider',
          borderWidth: { xs: '0 1px 0 0', sm: '0 0 1px 0' },
          p: { xs: 0.5, sm: 1 },
        }}
      >
        <Preview file={file} />
      </Box>
      <Box sx={{ p: 1.25, pb: 0.5, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere', lineHeight: 1.35 }} title={name} data-testid="file-name">
          {name}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {file.fs_extension.toUpperCase()} · {formatBytes(file.fs_size, locale ?? 'en')}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', mt: 'auto', pt: 0.5, ml: -0.75 }}>
          <Tooltip title={translate('ls.media.open')}>
            <IconButton size="small" component="a" href={file.url} target="_blank" rel="noopener" aria-label={translate('ls.media.open_named', { name })} data-testid="open-file">
              <OpenInNewIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title={translate('ls.media.download')}>
            <IconButton
              size="small"
              component="a"
              href={`${file.url}?download`}
              download={name}
              aria-label={translate('ls.media.download_named', { name })}
              data-testid="download-file"
            >
              <DownloadIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          <CopyButton value={absolute} label={translate('ls.media.url_of', { name })} />
          {canDelete && (
            <Tooltip title={translate('ls.media.delete')}>
              <IconButton size="small" onClick={onDelete} aria-label={translate('ls.media.delete_named', { name })} sx={{ ml: 'auto' }} data-testid="delete-file">
                <DeleteIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
        </Box>
      </Box>
    </Paper>
  );
}
