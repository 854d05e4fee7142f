import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { PublicFormPage } from './PublicFormPage';
import { SubmitFailure, type PublicFormData, type PublicSubmission } from './model';
import { loadRegistration, pageFailureText, RegisterError, stylesheetHref, submitRegistration, type RegistrationInfo } from './register';
import { translator, type PublicLocale, type PublicTextKey, type PublicTranslate } from './texts';

type Load = { kind: 'loading' } | { kind: 'failed'; key: PublicTextKey } | { kind: 'ready'; info: RegistrationInfo };

/** The access-code step of a restricted event: the code is checked by the API, which then sends the form. */
function AccessCodeStep({ t, onCode }: { t: PublicTranslate; onCode: (code: string) => Promise<void> }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [checking, setChecking] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (checking) return;
    if (!code.trim()) {
      setError(t('error_required'));
      input.current?.focus();
      return;
    }
    setChecking(true);
    setError(undefined);
    try {
      await onCode(code.trim());
    } catch (failure) {
      setError(pageFailureText(t, failure, 'load_failed'));
      input.current?.focus();
    } finally {
      setChecking(false);
    }
  };
  return (
    <form className="ls-public-form ls-public-access" noValidate onSubmit={submit}>
      <p className="ls-public-description" id="ls-public-access-intro">
        {t('access_code_intro')}
      </p>
      <div className="ls-public-field">
        <label className="ls-public-label" htmlFor="ls-public-access-code">
          {t('access_code_label')}
        </label>
        <input
          ref={input}
          id="ls-public-access-code"
          className="ls-public-input"
          name="access_code"
          type="text"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          required
          aria-required="true"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'ls-public-access-intro ls-public-access-error' : 'ls-public-access-intro'}
          value={code}
          onChange={(e) => {
            setCode(e.target.value);
            setError(undefined);
          }}
        />
        {error ? (
          <p className="ls-public-field-error" id="ls-public-access-error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
      <button type="submit" className="ls-public-submit" disabled={checking} aria-busy={checking || undefined}>
        {checking ? t('checking') : t('access_code_submit')}
      </button>
    </form>
  );
}

/**
 * The registration page /register/{eventId}: the event's registration form in its form style (PublicFormPage), or the
 * closed message, the no-form message, or the access-code step first; a submit posts the answers and goes on to the
 * thanks page, the API's field errors shown under the fields.
 */
export function RegistrationPage({ eventId, locale, onLocale }: { eventId: string; locale: PublicLocale; onLocale: (l: PublicLocale) => void }) {
  const t = translator(locale);
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const [accessCode, setAccessCode] = useState<string>();

  useEffect(() => {
    let alive = true;
    loadRegistration(eventId).then(
      (info) => alive && setLoad({ kind: 'ready', info }),
      (e: unknown) => alive && setLoad({ kind: 'failed', key: e instanceof RegisterError && e.status === 404 ? 'not_found' : 'load_failed' }),
    );
    return () => {
      alive = false;
    };
  }, [eventId]);

  const info = load.kind === 'ready' ? load.info : undefined;
  const data = useMemo<PublicFormData | undefined>(
    () =>
      info
        ? {
            style: info.style,
            form: info.form ? { elements: info.form.elements } : null,
            event: { ev_title: info.event.ev_title, ev_consent_text: info.event.ev_consent_text, ev_description: info.event.ev_description },
            style_assets: info.style_assets,
          }
        : undefined,
    [info],
  );

  if (load.kind !== 'ready' || !data || !info) {
    const key: PublicTextKey = load.kind === 'failed' ? load.key : 'loading';
    return (
      <div className="ls-public">
        <p className="ls-public-status" role={key === 'loading' ? 'status' : 'alert'}>
          {t(key)}
        </p>
      </div>
    );
  }

  const unlock = async (code: string) => {
    const unlocked = await loadRegistration(eventId, code);
    setAccessCode(code);
    setLoad({ kind: 'ready', info: unlocked });
  };

  const submit = async (submission: PublicSubmission) => {
    try {
      await submitRegistration(eventId, { ...submission, access_code: accessCode, lang: locale });
    } catch (e) {
      throw new SubmitFailure(pageFailureText(t, e, 'send_failed'), e instanceof RegisterError && e.code === 'lead_incomplete' ? e.fields : undefined);
    }
  };

  const notice = (text: string) => (
    <p className="ls-public-notice ls-public-notice--state" role="status">
      {text}
    </p>
  );
  let replaceForm;
  if (info.state === 'closed') replaceForm = notice(t('closed'));
  else if (info.state === 'no_form') replaceForm = notice(t('error_event_has_no_form'));
  else if (!info.form) replaceForm = <AccessCodeStep t={t} onCode={unlock} />;

  return (
    <PublicFormPage
      data={data}
      locale={locale}
      onLocale={onLocale}
      stylesheetHref={info.style ? stylesheetHref(eventId) : undefined}
      assetUrl={(id) => data.style_assets?.[id]}
      onSubmit={submit}
      replaceForm={replaceForm}
    />
  );
}
