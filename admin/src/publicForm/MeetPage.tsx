import { useEffect, useMemo, useRef, useState, type CSSProperties, type FormEvent } from 'react';
import { LanguageFooter, Logo, useStyleFonts } from './PublicFormPage';
import type { PublicFormData } from './model';
import { RegisterError } from './register';
import { loadMeet, meetTranslator, requestMeeting, slotsByDay, slotTimes, type MeetInfo, type MeetTextKey } from './meet';
import type { PublicLocale } from './texts';

type Load = { kind: 'loading' } | { kind: 'failed'; key: MeetTextKey } | { kind: 'ready'; info: MeetInfo };
type Field = 'ms_id' | 'email' | 'first_name' | 'last_name' | 'message';

const hostName = (h: MeetInfo['slots'][number]['host']) => (h ? [h.u_first_name, h.u_last_name].filter(Boolean).join(' ') : '');

/**
 * The public meeting page /meet/{eventId} (platform-and-flows.md 5), phone-first like the registration page: the
 * event's free slots by day in the account's time zone, then e-mail, names and a message; a submit asks for the
 * meeting (the host is mailed) and shows the thanks. A slot taken meanwhile (409 slot_full) reloads the slots.
 */
export function MeetPage({ eventId, locale, onLocale }: { eventId: string; locale: PublicLocale; onLocale: (l: PublicLocale) => void }) {
  const t = meetTranslator(locale);
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const [values, setValues] = useState<Record<Field, string>>({ ms_id: '', email: '', first_name: '', last_name: '', message: '' });
  const [website, setWebsite] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string>();
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const summary = useRef<HTMLParagraphElement>(null);
  const sentTitle = useRef<HTMLHeadingElement>(null);
  // The event's form style, as on the registration page: its fonts, logo, colours (custom CSS).
  const ready = load.kind === 'ready' ? load.info : undefined;
  const styleData = useMemo<PublicFormData>(() => ({ style: ready?.style ?? null, form: null }), [ready?.style]);
  const assetUrl = (id: string) => ready?.style_assets?.[id];
  const font = useStyleFonts(styleData, assetUrl);

  const reload = () =>
    loadMeet(eventId).then(
      (info) => setLoad({ kind: 'ready', info }),
      (e: unknown) => setLoad({ kind: 'failed', key: e instanceof RegisterError && e.status === 404 ? 'not_found' : 'load_failed' }),
    );
  useEffect(() => {
    void reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [eventId]);
  useEffect(() => {
    if (sent) sentTitle.current?.focus();
  }, [sent]);

  if (load.kind !== 'ready') {
    const key: MeetTextKey = load.kind === 'failed' ? load.key : 'loading';
    return (
      <div className="ls-public">
        <p className="ls-public-status" role={key === 'loading' ? 'status' : 'alert'}>
          {t(key)}
        </p>
      </div>
    );
  }
  const { info } = load;
  const set = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };
  const text = (key: string | undefined) => (key && key in MEET_KEYS ? t(key as MeetTextKey) : key ? t('check_fields') : undefined);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (sending) return;
    const found: Partial<Record<Field, string>> = {};
    if (!values.ms_id) found.ms_id = 'pick_slot';
    if (!values.email.trim()) found.email = 'error_required';
    else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email.trim())) found.email = 'error_email_invalid';
    setErrors(found);
    setFailure(undefined);
    if (Object.keys(found).length) {
      summary.current?.focus();
      return;
    }
    setSending(true);
    try {
      await requestMeeting(eventId, { ...values, email: values.email.trim(), website, lang: locale });
      setSent(true);
    } catch (err) {
      if (err instanceof RegisterError && err.code === 'slot_full') {
        setFailure(t('error_slot_full'));
        setValues((v) => ({ ...v, ms_id: '' }));
        await reload();
      } else if (err instanceof RegisterError && err.code === 'too_many_attempts') setFailure(t('error_too_many_attempts'));
      else if (err instanceof RegisterError && err.fields) {
        setErrors(Object.fromEntries(Object.entries(err.fields).map(([k, v]) => [k, v])) as Partial<Record<Field, string>>);
        setFailure(t('check_fields'));
      } else setFailure(t('send_failed'));
      summary.current?.focus();
    } finally {
      setSending(false);
    }
  };

  const input = (field: Exclude<Field, 'ms_id' | 'message'>, type: string, autoComplete: string, required = false) => (
    <div className="ls-public-field">
      <label className="ls-public-label" htmlFor={`ls-meet-${field}`}>
        {t(field)}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <input
        id={`ls-meet-${field}`}
        className="ls-public-input"
        name={field}
        type={type}
        autoComplete={autoComplete}
        required={required}
        aria-required={required || undefined}
        aria-invalid={errors[field] ? true : undefined}
        aria-describedby={errors[field] ? `ls-meet-${field}-error` : undefined}
        value={values[field]}
        onChange={(e) => set(field, e.target.value)}
      />
      {errors[field] ? (
        <p className="ls-public-field-error" id={`ls-meet-${field}-error`}>
          {text(errors[field])}
        </p>
      ) : null}
    </div>
  );

  return (
    <div className="ls-public ls-public--meet" style={font ? ({ '--ls-form-font': font } as CSSProperties) : undefined}>
      {info.stylesheet ? <link rel="stylesheet" href={info.stylesheet} data-ls-custom-css="" /> : null}
      <main className="ls-public-main">
        {sent ? (
          <section className="ls-public-card" aria-labelledby="ls-meet-sent-title">
            <h1 id="ls-meet-sent-title" className="ls-public-title" tabIndex={-1} ref={sentTitle}>
              {t('sent_title')}
            </h1>
            <p className="ls-public-description">{t('sent_text')}</p>
          </section>
        ) : (
          <section className="ls-public-card ls-public-form-page" aria-labelledby="ls-meet-title">
            <Logo assetId={info.style?.st_form_logo_assetid} assetUrl={assetUrl} label={t('logo')} />
            <h1 id="ls-meet-title" className="ls-public-title">
              {t('title')}
            </h1>
            <p className="ls-public-description">
              <strong>{info.event.ev_title}</strong> · {info.account.a_name}
            </p>
            <p className="ls-public-description">{t('intro')}</p>
            {info.slots.length === 0 ? (
              <p className="ls-public-notice ls-public-notice--state" role="status">
                {t('no_slots')}
              </p>
            ) : (
              <form className="ls-public-form" noValidate onSubmit={submit} aria-labelledby="ls-meet-title">
                <p ref={summary} className="ls-public-summary" role="alert" tabIndex={-1} hidden={!failure && !Object.values(errors).some(Boolean)}>
                  {failure ?? t('check_fields')}
                </p>
                <fieldset className="ls-meet-slots" aria-describedby={errors.ms_id ? 'ls-meet-slot-error' : undefined}>
                  <legend className="ls-public-label">
                    {t('slot_legend')} <span className="ls-meet-zone">({t('times_in', { zone: info.time_zone })})</span>
                  </legend>
                  {slotsByDay(info.slots, info.time_zone, locale).map(([day, slots]) => (
                    <div key={day} className="ls-meet-day" role="group" aria-label={day}>
                      <p className="ls-meet-day-title">{day}</p>
                      <div className="ls-meet-day-slots">
                        {slots.map((s) => (
                          <label key={s.ms_id} className="ls-meet-slot">
                            <input type="radio" name="ms_id" value={s.ms_id} checked={values.ms_id === s.ms_id} onChange={() => set('ms_id', s.ms_id)} />
                            <span className="ls-meet-slot-time">{slotTimes(s, info.time_zone, locale)}</span>
                            {s.host ? <span className="ls-meet-slot-host">{t('with_host', { name: hostName(s.host) })}</span> : null}
                            {s.ms_location ? <span className="ls-meet-slot-location">{s.ms_location}</span> : null}
                          </label>
                        ))}
                      </div>
                    </div>
                  ))}
                  {errors.ms_id ? (
                    <p className="ls-public-field-error" id="ls-meet-slot-error">
                      {text(errors.ms_id)}
                    </p>
                  ) : null}
                </fieldset>
                {input('email', 'email', 'email', true)}
                {input('first_name', 'text', 'given-name')}
                {input('last_name', 'text', 'family-name')}
                <div className="ls-public-field">
                  <label className="ls-public-label" htmlFor="ls-meet-message">
                    {t('message')}
                  </label>
                  <textarea
                    id="ls-meet-message"
                    className="ls-public-input"
                    name="message"
                    rows={3}
                    maxLength={2000}
                    value={values.message}
                    onChange={(e) => set('message', e.target.value)}
                  />
                </div>
                {/* the honeypot: off screen, out of the tab order and hidden from screen readers */}
                <div className="ls-public-hp" aria-hidden="true">
                  <label>
                    Website
                    <input type="text" name="website" tabIndex={-1} autoComplete="off" value={website} onChange={(e) => setWebsite(e.target.value)} />
                  </label>
                </div>
                <button type="submit" className="ls-public-submit" disabled={sending} aria-busy={sending || undefined}>
                  {sending ? t('submitting') : t('submit')}
                </button>
              </form>
            )}
          </section>
        )}
      </main>
      <LanguageFooter locale={locale} onLocale={onLocale} />
    </div>
  );
}

const MEET_KEYS: Record<string, true> = { pick_slot: true, error_required: true, error_email_invalid: true, error_slot_full: true };
