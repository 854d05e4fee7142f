import { useEffect, useState } from 'react';
import Typography from '@mui/material/Typography';
import { PublicShell } from './PublicShell';
import { DelayedProgress } from '../layout/DelayedProgress';
import { api, ApiRequestError } from '../providers/http';
import { linkProps } from '../navigation';
import { usePublicI18n } from './i18n';
import { LinkButton, Notice, TextLink } from './ui';

type Outcome = { state: 'success'; support?: { email?: string; privacyUrl?: string } } | { state: 'already_verified' } | { state: 'failed' };

// A token is used up by its first call: remember the answer per token, so a second render (or React's
// development double effect) does not turn a success into "already verified".
const answers = new Map<string, Promise<Outcome>>();

export function verifyToken(token: string): Promise<Outcome> {
  let answer = answers.get(token);
  if (!answer) {
    answer = api<{ code: string; support?: { email?: string; privacyUrl?: string } }>(`/users/verify/${encodeURIComponent(token)}`).then(
      (body): Outcome => ({ state: 'success', support: body.support }),
      (e): Outcome => (e instanceof ApiRequestError && e.code === 'already_verified' ? { state: 'already_verified' } : { state: 'failed' }),
    );
    answers.set(token, answer);
  }
  return answer;
}

/** The sign-up page's localStorage key (signupTexts.ts AFTER_VERIFY_KEY; a copy, so this page loads none of that file). */
export const AFTER_VERIFY_KEY = 'ls.after_verify';

/** The way on after a sign-up from the capture app (here, not in i18n/en.ts: the sign-in page's budget is full). */
const OPEN_APP = { en: 'Continue in Leadstage Capture', nl: 'Verder in Leadstage Capture' };

/** Where a sign-up from the capture app goes after verification ('/app'), else undefined. */
function afterVerify(): string | undefined {
  try {
    return window.localStorage.getItem(AFTER_VERIFY_KEY) === '/app' ? '/app' : undefined;
  } catch {
    return undefined;
  }
}

/** /users/verify/{token}: verifying, then success, already verified, or failed (spec 2 and 4). */
function VerifyContent({ token }: { token: string }) {
  const { t, locale } = usePublicI18n();
  const [outcome, setOutcome] = useState<Outcome | 'verifying'>('verifying');

  useEffect(() => {
    let alive = true;
    verifyToken(token).then((o) => alive && setOutcome(o));
    return () => {
      alive = false;
    };
  }, [token]);

  // Signed up from the capture app (SignupPage remembers it in this browser): its sign-in is the way on.
  const [toApp] = useState(afterVerify);
  const toLogin =
    toApp && outcome !== 'verifying' && outcome.state !== 'failed' ? (
      <LinkButton href={toApp} variant="contained" fullWidth style={{ marginTop: 24 }} data-testid="verify-open-app">
        {OPEN_APP[locale]}
      </LinkButton>
    ) : (
      <LinkButton {...linkProps('/login')} variant="contained" fullWidth style={{ marginTop: 24 }}>
        {t('ls.common.back_to_login')}
      </LinkButton>
    );

  if (outcome === 'verifying')
    return (
      <div role="status" aria-live="polite">
        <Typography variant="h5" component="h1" gutterBottom>
          {t('ls.verify.title')}
        </Typography>
        <Typography color="text.secondary">{t('ls.verify.verifying')}</Typography>
        <DelayedProgress />
      </div>
    );
  if (outcome.state === 'success')
    return (
      <div data-testid="verify-success">
        <Typography variant="h5" component="h1" gutterBottom>
          {t('ls.verify.success_title')}
        </Typography>
        <Notice severity="success" style={{ marginBottom: 16 }}>
          {t('ls.verify.success')}
        </Notice>
        {outcome.support?.email && (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {t('ls.verify.support')} <TextLink href={`mailto:${outcome.support.email}`}>{outcome.support.email}</TextLink>
          </Typography>
        )}
        {outcome.support?.privacyUrl && (
          <Typography variant="body2">
            <TextLink href={outcome.support.privacyUrl} target="_blank" rel="noopener noreferrer">
              {t('ls.verify.privacy')}
            </TextLink>
          </Typography>
        )}
        {toLogin}
      </div>
    );
  const already = outcome.state === 'already_verified';
  return (
    <div data-testid={already ? 'verify-already' : 'verify-failed'}>
      <Typography variant="h5" component="h1" gutterBottom>
        {t(already ? 'ls.verify.already_title' : 'ls.verify.failed_title')}
      </Typography>
      <Notice severity={already ? 'info' : 'error'}>{t(already ? 'ls.verify.already' : 'ls.verify.failed')}</Notice>
      {toLogin}
    </div>
  );
}

export default function VerifyPage({ token }: { token: string }) {
  return (
    <PublicShell title="ls.verify.title">
      <VerifyContent token={token} />
    </PublicShell>
  );
}
