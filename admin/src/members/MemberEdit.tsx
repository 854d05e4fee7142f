import Alert from '@mui/material/Alert';
import { useTranslate } from 'react-admin';
import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedEdit } from '../generated/GeneratedEdit';
import { titleOf } from '../generated/rules';
import { useConsoleAccount } from '../console/ConsoleContext';
import { useSession } from '../layout/useSession';
import { canInAccount } from '../permissions';
import { ranksAbove } from './roles';
import { useRoleField } from './useRoleField';

/**
 * /console/{a}/members/{id}: the generated form where the role needs account_members set_role and offers no role
 * above the caller's, the user's e-mail and names need account_users update, verified is shown, and remove asks
 * first. A member ranked above the caller is shown, not changed (the API refuses it too).
 */
export default function MemberEdit({ decl }: { decl: ResourceDeclaration }) {
  const translate = useTranslate();
  const { accountId, role: own } = useConsoleAccount();
  const { session } = useSession();
  const mayEditUser = canInAccount(session, accountId, 'account_users', 'update');
  const userField = { disabled: !mayEditUser, helperText: mayEditUser ? undefined : translate('ls.console.members.user_fields_fixed') };
  const roleField = useRoleField();
  return (
    <GeneratedEdit
      decl={decl}
      form={(record) => {
        const above = ranksAbove(record.au_role, own);
        const name = titleOf(decl, record);
        return {
          maxWidth: 720,
          canSave: !above,
          canDelete: !above,
          intro: above ? (
            <Alert severity="info" sx={{ mb: 2, width: '100%' }} data-testid="member-above">
              {translate('ls.console.members.above_own')}
            </Alert>
          ) : undefined,
          overrides: {
            // Who the membership is for shows in its e-mail and names; the user record itself is the entry admin's.
            au_userid: { hidden: true },
            u_email: userField,
            u_first_name: userField,
            u_last_name: userField,
            au_role: { ...roleField, meta: { options: [...new Set([...(roleField.meta?.options ?? []), String(record.au_role)])] } },
          },
          deleteLabel: translate('ls.console.members.remove'),
          deleteConfirmTitle: translate('ls.console.members.remove_title', { name }),
          deleteConfirmContent: translate('ls.console.members.remove_text'),
          deleteSuccessMessage: translate('ls.console.members.removed', { name }),
        };
      }}
    />
  );
}
