import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import ReplayIcon from '@mui/icons-material/Replay';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/ErrorOutlineOutlined';
import { useLocaleState, useTranslate } from 'react-admin';
import { formatBytes } from '../media/format';
import type { QueuedFile } from './transfer';

/** data-testid of an upload screen's parts, so its tests and page objects find them. */
export interface UploadTestIds {
  list: string;
  item: string;
  name: string;
  state: string;
  progress: string;
  retry: string;
  remove: string;
  start: string;
  clear: string;
  summary: string;
}

export interface UploadRowProps {
  item: QueuedFile;
  /**
   * Where the screen's texts are: `<texts>.percent` (with `percent`), `.state_<status>`, `.retry` and `.remove` (with
   * `name`).
   */
  texts: string;
  testIds: UploadTestIds;
  /** An upload of the queue is running: no "try again", and a waiting file stays in the list. */
  busy: boolean;
  /** A failed file may be tried again as it is (the screen knows which failures a retry can mend). */
  retryable: boolean;
  /**
   * What leads the row: the file's kind icon, which the status icon replaces once the file is done or failed; or a
   * thumbnail, which stays, and the status (its icon and colour) shows in the state line instead.
   */
  lead: { icon: ReactNode } | { thumbnail: ReactNode };
  /** Inputs that belong to the file (an asset's title and name): beside the name from md up, below it on smaller screens. */
  fields?: ReactNode;
  /** Buttons before "try again" and "remove" (open what was uploaded). */
  actions?: ReactNode;
  onRetry: () => void;
  onRemove: () => void;
}

/**
 * One file of an upload queue (the media library's and the assets' uploaders): its name, size and state (the reason
 * when it failed, announced), a progress bar while it is sent, "try again" when a retry can help, and "remove" while
 * it is not being sent.
 */
export function UploadRow({ item, texts, testIds, busy, retryable, lead, fields, actions, onRetry, onRemove }: UploadRowProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const name = item.file.name;
  const percent = Math.round(item.progress * 100);
  const active = item.status === 'uploading' || item.status === 'registering';
  const thumbnail = 'thumbnail' in lead;
  const failed = item.status === 'failed';
  const done = item.status === 'done';
  const state =
    failed && item.error
      ? translate(item.error, { _: item.error })
      : item.status === 'uploading'
        ? translate(`${texts}.percent`, { percent })
        : translate(`${texts}.state_${item.status}`);
  const line = `${formatBytes(item.file.size, locale ?? 'en')} · ${state}`;
  return (
    <Box
      component="li"
      data-testid={testIds.item}
      data-status={item.status}
      sx={{
        display: 'grid',
        ...(fields
          ? { gridTemplateColumns: { xs: 'auto minmax(0, 1fr) auto', md: 'auto minmax(0, 1fr) minmax(0, 1fr) auto' }, alignItems: 'start', gap: 1.5, px: 1.5, py: 1.25 }
          : { gridTemplateColumns: 'auto minmax(0, 1fr) auto', alignItems: 'center', columnGap: 1.5, px: 1.5, py: 1 }),
        border: 1,
        borderColor: failed ? 'error.main' : 'divider',
        borderRadius: 1.5,
      }}
    >
      {thumbnail ? (
        <Box sx={fields ? { gridRow: { xs: 'span 2', md: 'auto' } } : undefined}>{lead.thumbnail}</Box>
      ) : (
        <Box sx={{ color: 'text.secondary', display: 'flex' }}>{done ? <CheckCircleIcon color="success" /> : failed ? <ErrorIcon color="error" /> : lead.icon}</Box>
      )}
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }} data-testid={testIds.name}>
          {name}
        </Typography>
        <Typography
          variant="caption"
          color={failed ? 'error' : done && thumbnail ? 'success.main' : 'text.secondary'}
          component="p"
          data-testid={testIds.state}
          role={failed ? 'alert' : undefined}
          sx={thumbnail ? { display: 'flex', alignItems: 'center', gap: 0.5 } : undefined}
        >
          {thumbnail && done && <CheckCircleIcon sx={{ fontSize: 16 }} />}
          {thumbnail && failed && <ErrorIcon sx={{ fontSize: 16 }} />}
          {thumbnail ? <span>{line}</span> : line}
        </Typography>
        {active && (
          <LinearProgress
            variant={item.status === 'registering' ? 'indeterminate' : 'determinate'}
            value={percent}
            sx={{ mt: 0.5, height: 6, borderRadius: 3 }}
            aria-label={`${name}: ${translate(`${texts}.percent`, { percent })}`}
            data-testid={testIds.progress}
          />
        )}
      </Box>
      {fields && (
        <Box
          sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 1, gridColumn: { xs: '2 / 4', md: 'auto' }, gridRow: { xs: 2, md: 'auto' }, minWidth: 0 }}
        >
          {fields}
        </Box>
      )}
      <Box sx={fields ? { display: 'flex', gridColumn: { xs: 3, md: 'auto' }, gridRow: { xs: 1, md: 'auto' } } : { display: 'flex' }}>
        {actions}
        {failed && retryable && !busy && (
          <Tooltip title={translate(`${texts}.retry`, { name })}>
            <IconButton size="small" onClick={onRetry} aria-label={translate(`${texts}.retry`, { name })} data-testid={testIds.retry}>
              <ReplayIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        {!active && (
          <Tooltip title={translate(`${texts}.remove`, { name })}>
            <span>
              <IconButton
                size="small"
                onClick={onRemove}
                disabled={busy && item.status === 'queued'}
                aria-label={translate(`${texts}.remove`, { name })}
                data-testid={testIds.remove}
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
