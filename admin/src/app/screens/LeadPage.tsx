import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { FormRenderer } from '../../renderer/FormRenderer';
import { defaultAnswers, validateAnswers, type AnswerValue } from '../../../../resources/answers';
import { ApiRequestError, eventGraph, getLead, handOff, leadFileUrl, members as loadMembers, saveTranscription, type EventGraph, type Lead, type Member } from '../api';
import { cacheGraph, cachedGraph } from '../cache';
import { useApp } from '../context';
import { answerError, DATE_LOCALES, isAppTextKey, rendererTextsFor } from '../texts';
import { Icon } from '../Icon';
import { Link } from '../Link';
import { formsWithElements } from './Capture';
import { leadName } from './MyLeads';
import { Qualify, type QualifySave } from './Qualify';
import { LeadMeetings } from './LeadMeetings';
import { CRUD } from '../../../../resources/roles';

const memberName = (m: Member) => [m.u_first_name, m.u_last_name].filter(Boolean).join(' ') || m.u_email;

/**
 * One of my leads: its answers (read-only, the shared renderer), its card photos, its qualification (rating, tags,
 * notes, voice memo: saved through the offline queue, so it works without the network too), the transcription of a
 * pending card (photo beside the event's forms, save → status done; needs the network), and handing it off to another
 * member.
 */
export function LeadPage({ accountId, leadId }: { accountId: string; leadId: string }) {
  const app = useApp();
  const { t, online, locale, user, events } = app;
  const canBook = ((events?.accounts.find((a) => a.a_id === accountId)?.permissions.account_meetings ?? 0) & CRUD.create) !== 0;
  const [lead, setLead] = useState<Lead | null | 'missing'>(null);
  const [graph, setGraph] = useState<EventGraph | null>(null);
  const [transcribing, setTranscribing] = useState(false);
  const [answers, setAnswers] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const [saving, setSaving] = useState(false);

  const load = useCallback(async () => {
    if (!navigator.onLine) return;
    try {
      const l = await getLead(accountId, leadId);
      setLead(l);
      const cached = await cachedGraph(l.ld_eventid);
      if (cached) setGraph(cached);
      try {
        const g = await eventGraph(accountId, l.ld_eventid);
        setGraph(g);
        void cacheGraph(l.ld_eventid, g);
      } catch {
        /* the cached forms, if any */
      }
    } catch (e) {
      setLead(e instanceof ApiRequestError && (e.status === 404 || e.status === 403) ? 'missing' : null);
    }
  }, [accountId, leadId]);
  useEffect(() => {
    void load();
  }, [load, online]);

  const forms = useMemo(() => (graph ? formsWithElements(graph) : []), [graph]);
  const elements = useMemo(() => forms.flatMap((f) => f.elements), [forms]);
  const onChange = useCallback((name: string, value: AnswerValue) => {
    setAnswers((a) => ({ ...a, [name]: value }));
    setErrors((e) => (e[name] ? { ...e, [name]: '' } : e));
  }, []);
  useEffect(() => {
    document.title = `${lead && lead !== 'missing' ? leadName(lead) || t('lead_title') : t('lead_title')} · ${t('app_name')}`;
  }, [lead, t]);

  if (!online && !lead) {
    return (
      <section className="cap-screen">
        <BackToLeads />
        <p className="cap-note">{t('leads_offline')}</p>
      </section>
    );
  }
  if (lead === 'missing') {
    return (
      <section className="cap-screen">
        <BackToLeads />
        <p className="cap-error">{t('lead_not_found')}</p>
      </section>
    );
  }
  if (!lead) return <p className="cap-status">{t('loading')}</p>;

  // Queued like a new lead (the memo's bytes first, then PUT of the fields), so it survives a lost network.
  const qualify = async ({ changes, memo }: QualifySave) => {
    const queued = await app.queue.enqueueUpdate({
      userId: user.u_id,
      accountId,
      leadId: lead.ld_id,
      eventId: lead.ld_eventid,
      changes,
      memo,
      label: leadName(lead) || t('unnamed_lead'),
    });
    const memoId = queued.update?.changes.ld_memo_fileid;
    setLead({ ...lead, ...changes, ...(memoId !== undefined ? { ld_memo_fileid: memoId as string | null } : {}) });
    app.sync.kick();
    app.toast(navigator.onLine ? t('qualify_saved') : t('qualify_queued'));
  };

  const pending = lead.ld_transcription_status === 'pending' || lead.ld_transcription_status === 'postponed';
  const texts = rendererTextsFor(locale);
  const photos = [lead.ld_front_fileid, lead.ld_back_fileid].filter((id): id is string => Boolean(id));

  const startTranscription = () => {
    setAnswers({ ...defaultAnswers(elements), ...lead.ld_answers });
    setErrors({});
    setMessage('');
    setTranscribing(true);
  };
  const saveIt = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateAnswers(elements, answers);
    if (Object.keys(found).length) {
      setErrors(Object.fromEntries(Object.entries(found).map(([k, v]) => [k, answerError(locale, v)])));
      setMessage(t('check_fields'));
      return;
    }
    setSaving(true);
    try {
      const saved = await saveTranscription(accountId, lead.ld_id, answers);
      setLead({ ...lead, ...saved });
      setTranscribing(false);
      app.toast(t('transcribed'));
    } catch (err) {
      if (err instanceof ApiRequestError) {
        if (err.body.fields) setErrors(Object.fromEntries(Object.entries(err.body.fields).map(([k, v]) => [k, answerError(locale, v)])));
        setMessage(err.body.message || t('error_unknown'));
      } else setMessage(t('transcribe_offline'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="cap-screen cap-lead">
      <BackToLeads />
      <h1 tabIndex={-1}>{leadName(lead) || t(lead.ld_source === 'card' ? 'card_lead' : 'unnamed_lead')}</h1>
      <p className="cap-muted">
        {t('captured_at', { time: new Date(lead.ld_captured_at).toLocaleString(DATE_LOCALES[locale], { dateStyle: 'medium', timeStyle: 'short' }) })}
        {lead.ld_transcription_status !== 'none' && <span className={`cap-chip cap-chip--${lead.ld_transcription_status}`}>{t(`status_${lead.ld_transcription_status}`)}</span>}
      </p>

      <div className={photos.length && transcribing ? 'cap-transcribe' : ''}>
        {photos.length > 0 && (
          <div className="cap-photos cap-photos--lead" aria-label={t('photos')}>
            {photos.map((id, i) => (
              <a key={id} href={leadFileUrl(accountId, id)} target="_blank" rel="noreferrer" className="cap-photo">
                <img src={leadFileUrl(accountId, id)} alt={t('photo_of', { side: i === 0 ? t('front') : t('back_side') })} />
              </a>
            ))}
          </div>
        )}

        {transcribing ? (
          <form onSubmit={saveIt} noValidate className="cap-transcribe-form">
            {forms.map((f, i) =>
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
                    idPrefix={`tr-f${i}`}
                  />
                </fieldset>
              ) : null,
            )}
            {!online && <p className="cap-note">{t('transcribe_offline')}</p>}
            {message && (
              <p className="cap-error" role="alert">
                {message}
              </p>
            )}
            <div className="cap-savebar">
              <button type="button" className="cap-btn" onClick={() => setTranscribing(false)}>
                {t('cancel')}
              </button>
              <button type="submit" className="cap-btn cap-btn--primary" disabled={!online || saving}>
                <Icon name="check" />
                {t('save_transcription')}
              </button>
            </div>
          </form>
        ) : (
          <>
            {pending && (
              <div className="cap-card">
                {online ? (
                  <button type="button" className="cap-btn cap-btn--primary cap-btn--block" onClick={startTranscription} disabled={!graph}>
                    <Icon name="card" />
                    {t('transcribe')}
                  </button>
                ) : (
                  <p className="cap-note" role="status">
                    {t('transcribe_offline')}
                  </p>
                )}
              </div>
            )}
            {forms.map((f, i) =>
              f.elements.length ? (
                <section key={f.id} className="cap-card cap-form">
                  <h2 className="cap-form-title">{f.title}</h2>
                  <FormRenderer elements={f.elements} values={lead.ld_answers} readOnly texts={texts} locale={DATE_LOCALES[locale]} colorScheme={app.theme} idPrefix={`ro-f${i}`} />
                </section>
              ) : null,
            )}
          </>
        )}
      </div>

      {!transcribing && <Qualify key={lead.ld_id} lead={lead} onSave={qualify} />}
      {/* booking needs the account_meetings create bit (the stored matrix, as /app/events answers it) */}
      {!transcribing && (canBook ? <LeadMeetings accountId={accountId} lead={lead} me={user.u_id} /> : null)}
      {!transcribing && <Handoff accountId={accountId} lead={lead} me={user.u_id} />}
    </section>
  );
}

function BackToLeads() {
  const { t } = useApp();
  return (
    <Link to={{ name: 'leads' }} className="cap-back">
      <Icon name="back" />
      {t('nav_leads')}
    </Link>
  );
}

/** Hand the lead to another member of the account, with a message (the representative gets a mail to accept). */
function Handoff({ accountId, lead, me }: { accountId: string; lead: Lead; me: string }) {
  const app = useApp();
  const { t, online } = app;
  const [open, setOpen] = useState(false);
  const [list, setList] = useState<Member[] | null>(null);
  const [to, setTo] = useState('');
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open || list || !online) return;
    loadMembers(accountId).then(
      (m) => setList(m.filter((x) => x.au_userid !== me).sort((a, b) => memberName(a).localeCompare(memberName(b)))),
      () => setError(t('error_network')),
    );
  }, [open, list, online, accountId, me, t]);

  const send = async (e: FormEvent) => {
    e.preventDefault();
    if (!to) return setError(t('handoff_choose'));
    setBusy(true);
    setError('');
    try {
      await handOff(accountId, lead.ld_id, to, message.trim());
      const who = list?.find((m) => m.au_userid === to);
      app.toast(t('handoff_sent', { name: who ? memberName(who) : '' }));
      setOpen(false);
      setTo('');
      setMessage('');
    } catch (err) {
      if (err instanceof ApiRequestError) {
        const key = `error_${err.code}`;
        setError(isAppTextKey(key) ? t(key) : err.body.message || t('error_unknown'));
      } else setError(t('handoff_offline'));
    } finally {
      setBusy(false);
    }
  };

  if (!open) {
    return (
      <button type="button" className="cap-btn cap-btn--block" onClick={() => setOpen(true)}>
        <Icon name="handoff" />
        {t('handoff')}
      </button>
    );
  }
  return (
    <form className="cap-card" onSubmit={send}>
      <h2 className="cap-form-title">{t('handoff_title')}</h2>
      {!online && <p className="cap-note">{t('handoff_offline')}</p>}
      <label className="cap-field">
        <span>{t('handoff_to')}</span>
        <select value={to} onChange={(e) => setTo(e.target.value)} name="handoff_to" required>
          <option value="">{t('handoff_choose')}</option>
          {(list ?? []).map((m) => (
            <option key={m.au_userid} value={m.au_userid}>
              {memberName(m)}
              {memberName(m) !== m.u_email ? ` · ${m.u_email}` : ''}
            </option>
          ))}
        </select>
      </label>
      <label className="cap-field">
        <span>{t('handoff_message')}</span>
        <textarea value={message} onChange={(e) => setMessage(e.target.value)} rows={3} maxLength={2000} name="handoff_message" />
      </label>
      {error && (
        <p className="cap-error" role="alert">
          {error}
        </p>
      )}
      <div className="cap-savebar">
        <button type="button" className="cap-btn" onClick={() => setOpen(false)}>
          {t('cancel')}
        </button>
        <button type="submit" className="cap-btn cap-btn--primary" disabled={busy || !online}>
          <Icon name="send" />
          {t('handoff_send')}
        </button>
      </div>
    </form>
  );
}
