import PersonAddIcon from '@mui/icons-material/PersonAddAlt1';
import { Button, LinkBase, useTranslate } from 'react-admin';
import { invites } from '../../../resources/invites';
import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedList } from '../generated/GeneratedList';
import { consolePath } from '../console/access';
import { useConsoleAccount } from '../console/ConsoleContext';
import { useSession } from '../layout/useSession';
import { canInAccount } from '../permissions';

/** Anyone but a root user adds members by inviting them: the list's create button becomes "Invite". */
function InviteButton() {
  const translate = useTranslate();
  const { accountId } = useConsoleAccount();
  return (
    <Button component={LinkBase} to={consolePath(accountId, 'invites/new')} label={translate('ls.console.members.invite')} variant="contained" data-testid="invite-button">
      <PersonAddIcon />
    </Button>
  );
}

/**
 * /console/{a}/members: the generated list. Members join through invites; only a root user picks an existing user
 * (the create button), anyone else with account_invites create gets "Invite" instead.
 */
export default function MemberList({ decl }: { decl: ResourceDeclaration }) {
  const { accountId } = useConsoleAccount();
  const { session } = useSession();
  const isRoot = session?.user.u_role === 'root';
  const mayInvite = canInAccount(session, accountId, invites.group, 'create');
  return <GeneratedList decl={decl} createAction={isRoot ? undefined : mayInvite ? <InviteButton /> : null} phoneColumns={['au_role']} />;
}
