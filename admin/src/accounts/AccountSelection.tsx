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
import type { Membership } from '../providers/session';
import { accountAddress } from '../console/paths';
import { adminAccounts } from '../permissions';
import { useSession } from '../layout/useSession';
import { BrandMark } from '../layout/BrandMark';
import { fullName } from '../providers/session';

/** An account of the selection: its own admin address (a full page load), or its console in this app. */
function AccountItem({ account, testId }: { account: Membership; testId: string }) {
  const translate = useTranslate();
  const link = account.a_admin_url ? { component: 'a' as const, href: account.a_admin_url } : { component: Link, to: accountAddress(account) };
  return (
    <ListItemButton {...link} sx={{ borderRadius: 2 }} data-testid={testId}>
      <ListItemIcon>
        <BusinessIcon />
      </ListItemIcon>
      <ListItemText primary={account.a_name} secondary={translate(`ls.roles.${account.au_role}`)} />
      <ChevronRightIcon color="action" />
    </ListItemButton>
  );
}

/**
 * /accounts/selection (spec 2): the accounts where the user's membership role is root or superadmin, each opening at
 * its admin address when it has one, else its console (account-console.md 1). Exactly one (and no entry admin) -> the
 * browser goes there; a root user also gets the entry admin (/accounts); none -> the no-admin-access message with a
 * logout button, and the consoles of the accounts the user is an ordinary member of.
 */
export default function AccountSelection() {
  useAuthenticated();
  const translate = useTranslate();
  const navigate = useNavigate();
  const { session, isPending } = useSession();
  const accounts = adminAccounts(session);
  const isRoot = session?.user.u_role === 'root';
  const only = !isRoot && accounts.length === 1 ? accounts[0] : undefined;

  const memberOf = (session?.accounts ?? []).filter((a) => !accounts.includes(a));

  useEffect(() => {
    if (!only) return;
    if (only.a_admin_url) window.location.assign(only.a_admin_url);
    else navigate(accountAddress(only), { replace: true });
  }, [only, navigate]);

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
          {only ? (
            <Box sx={{ p: 3 }} role="status">
              <Typography>{translate('ls.selection.redirecting', { name: only.a_name })}</Typography>
            </Box>
          ) : !isRoot && accounts.length === 0 ? (
            <Box sx={{ p: { xs: 2.5, sm: 3 } }}>
              <Alert severity="warning" data-testid="no-admin-access">
                <AlertTitle>{translate('message_no_admin_access')}</AlertTitle>
                {translate('message_no_admin_access_description')}
              </Alert>
              {memberOf.length > 0 && (
                <>
                  <Typography variant="subtitle2" component="h2" sx={{ mt: 2.5, mb: 0.5 }}>
                    {translate('ls.selection.consoles')}
                  </Typography>
                  <List aria-label={translate('ls.selection.consoles')} disablePadding>
                    {memberOf.map((a) => (
                      <AccountItem key={a.a_id} account={a} testId="select-console" />
                    ))}
                  </List>
                </>
              )}
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
                <AccountItem key={a.a_id} account={a} testId="select-account" />
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
