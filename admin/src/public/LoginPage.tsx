import { lazy, Suspense, useEffect, useState } from 'react';
import Typography from '@mui/material/Typography';
import { PublicShell } from './PublicShell';
import { LoginForm } from './LoginForm';
import { usePublicI18n } from './i18n';
import { login } from '../providers/authProvider';
import { loadSession } from '../providers/session';
import { api } from '../providers/http';
import { linkProps, navigate } from '../navigation';
import { TextLink } from './ui';

// The dialog (and MUI's modal machinery) loads on the first click, keeping the sign-in page small.
const ForgotPasswordDialog = lazy(() => import('./ForgotPasswordDialog').then((m) => ({ default: m.ForgotPasswordDialog })));

export const AFTER_LOGIN = '/accounts/selection';

function LoginContent() {
  const { t } = usePublicI18n();
  const [forgot, setForgot] = useState<string | null>(null);

  // Already signed in -> account selection (spec 2). The call also hands out the CSRF cookie.
  useEffect(() => {
    let alive = true;
    loadSession(true).then(
      (session) => alive && session && navigate(AFTER_LOGIN, { replace: true }),
      () => undefined,
    );
    return () => {
      alive = false;
    };
  }, []);

  return (
    <>
      <Typography variant="h5" component="h1" gutterBottom>
        {t('ls.login.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('ls.login.subtitle')}
      </Typography>
      <LoginForm
        onLogin={login}
        onSuccess={() => navigate(AFTER_LOGIN, { replace: true })}
        onForgotPassword={(email) => setForgot(email)}
        onResendActivation={(email) => api('/auth/resend-activation', { method: 'POST', body: { u_email: email } })}
      />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1, textAlign: 'center' }}>
        {t('ls.login.no_account')} <TextLink {...linkProps('/signup')}>{t('ls.login.create_account')}</TextLink>
      </Typography>
      {forgot !== null && (
        <Suspense fallback={null}>
          <ForgotPasswordDialog open initialEmail={forgot} onClose={() => setForgot(null)} />
        </Suspense>
      )}
    </>
  );
}

/** /login (spec 2 and 5). */
export default function LoginPage() {
  return (
    <PublicShell title="ls.login.title">
      <LoginContent />
    </PublicShell>
  );
}
