import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { PublicShell } from './PublicShell';
import { LinkButton, Notice, PlainButton, TextLink } from './ui';
import { usePublicI18n } from './i18n';
import { MEETING_TEXTS } from './meetingTexts';
import { DelayedProgress } from '../layout/DelayedProgress';
import { createTranslator } from '../i18n/tiny';
import { api, ApiRequestError, type ApiErrorBody } from '../providers/http';
import { linkProps } from '../navigation';

type Status = 'requested' | 'accepted' | 'declined' | 'cancelled' | 'done' | 'no_show';

/** GET /meeting/{token} and the answer of POST /meeting/accept (platform-and-flows.md 5). */
export interface MeetingInfo {
  mg_id: string;
  mg_status: Status;
  mg_message: string | null;
  mg_expires_at: string | null;
  mg_decided_at: string | null;
  slot: { ms_id: string; ms_start: string; ms_end: string; ms_location: string | null };
  event: { ev_id: string; ev_title: string | null; ev_start_date: string | null; ev_end_date: string | null };
  visitor: { ld_id: string | null; ld_email: string | null; ld_first_name: string | null; ld_last_name: string | null };
  host: { u_id: string; u_first_name: string | null; u_last_name: string | null } | null;
  account: { a_id: string; a_name: string };
  /** The account's ls_timezone: the slot is shown in the stand's local time. */
  time_zone?: string;
}

type Decision = 'accepted' | 'declined';
type Load = { state: 'loading' } | { state: 'invalid' } | { state: 'failed'; body: ApiErrorBody } | { state: 'ready'; meeting: MeetingInfo };

const isInvalid = (e: unknown) => e instanceof ApiRequestError && (e.code === 'meeting_invalid' || e.status === 404);
const bodyOf = (e: unknown): ApiErrorBody => (e instanceof ApiRequestError ? e.body : { code: 'network' });
const nameOf = (first?: string | null, last?: string | null) => [first, last].filter((v) => v && v.trim()).join(' ');

/** A zone this runtime knows, else UTC (the API only stores zones Intl knows; this guards an old browser). */
function safeZone(zone: string | undefined): string {
  if (!zone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

/** The page's words in the visitor's language, plus the shared error texts and the dates in the account's zone. */
function useMeetingTexts(timeZone?: string) {
  const { locale, errorText } = usePublicI18n();
  return useMemo(() => {
    const own = createTranslator(MEETING_TEXTS[locale] as unknown as Record<string, unknown>, locale, MEETING_TEXTS.en as unknown as Record<string, unknown>);
    const error = (body: ApiErrorBody) => (own.exists(`error_${body.code}`) ? own.t(`error_${body.code}`) : errorText(body));
    const tag = locale === 'nl' ? 'nl-NL' : 'en-GB';
    const zone = safeZone(timeZone);
    const date = (iso: string) => new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeStyle: 'short', timeZone: zone }).format(new Date(iso));
    const day = (iso: string) => new Intl.DateTimeFormat(tag, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: zone }).format(new Date(iso));
    const time = (iso: string) => new Intl.DateTimeFormat(tag, { hour: '2-digit', minute: '2-digit', timeZone: zone }).format(new Date(iso));
    return { t: own.t, error, date, day, time, zone, locale };
  }, [locale, errorText, timeZone]);
}

function Detail({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <>
      <Typography component="dt" variant="caption" color="text.secondary" sx={{ mt: 1, '&:first-of-type': { mt: 0 } }}>
        {label}
      </Typography>
      <Typography component="dd" variant="body1" sx={{ m: 0, fontWeight: 600, overflowWrap: 'anywhere' }} data-testid={testId}>
        {children}
      </Typography>
    </>
  );
}

const Muted = ({ children }: { children: React.ReactNode }) => (
  <Box component="span" sx={{ display: 'block', fontWeight: 400, color: 'text.secondary', fontSize: '0.875rem' }}>
    {children}
  </Box>
);

/** The answer once given (now or earlier), or the status a meeting closed in the console has now. */
function Result({ meeting }: { meeting: MeetingInfo }) {
  const { t, date } = useMeetingTexts(meeting.time_zone);
  const box = useRef<HTMLDivElement>(null);
  // The answer replaces the buttons: move the focus to it, so a screen reader hears what happened.
  useEffect(() => box.current?.focus(), []);
  const visitor = nameOf(meeting.visitor.ld_first_name, meeting.visitor.ld_last_name) || meeting.visitor.ld_email || t('visitor');
  const status = meeting.mg_status;
  const title = status === 'accepted' ? t('accepted_title') : status === 'declined' ? t('declined_title') : t('closed_title', { status: t(`status_${status}`).toLowerCase() });
  const text = status === 'accepted' ? t('accepted_text', { visitor }) : status === 'declined' ? t('declined_text', { visitor }) : null;
  return (
    <Box ref={box} tabIndex={-1} sx={{ outline: 'none' }} data-testid="meeting-result" data-status={status}>
      <Notice severity={status === 'accepted' || status === 'done' ? 'success' : 'info'} role="status" title={title}>
        {text}
        {meeting.mg_decided_at && <div>{t('answered_on', { date: date(meeting.mg_decided_at) })}</div>}
      </Notice>
      <LinkButton {...linkProps(`/console/${meeting.account.a_id}/events/${meeting.event.ev_id}?tab=meetings`)} variant="text" fullWidth style={{ marginTop: 16 }}>
        {t('open_console')}
      </LinkButton>
    </Box>
  );
}

/** The slot, the visitor, the event and the message with Accept / Decline; then the result. */
function MeetingReady({ token, meeting, onAnswer, onInvalid }: { token: string; meeting: MeetingInfo; onAnswer: (m: MeetingInfo) => void; onInvalid: () => void }) {
  const { t, error, date, day, time, zone } = useMeetingTexts(meeting.time_zone);
  const [busy, setBusy] = useState<Decision | null>(null);
  const [failure, setFailure] = useState<string | undefined>();
  const visitorName = nameOf(meeting.visitor.ld_first_name, meeting.visitor.ld_last_name);
  const hostName = meeting.host ? nameOf(meeting.host.u_first_name, meeting.host.u_last_name) : '';
  const dates = [meeting.event.ev_start_date, meeting.event.ev_end_date].filter(Boolean).join(' – ');

  async function answer(decision: Decision) {
    if (busy) return;
    setBusy(decision);
    setFailure(undefined);
    try {
      onAnswer(await api<MeetingInfo>('/meeting/accept', { method: 'POST', body: { token, decision } }));
    } catch (err) {
      setBusy(null);
      if (isInvalid(err)) return onInvalid();
      setFailure(error(bodyOf(err)));
    }
  }

  return (
    <div data-testid="meeting-ready" data-status={meeting.mg_status}>
      <Typography variant="h5" component="h1" gutterBottom>
        {t('heading')}
      </Typography>
      <Typography variant="body1" sx={{ mb: 2, overflowWrap: 'anywhere' }}>
        {t('intro', { account: meeting.account.a_name, event: meeting.event.ev_title ?? '' })}
      </Typography>
      <Box component="dl" sx={{ m: 0, mb: 2, p: 2, borderRadius: 2, bgcolor: 'action.hover' }}>
        <Detail label={t('when')} testId="meeting-when">
          {day(meeting.slot.ms_start)}
          <Box component="span" sx={{ display: 'block' }}>
            {time(meeting.slot.ms_start)} – {time(meeting.slot.ms_end)}
          </Box>
          <Muted>{t('time_zone', { zone: zone.replace(/_/g, ' ') })}</Muted>
        </Detail>
        {meeting.slot.ms_location && (
          <Detail label={t('where')} testId="meeting-where">
            {meeting.slot.ms_location}
          </Detail>
        )}
        <Detail label={t('visitor')} testId="meeting-visitor">
          {visitorName || <Muted>{t('no_name')}</Muted>}
          {meeting.visitor.ld_email && (
            <Box component="span" sx={{ display: 'block', fontWeight: 400 }}>
              <TextLink href={`mailto:${meeting.visitor.ld_email}`}>{meeting.visitor.ld_email}</TextLink>
            </Box>
          )}
        </Detail>
        <Detail label={t('event')} testId="meeting-event">
          {meeting.event.ev_title}
          {dates && <Muted>{dates}</Muted>}
        </Detail>
        <Detail label={t('host')} testId="meeting-host">
          {hostName || t('any_host', { account: meeting.account.a_name })}
        </Detail>
      </Box>
      {meeting.mg_message && (
        <Box component="figure" sx={{ m: 0, mb: 2 }}>
          <Typography component="figcaption" variant="caption" color="text.secondary">
            {t('message')}
          </Typography>
          <Typography
            component="blockquote"
            variant="body1"
            sx={{ m: 0, mt: 0.5, pl: 1.5, borderLeft: 3, borderColor: 'primary.main', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
            data-testid="meeting-message"
          >
            {meeting.mg_message}
          </Typography>
        </Box>
      )}
      {meeting.mg_status === 'requested' ? (
        <>
          {failure && (
            <Notice severity="error" data-testid="meeting-failure" style={{ marginBottom: 16 }}>
              {failure}
            </Notice>
          )}
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
            {t('question')}
          </Typography>
          <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, gap: 1 }}>
            <PlainButton variant="contained" size="large" fullWidth onClick={() => answer('accepted')} disabled={busy !== null} aria-busy={busy === 'accepted'}>
              {t(busy === 'accepted' ? 'accepting' : 'accept')}
            </PlainButton>
            <PlainButton variant="text" size="large" fullWidth onClick={() => answer('declined')} disabled={busy !== null} aria-busy={busy === 'declined'}>
              {t(busy === 'declined' ? 'declining' : 'decline')}
            </PlainButton>
          </Box>
          {meeting.mg_expires_at && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
              {t('expires', { date: date(meeting.mg_expires_at) })}
            </Typography>
          )}
        </>
      ) : (
        <Result meeting={meeting} />
      )}
    </div>
  );
}

/**
 * /meetings/{token}: the host's page of a meeting request (the mailed link is the credential): when (in the
 * account's time zone), where, the visitor, the event and their message, then Accept or Decline; then the answer. A
 * used, lapsed or unknown link says so (400 meeting_invalid).
 */
export function MeetingContent({ token }: { token: string }) {
  const { t, error } = useMeetingTexts();
  const [load, setLoad] = useState<Load>({ state: 'loading' });

  useEffect(() => {
    let alive = true;
    // The first call also hands out the CSRF cookie the answer needs.
    api<MeetingInfo>(`/meeting/${encodeURIComponent(token)}`).then(
      (meeting) => alive && setLoad({ state: 'ready', meeting }),
      (err) => alive && setLoad(isInvalid(err) ? { state: 'invalid' } : { state: 'failed', body: bodyOf(err) }),
    );
    return () => {
      alive = false;
    };
  }, [token]);

  const invalid = useCallback(() => setLoad({ state: 'invalid' }), []);
  const answered = useCallback((meeting: MeetingInfo) => setLoad({ state: 'ready', meeting }), []);

  if (load.state === 'loading')
    return (
      <div role="status" aria-live="polite">
        <Typography variant="h5" component="h1" gutterBottom>
          {t('title')}
        </Typography>
        <Typography color="text.secondary">{t('loading')}</Typography>
        <DelayedProgress />
      </div>
    );
  if (load.state === 'invalid' || load.state === 'failed')
    return (
      <div data-testid="meeting-invalid">
        <Typography variant="h5" component="h1" gutterBottom>
          {t('title')}
        </Typography>
        <Notice severity="error" title={load.state === 'invalid' ? t('error_meeting_invalid') : error(load.body)}>
          {load.state === 'invalid' ? t('invalid_text') : undefined}
        </Notice>
        <LinkButton {...linkProps('/login')} variant="text" fullWidth style={{ marginTop: 16 }}>
          {t('sign_in')}
        </LinkButton>
      </div>
    );
  return <MeetingReady token={token} meeting={load.meeting} onAnswer={answered} onInvalid={invalid} />;
}

function MeetingTitle() {
  const { t } = useMeetingTexts();
  useEffect(() => {
    document.title = `${t('title')} · Leadstage`;
  }, [t]);
  return null;
}

export default function MeetingPage({ token }: { token: string }) {
  return (
    <PublicShell>
      <MeetingTitle />
      <MeetingContent token={token} />
    </PublicShell>
  );
}
