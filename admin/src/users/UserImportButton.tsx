import { useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import MuiButton from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Button, useRefresh, useTranslate } from 'react-admin';
import { API_URL, withCsrf, refreshCsrf, isCsrfError, type ApiErrorBody } from '../providers/http';
import { errorText } from '../i18n';
import { ImportErrorRows } from '../layout/ImportErrorRows';

export interface ImportRowError {
  row: number;
  code: string;
  u_first_name: string;
  u_last_name: string;
  u_email: string;
}

type ImportState =
  | { state: 'idle' }
  | { state: 'uploading'; percent: number; file: string }
  | { state: 'processing'; file: string }
  | { state: 'success'; rows: number; created: number; memberships: number }
  | { state: 'failed'; body: ApiErrorBody & { errors?: ImportRowError[] } };

/** POST /users/import/csv as multipart (field "file") with upload progress; resolves status and parsed body. */
export function uploadCsv(file: File, onProgress: (percent: number) => void): Promise<{ status: number; body: unknown }> {
  const send = () =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `${API_URL}/users/import/csv`);
      xhr.withCredentials = true;
      withCsrf().forEach((value, key) => xhr.setRequestHeader(key, value));
      xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.round((e.loaded / e.total) * 100));
      xhr.onload = () => {
        let body: unknown;
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          body = { code: 'unknown_error' };
        }
        resolve({ status: xhr.status, body });
      };
      xhr.onerror = () => reject(new Error('network'));
      const form = new FormData();
      form.append('file', file, file.name);
      xhr.send(form);
    });
  return send().then(async (res) => {
    if (!isCsrfError(res.status, res.body)) return res;
    await refreshCsrf();
    return send();
  });
}

/** Spec 8: each row error has its own title (user_import_error_* by code; an unknown code is shown as it is). */
export function rowErrorTexts(e: ImportRowError, translate: (key: string, options?: Record<string, unknown>) => string) {
  const short = e.code.replace(/^createuserscsv_/, '');
  const key = `user_import_error_${short}`;
  const args = { row: e.row, first_name: e.u_first_name || '—', last_name: e.u_last_name || '', email: e.u_email || '—' };
  const title = translate(key, { _: e.code });
  const description = translate(`${key}_description`, { ...args, _: translate('user_import_error_row_description', args) });
  return { title, description };
}

/**
 * Root only (spec 6): picks a .csv file, uploads it with a progress bar, then shows the success title and
 * description and reloads the list, or one entry per offending row.
 */
export function UserImportButton() {
  const translate = useTranslate();
  const refresh = useRefresh();
  const input = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState<ImportState>({ state: 'idle' });
  const [wrongType, setWrongType] = useState(false);
  const open = status.state !== 'idle' || wrongType;

  async function upload(file: File) {
    if (!/\.csv$/i.test(file.name)) {
      setWrongType(true);
      return;
    }
    setStatus({ state: 'uploading', percent: 0, file: file.name });
    try {
      const { status: http, body } = await uploadCsv(file, (percent) =>
        setStatus(percent >= 100 ? { state: 'processing', file: file.name } : { state: 'uploading', percent, file: file.name }),
      );
      const b = body as { code: string; rows?: number; created?: number; memberships?: number } & ApiErrorBody;
      if (http >= 200 && http < 300 && b.code === 'ok') {
        setStatus({ state: 'success', rows: b.rows ?? 0, created: b.created ?? 0, memberships: b.memberships ?? 0 });
        refresh();
      } else setStatus({ state: 'failed', body: b });
    } catch {
      setStatus({ state: 'failed', body: { code: 'network' } });
    }
  }

  const close = () => {
    setStatus({ state: 'idle' });
    setWrongType(false);
  };
  const busy = status.state === 'uploading' || status.state === 'processing';

  return (
    <>
      <Button label={translate('ls.users.import')} onClick={() => input.current?.click()} data-testid="import-csv">
        <UploadFileIcon />
      </Button>
      <input
        ref={input}
        type="file"
        accept=".csv,text/csv"
        hidden
        data-testid="import-csv-input"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void upload(file);
        }}
      />
      <Dialog open={open} onClose={busy ? undefined : close} fullWidth maxWidth="sm" aria-labelledby="import-title">
        <DialogTitle id="import-title">{translate('ls.users.import_title')}</DialogTitle>
        <DialogContent dividers>
          {wrongType && <Alert severity="error">{translate('ls.users.import_only_csv')}</Alert>}
          {status.state === 'uploading' && (
            <Box role="status">
              <Typography variant="body2" sx={{ mb: 1 }}>
                {status.file} — {translate('ls.users.uploading', { percent: status.percent })}
              </Typography>
              <LinearProgress variant="determinate" value={status.percent} aria-label={translate('ls.users.uploading', { percent: status.percent })} />
            </Box>
          )}
          {status.state === 'processing' && (
            <Box role="status">
              <Typography variant="body2" sx={{ mb: 1 }}>
                {status.file} — {translate('ls.users.processing')}
              </Typography>
              <LinearProgress aria-label={translate('ls.users.processing')} />
            </Box>
          )}
          {status.state === 'success' && (
            <Alert severity="success" data-testid="import-success">
              <AlertTitle>{translate('user_import_success_title')}</AlertTitle>
              {translate('user_import_success_description', { count: status.rows, smart_count: status.rows, created: status.created, memberships: status.memberships })}
            </Alert>
          )}
          {status.state === 'failed' && <ImportFailure body={status.body} />}
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={close} disabled={busy} variant={status.state === 'success' ? 'contained' : 'text'}>
            {translate('ls.common.close')}
          </MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}

function ImportFailure({ body }: { body: ApiErrorBody & { errors?: ImportRowError[] } }) {
  const translate = useTranslate();
  const rows = body.errors ?? [];
  if (!rows.length) {
    // A whole-file problem (no email column, empty file, not a .csv…): error_{code} when known, else the code itself.
    return (
      <Alert severity="error" data-testid="import-error">
        <AlertTitle>{translate(`error_${body.code}`, { _: body.code })}</AlertTitle>
        {body.message && body.message !== translate(`error_${body.code}`, { _: body.code }) ? body.message : errorText(body)}
      </Alert>
    );
  }
  return (
    <ImportErrorRows
      summary={translate('ls.users.import_errors', { count: rows.length, smart_count: rows.length })}
      rows={rows.map((e) => ({ key: `${e.row}-${e.code}`, ...rowErrorTexts(e, translate) }))}
      testId="import-error"
    />
  );
}
