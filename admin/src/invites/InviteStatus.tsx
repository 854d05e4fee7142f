import Chip, { type ChipProps } from '@mui/material/Chip';
import { useGetList, useTranslate } from 'react-admin';
import { members } from '../../../resources/members';
import { DateTimeCell, type CellProps } from '../generated/cells';
import { useChosenRecord } from '../generated/references';
import { optionLabelKey, titleOf } from '../generated/rules';
import { useSession } from '../layout/useSession';
import { fullName } from '../providers/session';

/** An invite's status at a glance: pending (waiting), accepted (done), expired (needs a resend), revoked. */
export const STATUS_COLOURS: Record<string, ChipProps['color']> = { pending: 'info', accepted: 'success', expired: 'warning', revoked: 'default' };

export function InviteStatusCell({ record, source, decl }: CellProps) {
  const translate = useTranslate();
  const status = String(record[source] ?? '');
  if (!status) return null;
  return (
    <Chip
      size="small"
      color={STATUS_COLOURS[status] ?? 'default'}
      variant={status === 'revoked' ? 'outlined' : 'filled'}
      label={translate(optionLabelKey(decl, source, status), { _: status })}
      data-testid="invite-status"
    />
  );
}

/** When the link stops working: only while that matters (pending or expired); an accepted or revoked invite shows a dash. */
export function InviteExpiryCell(props: CellProps) {
  const status = props.record.iv_status;
  if (status === 'accepted' || status === 'revoked') return <>—</>;
  return <DateTimeCell {...props} />;
}

/**
 * Who sent an invite: the member by names and e-mail; the caller itself; or, when the sender is not a member of this
 * account (a root user, or someone who left), just that.
 */
export function InviterCell({ record, source }: CellProps) {
  const translate = useTranslate();
  const { session } = useSession();
  const value = record[source] as string | null | undefined;
  const { data, isPending } = useGetList('members', { pagination: { page: 1, perPage: 100 }, sort: members.defaultSort, filter: {} }, { enabled: !!value });
  const loaded = data?.find((m) => m.au_userid === value);
  // beyond the first 100 members (one list for the whole page), the member by user id
  const [found] = useChosenRecord('members', 'au_userid', value, !!data && !loaded);
  if (!value) return <>—</>;
  const member = loaded ?? found;
  if (member) return <>{titleOf(members, member)}</>;
  if (session?.user.id === value) return <>{translate('ls.console.invites.inviter_you', { name: fullName(session.user) })}</>;
  return isPending ? null : <>{translate('ls.console.invites.inviter_outside')}</>;
}
