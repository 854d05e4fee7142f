import { Edit, useGetOne, useNotify, useRedirect, useTranslate } from 'react-admin';
import type { AccountUser } from '../../../resources/accountUsers';
import { savedToast } from '../layout/Toast';
import { fullName } from '../providers/session';
import { useParams } from 'react-router';
import type { Account } from '../../../resources/accounts';
import { AccountUserForm, membersPath } from './AccountUserForm';

/** /accounts/{id}/users/{userid}: members are addressed by user id within their account. */
export default function AccountUserEdit() {
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const { id: accountId = '', userid = '' } = useParams();
  const { data: account } = useGetOne<Account & { id: string }>('accounts', { id: accountId });
  return (
    <Edit
      resource="accountUsers"
      id={userid}
      title={translate('ls.members.edit_title', { account: account?.a_name ?? '' })}
      queryOptions={{ meta: { accountId } }}
      mutationOptions={{
        meta: { accountId },
        onSuccess: (data: AccountUser & { id: string }) => {
          notify(savedToast(fullName(data)), { type: 'success' });
          redirect(membersPath(accountId));
        },
      }}
      mutationMode="pessimistic"
    >
      <AccountUserForm accountId={accountId} isNew={false} />
    </Edit>
  );
}
