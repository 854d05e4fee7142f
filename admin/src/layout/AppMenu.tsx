import { lazy, Suspense } from 'react';
import { Menu, useMatch, useTranslate } from 'react-admin';
import BusinessIcon from '@mui/icons-material/Business';
import PeopleIcon from '@mui/icons-material/People';
import PermMediaIcon from '@mui/icons-material/PermMedia';
import LogoutIcon from '@mui/icons-material/Logout';
import WorkHistoryIcon from '@mui/icons-material/WorkHistory';
import { canEntry } from '../permissions';
import { useSession } from './useSession';

const ConsoleMenu = lazy(() => import('../console/ConsoleMenu'));

/**
 * Spec 2: accounts, users, media, logout; each item only with its entry read permission (the job queue: root users). Inside an account's console
 * (/console/{accountId}/…) the console's own menu instead.
 */
export function AppMenu() {
  const inConsole = useMatch({ path: '/console/:accountId', end: false });
  if (inConsole?.params.accountId)
    return (
      <Suspense fallback={null}>
        <ConsoleMenu accountId={inConsole.params.accountId} />
      </Suspense>
    );
  return <EntryMenu />;
}

function EntryMenu() {
  const translate = useTranslate();
  const { session } = useSession();
  return (
    <Menu>
      {canEntry(session, 'accounts', 'list') && <Menu.Item to="/accounts" primaryText={translate('ls.menu.accounts')} leftIcon={<BusinessIcon />} />}
      {canEntry(session, 'users', 'list') && <Menu.Item to="/users" primaryText={translate('ls.menu.users')} leftIcon={<PeopleIcon />} />}
      {canEntry(session, 'media', 'list') && <Menu.Item to="/media" primaryText={translate('ls.menu.media')} leftIcon={<PermMediaIcon />} />}
      {session?.user.u_role === 'root' && <Menu.Item to="/jobs" primaryText={translate('ls.menu.jobs')} leftIcon={<WorkHistoryIcon />} />}
      <Menu.Item to="/logout" primaryText={translate('ls.menu.logout')} leftIcon={<LogoutIcon />} />
    </Menu>
  );
}
