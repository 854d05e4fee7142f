import { Create, useNotify, useRedirect, useTranslate } from 'react-admin';
import type { User } from '../../../resources/users';
import { UserForm } from './UserForm';
import { fullName } from '../providers/session';
import { savedToast } from '../layout/Toast';
import { userSaveErrorNotification } from './userErrors';
import { useSession } from '../layout/useSession';

/** /users/new: saving returns to the list; a duplicate e-mail shows the error toast and the field error. */
export default function UserCreate() {
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const { session } = useSession();
  return (
    <Create
      title={translate('ls.users.create_title')}
      mutationOptions={{
        onSuccess: (data: User & { id: string }) => {
          notify(savedToast(fullName(data)), { type: 'success' });
          redirect('/users');
        },
        onError: (error: unknown) => {
          const { message, hasFieldErrors } = userSaveErrorNotification(error);
          if (typeof message !== 'string' || !hasFieldErrors) notify(message, { type: 'error' });
        },
      }}
    >
      <UserForm isNew session={session} />
    </Create>
  );
}
