import { forwardRef, type ReactNode } from 'react';
import { Link } from 'react-router';
import MenuItem from '@mui/material/MenuItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import PersonIcon from '@mui/icons-material/Person';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { AppBar, Layout, TitlePortal, ToggleThemeButton, UserMenu, Logout, useTranslate, useUserMenu } from 'react-admin';
import { LocaleMenu } from './LocaleMenu';
import { AppMenu } from './AppMenu';
import { AccountSwitcher } from './AccountSwitcher';
import { ActivityIndicator } from './ActivityIndicator';
import { BrandMark } from './BrandMark';

function Brand() {
  return (
    <Box sx={{ display: { xs: 'none', md: 'flex' }, alignItems: 'center', gap: 1, mr: 2 }}>
      <BrandMark size={26} />
      <Typography component="span" sx={{ fontWeight: 700, letterSpacing: '-0.01em' }}>
        Leadstage
      </Typography>
    </Box>
  );
}

function Toolbar() {
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: { xs: 0, sm: 0.5 },
        '& .ls-long': { display: { xs: 'none', sm: 'inline' } },
        '& .ls-short': { display: { xs: 'inline', sm: 'none' } },
      }}
    >
      <AccountSwitcher />
      <LocaleMenu />
      <ToggleThemeButton />
    </Box>
  );
}

/** The user menu's way to the profile page (the caller's API tokens). */
const ProfileMenuItem = forwardRef<HTMLAnchorElement>(function ProfileMenuItem(props, ref) {
  const translate = useTranslate();
  const menu = useUserMenu();
  return (
    <MenuItem component={Link} to="/profile" ref={ref} {...props} onClick={() => menu?.onClose()}>
      <ListItemIcon>
        <PersonIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{translate('ls.profile.title')}</ListItemText>
    </MenuItem>
  );
});

function AppTopBar() {
  return (
    <AppBar
      color="inherit"
      toolbar={<Toolbar />}
      userMenu={
        <UserMenu>
          <ProfileMenuItem />
          <Logout redirectTo="/login" />
        </UserMenu>
      }
      sx={{ borderBottom: 1, borderColor: 'divider', boxShadow: 'none', bgcolor: 'background.paper' }}
    >
      <Brand />
      {/* A long title (an account's name on a phone) ends in an ellipsis instead of running under the buttons. */}
      <TitlePortal variant="h6" sx={{ fontSize: { xs: '1rem', sm: '1.15rem' }, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} />
    </AppBar>
  );
}

/** react-admin's responsive layout with Leadstage's app bar, menu and the delayed activity bar. */
export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <Layout appBar={AppTopBar} menu={AppMenu}>
      <ActivityIndicator />
      {children}
    </Layout>
  );
}
