import type { RaRecord } from 'react-admin';
import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedList } from '../generated/GeneratedList';
import { useResourceAccess } from '../generated/access';
import { useConsoleAccount } from '../console/ConsoleContext';
import { ResendInviteButton, type InviteRecord } from './ResendInviteButton';
import { InviteExpiryCell, InviteStatusCell } from './InviteStatus';

function ResendInRow({ record }: { record: RaRecord }) {
  const { accountId } = useConsoleAccount();
  const { canUpdate } = useResourceAccess('invites');
  return canUpdate ? <ResendInviteButton accountId={accountId} invite={record as unknown as InviteRecord} /> : null;
}

/**
 * /console/{a}/invites: the generated list with the status as a coloured chip, the expiry only where it still matters,
 * and "Send again" on pending and expired invites; a row opens the invite (accepted and revoked ones read-only).
 */
export default function InviteList({ decl }: { decl: ResourceDeclaration }) {
  return (
    <GeneratedList decl={decl} cells={{ iv_status: InviteStatusCell, iv_expires_at: InviteExpiryCell }} rowActions={ResendInRow} phoneColumns={['iv_status', 'iv_expires_at']} />
  );
}
