import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { Title, useAuthenticated, useTranslate } from 'react-admin';
import { useSession } from '../layout/useSession';
import { fullName } from '../providers/session';
import { ApiTokens } from './ApiTokens';

/** The signed-in user's own page in the admin (/profile, from the user menu): who you are, and your API tokens. */
export default function ProfilePage() {
  useAuthenticated();
  const translate = useTranslate();
  const { session } = useSession();
  return (
    // A grid column of minmax(0, 1fr): the tokens' table scrolls inside its card on a phone instead of widening the page.
    <Box sx={{ mt: 2, display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 2 }}>
      <Title title={translate('ls.profile.title')} />
      <Card>
        <CardContent>
          <Typography variant="h6">{session ? fullName(session.user) || session.user.u_email : ''}</Typography>
          <Typography color="text.secondary">{session?.user.u_email}</Typography>
          {session && (
            <Typography variant="body2" color="text.secondary">
              {translate('ls.profile.role', { role: translate(`ls.roles.${session.user.u_role}`) })}
            </Typography>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <ApiTokens />
        </CardContent>
      </Card>
    </Box>
  );
}
