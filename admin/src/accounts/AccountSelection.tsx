import { useEffect } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import BusinessIcon from '@mui/icons-material/Business';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import LogoutIcon from '@mui/icons-material/Logout';
import { Loading, useAuthenticated, useTranslate } from 'react-admin';
import { Link, useNavigate } from 'react-router';
import { adminAccounts } from '../permissions';
import { useSession } from '../layout/useSession';
import { BrandMark } from '../layout/BrandMark';
import { fullName } from '../providers/session';

/**
 * /accounts/selection (spec 2): the accounts where the user's membership role is root or superadmin. Exactly one
 * (and no entry admin) -> the browser goes to that account's admin address; a root user also gets the entry admin
 * (/accounts); none -> the no-admin-access message with a logout button.
 */
export default function AccountSelection() {
  useAuthenticated();
  const translate = useTranslate();
  const navigate = useNavigate();
  const { session, isPending } = useSession();
  const accounts = adminAccounts(session);
  const isRoot = session?.user.u_role === 'root';
  const only = !isRoot && accounts.length === 1 ? accounts[0] : undefined;

  useEffect(() => {
    if (only?.a_admin_url) window.location.assign(only.a_admin_url);
  }, [only]);

  if (isPending || !session) return <Loading />;

  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        justifyContent: 'center',
        alignItems: { xs: 'flex-start', sm: 'center' },
        px: 2,
        py: { xs: 3, sm: 6 },
        bgcolor: 'background.default',
      }}
    >
      <Box sx={{ width: '100%', maxWidth: 560 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 1.25, mb: 3 }}>
          <BrandMark size={36} />
          <Typography variant="h5" component="p" sx={{ fontWeight: 700 }}>
            Leadstage
          </Typography>
        </Box>
        <Card sx={{ borderRadius: 3 }}>
          <Box sx={{ p: { xs: 2.5, sm: 3 }, pb: 1 }}>
            <Typography variant="h5" component="h1" gutterBottom>
              {translate('ls.selection.title')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {fullName(session.user)} · {session.user.u_email}
            </Typography>
          </Box>
          {only?.a_admin_url ? (
            <Box sx={{ p: 3 }} role="status">
              <Typography>{translate('ls.selection.redirecting', { name: only.a_name })}</Typography>
            </Box>
          ) : !isRoot && accounts.length === 0 ? (
            <Box sx={{ p: { xs: 2.5, sm: 3 } }}>
              <Alert severity="warning" data-testid="no-admin-access">
                <AlertTitle>{translate('message_no_admin_access')}</AlertTitle>
                {translate('message_no_admin_access_description')}
              </Alert>
            </Box>
          ) : (
            <List aria-label={translate('ls.selection.title')} sx={{ px: 1 }}>
              {isRoot && (
                <ListItemButton component={Link} to="/accounts" sx={{ borderRadius: 2 }} data-testid="select-entry-admin">
                  <ListItemIcon>
                    <AdminPanelSettingsIcon color="primary" />
                  </ListItemIcon>
                  <ListItemText primary={translate('ls.selection.entry_admin')} secondary={translate('ls.selection.entry_admin_description')} />
                  <ChevronRightIcon color="action" />
                </ListItemButton>
              )}
              {accounts.map((a) => (
                <ListItemButton
                  key={a.a_id}
                  component="a"
                  href={a.a_admin_url ?? undefined}
                  disabled={!a.a_admin_url}
                  sx={{ borderRadius: 2 }}
                  data-testid="select-account"
                >
                  <ListItemIcon>
                    <BusinessIcon />
                  </ListItemIcon>
                  <ListItemText
                    primary={a.a_name}
                    secondary={a.a_admin_url ? translate(`ls.roles.${a.au_role}`) : translate('ls.selection.no_admin_url')}
                  />
                  <ChevronRightIcon color="action" />
                </ListItemButton>
              ))}
            </List>
          )}
          <Box sx={{ p: 2, pt: 1, display: 'flex', justifyContent: 'flex-end' }}>
            <Button startIcon={<LogoutIcon />} onClick={() => navigate('/logout')} data-testid="selection-logout">
              {translate('ls.selection.logout')}
            </Button>
          </Box>
        </Card>
      </Box>
    </Box>
  );
}
