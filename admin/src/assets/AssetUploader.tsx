import { useCallback, useEffect, useRef, useState } from 'react';
import { FileDropZone } from '../layout/FileDropZone';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import OpenInNewIcon from '@mui/icons-material/EditOutlined';
import { LinkBase, useCreatePath, useTranslate } from 'react-admin';
import { ASSET_EXTENSIONS, assetKind } from '../../../resources/assets';
import { inParallel, newId, type QueuedFile } from '../uploads/transfer';
import { UploadRow, type UploadTestIds } from '../uploads/UploadRow';
import { UploadQueue } from '../uploads/UploadQueue';
import { useUploadQueue } from '../uploads/useUploadQueue';
import type { AssetFileFields, AssetRecord } from './assetsApi';
import { realUploaderDeps, type UploaderDeps } from './assetDeps';
import { assetTypeOf, identifierFrom, nameFromFilename, runAssetJob, titleFromFilename, uniqueName, type AssetFieldErrors, AssetUploadError } from './assetUpload';
import { AssetThumb } from './AssetThumb';

export const ACCEPT_ASSETS = ASSET_EXTENSIONS.map((e) => `.${e}`).join(',');
/** Files sent at the same time. */
const PARALLEL = 2;

const TEXTS = 'ls.assets.upload';
const TEST_IDS: UploadTestIds = {
  list: 'asset-upload-list',
  item: 'asset-upload-item',
  name: 'asset-upload-name',
  state: 'asset-upload-state',
  progress: 'asset-upload-progress',
  retry: 'asset-upload-retry',
  remove: 'asset-upload-remove',
  start: 'asset-start-upload',
  clear: 'asset-clear-uploads',
  summary: 'asset-upload-summary',
};

interface QueueItem extends QueuedFile {
  title: string;
  name: string;
  /** The name was typed (it no longer follows the title). */
  nameTyped: boolean;
  /** The browser's thumbnail: undefined while it is being made, null when there is none. */
  thumb: Blob | null | undefined;
  preview?: string;
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
  const { items, setItems, update, remove: drop, busy, runBusy } = useUploadQueue<QueueItem>();
  // The summary and "clear" appear once an upload has run (a file refused on arrival is not a finished upload).
  const [ran, setRan] = useState(false);
  const latest = useRef<QueueItem[]>([]);
  latest.current = items;
  const thumbs = useRef(new Map<string, Promise<Blob | null>>());
  const using = useRef<UploaderDeps>(deps ?? realUploaderDeps(accountId));
  using.current = deps ?? using.current;

  // Object URLs of the previews are freed with the screen.
  useEffect(() => () => latest.current.forEach((i) => i.preview && URL.revokeObjectURL(i.preview)), []);

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
    [setItems, update],
  );

  function remove(item: QueueItem) {
    if (item.preview) URL.revokeObjectURL(item.preview);
    thumbs.current.delete(item.key);
    drop(item.key);
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
    if (!keys.length) return;
    await runBusy(async () => {
      setRan(true);
      await inParallel(keys, PARALLEL, runOne);
    });
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

      <UploadQueue
        texts={TEXTS}
        testIds={TEST_IDS}
        queued={queued.length}
        busy={busy}
        onStart={() => void run(queued.map((i) => i.key))}
        clear={finished && !busy ? { onClick: () => items.filter((i) => i.status === 'done').forEach(remove), disabled: !done } : undefined}
        summary={finished && !busy ? { done, failed } : null}
      >
        {items.map((item) => (
          <QueueRow key={item.key} item={item} busy={busy} onEdit={(field, value) => edit(item, field, value)} onRemove={() => remove(item)} onRetry={() => void run([item.key])} />
        ))}
      </UploadQueue>
    </Paper>
  );
}

/** A queued file as an asset: the shared row with its thumbnail, its title and name, and "open" once it is an asset. */
function QueueRow({
  item,
  busy,
  onEdit,
  onRemove,
  onRetry,
}: {
  item: QueueItem;
  busy: boolean;
  onEdit: (field: 'as_title' | 'as_name', value: string) => void;
  onRemove: () => void;
  onRetry: () => void;
}) {
  const translate = useTranslate();
  const createPath = useCreatePath();
  const active = item.status === 'uploading' || item.status === 'registering';
  const editable = !active && item.status !== 'done' && (item.status !== 'failed' || item.retryable);
  const kind = assetKind(assetTypeOf(item.file.name) ?? '');
  const thumb = item.asset ?? { kind, url: '', thumbnail_url: item.preview ?? null };
  const fieldError = (f: 'as_title' | 'as_name') => (item.fields[f] ? translate(item.fields[f]!, { _: item.fields[f] }) : undefined);
  return (
    <UploadRow
      item={item}
      texts={TEXTS}
      testIds={TEST_IDS}
      busy={busy}
      retryable={item.retryable && !Object.keys(item.fields).length}
      lead={{ thumbnail: <AssetThumb asset={thumb} size={64} /> }}
      onRetry={onRetry}
      onRemove={onRemove}
      fields={
        <>
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
        </>
      }
      actions={
        item.status === 'done' &&
        item.asset && (
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
        )
      }
    />
  );
}
