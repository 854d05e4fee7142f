import { useEffect, useMemo, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { PublicShell } from './PublicShell';
import { Field } from './Field';
import { Spinner } from './Spinner';
import { LinkButton, Notice, PlainButton, TextLink } from './ui';
import { signupSchema } from '../../../resources/signup';
import { DEFAULT_PASSWORD_MIN_LENGTH } from '../../../resources/users';
import { issuesByField } from '../layout/zod';
import { api, ApiRequestError, type ApiErrorBody } from '../providers/http';
import { linkProps } from '../navigation';
import { AFTER_VERIFY_KEY, useSignupTexts } from './signupTexts';

const FIELDS = ['u_email', 'u_first_name', 'u_last_name', 'u_password', 'u_password_confirm'] as const;
type FieldName = (typeof FIELDS)[number];
type Values = Record<FieldName, string>;

/** `/signup?from=app`: the capture app's "Create an account" link; its way back is the app, not the console's sign-in. */
function fromApp(): boolean {
  return new URLSearchParams(window.location.search).get('from') === 'app';
}

function rememberReturn(app: boolean) {
  try {
    if (app) window.localStorage.setItem(AFTER_VERIFY_KEY, '/app');
    else window.localStorage.removeItem(AFTER_VERIFY_KEY);
  } catch {
    // private mode: the verification page then offers the sign-in only
  }
}

/** The way back: the capture app is a page of its own (a full load), the console's sign-in a move inside this one. */
const backLink = (app: boolean) => (app ? { href: '/app' } : linkProps('/login'));

const bodyOf = (e: unknown): ApiErrorBody => (e instanceof ApiRequestError ? e.body : { code: 'network' });

/** The "activation sent" state: the address, what to do next, resend (POST /auth/resend-activation), another address. */
function ActivationSent({ email, app, onOther }: { email: string; app: boolean; onOther: () => void }) {
  const { s, t } = useSignupTexts();
  const [resend, setResend] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');
  async function resendLink() {
    setResend('sending');
    try {
      await api('/auth/resend-activation', { method: 'POST', body: { u_email: email } });
      setResend('sent');
    } catch {
      setResend('failed');
    }
  }
  return (
    <div data-testid="signup-sent" role="status" aria-live="polite">
      <Typography variant="h5" component="h1" gutterBottom>
        {s('sent_title')}
      </Typography>
      <Notice severity="success" style={{ marginBottom: 16 }}>
        {s('sent_to')}
        <strong style={{ display: 'block', overflowWrap: 'anywhere', margin: '2px 0' }}>{email}</strong>
        {s('sent_next')}
      </Notice>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {s('sent_exists')}
      </Typography>
      {resend === 'sent' && (
        <Notice severity="info" style={{ marginBottom: 16 }}>
          {s('resend_sent')}
        </Notice>
      )}
      {resend === 'failed' && (
        <Notice severity="error" style={{ marginBottom: 16 }}>
          {t('error_network')}
        </Notice>
      )}
      <PlainButton
        variant="text"
        fullWidth
        onClick={resendLink}
        disabled={resend === 'sending'}
        aria-busy={resend === 'sending'}
        startIcon={resend === 'sending' ? <Spinner size={18} /> : undefined}
      >
        {s('resend')}
      </PlainButton>
      <LinkButton {...backLink(app)} variant="contained" fullWidth style={{ marginTop: 12 }}>
        {app ? s('back_to_app') : t('ls.common.back_to_login')}
      </LinkButton>
      <Box sx={{ mt: 1.5, textAlign: 'center' }}>
        <PlainButton variant="text" size="small" onClick={onOther}>
          {s('other_address')}
        </PlainButton>
      </Box>
    </div>
  );
}

/** The form ("create user"): work e-mail, names, password and its confirmation; errors per field, the 422 as a notice. */
function SignupContent() {
  const { s, t, error } = useSignupTexts();
  const [app] = useState(fromApp);
  const [min, setMin] = useState(DEFAULT_PASSWORD_MIN_LENGTH);
  const schema = useMemo(() => signupSchema(min), [min]);
  const [values, setValues] = useState<Values>({ u_email: '', u_first_name: '', u_last_name: '', u_password: '', u_password_confirm: '' });
  const [touched, setTouched] = useState<Partial<Record<FieldName, boolean>>>({});
  const [serverFields, setServerFields] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<{ code: string; text: string; domain: string } | undefined>();
  const [sentTo, setSentTo] = useState<string | undefined>();

  // The server's password length (the same call the reset page makes; it also hands out the CSRF cookie).
  useEffect(() => {
    let alive = true;
    api<{ settings?: { passwordMinLength?: number } }>('/auth/guest-token').then(
      (g) => alive && g.settings?.passwordMinLength && setMin(g.settings.passwordMinLength),
      () => undefined,
    );
    return () => {
      alive = false;
    };
  }, []);

  const errors = useMemo(() => issuesByField(schema, values), [schema, values]);
  const hasErrors = FIELDS.some((f) => errors[f]?.length);
  // Errors show once a field was touched; a mismatch shows on both password fields (spec 5).
  const fieldError = (f: FieldName) => {
    const key = serverFields[f] ?? errors[f]?.[0];
    return touched[f] && key ? t(key, { min }) : undefined;
  };
  const change = (f: FieldName) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [f]: e.target.value }));
    setServerFields((s) => (f in s ? {} : s));
    if (f === 'u_email') setFailure(undefined);
  };
  const blur = (f: FieldName) => () => setTouched((tt) => (tt[f] ? tt : { ...tt, [f]: true }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (saving) return;
    if (hasErrors) {
      setTouched(Object.fromEntries(FIELDS.map((f) => [f, true])));
      return;
    }
    setSaving(true);
    setFailure(undefined);
    const email = values.u_email.trim();
    try {
      await api('/auth/signup', { method: 'POST', body: { ...values, u_email: email, u_first_name: values.u_first_name.trim(), u_last_name: values.u_last_name.trim() } });
      rememberReturn(app);
      setSentTo(email);
    } catch (err) {
      const body = bodyOf(err);
      if (body.fields) {
        setServerFields(body.fields);
        setTouched((tt) => ({ ...tt, ...Object.fromEntries(Object.keys(body.fields!).map((f) => [f, true])) }));
      }
      setFailure({ code: body.code, text: error(body), domain: email.slice(email.lastIndexOf('@') + 1) });
    } finally {
      setSaving(false);
    }
  }

  if (sentTo)
    return (
      <ActivationSent
        email={sentTo}
        app={app}
        onOther={() => {
          setSentTo(undefined);
          setValues((v) => ({ ...v, u_email: '', u_password: '', u_password_confirm: '' }));
          setTouched({});
        }}
      />
    );

  const noAccount = failure?.code === 'company_has_no_account';
  return (
    <Box component="form" noValidate onSubmit={submit} aria-label={t('ls.signup.title')}>
      <Typography variant="h5" component="h1" gutterBottom>
        {t('ls.signup.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {s('subtitle')}
      </Typography>
      {failure && (
        <Notice
          severity={noAccount ? 'warning' : 'error'}
          title={noAccount ? s('no_account_title', { domain: failure.domain }) : undefined}
          data-testid={noAccount ? 'signup-no-account' : 'signup-failure'}
          style={{ marginBottom: 16 }}
        >
          {failure.text}
        </Notice>
      )}
      <Field
        name="u_email"
        type="email"
        label={s('email')}
        autoComplete="username"
        autoFocus
        required
        value={values.u_email}
        onChange={change('u_email')}
        onBlur={blur('u_email')}
        error={fieldError('u_email')}
        helperText={s('email_hint')}
        disabled={saving}
      />
      <Box sx={{ display: 'flex', gap: { xs: 0, sm: 2 }, flexDirection: { xs: 'column', sm: 'row' } }}>
        <Field
          name="u_first_name"
          label={s('first_name')}
          autoComplete="given-name"
          required
          value={values.u_first_name}
          onChange={change('u_first_name')}
          onBlur={blur('u_first_name')}
          error={fieldError('u_first_name')}
          disabled={saving}
        />
        <Field
          name="u_last_name"
          label={s('last_name')}
          autoComplete="family-name"
          required
          value={values.u_last_name}
          onChange={change('u_last_name')}
          onBlur={blur('u_last_name')}
          error={fieldError('u_last_name')}
          disabled={saving}
        />
      </Box>
      <Field
        name="u_password"
        type="password"
        label={s('password')}
        autoComplete="new-password"
        required
        value={values.u_password}
        onChange={change('u_password')}
        onBlur={blur('u_password')}
        error={fieldError('u_password')}
        helperText={s('hint', { min })}
        disabled={saving}
      />
      <Field
        name="u_password_confirm"
        type="password"
        label={s('password_confirm')}
        autoComplete="new-password"
        required
        value={values.u_password_confirm}
        onChange={change('u_password_confirm')}
        onBlur={blur('u_password_confirm')}
        error={fieldError('u_password_confirm')}
        disabled={saving}
      />
      <PlainButton
        type="submit"
        variant="contained"
        size="large"
        fullWidth
        disabled={saving}
        aria-busy={saving}
        startIcon={saving ? <Spinner size={18} /> : undefined}
        style={{ marginTop: 8 }}
      >
        {saving ? s('submitting') : s('submit')}
      </PlainButton>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 2, textAlign: 'center' }}>
        {s('have_account')} <TextLink {...backLink(app)}>{s('sign_in')}</TextLink>
      </Typography>
    </Box>
  );
}

/** /signup (platform-and-flows.md section 3): "create user", then "activation sent" with resend. */
export default function SignupPage() {
  return (
    <PublicShell title="ls.signup.title">
      <SignupContent />
    </PublicShell>
  );
}
