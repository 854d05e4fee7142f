import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import { Edit, useNotify, useRecordContext, useRedirect } from 'react-admin';
import type { Account } from '../../../resources/accounts';
import { AccountForm } from './AccountForm';
import { AccountMembers } from './AccountMembers';
import { AccountLogo } from './AccountLogo';
import { savedToast } from '../layout/Toast';
import { CopyableId } from '../layout/CopyButton';
import { canEntry } from '../permissions';
import { useSession } from '../layout/useSession';

function AccountTitle() {
  const record = useRecordContext<Account>();
  return <>{record?.a_name ?? ''}</>;
}

function AccountEditBody() {
  const record = useRecordContext<Account & { id: string }>();
  const { session } = useSession();
  if (!record) return null;
  return (
    <>
      <Card>
        <Box sx={{ px: 2, pt: 1.5 }}>
          <CopyableId value={String(record.id)} />
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
