import { useTranslate } from 'react-admin';
import type { FieldOverride } from '../generated/GeneratedForm';
import { useConsoleAccount } from '../console/ConsoleContext';
import { useSession } from '../layout/useSession';
import { canInAccount } from '../permissions';
import { rolesUpTo } from './roles';

/**
 * A role field (a member's au_role, an invite's iv_role) in the console: editable only with account_members set_role
 * in this account, and offering no role above the caller's own. `current` keeps a stored role among the options (so a
 * form that may not change it still shows it).
 */
export function useRoleField(current?: unknown): FieldOverride {
  const translate = useTranslate();
  const { accountId, role } = useConsoleAccount();
  const { session } = useSession();
  const mayGrant = canInAccount(session, accountId, 'account_members', 'set_role');
  const options: string[] = rolesUpTo(role);
  if (typeof current === 'string' && !options.includes(current)) options.push(current);
  return {
    disabled: !mayGrant,
    meta: { options },
    helperText: mayGrant ? undefined : translate('ls.console.members.role_fixed'),
  };
}
