import { useEffect, useMemo, useRef, useState, type CSSProperties, type FormEvent, type MouseEvent, type ReactNode } from 'react';
import { defaultAnswers, FormRenderer, type AnswerValue } from '../renderer';
import { validateAnswers } from '../../../resources/answers';
import { consentTextFor } from '../../../resources/consent';
import { pageTexts, STYLE_FONT_FAMILIES, SubmitFailure, type PublicFormData, type PublicSubmission, type PublicView } from './model';
import { DATE_LOCALE, isPublicTextKey, LOCALE_NAMES, PUBLIC_TEXTS, translator, type PublicLocale } from './texts';
import { RichText } from './RichText';
import './publicForm.css';

export interface PublicFormPageProps {
  data: PublicFormData;
  /** Which page to show first; a successful submit goes on to the thanks page. */
  view?: PublicView;
  locale: PublicLocale;
  onLocale?: (locale: PublicLocale) => void;
  /**
   * The style's custom CSS, as the URL of a stylesheet (never its text: custom CSS only ever reaches the page as a
   * stylesheet, so nothing in it is parsed as HTML).
   */
  stylesheetHref?: string;
  /** The URL of an asset (logos, fonts); a logo without one (an asset the page may not read) shows as a placeholder. */
  assetUrl?: (assetId: string) => string | undefined;
  /** The console's preview: says so, and a submit only checks the answers and shows the thanks page. */
  preview?: boolean;
  /**
   * Sends the answers (the registration page); rejects with a text to show, or a SubmitFailure whose field errors
   * (message keys by data name) show under the fields.
   */
  onSubmit?: (submission: PublicSubmission) => Promise<void>;
  /**
   * Shown in the form card below the title and description instead of the form (the registration page's closed and
   * no-form messages, its access-code step).
   */
  replaceForm?: ReactNode;
  /** The submit button's word (default "Register"). */
  submitLabel?: string;
  /** Shown below the form's card, in the page (a collection's assets). */
  children?: ReactNode;
  /** Another class on the page's root (a collection's wider page). */
  className?: string;
}

/** Loads the style's fonts with the FontFace API (no <style> text, so the page's CSP needs no inline styles). */
export function useStyleFonts(data: PublicFormData, assetUrl: PublicFormPageProps['assetUrl']): string | undefined {
  const style = data.style;
  const urls = [style?.st_font_1, style?.st_font_2, style?.st_font_3].map((id) => (id && assetUrl ? assetUrl(id) : undefined));
  const key = urls.join('|');
  useEffect(() => {
    if (typeof FontFace === 'undefined' || !document.fonts) return;
    const faces = key
      .split('|')
      .map((url, i) => (url ? new FontFace(STYLE_FONT_FAMILIES[i], `url(${JSON.stringify(url)})`, { display: 'swap' }) : undefined))
      .filter((f): f is FontFace => Boolean(f));
    for (const face of faces) {
      document.fonts.add(face);
      face.load().catch(() => undefined); // a missing font falls back to the next family
    }
    return () => faces.forEach((face) => document.fonts.delete(face));
  }, [key]);
  const families = urls.flatMap((url, i) => (url ? [`"${STYLE_FONT_FAMILIES[i]}"`] : []));
  return families.length ? `${families.join(', ')}, system-ui, sans-serif` : undefined;
}

export function Logo({ assetId, assetUrl, label }: { assetId?: string | null; assetUrl: PublicFormPageProps['assetUrl']; label: string }) {
  if (!assetId) return null;
  const url = assetUrl?.(assetId);
  if (url) return <img className="ls-public-logo" src={url} alt={label} />;
  return <div className="ls-public-logo ls-public-logo--placeholder" role="img" aria-label={label} data-asset-id={assetId} />;
}

/**
 * The public form page and its thanks page in a form style: plain React and one stylesheet (no react-admin, no MUI),
 * shared by the console's preview and the registration page. Class names `ls-public-*` and the custom properties
 * `--ls-form-*` are what a style's custom CSS themes.
 */
export function PublicFormPage({
  data,
  view = 'form',
  locale,
  onLocale,
  stylesheetHref,
  assetUrl,
  preview = false,
  onSubmit,
  replaceForm,
  submitLabel,
  children,
  className,
}: PublicFormPageProps) {
  const t = translator(locale);
  const elements = useMemo(() => data.form?.elements ?? [], [data.form]);
  const [answers, setAnswers] = useState<Record<string, unknown>>(() => defaultAnswers(elements));
  const [consent, setConsent] = useState(false);
  const [website, setWebsite] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string>();
  const [sending, setSending] = useState(false);
  const [done, setDone] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const thanksRef = useRef<HTMLHeadingElement>(null);
  const summaryRef = useRef<HTMLParagraphElement>(null);
  const font = useStyleFonts(data, assetUrl);

  // A new form (the preview's picker) starts from its own defaults, and a new view from its own page. Adjusted while
  // drawing, not in an effect: an effect also runs after the first paint, and a keystroke that comes before it (a busy
  // phone, a fast typist) would be wiped.
  const [drawn, setDrawn] = useState({ elements, view });
  if (drawn.elements !== elements || drawn.view !== view) {
    setDrawn({ elements, view });
    if (drawn.elements !== elements) {
      setAnswers(defaultAnswers(elements));
      setErrors({});
      setFailure(undefined);
    }
    if (drawn.view !== view) setDone(false);
  }

  const shown: PublicView = done ? 'thanks' : view;
  const texts = pageTexts(data, { formTitle: t('form_title'), thanksTitle: t('thanks_title') });
  const consentText = consentTextFor(data.event, locale);

  useEffect(() => {
    if (done) thanksRef.current?.focus();
  }, [done]);
  const title = shown === 'thanks' ? texts.thanksTitle : texts.formTitle;
  useEffect(() => {
    document.title = title;
  }, [title]);

  const onChange = (name: string, value: AnswerValue) => {
    setAnswers((prev) => ({ ...prev, [name]: value }));
    if (errors[name]) setErrors(({ [name]: _, ...rest }) => rest);
  };

  const submit = async () => {
    if (sending) return;
    const found = validateAnswers(elements, answers);
    const names = Object.keys(found);
    setErrors(Object.fromEntries(names.map((n) => [n, t(found[n])])));
    setFailure(undefined);
    if (names.length) {
      focusFirst(names[0]);
      return;
    }
    if (preview || !onSubmit) {
      setDone(true);
      return;
    }
    setSending(true);
    try {
      await onSubmit({ answers, consent_news: consent, website });
      setDone(true);
    } catch (e) {
      setFailure(e instanceof Error ? e.message : t('load_failed'));
      const fields = e instanceof SubmitFailure && e.fields ? Object.entries(e.fields).filter(([name]) => elements.some((el) => el.fe_name === name)) : [];
      setErrors(Object.fromEntries(fields.map(([name, key]) => [name, t(isPublicTextKey(key) ? key : 'error_invalid_value')])));
      // wait for the errors to be drawn, then move to the first field to fix, or to the summary
      setTimeout(() => (fields.length ? focusFirst(fields[0][0]) : summaryRef.current?.focus()), 0);
    } finally {
      setSending(false);
    }
  };

  /** The first field to fix gets the focus (or the summary above the form, which is announced). */
  function focusFirst(name: string) {
    const field = formRef.current?.querySelector(`[data-name="${name}"]`); // data names are identifiers
    const control = field?.querySelector<HTMLElement>('input:not([disabled]), select, textarea, button, [tabindex="0"]');
    (control ?? summaryRef.current)?.focus();
  }

  // The button's click carries the submit (Enter in a field clicks it too), so the console's sandboxed preview, which
  // may not submit forms, behaves like the real page.
  const onSubmitClick = (e: MouseEvent<HTMLButtonElement>) => {
    e.preventDefault();
    void submit();
  };
  const onFormSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submit();
  };

  const hasErrors = Object.keys(errors).length > 0;
  const rootStyle = font ? ({ '--ls-form-font': font } as CSSProperties) : undefined;

  return (
    <div className={`ls-public ls-public--${shown}${className ? ` ${className}` : ''}`} style={rootStyle} data-preview={preview ? 'true' : undefined}>
      {stylesheetHref ? <link rel="stylesheet" href={stylesheetHref} data-ls-custom-css="" /> : null}
      {preview ? (
        <p className="ls-public-preview-note" role="note">
          {t('preview_note')}
        </p>
      ) : null}
      <main className="ls-public-main">
        {shown === 'thanks' ? (
          <section className="ls-public-card ls-public-thanks" aria-labelledby="ls-public-thanks-title">
            <Logo assetId={data.style?.st_thanks_logo_assetid} assetUrl={assetUrl} label={t('logo')} />
            <h1 id="ls-public-thanks-title" className="ls-public-title" tabIndex={-1} ref={thanksRef}>
              {texts.thanksTitle}
            </h1>
            <RichText html={texts.thanksDescription} className="ls-public-description ls-public-richtext" />
            {texts.externalUrl ? (
              <p className="ls-public-external">
                <a className="ls-public-external-link" href={texts.externalUrl} target="_blank" rel="noopener noreferrer">
                  {texts.externalTitle ?? texts.externalUrl}
                  <span className="ls-public-sr"> {t('new_window')}</span>
                </a>
              </p>
            ) : null}
          </section>
        ) : (
          <section className="ls-public-card ls-public-form-page" aria-labelledby="ls-public-form-title">
            <Logo assetId={data.style?.st_form_logo_assetid} assetUrl={assetUrl} label={t('logo')} />
            <h1 id="ls-public-form-title" className="ls-public-title">
              {texts.formTitle}
            </h1>
            <RichText html={texts.formDescription} className="ls-public-description ls-public-richtext" />
            <RichText html={texts.eventDescription} className="ls-public-event-description ls-public-richtext" />
            {replaceForm ?? (
              <form ref={formRef} className="ls-public-form" noValidate onSubmit={onFormSubmit} aria-labelledby="ls-public-form-title">
                {data.form ? (
                  <>
                    {elements.some((e) => e.fe_is_required) ? (
                      <p className="ls-public-required-note">
                        <span aria-hidden="true">{t('required_note')}</span>
                      </p>
                    ) : null}
                    <p ref={summaryRef} className="ls-public-summary" role="alert" tabIndex={-1} hidden={!hasErrors && !failure}>
                      {failure ?? (hasErrors ? t('check_fields') : '')}
                    </p>
                    <FormRenderer
                      elements={elements}
                      values={answers}
                      onChange={onChange}
                      errors={errors}
                      texts={PUBLIC_TEXTS[locale].renderer}
                      locale={DATE_LOCALE[locale]}
                      idPrefix="ls-reg"
                    />
                  </>
                ) : (
                  <p className="ls-public-notice">{t('no_form')}</p>
                )}
                <fieldset className="ls-public-consent">
                  <legend className="ls-public-consent-title">{t('consent_title')}</legend>
                  <label className="ls-public-consent-label">
                    <input type="checkbox" name="consent_news" checked={consent} onChange={(e) => setConsent(e.target.checked)} />
                    <span className="ls-public-consent-text">{consentText}</span>
                  </label>
                </fieldset>
                {/* the honeypot: off screen, out of the tab order and hidden from screen readers */}
                <div className="ls-public-hp" aria-hidden="true">
                  <label>
                    Website
                    <input type="text" name="website" tabIndex={-1} autoComplete="off" value={website} onChange={(e) => setWebsite(e.target.value)} />
                  </label>
                </div>
                <button type="submit" className="ls-public-submit" onClick={onSubmitClick} disabled={sending} aria-busy={sending || undefined}>
                  {sending ? t('submitting') : (submitLabel ?? t('submit'))}
                </button>
              </form>
            )}
          </section>
        )}
        {children}
      </main>
      {onLocale ? <LanguageFooter locale={locale} onLocale={onLocale} /> : null}
    </div>
  );
}

/** The language switch at the foot of a public page. */
export function LanguageFooter({ locale, onLocale }: { locale: PublicLocale; onLocale: (locale: PublicLocale) => void }) {
  const t = translator(locale);
  return (
    <footer className="ls-public-footer">
      <nav aria-label={t('language')} className="ls-public-languages">
        {(Object.keys(LOCALE_NAMES) as PublicLocale[]).map((l) => (
          <button key={l} type="button" lang={l} className="ls-public-language" aria-pressed={l === locale} onClick={() => onLocale(l)}>
            {LOCALE_NAMES[l]}
          </button>
        ))}
      </nav>
    </footer>
  );
}
