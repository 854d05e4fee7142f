import { useMemo, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import { Spinner } from './Spinner';
import { Notice, PlainButton } from './ui';
import { loginIssues, LOGIN_PASSWORD_MIN_LENGTH } from '../../../resources/authChecks';
import { firstVisibleError } from '../layout/zod';
import { apiFailureOf, failureText } from '../providers/failure';
import type { ApiErrorBody } from '../providers/http';
import { usePublicI18n } from './i18n';
import { Field } from './Field';

export const LOGIN_FIELDS = ['u_email', 'u_password'] as const;
type Field = (typeof LOGIN_FIELDS)[number];

export interface LoginFormProps {
  /** Signs in; rejects with ApiRequestError carrying the failure code. */
  onLogin: (credentials: { u_email: string; u_password: string }) => Promise<unknown>;
  onSuccess: () => void;
  onForgotPassword: (email: string) => void;
  /** POST /auth/resend-activation for an unverified user. */
  onResendActivation: (email: string) => Promise<unknown>;
  /** The address to start with (the invitation page knows it). */
  initialEmail?: string;
}

/**
 * Spec 5: field errors appear only after a field was touched, and only the first error of the first failing field;
 * submit is disabled while any error exists or while signing in; a failure shows error_{code} above the form.
 */
export function LoginForm({ onLogin, onSuccess, onForgotPassword, onResendActivation, initialEmail = '' }: LoginFormProps) {
  const { t } = usePublicI18n();
  const [values, setValues] = useState<Record<Field, string>>({ u_email: initialEmail, u_password: '' });
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState<{ error: unknown; body: ApiErrorBody } | undefined>();
  const failure = failed?.body;
  const [resend, setResend] = useState<'idle' | 'sending' | 'sent'>('idle');

  const errors = useMemo(() => loginIssues(values), [values]);
  const hasErrors = Object.keys(errors).length > 0;
  const shown = firstVisibleError(errors, LOGIN_FIELDS, touched);
  const fieldError = (field: Field) => (shown?.field === field ? t(shown.message, { min: LOGIN_PASSWORD_MIN_LENGTH }) : undefined);

  const change = (field: Field) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
  };
  const blur = (field: Field) => () => setTouched((tt) => (tt[field] ? tt : { ...tt, [field]: true }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (hasErrors || loading) return;
    setLoading(true);
    setFailed(undefined);
    setResend('idle');
    try {
      await onLogin({ u_email: values.u_email.trim(), u_password: values.u_password });
      onSuccess();
    } catch (err) {
      const body: ApiErrorBody = apiFailureOf(err)?.body ?? { code: 'network' };
      setFailed({ error: err, body });
      // Server-side field errors (invalid_login_info) count as touched, so they show under the field.
      if (body.fields) setTouched((tt) => ({ ...tt, ...Object.fromEntries(Object.keys(body.fields!).map((f) => [f, true])) }));
      setLoading(false);
    }
  }

  async function resendActivation() {
    setResend('sending');
    try {
      await onResendActivation(values.u_email.trim());
    } finally {
      setResend('sent');
    }
  }

  // The failure code maps to error_{code} when a translation exists (spec 8), else the server's text.
  const failureMessage = failed ? failureText(failed.error, t, { fallback: 'error_login_failed' }) : undefined;

  return (
    <Box component="form" noValidate onSubmit={submit} aria-label={t('ls.login.title')}>
      {failure && (
        <Notice severity="error" data-testid="login-failure" style={{ marginBottom: 16 }}>
          {failureMessage}
          {failure.code === 'user_not_verified' && resend !== 'sent' && (
            <div>
              <PlainButton variant="text" size="small" onClick={resendActivation} disabled={resend === 'sending'} style={{ marginLeft: -10, marginTop: 4 }}>
                {t('ls.login.resend')}
              </PlainButton>
            </div>
          )}
        </Notice>
      )}
      {resend === 'sent' && (
        <Notice severity="info" style={{ marginBottom: 16 }}>
          {t('ls.login.resend_sent')}
        </Notice>
      )}
      <Field
        name="u_email"
        type="email"
        label={t('ls.login.email')}
        autoComplete="username"
        autoFocus={!initialEmail}
        value={values.u_email}
        onChange={change('u_email')}
        onBlur={blur('u_email')}
        error={fieldError('u_email')}
        disabled={loading}
      />
      <Field
        name="u_password"
        type="password"
        label={t('ls.login.password')}
        autoComplete="current-password"
        autoFocus={!!initialEmail}
        required
        value={values.u_password}
        onChange={change('u_password')}
        onBlur={blur('u_password')}
        error={fieldError('u_password')}
        disabled={loading}
      />
      <PlainButton
        type="submit"
        variant="contained"
        size="large"
        fullWidth
        disabled={hasErrors || loading}
        aria-busy={loading}
        startIcon={loading ? <Spinner size={18} /> : undefined}
        style={{ marginTop: 8 }}
      >
        {loading ? t('ls.login.submitting') : t('ls.login.submit')}
      </PlainButton>
      <Box sx={{ mt: 2, textAlign: 'center' }}>
        <PlainButton variant="text" size="small" onClick={() => onForgotPassword(values.u_email.trim())}>
          {t('ls.login.forgot')}
        </PlainButton>
      </Box>
    </Box>
  );
}
