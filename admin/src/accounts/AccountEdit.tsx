import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import DashboardIcon from '@mui/icons-material/Dashboard';
import { Edit, LinkBase, useNotify, useRecordContext, useRedirect, useTranslate } from 'react-admin';
import type { Account } from '../../../resources/accounts';
import { AccountForm } from './AccountForm';
import { AccountMembers } from './AccountMembers';
import { AccountLogo } from './AccountLogo';
import { savedToast } from '../layout/Toast';
import { CopyableId } from '../layout/CopyButton';
import { canEntry, roleInAccount } from '../permissions';
import { consolePath } from '../console/paths';
import { useSession } from '../layout/useSession';

function AccountTitle() {
  const record = useRecordContext<Account>();
  return <>{record?.a_name ?? ''}</>;
}

function AccountEditBody() {
  const record = useRecordContext<Account & { id: string }>();
  const { session } = useSession();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <>
      <Card>
        <Box sx={{ px: 2, pt: 1.5, display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
          <CopyableId value={String(record.id)} />
          {/* The account's console, for whoever may enter it (its members, and root). */}
          {roleInAccount(session, String(record.id)) && (
            <Button component={LinkBase} to={consolePath(String(record.id))} size="small" startIcon={<DashboardIcon />} data-testid="open-console">
              {translate('ls.accounts.open_console')}
            </Button>
          )}
        </Box>
        <AccountLogo key={String(record.id)} account={record} canEdit={canEntry(session, 'accounts', 'edit')} />
        <AccountForm />
      </Card>
      {canEntry(session, 'accountUsers', 'list') && <AccountMembers accountId={String(record.id)} />}
    </>
  );
}

/** /accounts/{id}: the account form with its members below; save and delete return to /accounts. */
export default function AccountEdit() {
  const notify = useNotify();
  const redirect = useRedirect();
  return (
    <Edit
      title={<AccountTitle />}
      component="div"
      mutationMode="pessimistic"
      mutationOptions={{
        onSuccess: (data: Account & { id: string }) => {
          notify(savedToast(data.a_name), { type: 'success' });
          redirect('/accounts');
        },
      }}
    >
      <AccountEditBody />
    </Edit>
  );
}
