import { Create, useGetOne, useNotify, useRedirect, useTranslate } from 'react-admin';
import type { AccountUser } from '../../../resources/accountUsers';
import { savedToast } from '../layout/Toast';
import { fullName } from '../providers/session';
import { useParams } from 'react-router';
import type { Account } from '../../../resources/accounts';
import { AccountUserForm, membersPath } from './AccountUserForm';

/** /accounts/{id}/users/new */
export default function AccountUserCreate() {
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const { id: accountId = '' } = useParams();
  const { data: account } = useGetOne<Account & { id: string }>('accounts', { id: accountId });
  return (
    <Create
      resource="accountUsers"
      title={translate('ls.members.create_title', { account: account?.a_name ?? '' })}
      mutationOptions={{
        meta: { accountId },
        onSuccess: (data: AccountUser & { id: string }) => {
          notify(savedToast(fullName(data)), { type: 'success' });
          redirect(membersPath(accountId));
        },
      }}
    >
      <AccountUserForm accountId={accountId} isNew />
    </Create>
  );
}
