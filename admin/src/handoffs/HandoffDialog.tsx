import { useDeferredValue, useId, useState, type FormEvent } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import { useNotify, useTranslate } from 'react-admin';
import { ApiRequestError } from '../providers/http';
import { errorText } from '../i18n';
import { useSession } from '../layout/useSession';
import { canInAccount } from '../permissions';
import { createHandoff, historyKey, personName, searchMembers, type HandoffRecord, type MemberOption } from './handoffsApi';

const MESSAGE_MAX = 2000;
const label = (m: MemberOption) => {
  const name = personName(m.u_first_name, m.u_last_name, null);
  return name ? `${name} · ${m.u_email}` : m.u_email;
};

export interface HandoffDialogProps {
  accountId: string;
  leadId: string;
  open: boolean;
  onClose: () => void;
  /** After a handoff was stored and mailed. */
  onSent?: (handoff: HandoffRecord) => void;
}

/**
 * Hands a lead to a member of the account (POST /accounts/{a}/handoffs): pick the representative (searched on the
 * server), add a message, send. The representative gets a mail with the link to accept; when that mail cannot be sent
 * the API stores nothing and the dialog shows why ("We failed to deliver the notification to the representative"),
 * keeping what was typed. A full-screen dialog on a phone.
 */
export function HandoffDialog({ accountId, leadId, open, onClose, onSent }: HandoffDialogProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const fullScreen = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const id = useId();
  const [to, setTo] = useState<MemberOption | null>(null);
  const [search, setSearch] = useState('');
  const [message, setMessage] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const q = useDeferredValue(search);
  const members = useQuery({
    queryKey: ['console', accountId, 'handoffs', 'members', q],
    queryFn: () => searchMembers(accountId, q),
    enabled: open,
    placeholderData: keepPreviousData,
  });

  function close() {
    if (sending) return;
    setFailure(undefined);
    setFieldErrors({});
    onClose();
  }

  async function send(e: FormEvent) {
    e.preventDefault();
    // the dialog may sit inside another form in React's tree (the lead page): its submit is its own
    e.stopPropagation();
    if (sending) return;
    if (!to) {
      setFieldErrors({ ho_to_userid: 'ls.handoffs.to_required' });
      return;
    }
    setSending(true);
    setFailure(undefined);
    setFieldErrors({});
    try {
      const handoff = await createHandoff(accountId, { ho_leadid: leadId, ho_to_userid: to.au_userid, ho_message: message.trim() });
      await queryClient.invalidateQueries({ queryKey: historyKey(accountId, leadId) });
      notify(translate('ls.handoffs.sent', { name: label(to) }), { type: 'success' });
      setTo(null);
      setMessage('');
      setSending(false);
      onSent?.(handoff);
      onClose();
    } catch (err) {
      setSending(false);
      const body = err instanceof ApiRequestError ? err.body : { code: 'network' };
      if (body.fields) setFieldErrors(body.fields);
      setFailure(errorText(body));
    }
  }

  return (
    <Dialog open={open} onClose={close} fullScreen={fullScreen} fullWidth maxWidth="sm" aria-labelledby={`${id}-title`} data-testid="handoff-dialog">
      <form onSubmit={send} noValidate>
        <DialogTitle id={`${id}-title`}>{translate('ls.handoffs.title')}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {translate('ls.handoffs.intro')}
          </Typography>
          {failure && (
            <Alert severity="error" sx={{ mb: 2 }} data-testid="handoff-error">
              {failure}
            </Alert>
          )}
          <Autocomplete
            options={members.data ?? []}
            value={to}
            onChange={(_, v) => {
              setTo(v);
              setFieldErrors({});
            }}
            inputValue={search}
            onInputChange={(_, v) => setSearch(v)}
            getOptionLabel={label}
            isOptionEqualToValue={(a, b) => a.au_userid === b.au_userid}
            // The server searches (prefix of e-mail and names); every answer it gives is a match.
            filterOptions={(x) => x}
            loading={members.isFetching}
            noOptionsText={members.isError ? translate('ls.handoffs.members_failed') : translate('ls.handoffs.no_members')}
            disabled={sending}
            renderInput={(params) => (
              <TextField
                {...params}
                label={translate('ls.handoffs.to')}
                required
                autoFocus
                error={Boolean(fieldErrors.ho_to_userid)}
                helperText={fieldErrors.ho_to_userid ? translate(fieldErrors.ho_to_userid) : translate('ls.handoffs.to_help')}
                slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'handoff-to' } }}
              />
            )}
          />
          <TextField
            label={translate('ls.handoffs.message')}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            multiline
            minRows={3}
            fullWidth
            margin="normal"
            disabled={sending}
            error={Boolean(fieldErrors.ho_message)}
            helperText={fieldErrors.ho_message ? translate(fieldErrors.ho_message) : `${translate('ls.handoffs.message_help')} (${message.length}/${MESSAGE_MAX})`}
            slotProps={{ htmlInput: { maxLength: MESSAGE_MAX, 'data-testid': 'handoff-message' } }}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={close} disabled={sending}>
            {translate('ls.handoffs.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={sending} startIcon={<SwapHorizIcon />} data-testid="handoff-send">
            {translate(sending ? 'ls.handoffs.sending' : 'ls.handoffs.send')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** The lead page's "Hand off" button with its dialog; shown only with account_handoffs create in this account. */
export function HandoffButton({ accountId, leadId, onSent }: { accountId: string; leadId: string; onSent?: (handoff: HandoffRecord) => void }) {
  const translate = useTranslate();
  const { session } = useSession();
  const [open, setOpen] = useState(false);
  if (!canInAccount(session, accountId, 'account_handoffs', 'create')) return null;
  return (
    <>
      <Button variant="outlined" startIcon={<SwapHorizIcon />} onClick={() => setOpen(true)} data-testid="handoff-open">
        {translate('ls.handoffs.hand_off')}
      </Button>
      <HandoffDialog accountId={accountId} leadId={leadId} open={open} onClose={() => setOpen(false)} onSent={onSent} />
    </>
  );
}

export default HandoffDialog;
