import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useLocaleState, useTranslate } from 'react-admin';
import { errorText } from '../i18n';
import { ImportErrorRows } from '../layout/ImportErrorRows';
import type { ListImportFailure, ListImportRowError } from './listApi';

export type ListImportState =
  { state: 'idle' } | { state: 'wrong_type' } | { state: 'busy'; file: string } | { state: 'success'; created: number } | { state: 'failed'; body: ListImportFailure };

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Each bad row's title (list_import_error_<code>) and description naming its line, title, value and parent. */
export function listRowErrorTexts(e: ListImportRowError, translate: Translate): { title: string; description: string } {
  const key = `list_import_error_${e.code.replace(/^list_import_/, '')}`;
  const args = { row: e.row, title: e.title || '—', value: e.value || '—', parent_value: e.parent_value || '—' };
  return {
    title: translate(key, { _: e.code }),
    description: translate(`${key}_description`, { ...args, _: translate('list_import_error_row_description', args) }),
  };
}

/** The import's progress and outcome: success with the count, a whole-file problem, or one entry per bad row. */
export function ListImportDialog({ status, onClose }: { status: ListImportState; onClose: () => void }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const busy = status.state === 'busy';
  return (
    <Dialog open={status.state !== 'idle'} onClose={busy ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby="list-import-title">
      <DialogTitle id="list-import-title">{translate('ls.lists.import_title')}</DialogTitle>
      <DialogContent dividers>
        {status.state === 'wrong_type' && <Alert severity="error">{translate('error_list_import_file_type')}</Alert>}
        {status.state === 'busy' && (
          <Box role="status">
            <Typography variant="body2" sx={{ mb: 1 }}>
              {status.file} — {translate('ls.lists.importing')}
            </Typography>
            <LinearProgress aria-label={translate('ls.lists.importing')} />
          </Box>
        )}
        {status.state === 'success' && (
          <Alert severity="success" data-testid="list-import-success">
            <AlertTitle>{translate('ls.lists.import_success_title')}</AlertTitle>
            {translate('ls.lists.import_success', { count: status.created, smart_count: status.created, total: new Intl.NumberFormat(locale).format(status.created) })}
          </Alert>
        )}
        {status.state === 'failed' && <Failure body={status.body} />}
        {(status.state === 'wrong_type' || status.state === 'failed') && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
            {translate('ls.lists.import_help')}
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy} variant={status.state === 'success' ? 'contained' : 'text'}>
          {translate('ls.common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function Failure({ body }: { body: ListImportFailure }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const rows = body.errors ?? [];
  if (!rows.length)
    return (
      <Alert severity="error" data-testid="list-import-error">
        {errorText(body)}
      </Alert>
    );
  return (
    <ImportErrorRows
      summary={translate('ls.lists.import_errors', { count: rows.length, smart_count: rows.length, total: new Intl.NumberFormat(locale).format(rows.length) })}
      rows={rows.map((e) => ({ key: `${e.row}-${e.code}`, ...listRowErrorTexts(e, translate) }))}
      testId="list-import-error"
    />
  );
}
