import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { DeleteWithConfirmButton, SaveButton, SelectInput, SimpleForm, TextInput, Toolbar, useRecordContext, useTranslate } from 'react-admin';
import { Link } from 'react-router';
import Typography from '@mui/material/Typography';
import { ROLES } from '../../../resources/permissions';
import type { AccountUser } from '../../../resources/accountUsers';
import { canEntry, canInAccount } from '../permissions';
import { useSession } from '../layout/useSession';
import { fullName } from '../providers/session';
import { UserPicker } from './UserPicker';

export const membersPath = (accountId: string) => `/accounts/${accountId}`;

function MemberToolbar({ accountId, isNew }: { accountId: string; isNew: boolean }) {
  const translate = useTranslate();
  const record = useRecordContext<AccountUser & { id: string }>();
  const { session } = useSession();
  const canSave = canEntry(session, 'accountUsers', isNew ? 'create' : 'edit');
  const canDelete = !isNew && !!record?.id && canEntry(session, 'accountUsers', 'delete');
  return (
    <Toolbar sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
      <Box sx={{ display: 'flex', gap: 1 }}>
        {canSave && <SaveButton />}
        <Button component={Link} to={membersPath(accountId)} data-testid="member-cancel">
          {translate('ls.common.cancel')}
        </Button>
      </Box>
      {canDelete && (
        <DeleteWithConfirmButton
          mutationMode="pessimistic"
          mutationOptions={{ meta: { accountId } }}
          redirect={membersPath(accountId)}
          confirmTitle="ra.message.delete_title"
          translateOptions={{ name: translate('resources.accountUsers.name', { smart_count: 1 }), recordRepresentation: record ? fullName(record) : '' }}
        />
      )}
    </Toolbar>
  );
}

/**
 * The member form (spec 2): the user picker (disabled when editing), the role picker only with account_members
 * set_role in this account, and the external id. Save, cancel and delete return to /accounts/{id}.
 */
export function AccountUserForm({ accountId, isNew }: { accountId: string; isNew: boolean }) {
  const translate = useTranslate();
  const record = useRecordContext<AccountUser>();
  const { session } = useSession();
  const canSetRole = canInAccount(session, accountId, 'account_members', 'set_role');
  const roleChoices = ROLES.map((r) => ({ id: r, name: translate(`ls.roles.${r}`) }));
  return (
    <SimpleForm noValidate toolbar={<MemberToolbar accountId={accountId} isNew={isNew} />} defaultValues={isNew ? { au_role: 'member' } : undefined} sx={{ maxWidth: 640 }}>
      {isNew ? (
        <UserPicker accountId={accountId} />
      ) : (
        <SelectInput
          source="au_userid"
          label={translate('ls.members.user')}
          choices={record ? [{ id: record.au_userid, name: `${fullName(record)} · ${record.u_email}` }] : []}
          disabled
          fullWidth
        />
      )}
      {canSetRole ? (
        <SelectInput source="au_role" choices={roleChoices} fullWidth />
      ) : (
        isNew && (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {translate('ls.members.role_fixed')}
          </Typography>
        )
      )}
      <TextInput source="au_external_id" fullWidth />
    </SimpleForm>
  );
}
