import { useCallback, useState } from 'react';
import { FileDropZone } from '../layout/FileDropZone';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'react-admin';
import { ACCEPT } from '../../../resources/files';
import { newId, putWithProgress } from '../uploads/transfer';
import { UploadRow, type UploadTestIds } from '../uploads/UploadRow';
import { UploadQueue } from '../uploads/UploadQueue';
import { useUploadQueue } from '../uploads/useUploadQueue';
import { mediaApi } from './mediaApi';
import { RETRYABLE, runUploads, type UploadDeps, type UploadItem } from './upload';
import { FileKindIcon, fileKind } from './fileKinds';

const realDeps: UploadDeps = {
  sign: mediaApi.sign,
  put: (url, file, onProgress) => putWithProgress(url, file, onProgress),
  register: mediaApi.register,
};

const TEXTS = 'ls.media.upload';
const TEST_IDS: UploadTestIds = {
  list: 'upload-list',
  item: 'upload-item',
  name: 'upload-name',
  state: 'upload-state',
  progress: 'upload-progress',
  retry: 'retry-upload',
  remove: 'remove-upload',
  start: 'start-upload',
  clear: 'clear-uploads',
  summary: 'upload-summary',
};

/**
 * Spec 4's uploader: dropped or picked files go into a list where each can be removed; "Upload" signs them all,
 * PUTs each with a progress bar, registers each, and skips a failed file with its reason. `onUploaded` runs after
 * every batch that stored at least one file (the file list refreshes).
 */
export function Uploader({ folderId, folderName, onUploaded }: { folderId: string | null; folderName: string; onUploaded: () => void }) {
  const translate = useTranslate();
  const { items, setItems, update, remove, busy, runBusy } = useUploadQueue<UploadItem>();
  const [summary, setSummary] = useState<{ done: number; failed: number } | null>(null);

  const add = useCallback(
    (files: FileList | File[] | null) => {
      if (!files || !files.length) return;
      const added = Array.from(files).map((file): UploadItem => ({ key: newId(), file, status: 'queued', progress: 0 }));
      setItems((prev) => [...prev, ...added]);
      setSummary(null);
    },
    [setItems],
  );

  const queued = items.filter((i) => i.status === 'queued');
  const finished = items.some((i) => i.status === 'done' || i.status === 'failed');

  async function start() {
    if (!queued.length) return;
    await runBusy(async () => {
      setSummary(null);
      const result = await runUploads(queued, folderId, realDeps, update);
      setSummary(result);
      if (result.done > 0) onUploaded();
    });
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

      <UploadQueue
        texts={TEXTS}
        testIds={TEST_IDS}
        queued={queued.length}
        busy={busy}
        onStart={start}
        clear={finished && !busy ? { onClick: () => setItems((prev) => prev.filter((i) => i.status === 'queued')) } : undefined}
        summary={summary}
      >
        {items.map((item) => (
          <UploadRow
            key={item.key}
            item={item}
            texts={TEXTS}
            testIds={TEST_IDS}
            busy={busy}
            retryable={!!item.error && RETRYABLE.has(item.error)}
            lead={{ icon: <FileKindIcon kind={fileKind(item.file.type, item.file.name)} /> }}
            onRemove={() => remove(item.key)}
            onRetry={() => update(item.key, { status: 'queued', progress: 0, error: undefined })}
          />
        ))}
      </UploadQueue>
    </Paper>
  );
}
