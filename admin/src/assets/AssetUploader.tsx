import { useCallback, useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import { FileDropZone } from '../layout/FileDropZone';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CloudUploadIcon from '@mui/icons-material/CloudUploadOutlined';
import CloseIcon from '@mui/icons-material/Close';
import ReplayIcon from '@mui/icons-material/Replay';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/ErrorOutlineOutlined';
import OpenInNewIcon from '@mui/icons-material/EditOutlined';
import { LinkBase, useCreatePath, useLocaleState, useTranslate } from 'react-admin';
import { ASSET_EXTENSIONS, assetKind } from '../../../resources/assets';
import { formatBytes } from '../media/format';
import { inParallel, newId } from '../uploads/transfer';
import type { AssetFileFields, AssetRecord } from './assetsApi';
import { realUploaderDeps, type UploaderDeps } from './assetDeps';
import { assetTypeOf, identifierFrom, nameFromFilename, runAssetJob, titleFromFilename, uniqueName, type AssetFieldErrors, AssetUploadError } from './assetUpload';
import { AssetThumb } from './AssetThumb';

export const ACCEPT_ASSETS = ASSET_EXTENSIONS.map((e) => `.${e}`).join(',');
/** Files sent at the same time. */
const PARALLEL = 2;

type Status = 'queued' | 'uploading' | 'registering' | 'done' | 'failed';

interface QueueItem {
  key: string;
  file: File;
  title: string;
  name: string;
  /** The name was typed (it no longer follows the title). */
  nameTyped: boolean;
  /** The browser's thumbnail: undefined while it is being made, null when there is none. */
  thumb: Blob | null | undefined;
  preview?: string;
  status: Status;
  progress: number;
  error?: string;
  fields: AssetFieldErrors;
  retryable: boolean;
  uploaded?: AssetFileFields;
  asset?: AssetRecord;
}

/**
 * Uploads new assets (account-console.md: assets): files picked or dropped join a queue where each shows the
 * thumbnail the browser made, and a title and name taken from its file name (names kept unique within the queue) that
 * can be changed first. "Upload" sends each (two at a time) with a progress bar; a refused file says why (a type no
 * asset may have, too large, a taken name under the name field) and keeps what was typed and what was already stored,
 * so correcting the name and uploading again registers the same bytes. `onUploaded` runs for every new asset.
 */
export function AssetUploader({ accountId, onUploaded, deps }: { accountId: string; onUploaded?: (asset: AssetRecord) => void; deps?: UploaderDeps }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [items, setItems] = useState<QueueItem[]>([]);
  const [busy, setBusy] = useState(false);
  // The summary and "clear" appear once an upload has run (a file refused on arrival is not a finished upload).
  const [ran, setRan] = useState(false);
  const latest = useRef<QueueItem[]>([]);
  latest.current = items;
  const thumbs = useRef(new Map<string, Promise<Blob | null>>());
  const using = useRef<UploaderDeps>(deps ?? realUploaderDeps(accountId));
  using.current = deps ?? using.current;

  const update = useCallback((key: string, patch: Partial<QueueItem>) => {
    setItems((prev) => prev.map((item) => (item.key === key ? { ...item, ...patch } : item)));
  }, []);

  // Object URLs of the previews are freed with the screen.
  useEffect(() => () => latest.current.forEach((i) => i.preview && URL.revokeObjectURL(i.preview)), []);

  // Closing or reloading the page would cut the uploads off: let the browser ask first.
  useEffect(() => {
    if (!busy) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [busy]);

  const add = useCallback(
    (files: FileList | File[] | null) => {
      if (!files?.length) return;
      const taken = new Set(latest.current.filter((i) => i.status !== 'done').map((i) => i.name));
      const added = Array.from(files).map((file): QueueItem => {
        const key = newId();
        const type = assetTypeOf(file.name);
        const name = uniqueName(nameFromFilename(file.name), taken);
        taken.add(name);
        const item: QueueItem = {
          key,
          file,
          title: titleFromFilename(file.name),
          name,
          nameTyped: false,
          thumb: undefined,
          status: 'queued',
          progress: 0,
          fields: {},
          retryable: true,
        };
        if (!type) return { ...item, thumb: null, status: 'failed', error: 'error_asset_type_not_allowed', retryable: false };
        const made = using.current.thumbnail(file, type).catch(() => null);
        thumbs.current.set(key, made);
        void made.then((thumb) => update(key, { thumb, preview: thumb ? URL.createObjectURL(thumb) : undefined }));
        return item;
      });
      setItems((prev) => [...prev, ...added]);
    },
    [update],
  );

  function remove(item: QueueItem) {
    if (item.preview) URL.revokeObjectURL(item.preview);
    thumbs.current.delete(item.key);
    setItems((prev) => prev.filter((i) => i.key !== item.key));
  }

  /** A changed title (the name follows it until typed) or name: a row that failed over its fields is ready again. */
  function edit(item: QueueItem, field: 'as_title' | 'as_name', value: string) {
    const patch: Partial<QueueItem> = field === 'as_title' ? { title: value } : { name: value, nameTyped: true };
    if (field === 'as_title' && !item.nameTyped) patch.name = identifierFrom(value);
    const fields = { ...item.fields };
    delete fields[field];
    if (field === 'as_title' && !item.nameTyped) delete fields.as_name;
    patch.fields = fields;
    if (item.status === 'failed' && item.retryable && !Object.keys(fields).length) Object.assign(patch, { status: 'queued', error: undefined });
    update(item.key, patch);
  }

  async function runOne(key: string) {
    const item = latest.current.find((i) => i.key === key);
    if (!item) return;
    update(key, { status: 'uploading', progress: 0, error: undefined, fields: {} });
    const thumb = item.thumb !== undefined ? item.thumb : await (thumbs.current.get(key) ?? Promise.resolve(null));
    try {
      const asset = await runAssetJob({ file: item.file, title: item.title, name: item.name, thumb, uploaded: item.uploaded }, using.current, (p) => {
        const patch: Partial<QueueItem> = {};
        if (p.stage) patch.status = p.stage;
        if (p.progress !== undefined) patch.progress = p.progress;
        if ('uploaded' in p) patch.uploaded = p.uploaded;
        update(key, patch);
      });
      update(key, { status: 'done', asset, progress: 1 });
      onUploaded?.(asset);
    } catch (e) {
      const err = e instanceof AssetUploadError ? e : new AssetUploadError('error_upload_failed');
      update(key, { status: 'failed', error: err.key, fields: err.fields, retryable: err.retryable });
    }
  }

  async function run(keys: string[]) {
    if (!keys.length || busy) return;
    setBusy(true);
    setRan(true);
    try {
      await inParallel(keys, PARALLEL, runOne);
    } finally {
      setBusy(false);
    }
  }

  const queued = items.filter((i) => i.status === 'queued');
  const done = items.filter((i) => i.status === 'done').length;
  const failed = items.filter((i) => i.status === 'failed').length;
  const finished = ran && done + failed > 0;

  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }} data-testid="asset-uploader">
      <FileDropZone
        accept={ACCEPT_ASSETS}
        busy={busy}
        onFiles={add}
        dropText={translate('ls.assets.upload.drop')}
        chooseText={translate('ls.assets.upload.choose')}
        hint={translate('ls.assets.upload.allowed', { types: ASSET_EXTENSIONS.join(', ') })}
        testIds={{ zone: 'asset-dropzone', choose: 'asset-choose-files', input: 'asset-upload-input' }}
      />

      {items.length > 0 && (
        <Box
          component="ul"
          sx={{ listStyle: 'none', p: 0, m: 0, mt: 1.5, display: 'grid', gap: 1 }}
          aria-label={translate('ls.assets.upload.list')}
          data-testid="asset-upload-list"
        >
          {items.map((item) => (
            <QueueRow
              key={item.key}
              item={item}
              locale={locale ?? 'en'}
              busy={busy}
              onEdit={(field, value) => edit(item, field, value)}
              onRemove={() => remove(item)}
              onRetry={() => void run([item.key])}
            />
          ))}
        </Box>
      )}

      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: items.length ? 1.5 : 0, '&:empty': { display: 'none' } }}>
        {(queued.length > 0 || busy) && (
          <Button
            variant="contained"
            startIcon={<CloudUploadIcon />}
            onClick={() => void run(queued.map((i) => i.key))}
            disabled={busy || !queued.length}
            data-testid="asset-start-upload"
          >
            {busy ? translate('ls.assets.upload.busy') : translate('ls.assets.upload.start', { smart_count: queued.length, count: queued.length })}
          </Button>
        )}
        {finished && !busy && (
          <Button onClick={() => items.filter((i) => i.status === 'done').forEach(remove)} disabled={!done} data-testid="asset-clear-uploads">
            {translate('ls.assets.upload.clear')}
          </Button>
        )}
        {finished && !busy && (
          <Typography variant="body2" role="status" data-testid="asset-upload-summary" sx={{ ml: { sm: 'auto' } }}>
            {[
              done ? translate('ls.assets.upload.summary_done', { smart_count: done, count: done }) : '',
              failed ? translate('ls.assets.upload.summary_failed', { smart_count: failed, count: failed }) : '',
            ]
              .filter(Boolean)
              .join(' · ')}
          </Typography>
        )}
      </Box>
    </Paper>
  );
}

function QueueRow({
  item,
  locale,
  busy,
  onEdit,
  onRemove,
  onRetry,
}: {
  item: QueueItem;
  locale: string;
  busy: boolean;
  onEdit: (field: 'as_title' | 'as_name', value: string) => void;
  onRemove: () => void;
  onRetry: () => void;
}) {
  const translate = useTranslate();
  const createPath = useCreatePath();
  const name = item.file.name;
  const percent = Math.round(item.progress * 100);
  const active = item.status === 'uploading' || item.status === 'registering';
  const editable = !active && item.status !== 'done' && (item.status !== 'failed' || item.retryable);
  const kind = assetKind(assetTypeOf(name) ?? '');
  const thumb = item.asset ?? { kind, url: '', thumbnail_url: item.preview ?? null };
  const fieldError = (f: 'as_title' | 'as_name') => (item.fields[f] ? translate(item.fields[f]!, { _: item.fields[f] }) : undefined);
  const state =
    item.status === 'failed' && item.error
      ? translate(item.error, { _: item.error })
      : item.status === 'uploading'
        ? translate('ls.assets.upload.percent', { percent })
        : translate(`ls.assets.upload.state_${item.status}`);
  return (
    <Box
      component="li"
      data-testid="asset-upload-item"
      data-status={item.status}
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: 'auto minmax(0, 1fr) auto', md: 'auto minmax(0, 1fr) minmax(0, 1fr) auto' },
        alignItems: 'start',
        gap: 1.5,
        px: 1.5,
        py: 1.25,
        border: 1,
        borderColor: item.status === 'failed' ? 'error.main' : 'divider',
        borderRadius: 1.5,
      }}
    >
      <Box sx={{ gridRow: { xs: 'span 2', md: 'auto' } }}>
        <AssetThumb asset={thumb} size={64} />
      </Box>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }} data-testid="asset-upload-name">
          {name}
        </Typography>
        <Typography
          variant="caption"
          color={item.status === 'failed' ? 'error' : item.status === 'done' ? 'success.main' : 'text.secondary'}
          component="p"
          data-testid="asset-upload-state"
          role={item.status === 'failed' ? 'alert' : undefined}
          sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}
        >
          {item.status === 'done' && <CheckCircleIcon sx={{ fontSize: 16 }} />}
          {item.status === 'failed' && <ErrorIcon sx={{ fontSize: 16 }} />}
          <span>
            {formatBytes(item.file.size, locale)} · {state}
          </span>
        </Typography>
        {active && (
          <LinearProgress
            variant={item.status === 'registering' ? 'indeterminate' : 'determinate'}
            value={percent}
            sx={{ mt: 0.5, height: 6, borderRadius: 3 }}
            aria-label={`${name}: ${translate('ls.assets.upload.percent', { percent })}`}
            data-testid="asset-upload-progress"
          />
        )}
      </Box>
      <Box
        sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 1, gridColumn: { xs: '2 / 4', md: 'auto' }, gridRow: { xs: 2, md: 'auto' }, minWidth: 0 }}
      >
        <TextField
          size="small"
          label={translate('resources.assets.fields.as_title')}
          value={item.title}
          onChange={(e) => onEdit('as_title', e.target.value)}
          disabled={!editable}
          error={!!item.fields.as_title}
          helperText={fieldError('as_title')}
          required
          slotProps={{ htmlInput: { 'data-testid': 'asset-upload-title', maxLength: 200 } }}
        />
        <TextField
          size="small"
          label={translate('resources.assets.fields.as_name')}
          value={item.name}
          onChange={(e) => onEdit('as_name', e.target.value)}
          disabled={!editable}
          error={!!item.fields.as_name}
          helperText={fieldError('as_name')}
          required
          slotProps={{ htmlInput: { 'data-testid': 'asset-upload-asset-name', spellCheck: false, autoCapitalize: 'none', maxLength: 63 } }}
        />
      </Box>
      <Box sx={{ display: 'flex', gridColumn: { xs: 3, md: 'auto' }, gridRow: { xs: 1, md: 'auto' } }}>
        {item.status === 'done' && item.asset && (
          <Tooltip title={translate('ls.assets.upload.open', { name: item.asset.as_title })}>
            <IconButton
              size="small"
              component={LinkBase}
              to={createPath({ type: 'edit', resource: 'assets', id: item.asset.id })}
              aria-label={translate('ls.assets.upload.open', { name: item.asset.as_title })}
            >
              <OpenInNewIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        {item.status === 'failed' && item.retryable && !busy && !Object.keys(item.fields).length && (
          <Tooltip title={translate('ls.assets.upload.retry', { name })}>
            <IconButton size="small" onClick={onRetry} aria-label={translate('ls.assets.upload.retry', { name })} data-testid="asset-upload-retry">
              <ReplayIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        {!active && (
          <Tooltip title={translate('ls.assets.upload.remove', { name })}>
            <span>
              <IconButton
                size="small"
                onClick={onRemove}
                disabled={busy && item.status === 'queued'}
                aria-label={translate('ls.assets.upload.remove', { name })}
                data-testid="asset-upload-remove"
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
