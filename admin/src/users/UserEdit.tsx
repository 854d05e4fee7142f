import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import MailOutlineIcon from '@mui/icons-material/MailOutlined';
import { Edit, useNotify, useRecordContext, useRedirect, useTranslate } from 'react-admin';
import { Link } from 'react-router';
import type { User } from '../../../resources/users';
import { UserForm } from './UserForm';
import { savedToast } from '../layout/Toast';
import { userSaveErrorNotification } from './userErrors';
import { useSession } from '../layout/useSession';
import { CopyableId } from '../layout/CopyButton';
import { fullName } from '../providers/session';
import { EMAIL_TEMPLATES } from '../emails/EmailPreview';

function UserTitle() {
  const record = useRecordContext<User>();
  return <>{record ? fullName(record) : ''}</>;
}

function EmailPreviews() {
  const record = useRecordContext<User & { id: string }>();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Card sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
          {translate('ls.users.preview')}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          {EMAIL_TEMPLATES.map((template) => (
            <Button key={template} component={Link} to={`/emails/${template}/${record.id}`} variant="outlined" startIcon={<MailOutlineIcon />}>
              {translate(`ls.users.preview_${template}`)}
            </Button>
          ))}
        </Box>
      </CardContent>
    </Card>
  );
}

function UserEditBody() {
  const record = useRecordContext<User & { id: string }>();
  const { session } = useSession();
  if (!record) return null;
  return (
    <>
      <Card>
        <Box sx={{ px: 2, pt: 1.5 }}>
          <CopyableId value={String(record.id)} />
        </Box>
        <UserForm session={session} />
      </Card>
      <EmailPreviews />
    </>
  );
}

/** /users/{id}: the user form, then links to the e-mail previews for this user. */
export default function UserEdit() {
  const notify = useNotify();
  const redirect = useRedirect();
  return (
    <Edit
      title={<UserTitle />}
      component="div"
      mutationMode="pessimistic"
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
      <UserEditBody />
    </Edit>
  );
}
