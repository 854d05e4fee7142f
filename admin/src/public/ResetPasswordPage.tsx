import { useEffect, useMemo, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import { Spinner } from './Spinner';
import { LinkButton, Notice, PlainButton } from './ui';
import Typography from '@mui/material/Typography';
import { resetPasswordIssues } from '../../../resources/authChecks';
import { DEFAULT_PASSWORD_MIN_LENGTH } from '../../../resources/users';
import { PublicShell } from './PublicShell';
import { api, ApiRequestError, GUEST_TOKEN_HEADER } from '../providers/http';
import { linkProps } from '../navigation';
import { usePublicI18n } from './i18n';
import { Field } from './Field';

interface GuestToken {
  token: string;
  settings?: { passwordMinLength?: number };
}

const FIELDS = ['password', 'password_confirm'] as const;
type Field = (typeof FIELDS)[number];

/** GET /auth/guest-token: the reset call must carry it in X-Guest-Token (spec 4). */
const guestToken = () => api<GuestToken>('/auth/guest-token');

/** /users/resetpassword?token=…: a new password and its confirmation, with a clear outcome. */
function ResetContent() {
  const { t, errorText } = usePublicI18n();
  const [token] = useState(() => new URLSearchParams(window.location.search).get('token') ?? '');
  const [guest, setGuest] = useState<GuestToken | undefined>();
  const [values, setValues] = useState<Record<Field, string>>({ password: '', password_confirm: '' });
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [serverFields, setServerFields] = useState<Record<string, string>>({});
  const [state, setState] = useState<'idle' | 'saving' | 'done'>('idle');
  const [failure, setFailure] = useState<{ code: string; text: string } | undefined>();

  useEffect(() => {
    guestToken().then(setGuest, () => setFailure({ code: 'network', text: t('error_network') }));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one guest token per page load, whatever the language does
  }, []);

  const min = guest?.settings?.passwordMinLength ?? DEFAULT_PASSWORD_MIN_LENGTH;
  const errors = useMemo(() => resetPasswordIssues({ token, ...values }, min), [min, token, values]);
  const hasErrors = FIELDS.some((f) => errors[f]?.length);
  // Spec 5: a mismatch shows on both fields, so each touched field shows its own first error.
  const merged: Record<string, string[]> = { ...Object.fromEntries(Object.entries(serverFields).map(([k, v]) => [k, [v]])), ...errors };
  const fieldError = (f: Field) => (touched[f] && merged[f]?.length ? t(merged[f][0], { min }) : undefined);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (hasErrors || state === 'saving' || !guest) return;
    setState('saving');
    setFailure(undefined);
    setServerFields({});
    const send = (g: GuestToken) => api('/auth/reset-password', { method: 'PUT', body: { token, ...values }, headers: { [GUEST_TOKEN_HEADER]: g.token } });
    try {
      try {
        await send(guest);
      } catch (err) {
        // The guest token expired while the page was open: fetch a fresh one and try once more.
        if (!(err instanceof ApiRequestError && err.code === 'guest_token_invalid')) throw err;
        const fresh = await guestToken();
        setGuest(fresh);
        await send(fresh);
      }
      setState('done');
    } catch (err) {
      const body = err instanceof ApiRequestError ? err.body : { code: 'network' };
      if (body.fields) {
        setServerFields(body.fields);
        setTouched({ password: true, password_confirm: true });
      }
      setFailure({ code: body.code, text: body.code === 'invalid_token' ? t('ls.reset.expired') : errorText(body) });
      setState('idle');
    }
  }

  const toLogin = (
    <LinkButton {...linkProps('/login')} variant={state === 'done' ? 'contained' : 'text'} fullWidth style={{ marginTop: 16 }}>
      {t('ls.common.back_to_login')}
    </LinkButton>
  );

  if (!token)
    return (
      <>
        <Typography variant="h5" component="h1" gutterBottom>
          {t('ls.reset.title')}
        </Typography>
        <Notice severity="error" data-testid="reset-failed">
          {t('ls.reset.no_token')}
        </Notice>
        {toLogin}
      </>
    );

  if (state === 'done')
    return (
      <div data-testid="reset-success">
        <Typography variant="h5" component="h1" gutterBottom>
          {t('ls.reset.success_title')}
        </Typography>
        <Notice severity="success">{t('ls.reset.success')}</Notice>
        {toLogin}
      </div>
    );

  const change = (f: Field) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [f]: e.target.value }));
    setServerFields({});
  };
  const blur = (f: Field) => () => setTouched((tt) => ({ ...tt, [f]: true }));

  return (
    <Box component="form" noValidate onSubmit={submit}>
      <Typography variant="h5" component="h1" gutterBottom>
        {t('ls.reset.title')}
      </Typography>
      {failure && (
        <Notice severity="error" data-testid="reset-failed" title={t('ls.reset.failed_title')} style={{ marginBottom: 16 }}>
          {failure.text}
        </Notice>
      )}
      {/* Lets password managers file the new password under the right account. */}
      <input type="text" name="username" autoComplete="username" hidden readOnly value="" />
      <Field
        name="password"
        type="password"
        label={t('ls.reset.password')}
        autoComplete="new-password"
        autoFocus
        required
        value={values.password}
        onChange={change('password')}
        onBlur={blur('password')}
        error={fieldError('password')}
        helperText={t('ls.reset.hint', { min })}
        disabled={state === 'saving'}
      />
      <Field
        name="password_confirm"
        type="password"
        label={t('ls.reset.password_confirm')}
        autoComplete="new-password"
        required
        value={values.password_confirm}
        onChange={change('password_confirm')}
        onBlur={blur('password_confirm')}
        error={fieldError('password_confirm')}
        disabled={state === 'saving'}
      />
      <PlainButton
        type="submit"
        variant="contained"
        size="large"
        fullWidth
        disabled={hasErrors || state === 'saving' || !guest}
        aria-busy={state === 'saving'}
        startIcon={state === 'saving' ? <Spinner size={18} /> : undefined}
        style={{ marginTop: 8 }}
      >
        {state === 'saving' ? t('ls.reset.submitting') : t('ls.reset.submit')}
      </PlainButton>
      {toLogin}
    </Box>
  );
}

export default function ResetPasswordPage() {
  return (
    <PublicShell title="ls.reset.title">
      <ResetContent />
    </PublicShell>
  );
}
