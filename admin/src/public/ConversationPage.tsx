import { useCallback, useEffect, useMemo, useState } from 'react';
import Typography from '@mui/material/Typography';
import { PublicShell } from './PublicShell';
import { Notice } from './ui';
import { usePublicI18n } from './i18n';
import { CONVERSATION_TEXTS } from './conversationTexts';
import { DelayedProgress } from '../layout/DelayedProgress';
import { createTranslator } from '../i18n/tiny';
import { api, API_URL, ApiRequestError, type ApiErrorBody } from '../providers/http';
import { mergeMessages, MessageList, ReplyBox, useMessageStream, type ThreadMessage } from '../conversations/thread';

/** GET /api/1/conversation/{token} (platform-and-flows.md 6). */
interface ConversationInfo {
  subject: string;
  status: 'open' | 'closed';
  account: { a_id: string; a_name: string };
  messages: ThreadMessage[];
}

type Load = { state: 'loading' } | { state: 'invalid' } | { state: 'failed'; body: ApiErrorBody } | { state: 'ready'; info: ConversationInfo };

function useTexts() {
  const { locale, errorText } = usePublicI18n();
  return useMemo(() => {
    const own = createTranslator(CONVERSATION_TEXTS[locale] as unknown as Record<string, unknown>, locale, CONVERSATION_TEXTS.en as unknown as Record<string, unknown>);
    const error = (body: ApiErrorBody) => {
      const field = body.fields?.cm_body;
      if (field && own.exists(field)) return own.t(field);
      return own.exists(`error_${body.code}`) ? own.t(`error_${body.code}`) : errorText(body);
    };
    const when = (iso: string) => new Intl.DateTimeFormat(locale === 'nl' ? 'nl-NL' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
    return { t: own.t, error, when };
  }, [locale, errorText]);
}

/**
 * /conversations/{token}: the thread between the visitor and an account, a reply box, and new messages as they come
 * (EventSource on /api/1/conversation/{token}/events). The link is the credential; an unknown one says so.
 */
export function ConversationContent({ token }: { token: string }) {
  const { t, error, when } = useTexts();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [failure, setFailure] = useState<string | undefined>();
  const base = `/conversation/${encodeURIComponent(token)}`;

  useEffect(() => {
    let alive = true;
    // The first call also hands out the CSRF cookie the reply needs.
    api<ConversationInfo>(base).then(
      (info) => alive && setLoad({ state: 'ready', info }),
      (err) =>
        alive &&
        setLoad(
          err instanceof ApiRequestError && err.status === 404 ? { state: 'invalid' } : { state: 'failed', body: err instanceof ApiRequestError ? err.body : { code: 'network' } },
        ),
    );
    return () => {
      alive = false;
    };
  }, [base]);

  const add = useCallback(
    (more: ThreadMessage[]) => setLoad((l) => (l.state === 'ready' ? { state: 'ready', info: { ...l.info, messages: mergeMessages(l.info.messages, more) } } : l)),
    [],
  );
  useMessageStream(load.state === 'ready' ? `${API_URL}${base}/events` : undefined, (m) => add([m]));

  const send = async (cm_body: string) => {
    setFailure(undefined);
    try {
      add([await api<ThreadMessage>(`${base}/messages`, { method: 'POST', body: { cm_body } })]);
      return true;
    } catch (err) {
      setFailure(error(err instanceof ApiRequestError ? err.body : { code: 'network' }));
      return false;
    }
  };

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
  if (load.state !== 'ready')
    return (
      <div data-testid="conversation-invalid">
        <Typography variant="h5" component="h1" gutterBottom>
          {t('title')}
        </Typography>
        <Notice severity="error" title={load.state === 'invalid' ? t('invalid_title') : error(load.body)}>
          {load.state === 'invalid' ? t('invalid_text') : undefined}
        </Notice>
      </div>
    );
  const { info } = load;
  const closed = info.status === 'closed';
  return (
    <div data-testid="conversation-page">
      <Typography variant="h5" component="h1" sx={{ overflowWrap: 'anywhere' }}>
        {info.subject || t('title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('with', { account: info.account.a_name })}
      </Typography>
      <MessageList messages={info.messages.map((m) => (m.from === 'visitor' ? { ...m, from: t('you') } : m))} isOwn={(m) => m.from === t('you')} when={when} empty={t('empty')} />
      {failure && (
        <Notice severity="error" data-testid="reply-failure" style={{ marginTop: 16 }}>
          {failure}
        </Notice>
      )}
      {closed ? (
        <Notice severity="info" style={{ marginTop: 16 }}>
          {t('closed', { account: info.account.a_name })}
        </Notice>
      ) : (
        <ReplyBox onSend={send} label={t('reply')} send={t('send')} sending={t('sending')} />
      )}
    </div>
  );
}

function Title() {
  const { t } = useTexts();
  useEffect(() => {
    document.title = `${t('title')} · Leadstage`;
  }, [t]);
  return null;
}

export default function ConversationPage({ token }: { token: string }) {
  return (
    <PublicShell wide>
      <Title />
      <ConversationContent token={token} />
    </PublicShell>
  );
}
