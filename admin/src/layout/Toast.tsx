import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { useCloseNotification, useTranslate } from 'react-admin';

/** A notification with a title and a description (spec 8: error_user_already_exists + its description, saved). */
export function Toast({
  title,
  description,
  severity = 'info',
  args,
}: {
  title: string;
  description?: string;
  severity?: 'success' | 'info' | 'warning' | 'error';
  args?: Record<string, unknown>;
}) {
  const translate = useTranslate();
  const close = useCloseNotification();
  return (
    <Alert
      severity={severity}
      variant="filled"
      onClose={close}
      role={severity === 'error' ? 'alert' : 'status'}
      data-testid="toast"
      sx={{ minWidth: 288, maxWidth: 560, boxShadow: 6 }}
    >
      <AlertTitle>{translate(title, { _: title, ...args })}</AlertTitle>
      {description ? translate(description, { _: description, ...args }) : null}
    </Alert>
  );
}

/** Spec 4: a save shows a success message titled "saved" (with what was saved). */
export const savedToast = (name: string) => <Toast severity="success" title="message_saved" description="message_saved_description" args={{ name }} />;
