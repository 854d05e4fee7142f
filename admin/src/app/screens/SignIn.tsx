import { useState, type FormEvent } from 'react';
import { ApiRequestError, signIn, type SessionUser } from '../api';
import { isAppTextKey, type Translate } from '../texts';

/** Sign-in with the admin's route (POST /api/1/auth/web, CSRF header from the cookie): the same session as the console. */
export function SignIn({ t, online, onSignedIn }: { t: Translate; online: boolean; onSignedIn: (user: SessionUser) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      onSignedIn(await signIn(email.trim(), password));
    } catch (err) {
      if (err instanceof ApiRequestError) {
        const key = `error_${err.code}`;
        setError(isAppTextKey(key) ? t(key) : err.body.message || t('error_unknown'));
      } else setError(t('error_network'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="cap-signin" id="main">
      <form className="cap-card cap-signin-form" onSubmit={submit} noValidate={false}>
        <h1 tabIndex={-1}>{t('sign_in_title')}</h1>
        <p className="cap-muted">{t('sign_in_intro')}</p>
        {!online && <p className="cap-note">{t('offline_sign_in')}</p>}
        <label className="cap-field">
          <span>{t('email')}</span>
          <input type="email" name="email" autoComplete="username" inputMode="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label className="cap-field">
          <span>{t('password')}</span>
          <input type="password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        {error && (
          <p className="cap-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="cap-btn cap-btn--primary cap-btn--block" disabled={busy || !email || !password}>
          {busy ? t('signing_in') : t('sign_in')}
        </button>
        {/* Self sign-up (platform-and-flows.md section 3) is a page of the console's public pages; it comes back here. */}
        <p className="cap-muted cap-signin-signup">
          {t('no_account')}{' '}
          <a href="/signup?from=app" className="cap-signin-link">
            {t('create_account')}
          </a>
        </p>
      </form>
    </main>
  );
}
