import { useEffect, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { Spinner } from './Spinner';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { emailOnlyIssues } from '../../../resources/authChecks';
import { failureText } from '../providers/failure';
import { api } from '../providers/http';
import { usePublicI18n } from './i18n';
import { Field } from './Field';

/** The forgot-password dialog: POST /auth/forgot-password, which answers the same whether or not the address exists. */
export function ForgotPasswordDialog({ open, initialEmail, onClose }: { open: boolean; initialEmail: string; onClose: () => void }) {
  const { t } = usePublicI18n();
  const [email, setEmail] = useState(initialEmail);
  const [touched, setTouched] = useState(false);
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [failure, setFailure] = useState<string | undefined>();

  useEffect(() => {
    if (open) {
      setEmail(initialEmail);
      setTouched(false);
      setState('idle');
      setFailure(undefined);
    }
  }, [open, initialEmail]);

  const error = emailOnlyIssues({ u_email: email }).u_email?.[0];

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (error || state === 'sending') return;
    setState('sending');
    setFailure(undefined);
    try {
      await api('/auth/forgot-password', { method: 'POST', body: { u_email: email.trim() } });
      setState('sent');
    } catch (err) {
      setFailure(failureText(err, t));
      setState('idle');
    }
  }

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="forgot-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="forgot-title">{t('ls.forgot.title')}</DialogTitle>
        <DialogContent>
          {state === 'sent' ? (
            <Alert severity="success" role="status">
              {t('ls.forgot.sent')}
            </Alert>
          ) : (
            <>
              <DialogContentText sx={{ mb: 1 }}>{t('ls.forgot.text')}</DialogContentText>
              {failure && (
                <Alert severity="error" sx={{ mb: 1 }}>
                  {failure}
                </Alert>
              )}
              <Field
                name="forgot_email"
                type="email"
                label={t('ls.login.email')}
                autoComplete="username"
                autoFocus
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                onBlur={() => setTouched(true)}
                error={touched && error ? t(error) : undefined}
              />
            </>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          {state === 'sent' ? (
            <Button onClick={onClose} variant="contained">
              {t('ls.common.close')}
            </Button>
          ) : (
            <>
              <Button onClick={onClose}>{t('ls.common.cancel')}</Button>
              <Button type="submit" variant="contained" disabled={!!error || state === 'sending'} startIcon={state === 'sending' ? <Spinner size={16} /> : undefined}>
                {t('ls.forgot.submit')}
              </Button>
            </>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
