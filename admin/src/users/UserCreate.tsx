import { Create, useNotify, useRedirect, useTranslate } from 'react-admin';
import { UserForm } from './UserForm';
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
        onSuccess: () => {
          notify('ra.notification.created', { type: 'success', messageArgs: { smart_count: 1 } });
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
