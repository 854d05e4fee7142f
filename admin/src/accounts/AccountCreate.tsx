import { Create, useNotify, useRedirect, useTranslate } from 'react-admin';
import type { Account } from '../../../resources/accounts';
import { AccountForm } from './AccountForm';
import { savedToast } from '../layout/Toast';

/** /accounts/new: after saving, the new account opens so its members can be added. */
export default function AccountCreate() {
  const notify = useNotify();
  const redirect = useRedirect();
  const translate = useTranslate();
  return (
    <Create
      title={translate('ls.accounts.create_title')}
      mutationOptions={{
        onSuccess: (data: Account & { id: string }) => {
          notify(savedToast(data.a_name), { type: 'success' });
          redirect(`/accounts/${data.id}`);
        },
      }}
    >
      <AccountForm isNew />
    </Create>
  );
}
