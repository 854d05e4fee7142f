import { Edit, useGetOne, useTranslate } from 'react-admin';
import { useParams } from 'react-router';
import type { Account } from '../../../resources/accounts';
import { AccountUserForm, membersPath } from './AccountUserForm';

/** /accounts/{id}/users/{userid}: members are addressed by user id within their account. */
export default function AccountUserEdit() {
  const translate = useTranslate();
  const { id: accountId = '', userid = '' } = useParams();
  const { data: account } = useGetOne<Account & { id: string }>('accounts', { id: accountId });
  return (
    <Edit
      resource="accountUsers"
      id={userid}
      title={translate('ls.members.edit_title', { account: account?.a_name ?? '' })}
      queryOptions={{ meta: { accountId } }}
      mutationOptions={{ meta: { accountId } }}
      mutationMode="pessimistic"
      redirect={() => membersPath(accountId)}
    >
      <AccountUserForm accountId={accountId} isNew={false} />
    </Edit>
  );
}
