import { useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';

/** A message as both APIs answer it (platform-and-flows.md 6); the console's also carries cm_author. */
export interface ThreadMessage {
  cm_id: string;
  cm_body: string;
  cm_created_at: string;
  from: string;
  cm_author?: string | null;
}

export const MESSAGE_MAX = 10_000;

/** Adds messages not yet shown (a stream may repeat one the POST already answered), oldest first. */
export function mergeMessages(list: ThreadMessage[], more: ThreadMessage[]): ThreadMessage[] {
  const seen = new Set(list.map((m) => m.cm_id));
  const added = more.filter((m) => !seen.has(m.cm_id));
  if (!added.length) return list;
  return [...list, ...added].sort((a, b) => a.cm_created_at.localeCompare(b.cm_created_at) || a.cm_id.localeCompare(b.cm_id));
}

/**
 * Follows a conversation's Server-Sent Events (`event: message`) while mounted; the browser's EventSource reconnects by
 * itself with Last-Event-ID, and the server sends what was missed.
 */
export function useMessageStream(url: string | undefined, onMessage: (m: ThreadMessage) => void): void {
  const handler = useRef(onMessage);
  handler.current = onMessage;
  useEffect(() => {
    if (!url || typeof EventSource === 'undefined') return;
    const source = new EventSource(url, { withCredentials: true });
    const listener = (e: MessageEvent) => {
      try {
        handler.current(JSON.parse(e.data) as ThreadMessage);
      } catch {
        // not a message
      }
    };
    source.addEventListener('message', listener);
    return () => {
      source.removeEventListener('message', listener);
      source.close();
    };
  }, [url]);
}

/** The thread, oldest first: own messages on the right, the other side's on the left, each with who and when. */
export function MessageList({ messages, isOwn, when, empty }: { messages: ThreadMessage[]; isOwn: (m: ThreadMessage) => boolean; when: (iso: string) => string; empty: string }) {
  const end = useRef<HTMLDivElement>(null);
  // A block body: Chromium's scrollIntoView answers a promise, which React would take for a cleanup function.
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'nearest' });
  }, [messages.length]);
  if (!messages.length)
    return (
      <Typography color="text.secondary" sx={{ py: 2 }} data-testid="thread-empty">
        {empty}
      </Typography>
    );
  return (
    <Box component="ol" aria-live="polite" sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 1.25 }} data-testid="thread">
      {messages.map((m) => {
        const own = isOwn(m);
        return (
          <Box component="li" key={m.cm_id} sx={{ alignSelf: own ? 'flex-end' : 'flex-start', maxWidth: '85%', minWidth: 0 }} data-testid="thread-message" data-from={m.from}>
            <Typography variant="caption" color="text.secondary" component="div" sx={{ textAlign: own ? 'right' : 'left', px: 0.5 }}>
              {m.from} · {when(m.cm_created_at)}
            </Typography>
            <Typography
              variant="body2"
              component="div"
              sx={{
                mt: 0.25,
                px: 1.5,
                py: 1,
                borderRadius: 2,
                whiteSpace: 'pre-wrap',
                overflowWrap: 'anywhere',
                bgcolor: own ? 'primary.main' : 'action.hover',
                color: own ? 'primary.contrastText' : 'text.primary',
              }}
            >
              {m.cm_body}
            </Typography>
          </Box>
        );
      })}
      <div ref={end} />
    </Box>
  );
}

/** A reply box: a multi-line field (at most 10,000 characters) and Send; Ctrl/Cmd+Enter sends. */
export function ReplyBox({
  onSend,
  label,
  send,
  sending,
  disabled,
}: {
  onSend: (body: string) => Promise<boolean>;
  label: string;
  send: string;
  sending: string;
  disabled?: boolean;
}) {
  const [body, setBody] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (busy || !body.trim()) return;
    setBusy(true);
    const ok = await onSend(body);
    setBusy(false);
    if (ok) setBody('');
  };
  return (
    // Not a <form>: on the lead's page it sits inside the lead's edit form, which a submit would save.
    <Box role="group" aria-label={label} sx={{ display: 'flex', flexDirection: 'column', gap: 1, mt: 2 }}>
      <TextField
        label={label}
        value={body}
        onChange={(e) => setBody(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit();
        }}
        multiline
        minRows={2}
        maxRows={8}
        fullWidth
        disabled={disabled}
        slotProps={{ htmlInput: { maxLength: MESSAGE_MAX, 'data-testid': 'reply-body' } }}
      />
      <Button
        type="button"
        onClick={() => void submit()}
        variant="contained"
        disabled={disabled || busy || !body.trim()}
        sx={{ alignSelf: { xs: 'stretch', sm: 'flex-end' } }}
        data-testid="reply-send"
      >
        {busy ? sending : send}
      </Button>
    </Box>
  );
}
