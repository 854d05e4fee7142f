import { useEffect, useRef, useState } from 'react';
import { ApiRequestError, profile as loadProfile, putProfilePicture, removeProfilePicture, type Profile } from '../api';
import { resizeImage } from '../camera';
import { useApp, type ThemeChoice } from '../context';
import { isAppTextKey, type AppLocale } from '../texts';
import { Icon } from '../Icon';

/** What "Copy app and system details" puts on the clipboard, for a support request. */
export function systemDetails(input: {
  version: string;
  build: string;
  userAgent: string;
  screen: string;
  online: boolean;
  unsent: number;
  language: string;
  user: string;
  standalone: boolean;
  serviceWorker: string;
}): string {
  return [
    `Leadstage Capture ${input.version} (build ${input.build})`,
    `User: ${input.user}`,
    `User agent: ${input.userAgent}`,
    `Screen: ${input.screen}`,
    `Language: ${input.language}`,
    `Online: ${input.online ? 'yes' : 'no'}`,
    `Unsent leads: ${input.unsent}`,
    `Installed: ${input.standalone ? 'yes' : 'no'}`,
    `Service worker: ${input.serviceWorker}`,
    `Time: ${new Date().toISOString()}`,
  ].join('\n');
}

/** Profile (entry_profile): picture, names; the app's language and appearance; details for support; sign out. */
export function ProfilePage() {
  const app = useApp();
  const { t, user, online, unsent, locale, theme } = app;
  const [me, setMe] = useState<Profile | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);
  const [copyFailed, setCopyFailed] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    document.title = `${t('profile_title')} · ${t('app_name')}`;
  }, [t]);
  useEffect(() => {
    if (online) loadProfile().then(setMe, () => undefined);
  }, [online]);

  const details = systemDetails({
    version: __APP_VERSION__,
    build: __APP_BUILD__,
    userAgent: navigator.userAgent,
    screen: `${screen.width}×${screen.height} @${window.devicePixelRatio}x, window ${window.innerWidth}×${window.innerHeight}`,
    online,
    unsent,
    language: `${locale} (${navigator.language})`,
    user: user.u_email,
    standalone: window.matchMedia?.('(display-mode: standalone)').matches ?? false,
    serviceWorker: navigator.serviceWorker?.controller ? 'active' : 'none',
  });

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(details);
      setCopied(true);
      setCopyFailed(false);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopyFailed(true);
    }
  };

  const pick = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setError('');
    try {
      setMe(await putProfilePicture(await resizeImage(file, 512, true)));
      app.toast(t('picture_saved'));
    } catch (e) {
      const key = e instanceof ApiRequestError ? `error_${e.code}` : '';
      setError(isAppTextKey(key) ? t(key) : e instanceof ApiRequestError ? e.body.message || t('error_unknown') : t('error_network'));
    } finally {
      setBusy(false);
      if (fileRef.current) fileRef.current.value = '';
    }
  };

  const name = [me?.u_first_name ?? user.u_first_name, me?.u_last_name ?? user.u_last_name].filter(Boolean).join(' ');
  return (
    <section className="cap-screen">
      <h1 tabIndex={-1}>{t('profile_title')}</h1>
      <div className="cap-card cap-profile">
        <div className="cap-avatar" aria-hidden={!me?.picture_url}>
          {me?.picture_url ? <img src={me.picture_url} alt={t('picture')} /> : <Icon name="person" />}
        </div>
        <div>
          <p className="cap-row-title">{name || user.u_email}</p>
          <p className="cap-muted">{user.u_email}</p>
        </div>
      </div>
      {online ? (
        <div className="cap-actions">
          <label className={`cap-btn ${busy ? 'cap-btn--busy' : ''}`}>
            <Icon name="camera" />
            {t('change_picture')}
            <input
              ref={fileRef}
              type="file"
              accept="image/jpeg,image/png,image/webp"
              className="cap-visually-hidden"
              onChange={(e) => void pick(e.target.files?.[0])}
              disabled={busy}
            />
          </label>
          {me?.has_picture && (
            <button type="button" className="cap-btn" disabled={busy} onClick={() => void removeProfilePicture().then(setMe, () => setError(t('error_network')))}>
              <Icon name="trash" />
              {t('remove_picture')}
            </button>
          )}
        </div>
      ) : (
        <p className="cap-note">{t('profile_offline')}</p>
      )}
      {error && (
        <p className="cap-error" role="alert">
          {error}
        </p>
      )}

      <div className="cap-card cap-settings">
        <label className="cap-field">
          <span>{t('language')}</span>
          <select value={locale} onChange={(e) => app.setLocale(e.target.value as AppLocale)} name="language">
            <option value="en">English</option>
            <option value="nl">Nederlands</option>
          </select>
        </label>
        <label className="cap-field">
          <span>{t('theme')}</span>
          <select value={theme} onChange={(e) => app.setTheme(e.target.value as ThemeChoice)} name="theme">
            <option value="auto">{t('theme_auto')}</option>
            <option value="light">{t('theme_light')}</option>
            <option value="dark">{t('theme_dark')}</option>
          </select>
        </label>
      </div>

      <div className="cap-card">
        <h2 className="cap-form-title">{t('details')}</h2>
        <pre className="cap-details" data-testid="system-details">
          {details}
        </pre>
        <button type="button" className="cap-btn cap-btn--block" onClick={() => void copy()}>
          <Icon name={copied ? 'check' : 'copy'} />
          {copied ? t('copied') : t('copy_details')}
        </button>
        {copyFailed && <p className="cap-error">{t('copy_failed')}</p>}
      </div>

      {unsent > 0 && <p className="cap-note">{t('sign_out_unsent', { count: unsent })}</p>}
      <button type="button" className="cap-btn cap-btn--block cap-btn--danger" onClick={() => void app.signOut()}>
        {t('sign_out')}
      </button>
    </section>
  );
}
