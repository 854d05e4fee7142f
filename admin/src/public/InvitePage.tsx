import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { PublicShell } from './PublicShell';
import { LoginForm } from './LoginForm';
import { Field } from './Field';
import { Spinner } from './Spinner';
import { LinkButton, Notice, PlainButton } from './ui';
import { useInviteI18n } from './inviteTexts';
import { DelayedProgress } from '../layout/DelayedProgress';
import { inviteAcceptSchema } from '../../../resources/invites';
import { DEFAULT_PASSWORD_MIN_LENGTH } from '../../../resources/users';
import { issuesByField } from '../layout/zod';
import { api, ApiRequestError, type ApiErrorBody } from '../providers/http';
import { login, logout } from '../providers/authProvider';
import { loadSession, setSession, type Session } from '../providers/session';
import { linkProps, navigate } from '../navigation';

const ForgotPasswordDialog = lazy(() => import('./ForgotPasswordDialog').then((m) => ({ default: m.ForgotPasswordDialog })));

/** GET /invite/{token} (account-console.md: invites). */
export interface InviteInfo {
  account: { a_id: string; a_name: string };
  iv_email: string;
  iv_first_name: string | null;
  iv_last_name: string | null;
  iv_role: string;
  user_exists: boolean;
  settings?: { passwordMinLength?: number };
}

type AcceptAnswer = Session & { account_id: string };

type Load = { state: 'loading' } | { state: 'invalid' } | { state: 'failed'; body: ApiErrorBody } | { state: 'ready'; invite: InviteInfo; session: Session | null };

const isInvalid = (e: unknown) => e instanceof ApiRequestError && (e.code === 'invite_invalid' || e.status === 404);
const bodyOf = (e: unknown): ApiErrorBody => (e instanceof ApiRequestError ? e.body : { code: 'network' });

/** After joining: the account's console, with the session the answer carries. */
function enterConsole(answer: AcceptAnswer) {
  const { account_id: accountId, ...session } = answer;
  setSession(session as Session);
  navigate(`/console/${accountId}`, { replace: true });
}

const accept = (body: Record<string, unknown>) => api<AcceptAnswer>('/invite/accept', { method: 'POST', body });

const FIELDS = ['u_first_name', 'u_last_name', 'u_password', 'u_password_confirm'] as const;
type FieldName = (typeof FIELDS)[number];

/** A new user: names (from the invite, editable) and a password with its confirmation, by the rules of spec 5. */
function NewUserForm({ token, invite, onInvalid }: { token: string; invite: InviteInfo; onInvalid: () => void }) {
  const { t, errorText } = useInviteI18n();
  const min = invite.settings?.passwordMinLength ?? DEFAULT_PASSWORD_MIN_LENGTH;
  const schema = useMemo(() => inviteAcceptSchema(min, true), [min]);
  const [values, setValues] = useState<Record<FieldName, string>>({
    u_first_name: invite.iv_first_name ?? '',
    u_last_name: invite.iv_last_name ?? '',
    u_password: '',
    u_password_confirm: '',
  });
  const [touched, setTouched] = useState<Partial<Record<FieldName, boolean>>>({});
  const [serverFields, setServerFields] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | undefined>();

  const errors = useMemo(() => issuesByField(schema, { token, ...values }), [schema, token, values]);
  const hasErrors = FIELDS.some((f) => errors[f]?.length);
  // Spec 5: errors show once a field was touched; a mismatch shows on both password fields.
  const fieldError = (f: FieldName) => {
    const key = errors[f]?.[0] ?? serverFields[f];
    return touched[f] && key ? t(key, { min }) : undefined;
  };
  const change = (f: FieldName) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [f]: e.target.value }));
    setServerFields({});
  };
  const blur = (f: FieldName) => () => setTouched((tt) => (tt[f] ? tt : { ...tt, [f]: true }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (saving) return;
    if (hasErrors) {
      setTouched({ u_first_name: true, u_last_name: true, u_password: true, u_password_confirm: true });
      return;
    }
    setSaving(true);
    setFailure(undefined);
    try {
      enterConsole(await accept({ token, ...values, u_first_name: values.u_first_name.trim(), u_last_name: values.u_last_name.trim() }));
    } catch (err) {
      setSaving(false);
      if (isInvalid(err)) return onInvalid();
      const body = bodyOf(err);
      if (body.fields) {
        setServerFields(body.fields);
        setTouched((tt) => ({ ...tt, ...Object.fromEntries(Object.keys(body.fields!).map((f) => [f, true])) }));
      }
      setFailure(errorText(body));
    }
  }

  return (
    <Box component="form" noValidate onSubmit={submit} aria-label={t('ls.invite.submit')}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('ls.invite.new_user')}
      </Typography>
      {failure && (
        <Notice severity="error" data-testid="invite-failure" style={{ marginBottom: 16 }}>
          {failure}
        </Notice>
      )}
      {/* Lets password managers file the new password under the invited address. */}
      <input type="text" name="username" autoComplete="username" hidden readOnly value={invite.iv_email} />
      <Field
        name="u_first_name"
        label={t('ls.invite.first_name')}
        autoComplete="given-name"
        autoFocus
        value={values.u_first_name}
        onChange={change('u_first_name')}
        onBlur={blur('u_first_name')}
        error={fieldError('u_first_name')}
        disabled={saving}
      />
      <Field
        name="u_last_name"
        label={t('ls.invite.last_name')}
        autoComplete="family-name"
        value={values.u_last_name}
        onChange={change('u_last_name')}
        onBlur={blur('u_last_name')}
        error={fieldError('u_last_name')}
        disabled={saving}
      />
      <Field
        name="u_password"
        type="password"
        label={t('ls.invite.password')}
        autoComplete="new-password"
        required
        value={values.u_password}
        onChange={change('u_password')}
        onBlur={blur('u_password')}
        error={fieldError('u_password')}
        helperText={t('ls.invite.hint', { min })}
        disabled={saving}
      />
      <Field
        name="u_password_confirm"
        type="password"
        label={t('ls.invite.password_confirm')}
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
        disabled={hasErrors || saving}
        aria-busy={saving}
        startIcon={saving ? <Spinner size={18} /> : undefined}
        style={{ marginTop: 8 }}
      >
        {saving ? t('ls.invite.submitting') : t('ls.invite.submit')}
      </PlainButton>
    </Box>
  );
}

/** An existing user: sign in as the invited address (or switch to it), then accept. */
function ExistingUser({
  token,
  invite,
  session,
  onSession,
  onInvalid,
}: {
  token: string;
  invite: InviteInfo;
  session: Session | null;
  onSession: (s: Session | null) => void;
  onInvalid: () => void;
}) {
  const { t, errorText } = useInviteI18n();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | undefined>();
  const [forgot, setForgot] = useState<string | null>(null);
  const current = session?.user.u_email;
  const isInvited = current !== undefined && current.toLowerCase() === invite.iv_email.toLowerCase();

  const acceptNow = useCallback(async () => {
    setBusy(true);
    setFailure(undefined);
    try {
      enterConsole(await accept({ token }));
    } catch (err) {
      setBusy(false);
      if (isInvalid(err)) return onInvalid();
      setFailure(errorText(bodyOf(err)));
      // Signed in with another address after all: show who is signed in.
      onSession(await loadSession(true).catch(() => null));
    }
  }, [token, errorText, onInvalid, onSession]);

  async function switchUser() {
    setBusy(true);
    await logout();
    setBusy(false);
    onSession(null);
  }

  return (
    <>
      {failure && (
        <Notice severity="error" data-testid="invite-failure" style={{ marginBottom: 16 }}>
          {failure}
        </Notice>
      )}
      {isInvited ? (
        <>
          <Typography variant="body2" sx={{ mb: 2 }}>
            {t('ls.invite.signed_in_as', { email: current })}
          </Typography>
          <PlainButton variant="contained" size="large" fullWidth onClick={acceptNow} disabled={busy} aria-busy={busy} startIcon={busy ? <Spinner size={18} /> : undefined}>
            {busy ? t('ls.invite.accepting') : t('ls.invite.accept')}
          </PlainButton>
        </>
      ) : current ? (
        <>
          <Notice severity="warning" style={{ marginBottom: 16 }}>
            {t('ls.invite.other_user', { current, email: invite.iv_email })}
          </Notice>
          <PlainButton variant="contained" size="large" fullWidth onClick={switchUser} disabled={busy}>
            {t('ls.invite.switch_user', { email: invite.iv_email })}
          </PlainButton>
        </>
      ) : (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {t('ls.invite.existing_user', { email: invite.iv_email })}
          </Typography>
          <LoginForm
            initialEmail={invite.iv_email}
            onLogin={login}
            onSuccess={acceptNow}
            onForgotPassword={(email) => setForgot(email)}
            onResendActivation={(email) => api('/auth/resend-activation', { method: 'POST', body: { u_email: email } })}
          />
          {forgot !== null && (
            <Suspense fallback={null}>
              <ForgotPasswordDialog open initialEmail={forgot} onClose={() => setForgot(null)} />
            </Suspense>
          )}
        </>
      )}
    </>
  );
}

/** /invite/{token}: what the invitation is for, then a new user's form or an existing user's sign-in, then the console. */
export function InviteContent({ token }: { token: string }) {
  const { t, errorText } = useInviteI18n();
  const [load, setLoad] = useState<Load>({ state: 'loading' });

  useEffect(() => {
    let alive = true;
    // The first call also hands out the CSRF cookie the accept needs.
    Promise.all([api<InviteInfo>(`/invite/${encodeURIComponent(token)}`), loadSession(true).catch(() => null)]).then(
      ([invite, session]) => alive && setLoad({ state: 'ready', invite, session }),
      (err) => alive && setLoad(isInvalid(err) ? { state: 'invalid' } : { state: 'failed', body: bodyOf(err) }),
    );
    return () => {
      alive = false;
    };
  }, [token]);

  const invalid = useCallback(() => setLoad({ state: 'invalid' }), []);
  const onSession = useCallback((session: Session | null) => setLoad((l) => (l.state === 'ready' ? { ...l, session } : l)), []);

  if (load.state === 'loading')
    return (
      <div role="status" aria-live="polite">
        <Typography variant="h5" component="h1" gutterBottom>
          {t('ls.invite.title')}
        </Typography>
        <Typography color="text.secondary">{t('ls.invite.loading')}</Typography>
        <DelayedProgress />
      </div>
    );
  if (load.state === 'invalid' || load.state === 'failed')
    return (
      <div data-testid="invite-invalid">
        <Typography variant="h5" component="h1" gutterBottom>
          {t('ls.invite.title')}
        </Typography>
        <Notice severity="error" title={load.state === 'invalid' ? t('error_invite_invalid') : errorText(load.body)}>
          {load.state === 'invalid' ? t('ls.invite.invalid_text') : undefined}
        </Notice>
        <LinkButton {...linkProps('/login')} variant="text" fullWidth style={{ marginTop: 16 }}>
          {t('ls.common.back_to_login')}
        </LinkButton>
      </div>
    );

  const { invite, session } = load;
  const account = invite.account.a_name;
  return (
    <div data-testid="invite-ready">
      <Typography variant="h5" component="h1" gutterBottom sx={{ overflowWrap: 'anywhere' }}>
        {t('ls.invite.heading', { account })}
      </Typography>
      <Typography variant="body1" sx={{ mb: 1, overflowWrap: 'anywhere' }}>
        {t('ls.invite.intro', { account, role: t(`ls.roles.${invite.iv_role}`) })}
      </Typography>
      <Box component="dl" sx={{ m: 0, mb: 2 }}>
        <Typography component="dt" variant="caption" color="text.secondary">
          {t('ls.invite.email')}
        </Typography>
        <Typography component="dd" variant="body1" sx={{ m: 0, fontWeight: 600, overflowWrap: 'anywhere' }} data-testid="invite-email">
          {invite.iv_email}
        </Typography>
      </Box>
      {invite.user_exists ? (
        <ExistingUser token={token} invite={invite} session={session} onSession={onSession} onInvalid={invalid} />
      ) : (
        <NewUserForm token={token} invite={invite} onInvalid={invalid} />
      )}
    </div>
  );
}

export default function InvitePage({ token }: { token: string }) {
  return (
    <PublicShell title="ls.invite.title">
      <InviteContent token={token} />
    </PublicShell>
  );
}
