import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { LinkBase, Title, useTranslate } from 'react-admin';
import { invites } from '../../../resources/invites';
import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedCreate } from '../generated/GeneratedCreate';
import type { FieldInputProps } from '../generated/kinds';
import { consolePath } from '../console/access';
import { useConsoleAccount } from '../console/ConsoleContext';
import { useSession } from '../layout/useSession';
import { canInAccount } from '../permissions';
import { UserPicker } from '../accountUsers/UserPicker';
import { useRoleField } from './useRoleField';

/** au_userid: the users that are not members yet (GET /accounts/{a}/users/unlinked), with a search above 15. */
function UnlinkedUserInput(_: FieldInputProps) {
  const { accountId } = useConsoleAccount();
  return <UserPicker accountId={accountId} />;
}

/** Anyone but root: members join through invites. */
function JoinByInvite() {
  const translate = useTranslate();
  const { accountId } = useConsoleAccount();
  const { session } = useSession();
  const mayInvite = canInAccount(session, accountId, invites.group, 'create');
  return (
    <Card sx={{ mt: 2, maxWidth: 640 }} data-testid="members-join-by-invite">
      <Title title={translate('ra.page.create', { name: translate('resources.members.name', { smart_count: 1 }) })} />
      <CardContent>
        <Typography variant="h6" component="h1" gutterBottom>
          {translate('ls.console.members.join_title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {translate('ls.console.members.join_text')}
        </Typography>
        {mayInvite ? (
          <Button component={LinkBase} to={consolePath(accountId, 'invites/new')} variant="contained">
            {translate('ls.console.members.invite')}
          </Button>
        ) : (
          <Alert severity="info">{translate('ls.console.members.join_no_invite')}</Alert>
        )}
      </CardContent>
    </Card>
  );
}

function RootMemberCreate({ decl }: { decl: ResourceDeclaration }) {
  const role = useRoleField();
  return (
    <GeneratedCreate
      decl={decl}
      form={{
        maxWidth: 720,
        overrides: {
          au_userid: { Input: UnlinkedUserInput },
          // The user's own fields belong to the user: set where the user is made, not here.
          u_email: { hidden: true },
          u_first_name: { hidden: true },
          u_last_name: { hidden: true },
          au_role: role,
        },
      }}
    />
  );
}

/**
 * /console/{a}/members/new: a root user adds an existing user who is not a member yet (the entry admin's picker of
 * unlinked users) with a role up to its own; anyone else is pointed to the invites (account-console.md: members).
 */
export default function MemberCreate({ decl }: { decl: ResourceDeclaration }) {
  const { session, isPending } = useSession();
  if (isPending) return null;
  return session?.user.u_role === 'root' ? <RootMemberCreate decl={decl} /> : <JoinByInvite />;
}
