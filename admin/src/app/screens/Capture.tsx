import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { FormRenderer } from '../../renderer/FormRenderer';
import { defaultAnswers, emptyAnswer, validateAnswers, type AnswerValue, type FormElementSpec } from '../../../../resources/answers';
import { consentTextFor } from '../../../../resources/consent';
import { ApiRequestError, eventGraph, scanBadge, type EventGraph } from '../api';
import { cacheGraph, cachedGraph } from '../cache';
import { useApp } from '../context';
import { answerError, DATE_LOCALES, isAppTextKey, rendererTextsFor } from '../texts';
import { Icon } from '../Icon';
import { Link } from '../Link';
import { PhotoTaker, Scanner } from './CameraView';

/** app_general bits (spec 6): get_data = badge scan, upload = card photos. */
export const GET_DATA = 1;
export const UPLOAD = 2;

/** The event's forms as one list of elements, a data name once (the first form that has it), like the API's check. */
export function formsWithElements(graph: EventGraph): { title: string; id: string; elements: FormElementSpec[] }[] {
  const seen = new Set<string>();
  return graph.forms.map((g) => ({
    id: g.form.f_id,
    title: g.form.f_title,
    elements: g.elements.filter((el) => (seen.has(el.fe_name) ? false : (seen.add(el.fe_name), true))),
  }));
}

/** A provider's answer fills an element only when it is of the element's answer type. */
function prefill(elements: FormElementSpec[], answers: Record<string, unknown>, given: Record<string, unknown>) {
  const out = { ...answers };
  for (const el of elements) {
    if (!Object.hasOwn(given, el.fe_name)) continue;
    const value = given[el.fe_name];
    const empty = emptyAnswer(el);
    if (value === null || value === undefined) continue;
    if (Array.isArray(empty) ? Array.isArray(value) : typeof value === typeof empty) out[el.fe_name] = value;
  }
  return out;
}

function usePhotoUrl(blob: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) return setUrl(null);
    const u = URL.createObjectURL(blob);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [blob]);
  return url;
}

type Overlay = null | 'scan' | 'front' | 'back';

/**
 * A new lead for one event: badge scan (answers prefilled by data name), card photos (front and back: a card lead,
 * pending transcription, whose answers may stay empty), the event's forms in order with the shared renderer, and the
 * GDPR news opt-in with the event's consent text. Saved into the offline queue first, always.
 */
export function Capture({ accountId, eventId }: { accountId: string; eventId: string }) {
  const app = useApp();
  const { t, locale, events, queue, sync, user } = app;
  const [graph, setGraph] = useState<EventGraph | null | 'missing'>(null);
  const meta = events?.events.find((e) => e.ev_id === eventId && e.a_id === accountId);
  const account = events?.accounts.find((a) => a.a_id === accountId);
  const bits = account?.permissions.app_general ?? 0;

  useEffect(() => {
    let alive = true;
    (async () => {
      const cached = await cachedGraph(eventId);
      if (cached && alive) setGraph(cached);
      try {
        const fresh = await eventGraph(accountId, eventId);
        if (!alive) return;
        setGraph(fresh);
        void cacheGraph(eventId, fresh);
      } catch {
        if (alive && !cached) setGraph('missing');
      }
    })();
    return () => {
      alive = false;
    };
  }, [accountId, eventId]);

  const forms = useMemo(() => (graph && graph !== 'missing' ? formsWithElements(graph) : []), [graph]);
  const elements = useMemo(() => forms.flatMap((f) => f.elements), [forms]);
  const [answers, setAnswers] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [consent, setConsent] = useState(false);
  const [badge, setBadge] = useState<string | null>(null);
  const [scanNote, setScanNote] = useState('');
  const [lookingUp, setLookingUp] = useState(false);
  const [front, setFront] = useState<Blob | null>(null);
  const [back, setBack] = useState<Blob | null>(null);
  const [overlay, setOverlay] = useState<Overlay>(null);
  const [formError, setFormError] = useState('');
  const [saving, setSaving] = useState(false);
  const frontUrl = usePhotoUrl(front);
  const backUrl = usePhotoUrl(back);
  const formRef = useRef<HTMLFormElement>(null);

  const reset = useCallback(() => {
    setAnswers(defaultAnswers(elements));
    setErrors({});
    setConsent(false);
    setBadge(null);
    setScanNote('');
    setFront(null);
    setBack(null);
    setFormError('');
  }, [elements]);
  useEffect(() => {
    setAnswers((current) => ({ ...defaultAnswers(elements), ...current }));
  }, [elements]);

  const title = meta?.ev_title ?? (graph && graph !== 'missing' ? graph.event.ev_title : '');
  useEffect(() => {
    document.title = `${title || t('new_lead')} · ${t('app_name')}`;
  }, [title, t]);
  const consentText = consentTextFor(meta ?? (graph && graph !== 'missing' ? graph.event : null), locale);

  const onChange = useCallback((name: string, value: AnswerValue) => {
    setAnswers((a) => ({ ...a, [name]: value }));
    setErrors((e) => (e[name] ? { ...e, [name]: '' } : e));
  }, []);

  const onCode = async (code: string) => {
    setOverlay(null);
    setBadge(code);
    if (!navigator.onLine) {
      setScanNote(t('scan_offline', { code }));
      return;
    }
    setLookingUp(true);
    setScanNote(t('looking_up'));
    try {
      const res = await scanBadge(accountId, eventId, code);
      const given = res.answers ?? {};
      setAnswers((a) => prefill(elements, a, given));
      setScanNote(Object.keys(given).length ? t('scan_found', { code }) : t('scan_no_data', { code }));
    } catch (e) {
      if (e instanceof ApiRequestError) {
        const key = `error_${e.code}`;
        setScanNote(isAppTextKey(key) ? t(key) : t('scan_failed', { message: e.body.message || e.code }));
      } else setScanNote(t('scan_offline', { code }));
    } finally {
      setLookingUp(false);
    }
  };

  const isCard = Boolean(front);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setFormError('');
    const found = isCard ? {} : validateAnswers(elements, answers);
    if (Object.keys(found).length) {
      setErrors(Object.fromEntries(Object.entries(found).map(([k, v]) => [k, answerError(locale, v)])));
      setFormError(t('check_fields'));
      requestAnimationFrame(() => {
        const first = elements.find((el) => found[el.fe_name]);
        formRef.current
          ?.querySelector<HTMLElement>(
            `[data-name="${first?.fe_name}"] input, [data-name="${first?.fe_name}"] textarea, [data-name="${first?.fe_name}"] select, [data-name="${first?.fe_name}"] [tabindex="0"], [data-name="${first?.fe_name}"] button`,
          )
          ?.focus();
      });
      return;
    }
    setSaving(true);
    try {
      const name = [answers.first_name, answers.last_name].filter((v) => typeof v === 'string' && v.trim()).join(' ');
      const email = typeof answers.email === 'string' ? answers.email.trim() : '';
      await queue.enqueue({
        userId: user.u_id,
        accountId,
        eventId,
        answers,
        source: isCard ? 'card' : badge ? 'scan' : 'manual',
        badgeCode: badge,
        consentNews: consent,
        consentText,
        front,
        back,
        label: name || email || (isCard ? t('card_lead') : badge ? t('badge_attached', { code: badge }) : ''),
      });
      sync.kick();
      app.toast(navigator.onLine ? t('saved_online') : t('saved_queued'));
      reset();
      window.scrollTo(0, 0);
    } catch {
      setFormError(t('error_unknown'));
    } finally {
      setSaving(false);
    }
  };

  const texts = rendererTextsFor(locale);
  const canScan = (bits & GET_DATA) !== 0;
  const canPhoto = (bits & UPLOAD) !== 0;

  return (
    <section className="cap-screen cap-capture">
      <div className="cap-head">
        <Link to={{ name: 'events' }} className="cap-iconbtn" label={t('back')}>
          <Icon name="back" />
        </Link>
        <div>
          <h1 tabIndex={-1}>{title || t('new_lead')}</h1>
          {meta && <p className="cap-muted">{meta.a_name}</p>}
        </div>
      </div>

      {graph === null ? (
        <p className="cap-status" role="status">
          {t('loading')}
        </p>
      ) : (
        <form ref={formRef} onSubmit={save} noValidate className="cap-capture-form">
          {(canScan || canPhoto) && (
            <div className="cap-actions">
              {canScan && (
                <button type="button" className="cap-btn cap-btn--big" onClick={() => setOverlay('scan')} disabled={lookingUp}>
                  <Icon name="qr" />
                  {t('scan_badge')}
                </button>
              )}
              {canPhoto && (
                <button type="button" className="cap-btn cap-btn--big" onClick={() => setOverlay(front ? 'back' : 'front')}>
                  <Icon name="card" />
                  {front ? t('take_back') : t('card_photos')}
                </button>
              )}
            </div>
          )}

          {(badge || scanNote) && (
            <div className="cap-note cap-badge" role="status" data-testid="scan-note">
              <span>{scanNote || t('badge_attached', { code: badge ?? '' })}</span>
              {badge && (
                <button
                  type="button"
                  className="cap-linkbtn"
                  onClick={() => {
                    setBadge(null);
                    setScanNote('');
                  }}
                >
                  {t('remove')}
                </button>
              )}
            </div>
          )}

          {(front || back) && (
            <div className="cap-photos">
              {(
                [
                  ['front', frontUrl, setFront],
                  ['back', backUrl, setBack],
                ] as const
              ).map(([side, url, set]) =>
                url ? (
                  <figure key={side} className="cap-photo">
                    <img src={url} alt={t('photo_of', { side: side === 'front' ? t('front') : t('back_side') })} data-testid={`photo-${side}`} />
                    <figcaption>
                      {side === 'front' ? t('front') : t('back_side')}
                      <button type="button" className="cap-linkbtn" onClick={() => setOverlay(side)}>
                        {t('retake')}
                      </button>
                      <button type="button" className="cap-linkbtn" onClick={() => (side === 'front' ? (setFront(back), setBack(null)) : set(null))}>
                        {t('remove')}
                      </button>
                    </figcaption>
                  </figure>
                ) : side === 'back' ? (
                  <button key={side} type="button" className="cap-photo cap-photo--add" onClick={() => setOverlay('back')}>
                    <Icon name="camera" />
                    {t('take_back')}
                  </button>
                ) : null,
              )}
            </div>
          )}
          {isCard && <p className="cap-muted">{t('card_note')}</p>}

          {graph === 'missing' ? (
            <p className="cap-note">{t('graph_unavailable')}</p>
          ) : forms.length === 0 ? (
            <p className="cap-note">{t('no_forms')}</p>
          ) : (
            forms.map((f, i) =>
              f.elements.length ? (
                <fieldset key={f.id} className="cap-card cap-form">
                  <legend className="cap-form-title">{f.title}</legend>
                  <FormRenderer
                    elements={f.elements}
                    values={answers}
                    onChange={onChange}
                    errors={errors}
                    texts={texts}
                    locale={DATE_LOCALES[locale]}
                    colorScheme={app.theme}
                    idPrefix={`cap-f${i}`}
                  />
                </fieldset>
              ) : null,
            )
          )}

          <fieldset className="cap-card cap-consent">
            <legend className="cap-form-title">{t('consent_title')}</legend>
            <label className="cap-check">
              <input type="checkbox" checked={consent} onChange={(e) => setConsent(e.target.checked)} name="consent_news" />
              <span>{consentText}</span>
            </label>
          </fieldset>

          {formError && (
            <p className="cap-error" role="alert">
              {formError}
            </p>
          )}
          <div className="cap-savebar">
            <button type="button" className="cap-btn" onClick={reset}>
              {t('clear_form')}
            </button>
            <button type="submit" className="cap-btn cap-btn--primary" disabled={saving || (graph === 'missing' && !isCard && !badge)}>
              <Icon name="check" />
              {isCard ? t('save_card') : t('save_lead')}
            </button>
          </div>
        </form>
      )}

      {overlay === 'scan' && <Scanner onCode={(c) => void onCode(c)} onClose={() => setOverlay(null)} />}
      {(overlay === 'front' || overlay === 'back') && (
        <PhotoTaker
          title={overlay === 'front' ? t('take_front') : t('take_back')}
          onClose={() => setOverlay(null)}
          onPhoto={(blob) => {
            if (overlay === 'front') setFront(blob);
            else setBack(blob);
            setOverlay(null);
          }}
        />
      )}
    </section>
  );
}
