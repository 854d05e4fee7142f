import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import CloudUploadIcon from '@mui/icons-material/CloudUploadOutlined';
import { useTranslate } from 'react-admin';
import type { UploadTestIds } from './UploadRow';

export interface UploadQueueProps {
  /**
   * Where the screen's texts are: `<texts>.list` (the list's name), `.start` and `.busy` (the button), `.clear`,
   * `.summary_done` and `.summary_failed` (with `count`).
   */
  texts: string;
  testIds: UploadTestIds;
  /** The queue's rows (UploadRow), one a file. */
  children: ReactNode[];
  /** Files waiting for "Upload". */
  queued: number;
  busy: boolean;
  onStart: () => void;
  /** "Clear": shown when given, disabled when there is nothing it would clear. */
  clear?: { onClick: () => void; disabled?: boolean };
  /** What the last upload did, announced; null for nothing to say. */
  summary: { done: number; failed: number } | null;
}

/**
 * An upload queue under its drop zone: the list of files (none while empty), then "Upload n files" (while files wait or
 * an upload runs), "Clear" and what the last upload did.
 */
export function UploadQueue({ texts, testIds, children, queued, busy, onStart, clear, summary }: UploadQueueProps) {
  const translate = useTranslate();
  return (
    <>
      {children.length > 0 && (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mt: 1.5, display: 'grid', gap: 1 }} aria-label={translate(`${texts}.list`)} data-testid={testIds.list}>
          {children}
        </Box>
      )}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: children.length ? 1.5 : 0, '&:empty': { display: 'none' } }}>
        {(queued > 0 || busy) && (
          <Button variant="contained" startIcon={<CloudUploadIcon />} onClick={onStart} disabled={busy || !queued} data-testid={testIds.start}>
            {busy ? translate(`${texts}.busy`) : translate(`${texts}.start`, { count: queued, smart_count: queued })}
          </Button>
        )}
        {clear && (
          <Button onClick={clear.onClick} disabled={clear.disabled} data-testid={testIds.clear}>
            {translate(`${texts}.clear`)}
          </Button>
        )}
        {summary && (
          <Typography variant="body2" role="status" data-testid={testIds.summary} sx={{ ml: { sm: 'auto' } }}>
            {[
              summary.done ? translate(`${texts}.summary_done`, { count: summary.done, smart_count: summary.done }) : '',
              summary.failed ? translate(`${texts}.summary_failed`, { count: summary.failed, smart_count: summary.failed }) : '',
            ]
              .filter(Boolean)
              .join(' · ')}
          </Typography>
        )}
      </Box>
    </>
  );
}
