import { Menu, useTranslate } from 'react-admin';
import BusinessIcon from '@mui/icons-material/Business';
import PeopleIcon from '@mui/icons-material/People';
import PermMediaIcon from '@mui/icons-material/PermMedia';
import LogoutIcon from '@mui/icons-material/Logout';
import { canEntry } from '../permissions';
import { useSession } from './useSession';

/** Spec 2: accounts, users, media, logout; each item only with its entry read permission. */
export function AppMenu() {
  const translate = useTranslate();
  const { session } = useSession();
  return (
    <Menu>
      {canEntry(session, 'accounts', 'list') && <Menu.Item to="/accounts" primaryText={translate('ls.menu.accounts')} leftIcon={<BusinessIcon />} />}
      {canEntry(session, 'users', 'list') && <Menu.Item to="/users" primaryText={translate('ls.menu.users')} leftIcon={<PeopleIcon />} />}
      {canEntry(session, 'media', 'list') && <Menu.Item to="/media" primaryText={translate('ls.menu.media')} leftIcon={<PermMediaIcon />} />}
      <Menu.Item to="/logout" primaryText={translate('ls.menu.logout')} leftIcon={<LogoutIcon />} />
    </Menu>
  );
}
