import { useCallback, useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import { FileDropZone } from '../layout/FileDropZone';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CloudUploadIcon from '@mui/icons-material/CloudUploadOutlined';
import CloseIcon from '@mui/icons-material/Close';
import ReplayIcon from '@mui/icons-material/Replay';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/ErrorOutlineOutlined';
import { useLocaleState, useTranslate } from 'react-admin';
import { ACCEPT } from '../../../resources/files';
import { mediaApi } from './mediaApi';
import { newId, putWithProgress } from '../uploads/transfer';
import { RETRYABLE, runUploads, type UploadDeps, type UploadItem } from './upload';
import { FileKindIcon, fileKind } from './fileKinds';
import { formatBytes } from './format';

const realDeps: UploadDeps = {
  sign: mediaApi.sign,
  put: (url, file, onProgress) => putWithProgress(url, file, onProgress),
  register: mediaApi.register,
};

/**
 * Spec 4's uploader: dropped or picked files go into a list where each can be removed; "Upload" signs them all,
 * PUTs each with a progress bar, registers each, and skips a failed file with its reason. `onUploaded` runs after
 * every batch that stored at least one file (the file list refreshes).
 */
export function Uploader({ folderId, folderName, onUploaded }: { folderId: string | null; folderName: string; onUploaded: () => void }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [items, setItems] = useState<UploadItem[]>([]);
  const [busy, setBusy] = useState(false);
  const [summary, setSummary] = useState<{ done: number; failed: number } | null>(null);

  const add = useCallback((files: FileList | File[] | null) => {
    if (!files || !files.length) return;
    const added = Array.from(files).map((file): UploadItem => ({ key: newId(), file, status: 'queued', progress: 0 }));
    setItems((prev) => [...prev, ...added]);
    setSummary(null);
  }, []);

  const update = useCallback((key: string, patch: Partial<UploadItem>) => {
    setItems((prev) => prev.map((item) => (item.key === key ? { ...item, ...patch } : item)));
  }, []);

  // Closing or reloading the page would cut the uploads off: let the browser ask first.
  useEffect(() => {
    if (!busy) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [busy]);

  const queued = items.filter((i) => i.status === 'queued');
  const finished = items.some((i) => i.status === 'done' || i.status === 'failed');

  async function start() {
    if (!queued.length || busy) return;
    setBusy(true);
    setSummary(null);
    try {
      const result = await runUploads(queued, folderId, realDeps, update);
      setSummary(result);
      if (result.done > 0) onUploaded();
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }} data-testid="uploader" aria-labelledby="uploader-title">
      <Typography id="uploader-title" variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        {translate('ls.media.upload.title', { folder: folderName })}
      </Typography>
      <FileDropZone
        accept={ACCEPT}
        busy={busy}
        onFiles={add}
        dropText={translate('ls.media.upload.drop')}
        chooseText={translate('ls.media.upload.choose')}
        hint={translate('ls.media.upload.allowed', { types: ACCEPT.split(',').join(' ') })}
        testIds={{ zone: 'dropzone', choose: 'choose-files', input: 'upload-input' }}
      />

      {items.length > 0 && (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mt: 1.5, display: 'grid', gap: 1 }} aria-label={translate('ls.media.upload.list')} data-testid="upload-list">
          {items.map((item) => (
            <UploadRow
              key={item.key}
              item={item}
              locale={locale ?? 'en'}
              busy={busy}
              onRemove={() => setItems((prev) => prev.filter((i) => i.key !== item.key))}
              onRetry={() => update(item.key, { status: 'queued', progress: 0, error: undefined })}
            />
          ))}
        </Box>
      )}

      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: items.length ? 1.5 : 0, '&:empty': { display: 'none' } }}>
        {(queued.length > 0 || busy) && (
          <Button variant="contained" startIcon={<CloudUploadIcon />} onClick={start} disabled={busy || !queued.length} data-testid="start-upload">
            {busy ? translate('ls.media.upload.busy') : translate('ls.media.upload.start', { count: queued.length, smart_count: queued.length })}
          </Button>
        )}
        {finished && !busy && (
          <Button onClick={() => setItems((prev) => prev.filter((i) => i.status === 'queued'))} data-testid="clear-uploads">
            {translate('ls.media.upload.clear')}
          </Button>
        )}
        {summary && (
          <Typography variant="body2" role="status" data-testid="upload-summary" sx={{ ml: { sm: 'auto' } }}>
            {[
              summary.done ? translate('ls.media.upload.summary_done', { count: summary.done, smart_count: summary.done }) : '',
              summary.failed ? translate('ls.media.upload.summary_failed', { count: summary.failed, smart_count: summary.failed }) : '',
            ]
              .filter(Boolean)
              .join(' · ')}
          </Typography>
        )}
      </Box>
    </Paper>
  );
}

function UploadRow({ item, locale, busy, onRemove, onRetry }: { item: UploadItem; locale: string; busy: boolean; onRemove: () => void; onRetry: () => void }) {
  const translate = useTranslate();
  const name = item.file.name;
  const percent = Math.round(item.progress * 100);
  const active = item.status === 'uploading' || item.status === 'registering';
  return (
    <Box
      component="li"
      data-testid="upload-item"
      data-status={item.status}
      sx={{
        display: 'grid',
        gridTemplateColumns: 'auto minmax(0, 1fr) auto',
        alignItems: 'center',
        columnGap: 1.5,
        px: 1.5,
        py: 1,
        border: 1,
        borderColor: item.status === 'failed' ? 'error.main' : 'divider',
        borderRadius: 1.5,
      }}
    >
      <Box sx={{ color: 'text.secondary', display: 'flex' }}>
        {item.status === 'done' ? (
          <CheckCircleIcon color="success" />
        ) : item.status === 'failed' ? (
          <ErrorIcon color="error" />
        ) : (
          <FileKindIcon kind={fileKind(item.file.type, name)} />
        )}
      </Box>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }} data-testid="upload-name">
          {name}
        </Typography>
        <Typography
          variant="caption"
          color={item.status === 'failed' ? 'error' : 'text.secondary'}
          component="p"
          data-testid="upload-state"
          role={item.status === 'failed' ? 'alert' : undefined}
        >
          {formatBytes(item.file.size, locale)}
          {' · '}
          {item.status === 'failed' && item.error
            ? translate(item.error, { _: item.error })
            : item.status === 'uploading'
              ? translate('ls.media.upload.percent', { percent })
              : translate(`ls.media.upload.state_${item.status}`)}
        </Typography>
        {active && (
          <LinearProgress
            variant={item.status === 'registering' ? 'indeterminate' : 'determinate'}
            value={percent}
            sx={{ mt: 0.5, height: 6, borderRadius: 3 }}
            aria-label={`${name}: ${translate('ls.media.upload.percent', { percent })}`}
            data-testid="upload-progress"
          />
        )}
      </Box>
      <Box sx={{ display: 'flex' }}>
        {item.status === 'failed' && !busy && item.error && RETRYABLE.has(item.error) && (
          <Tooltip title={translate('ls.media.upload.retry', { name })}>
            <IconButton size="small" onClick={onRetry} aria-label={translate('ls.media.upload.retry', { name })}>
              <ReplayIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        {!active && (
          <Tooltip title={translate('ls.media.upload.remove', { name })}>
            <span>
              <IconButton
                size="small"
                onClick={onRemove}
                disabled={busy && item.status === 'queued'}
                aria-label={translate('ls.media.upload.remove', { name })}
                data-testid="remove-upload"
              >
                <CloseIcon fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
        )}
      </Box>
    </Box>
  );
}
