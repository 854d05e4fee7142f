import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog, { type DialogProps } from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';

export interface ConfirmDeleteDialogProps {
  open: boolean;
  /** The title's id, which labels the dialog. */
  titleId: string;
  title: ReactNode;
  text: ReactNode;
  /** Why the delete failed (the dialog stays open). */
  error?: string;
  /** The delete is under way: nothing closes the dialog and both buttons wait. */
  busy?: boolean;
  cancelLabel: string;
  confirmLabel: string;
  onCancel: () => void;
  onConfirm: () => void;
  /** Cancel takes the focus when the dialog opens (else the dialog itself does). */
  focusCancel?: boolean;
  maxWidth?: DialogProps['maxWidth'];
  fullWidth?: boolean;
  textTestId?: string;
  confirmTestId?: string;
}

/** The question before a delete: what goes, cancel or delete, and why a delete failed. */
export function ConfirmDeleteDialog({
  open,
  titleId,
  title,
  text,
  error,
  busy,
  cancelLabel,
  confirmLabel,
  onCancel,
  onConfirm,
  focusCancel,
  maxWidth,
  fullWidth,
  textTestId,
  confirmTestId,
}: ConfirmDeleteDialogProps) {
  return (
    <Dialog open={open} onClose={busy ? undefined : onCancel} aria-labelledby={titleId} maxWidth={maxWidth} fullWidth={fullWidth}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText data-testid={textTestId}>{text}</DialogContentText>
        {error ? (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {error}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy} autoFocus={focusCancel}>
          {cancelLabel}
        </Button>
        <Button color="error" variant="contained" onClick={onConfirm} disabled={busy} data-testid={confirmTestId}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
