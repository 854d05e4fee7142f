import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip, { type ChipProps } from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useLocaleState, useTranslate } from 'react-admin';
import { useSession } from '../layout/useSession';
import { canInAccount } from '../permissions';
import { fetchHistory, historyKey, personName, type HandoffRecord } from './handoffsApi';

/** A handoff's status at a glance: waiting, accepted (the lead changed owner), not available. */
export const HANDOFF_STATUS_COLOURS: Record<HandoffRecord['ho_status'], ChipProps['color']> = { pending: 'info', accepted: 'success', not_available: 'default' };

export function HandoffStatusChip({ status }: { status: HandoffRecord['ho_status'] }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={HANDOFF_STATUS_COLOURS[status] ?? 'default'}
      variant={status === 'not_available' ? 'outlined' : 'filled'}
      label={translate(`resources.handoffs.options.ho_status.${status}`, { _: status })}
      data-testid="handoff-status"
    />
  );
}

/**
 * A lead's handoffs, newest first: who handed it to whom and when, the message, and the status (with when it was
 * answered). Shown with account_handoffs read; refreshed by HandoffDialog after a send.
 */
export function HandoffHistory({ accountId, leadId }: { accountId: string; leadId: string }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { session } = useSession();
  const allowed = canInAccount(session, accountId, 'account_handoffs', 'read');
  const { data, isPending, isError, refetch } = useQuery({ queryKey: historyKey(accountId, leadId), queryFn: () => fetchHistory(accountId, leadId), enabled: allowed });
  if (!allowed) return null;
  const when = (iso: string) => new Intl.DateTimeFormat(locale === 'nl' ? 'nl-NL' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  return (
    <Box component="section" aria-labelledby="handoff-history-heading" data-testid="handoff-history">
      <Typography variant="subtitle1" component="h3" id="handoff-history-heading" sx={{ fontWeight: 600, mb: 1 }}>
        {translate('ls.handoffs.history')}
      </Typography>
      {isError ? (
        <Alert severity="error" action={<Button onClick={() => refetch()}>{translate('ls.handoffs.retry')}</Button>}>
          {translate('ls.handoffs.history_failed')}
        </Alert>
      ) : isPending ? (
        <Skeleton variant="rounded" height={56} />
      ) : data.length === 0 ? (
        <Typography color="text.secondary">{translate('ls.handoffs.history_empty')}</Typography>
      ) : (
        <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }}>
          {data.map((h) => (
            <Box component="li" key={h.id} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, px: 1.5, py: 1 }} data-testid="handoff-history-item">
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', justifyContent: 'space-between' }}>
                <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere', minWidth: 0 }}>
                  {translate('ls.handoffs.history_item', {
                    from: personName(h.sender_first_name, h.sender_last_name, h.sender_email) || '—',
                    to: personName(h.to_first_name, h.to_last_name, h.to_email),
                  })}
                </Typography>
                <HandoffStatusChip status={h.ho_status} />
              </Box>
              <Typography variant="caption" color="text.secondary" component="p">
                <time dateTime={h.ho_created_at}>{when(h.ho_created_at)}</time>
                {h.ho_decided_at && (
                  <>
                    {' · '}
                    {translate('ls.handoffs.decided', { date: when(h.ho_decided_at) })}
                  </>
                )}
              </Typography>
              {h.ho_message && (
                <Typography variant="body2" sx={{ mt: 0.5, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {h.ho_message}
                </Typography>
              )}
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}

export default HandoffHistory;
