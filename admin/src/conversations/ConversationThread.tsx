import { useCallback, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useLocaleState } from 'react-admin';
import { accountPath } from '../providers/accountPath';
import { api, API_URL, ApiRequestError } from '../providers/http';
import { useSession } from '../layout/useSession';
import { canInAccount } from '../permissions';
import { mergeMessages, MessageList, ReplyBox, useMessageStream, type ThreadMessage } from './thread';

const TEXTS = {
  en: {
    heading: 'Conversations',
    empty_thread: 'No messages yet. Your first message mails the lead a link to this conversation.',
    none: 'No conversation with this lead yet.',
    new: 'New conversation',
    subject: 'Subject',
    start: 'Start',
    reply: 'Message to the lead',
    send: 'Send',
    sending: 'Sending…',
    failed: 'The conversation could not be loaded.',
    send_failed: 'The message could not be sent.',
    too_long: 'A message can be at most 10,000 characters',
    visitor: 'Lead',
    unread: '{{n}} unread',
  },
  nl: {
    heading: 'Gesprekken',
    empty_thread: 'Nog geen berichten. Je eerste bericht mailt de lead een link naar dit gesprek.',
    none: 'Nog geen gesprek met deze lead.',
    new: 'Nieuw gesprek',
    subject: 'Onderwerp',
    start: 'Beginnen',
    reply: 'Bericht aan de lead',
    send: 'Versturen',
    sending: 'Versturen…',
    failed: 'Het gesprek kon niet worden geladen.',
    send_failed: 'Het bericht kon niet worden verstuurd.',
    too_long: 'Een bericht mag hoogstens 10.000 tekens lang zijn',
    visitor: 'Lead',
    unread: '{{n}} ongelezen',
  },
};
export type ConversationTextKey = keyof typeof TEXTS.en;

export function useConversationTexts() {
  const [locale] = useLocaleState();
  return useMemo(() => {
    const texts = TEXTS[locale === 'nl' ? 'nl' : 'en'];
    const t = (key: ConversationTextKey, vars: Record<string, string | number> = {}) => texts[key].replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k] ?? ''));
    const when = (iso: string) => new Intl.DateTimeFormat(locale === 'nl' ? 'nl-NL' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
    return { t, when };
  }, [locale]);
}

export interface ConversationRecord {
  id: string;
  cv_id: string;
  cv_leadid: string;
  cv_subject: string;
  cv_status: 'open' | 'closed';
  cv_last_message_at: string | null;
  cv_unread: number;
}

/**
 * One conversation's thread in the console: the messages (reading them marks the thread read), a reply box, and new
 * messages live (EventSource on …/conversations/{id}/events).
 */
export function ConversationThread({ accountId, conversationId }: { accountId: string; conversationId: string }) {
  const { t, when } = useConversationTexts();
  const { session } = useSession();
  const canWrite = canInAccount(session, accountId, 'account_conversations', 'create');
  const base = `${accountPath(accountId, 'conversations')}/${conversationId}`;
  const queryClient = useQueryClient();
  const key = useMemo(() => ['console', accountId, 'conversations', conversationId, 'messages'], [accountId, conversationId]);
  const { data, isPending, isError } = useQuery({ queryKey: key, queryFn: () => api<ThreadMessage[]>(`${base}/messages`) });
  const [failure, setFailure] = useState<string | undefined>();
  const add = useCallback((more: ThreadMessage[]) => queryClient.setQueryData<ThreadMessage[]>(key, (list) => mergeMessages(list ?? [], more)), [queryClient, key]);
  useMessageStream(data ? `${API_URL}${base}/events` : undefined, (m) => add([m]));
  const myId = session?.user?.u_id;

  const send = async (cm_body: string) => {
    setFailure(undefined);
    try {
      add([await api<ThreadMessage>(`${base}/messages`, { method: 'POST', body: { cm_body } })]);
      void queryClient.invalidateQueries({ queryKey: ['console', accountId, 'conversations', 'lead'] });
      return true;
    } catch (err) {
      setFailure(err instanceof ApiRequestError && err.body.fields?.cm_body === 'error_too_long' ? t('too_long') : t('send_failed'));
      return false;
    }
  };

  if (isError) return <Alert severity="error">{t('failed')}</Alert>;
  if (isPending) return <Skeleton variant="rounded" height={96} />;
  return (
    <Box data-testid="console-thread">
      <MessageList
        messages={data.map((m) => (m.from === 'visitor' ? { ...m, from: t('visitor') } : m))}
        isOwn={(m) => !!m.cm_author && m.cm_author === myId}
        when={when}
        empty={t('empty_thread')}
      />
      {failure && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {failure}
        </Alert>
      )}
      {canWrite && <ReplyBox onSend={send} label={t('reply')} send={t('send')} sending={t('sending')} />}
    </Box>
  );
}

const list = (params: Record<string, unknown>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`)
    .join('&');

/**
 * The lead page's conversations: the lead's threads (unread first, with their unread count), the chosen one's thread
 * with a reply box, and "New conversation" with a subject. Shown with account_conversations read.
 */
export function LeadConversations({ accountId, leadId }: { accountId: string; leadId: string }) {
  const { t } = useConversationTexts();
  const { session } = useSession();
  const allowed = canInAccount(session, accountId, 'account_conversations', 'read');
  const canCreate = canInAccount(session, accountId, 'account_conversations', 'create');
  const queryClient = useQueryClient();
  const key = ['console', accountId, 'conversations', 'lead', leadId];
  const { data, isPending, isError } = useQuery({
    queryKey: key,
    queryFn: () => api<ConversationRecord[]>(`${accountPath(accountId, 'conversations')}?${list({ filter: { cv_leadid: leadId }, range: [0, 49] })}`),
    enabled: allowed,
  });
  const [chosen, setChosen] = useState<string | undefined>();
  const [subject, setSubject] = useState('');
  const [creating, setCreating] = useState(false);
  if (!allowed) return null;
  const current = chosen ?? data?.[0]?.id;

  const start = async () => {
    setCreating(true);
    try {
      const created = await api<ConversationRecord>(accountPath(accountId, 'conversations'), { method: 'POST', body: { cv_leadid: leadId, cv_subject: subject.trim() } });
      setSubject('');
      setChosen(created.id);
      await queryClient.invalidateQueries({ queryKey: key });
    } finally {
      setCreating(false);
    }
  };

  return (
    <Box component="section" aria-labelledby="lead-conversations-heading" data-testid="lead-conversations" sx={{ mt: 3 }}>
      <Typography variant="subtitle1" component="h3" id="lead-conversations-heading" sx={{ fontWeight: 600, mb: 1 }}>
        {t('heading')}
      </Typography>
      {isError ? (
        <Alert severity="error">{t('failed')}</Alert>
      ) : isPending ? (
        <Skeleton variant="rounded" height={56} />
      ) : (
        <>
          {data.length > 1 && (
            <TextField select size="small" fullWidth label={t('heading')} value={current ?? ''} onChange={(e) => setChosen(e.target.value)} sx={{ mb: 2 }}>
              {data.map((c) => (
                <MenuItem key={c.id} value={c.id}>
                  {c.cv_subject || '—'}
                  {c.cv_unread > 0 ? ` · ${t('unread', { n: c.cv_unread })}` : ''}
                </MenuItem>
              ))}
            </TextField>
          )}
          {data.length === 0 && <Typography color="text.secondary">{t('none')}</Typography>}
          {data.length === 1 && (
            <Typography variant="body2" sx={{ fontWeight: 600, mb: 1, overflowWrap: 'anywhere' }}>
              {data[0].cv_subject}
            </Typography>
          )}
          {current && <ConversationThread key={current} accountId={accountId} conversationId={current} />}
          {canCreate && (
            <Box sx={{ display: 'flex', gap: 1, mt: 2, alignItems: 'center' }}>
              <TextField
                size="small"
                label={t('subject')}
                value={subject}
                onChange={(e) => setSubject(e.target.value)}
                slotProps={{ htmlInput: { maxLength: 200, 'data-testid': 'new-conversation-subject' } }}
                sx={{ flex: 1 }}
              />
              <Button variant="outlined" onClick={start} disabled={creating} data-testid="new-conversation">
                {data.length ? t('new') : t('start')}
              </Button>
            </Box>
          )}
        </>
      )}
    </Box>
  );
}
