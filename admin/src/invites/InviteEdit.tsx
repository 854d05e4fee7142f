import Alert from '@mui/material/Alert';
import { useTranslate } from 'react-admin';
import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedEdit } from '../generated/GeneratedEdit';
import { useResourceAccess } from '../generated/access';
import { useConsoleAccount } from '../console/ConsoleContext';
import { useRoleField } from '../members/useRoleField';
import { canResend, ResendInviteButton, type InviteRecord } from './ResendInviteButton';
import { InviteExpiryCell, InviterCell, InviteStatusCell } from './InviteStatus';

/**
 * /console/{a}/invites/{id}: a pending or expired invite's names and role can change, it can be sent again (a new link,
 * seven more days) and revoked (delete, confirmed: the link stops working); an accepted or revoked one is read-only.
 */
export default function InviteEdit({ decl }: { decl: ResourceDeclaration }) {
  const translate = useTranslate();
  const { accountId } = useConsoleAccount();
  const { canUpdate } = useResourceAccess(decl.name);
  const role = useRoleField();
  return (
    <GeneratedEdit
      decl={decl}
      form={(record) => {
        const invite = record as unknown as InviteRecord;
        const open = canResend(invite);
        return {
          maxWidth: 720,
          canSave: open,
          canDelete: open,
          intro: open ? undefined : (
            <Alert severity="info" sx={{ mb: 2, width: '100%' }} data-testid="invite-closed">
              {translate(`ls.console.invites.closed_${invite.iv_status}`)}
            </Alert>
          ),
          overrides: {
            iv_role: { ...role, meta: { options: [...new Set([...(role.meta?.options ?? []), String(record.iv_role)])] } },
            iv_status: { Cell: InviteStatusCell },
            iv_expires_at: { Cell: InviteExpiryCell },
            iv_invited_by: { Cell: InviterCell },
          },
          toolbarExtra: open && canUpdate ? <ResendInviteButton accountId={accountId} invite={invite} /> : undefined,
          deleteLabel: translate('ls.console.invites.revoke'),
          deleteConfirmTitle: translate('ls.console.invites.revoke_title', { email: invite.iv_email }),
          deleteConfirmContent: translate('ls.console.invites.revoke_text'),
          deleteSuccessMessage: translate('ls.console.invites.revoked', { email: invite.iv_email }),
        };
      }}
    />
  );
}
