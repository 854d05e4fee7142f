import { Create, useGetOne, useTranslate } from 'react-admin';
import { useParams } from 'react-router';
import type { Account } from '../../../resources/accounts';
import { AccountUserForm, membersPath } from './AccountUserForm';

/** /accounts/{id}/users/new */
export default function AccountUserCreate() {
  const translate = useTranslate();
  const { id: accountId = '' } = useParams();
  const { data: account } = useGetOne<Account & { id: string }>('accounts', { id: accountId });
  return (
    <Create
      resource="accountUsers"
      title={translate('ls.members.create_title', { account: account?.a_name ?? '' })}
      mutationOptions={{ meta: { accountId } }}
      redirect={() => membersPath(accountId)}
    >
      <AccountUserForm accountId={accountId} isNew />
    </Create>
  );
}
