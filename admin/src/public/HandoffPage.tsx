import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { PublicShell } from './PublicShell';
import { LinkButton, Notice, PlainButton, TextLink } from './ui';
import { usePublicI18n } from './i18n';
import { HANDOFF_TEXTS } from './handoffTexts';
import { DelayedProgress } from '../layout/DelayedProgress';
import { createTranslator } from '../i18n/tiny';
import { api, ApiRequestError, type ApiErrorBody } from '../providers/http';
import { linkProps } from '../navigation';

interface Person {
  u_first_name: string | null;
  u_last_name: string | null;
  u_email: string | null;
}

/** GET /handoff/{token} and the answer of POST /handoff/accept (account-console.md: handoffs). */
export interface HandoffInfo {
  ho_id: string;
  ho_leadid: string;
  ho_status: 'pending' | 'accepted' | 'not_available';
  ho_message: string | null;
  ho_created_at: string;
  ho_decided_at: string | null;
  ld_first_name: string | null;
  ld_last_name: string | null;
  ld_email: string | null;
  ev_title: string | null;
  ev_start_date: string | null;
  ev_end_date: string | null;
  account: { a_id: string; a_name: string };
  from: Person;
  to: Person;
}

type Decision = 'accepted' | 'not_available';
type Load = { state: 'loading' } | { state: 'invalid' } | { state: 'failed'; body: ApiErrorBody } | { state: 'ready'; handoff: HandoffInfo };

const isInvalid = (e: unknown) => e instanceof ApiRequestError && (e.code === 'handoff_invalid' || e.status === 404);
const bodyOf = (e: unknown): ApiErrorBody => (e instanceof ApiRequestError ? e.body : { code: 'network' });
const nameOf = (p: { first?: string | null; last?: string | null }) => [p.first, p.last].filter((v) => v && v.trim()).join(' ');
const personName = (p: Person) => nameOf({ first: p.u_first_name, last: p.u_last_name }) || p.u_email || '';

/** The page's words in the visitor's language, plus the shared error texts of the public pages. */
function useHandoffTexts() {
  const { locale, errorText } = usePublicI18n();
  return useMemo(() => {
    const own = createTranslator(HANDOFF_TEXTS[locale] as unknown as Record<string, unknown>, locale, HANDOFF_TEXTS.en as unknown as Record<string, unknown>);
    const error = (body: ApiErrorBody) => (own.exists(`error_${body.code}`) ? own.t(`error_${body.code}`) : errorText(body));
    const date = (iso: string) => new Intl.DateTimeFormat(locale === 'nl' ? 'nl-NL' : 'en-GB', { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso));
    return { t: own.t, error, date, locale };
  }, [locale, errorText]);
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

/** The answer once given (now or earlier): accepted or not available, when, and the way to the lead. */
function Result({ handoff }: { handoff: HandoffInfo }) {
  const { t, date } = useHandoffTexts();
  const heading = useRef<HTMLDivElement>(null);
  // The answer replaces the buttons: move the focus to it, so a screen reader hears what happened.
  useEffect(() => heading.current?.focus(), []);
  const lead = nameOf({ first: handoff.ld_first_name, last: handoff.ld_last_name }) || handoff.ld_email || t('lead');
  const sender = personName(handoff.from);
  const accepted = handoff.ho_status === 'accepted';
  return (
    <Box ref={heading} tabIndex={-1} sx={{ outline: 'none' }} data-testid="handoff-result" data-status={handoff.ho_status}>
      <Notice severity={accepted ? 'success' : 'info'} role="status" title={t(accepted ? 'accepted_title' : 'not_available_title')}>
        {accepted ? t('accepted_text', { lead, account: handoff.account.a_name }) : sender ? t('not_available_text', { sender }) : null}
        {handoff.ho_decided_at && <div>{t(accepted ? 'accepted_on' : 'not_available_on', { date: date(handoff.ho_decided_at) })}</div>}
      </Notice>
      {accepted && (
        <LinkButton {...linkProps(`/console/${handoff.account.a_id}/leads/${handoff.ho_leadid}`)} variant="text" fullWidth style={{ marginTop: 16 }}>
          {t('open_console')}
        </LinkButton>
      )}
    </Box>
  );
}

/** The lead, the message and the two answers; then the result. */
function HandoffReady({ token, handoff, onAnswer, onInvalid }: { token: string; handoff: HandoffInfo; onAnswer: (h: HandoffInfo) => void; onInvalid: () => void }) {
  const { t, error } = useHandoffTexts();
  const [busy, setBusy] = useState<Decision | null>(null);
  const [failure, setFailure] = useState<string | undefined>();
  const sender = personName(handoff.from);
  const name = nameOf({ first: handoff.ld_first_name, last: handoff.ld_last_name });
  const dates = [handoff.ev_start_date, handoff.ev_end_date].filter(Boolean).join(' – ');

  async function answer(decision: Decision) {
    if (busy) return;
    setBusy(decision);
    setFailure(undefined);
    try {
      onAnswer(await api<HandoffInfo>('/handoff/accept', { method: 'POST', body: { token, decision } }));
    } catch (err) {
      setBusy(null);
      if (isInvalid(err)) return onInvalid();
      setFailure(error(bodyOf(err)));
    }
  }

  return (
    <div data-testid="handoff-ready">
      <Typography variant="h5" component="h1" gutterBottom>
        {t('heading')}
      </Typography>
      <Typography variant="body1" sx={{ mb: 2, overflowWrap: 'anywhere' }}>
        {sender ? t('intro', { sender, account: handoff.account.a_name }) : t('intro_no_sender', { account: handoff.account.a_name })}
      </Typography>
      <Box component="dl" sx={{ m: 0, mb: 2, p: 2, borderRadius: 2, bgcolor: 'action.hover' }} aria-label={t('lead')}>
        <Detail label={t('name')} testId="handoff-lead-name">
          {name || (
            <Box component="span" sx={{ fontWeight: 400, color: 'text.secondary' }}>
              {t('no_name')}
            </Box>
          )}
        </Detail>
        <Detail label={t('email')} testId="handoff-lead-email">
          {handoff.ld_email ? (
            <TextLink href={`mailto:${handoff.ld_email}`}>{handoff.ld_email}</TextLink>
          ) : (
            <Box component="span" sx={{ fontWeight: 400, color: 'text.secondary' }}>
              {t('no_email')}
            </Box>
          )}
        </Detail>
        {handoff.ev_title && (
          <Detail label={t('event')} testId="handoff-event">
            {handoff.ev_title}
            {dates && (
              <Box component="span" sx={{ display: 'block', fontWeight: 400, color: 'text.secondary', fontSize: '0.875rem' }}>
                {dates}
              </Box>
            )}
          </Detail>
        )}
      </Box>
      {handoff.ho_message && (
        <Box component="figure" sx={{ m: 0, mb: 2 }}>
          <Typography component="figcaption" variant="caption" color="text.secondary">
            {sender ? t('message', { sender }) : t('message_no_sender')}
          </Typography>
          <Typography
            component="blockquote"
            variant="body1"
            sx={{ m: 0, mt: 0.5, pl: 1.5, borderLeft: 3, borderColor: 'primary.main', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
            data-testid="handoff-message"
          >
            {handoff.ho_message}
          </Typography>
        </Box>
      )}
      {handoff.ho_status === 'pending' ? (
        <>
          {failure && (
            <Notice severity="error" data-testid="handoff-failure" style={{ marginBottom: 16 }}>
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
            <PlainButton variant="text" size="large" fullWidth onClick={() => answer('not_available')} disabled={busy !== null} aria-busy={busy === 'not_available'}>
              {t(busy === 'not_available' ? 'declining' : 'not_available')}
            </PlainButton>
          </Box>
        </>
      ) : (
        <Result handoff={handoff} />
      )}
    </div>
  );
}

/**
 * /handoffs/{token}: the lead a colleague hands over (names, e-mail, event), their message, and "Accept" or "Not
 * available"; then the answer. The link is the credential (no sign-in needed); a used answer shows what was answered,
 * an unknown link says so.
 */
export function HandoffContent({ token }: { token: string }) {
  const { t, error } = useHandoffTexts();
  const [load, setLoad] = useState<Load>({ state: 'loading' });

  useEffect(() => {
    let alive = true;
    // The first call also hands out the CSRF cookie the answer needs.
    api<HandoffInfo>(`/handoff/${encodeURIComponent(token)}`).then(
      (handoff) => alive && setLoad({ state: 'ready', handoff }),
      (err) => alive && setLoad(isInvalid(err) ? { state: 'invalid' } : { state: 'failed', body: bodyOf(err) }),
    );
    return () => {
      alive = false;
    };
  }, [token]);

  const invalid = useCallback(() => setLoad({ state: 'invalid' }), []);
  const answered = useCallback((handoff: HandoffInfo) => setLoad({ state: 'ready', handoff }), []);

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
      <div data-testid="handoff-invalid">
        <Typography variant="h5" component="h1" gutterBottom>
          {t('title')}
        </Typography>
        <Notice severity="error" title={load.state === 'invalid' ? t('error_handoff_invalid') : error(load.body)}>
          {load.state === 'invalid' ? t('invalid_text') : undefined}
        </Notice>
        <LinkButton {...linkProps('/login')} variant="text" fullWidth style={{ marginTop: 16 }}>
          {t('sign_in')}
        </LinkButton>
      </div>
    );
  return <HandoffReady token={token} handoff={load.handoff} onAnswer={answered} onInvalid={invalid} />;
}

function HandoffTitle() {
  const { t } = useHandoffTexts();
  useEffect(() => {
    document.title = `${t('title')} · Leadstage`;
  }, [t]);
  return null;
}

export default function HandoffPage({ token }: { token: string }) {
  return (
    <PublicShell>
      <HandoffTitle />
      <HandoffContent token={token} />
    </PublicShell>
  );
}
