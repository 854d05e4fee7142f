import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useTranslate } from 'react-admin';
import { folderTitle } from '../../../resources/folders';
import { failureText } from '../providers/failure';
import { ApiRequestError } from '../providers/http';

/**
 * New folder and rename: one field, checked with the shared folder-title rule before the call; the API's field
 * error shows under the field, anything else above the buttons.
 */
export function FolderDialog({
  open,
  title,
  initial = '',
  submitLabel,
  onClose,
  onSubmit,
}: {
  open: boolean;
  title: string;
  initial?: string;
  submitLabel: string;
  onClose: () => void;
  onSubmit: (title: string) => Promise<unknown>;
}) {
  const translate = useTranslate();
  const [value, setValue] = useState(initial);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) {
      setValue(initial);
      setFieldError(undefined);
      setError(undefined);
    }
  }, [open, initial]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const checked = folderTitle.safeParse(value);
    if (!checked.success) {
      setFieldError(checked.error.issues[0]?.message);
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await onSubmit(checked.data);
      onClose();
    } catch (err) {
      const field = err instanceof ApiRequestError ? err.body.fields?.fo_title : undefined;
      if (field) setFieldError(field);
      else setError(failureText(err, translate));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} fullWidth maxWidth="xs" aria-labelledby="folder-dialog-title">
      <form onSubmit={submit} noValidate data-testid="folder-dialog">
        <DialogTitle id="folder-dialog-title">{title}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            name="fo_title"
            label={translate('ls.media.folder_title')}
            value={value}
            onChange={(e) => {
              setValue(e.target.value);
              setFieldError(undefined);
            }}
            error={!!fieldError}
            helperText={fieldError ? translate(fieldError, { _: fieldError }) : ' '}
            slotProps={{ htmlInput: { maxLength: 200 } }}
          />
          {error && (
            <Alert severity="error" sx={{ mt: 1 }} role="alert">
              {error}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            {translate('ls.common.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={busy} data-testid="folder-dialog-submit">
            {submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** Delete confirmations: the API's refusal (e.g. a folder that is not empty) shows inside the dialog. */
export function ConfirmDeleteDialog({
  open,
  title,
  text,
  confirmLabel,
  onClose,
  onConfirm,
}: {
  open: boolean;
  title: string;
  text: ReactNode;
  confirmLabel?: string;
  onClose: () => void;
  onConfirm: () => Promise<unknown>;
}) {
  const translate = useTranslate();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) setError(undefined);
  }, [open]);

  async function confirm() {
    setBusy(true);
    setError(undefined);
    try {
      await onConfirm();
      onClose();
    } catch (e) {
      setError(failureText(e, translate));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} fullWidth maxWidth="xs" aria-labelledby="confirm-dialog-title" data-testid="confirm-dialog">
      <DialogTitle id="confirm-dialog-title">{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{text}</DialogContentText>
        {error && (
          <Alert severity="error" sx={{ mt: 2 }} role="alert" data-testid="confirm-error">
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy} autoFocus>
          {translate(error ? 'ls.common.close' : 'ls.common.cancel')}
        </Button>
        {!error && (
          <Button onClick={confirm} color="error" variant="contained" disabled={busy} data-testid="confirm-delete">
            {confirmLabel ?? translate('ls.media.delete')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
