import { useState, type MouseEvent } from 'react';
import Button from '@mui/material/Button';
import ReplayIcon from '@mui/icons-material/Replay';
import { useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { accountPath } from '../providers/accountPath';
import { api } from '../providers/http';
import { failureText } from '../providers/failure';

export interface InviteRecord {
  id: string;
  iv_email: string;
  iv_status: 'pending' | 'accepted' | 'revoked' | 'expired';
}

/** Only these can be sent again (account-console.md: invites; the API answers 409 invite_closed otherwise). */
export const canResend = (invite: Pick<InviteRecord, 'iv_status'> | undefined) => invite?.iv_status === 'pending' || invite?.iv_status === 'expired';

/**
 * POST /accounts/{a}/invites/{id}/resend: a new link with seven more days, mailed again (the old link stops working).
 * Shown for a pending or expired invite; the screen shows it only with account_invites update. The record comes from
 * the props or react-admin's record context (a list row, an edit page); the list refreshes afterwards.
 */
export function ResendInviteButton({ accountId, invite }: { accountId: string; invite?: InviteRecord }) {
  const context = useRecordContext<InviteRecord>();
  const record = invite ?? context;
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [sending, setSending] = useState(false);
  if (!record || !canResend(record)) return null;

  async function resend(e: MouseEvent) {
    // Inside a clickable list row (a link on a phone): neither the row nor the link takes the click.
    e.stopPropagation();
    e.preventDefault();
    setSending(true);
    try {
      await api(accountPath(accountId, 'invites', String(record!.id), 'resend'), { method: 'POST' });
      notify(translate('ls.invites.resent', { email: record!.iv_email }), { type: 'success' });
      refresh();
    } catch (err) {
      notify(failureText(err, translate), { type: 'error' });
    } finally {
      setSending(false);
    }
  }

  return (
    <Button
      size="small"
      startIcon={<ReplayIcon />}
      onClick={resend}
      disabled={sending}
      aria-busy={sending}
      aria-label={translate('ls.invites.resend_to', { email: record.iv_email })}
    >
      {translate('ls.invites.resend')}
    </Button>
  );
}
