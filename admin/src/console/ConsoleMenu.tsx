import LogoutIcon from '@mui/icons-material/Logout';
import { BasenameContextProvider, Menu, useTranslate } from 'react-admin';
import { useSession } from '../layout/useSession';
import { consolePath, menuPagesFor, menuResourcesFor } from './access';
import { iconOf } from './icons';
import { useConsoleTexts } from './texts';

/**
 * The console's own menu: home, then one item per account resource (children such as form elements are tabs of
 * their parent) and per console page (statistics), each only with its group's read bit for the caller's role in this
 * account; then sign out.
 */
export default function ConsoleMenu({ accountId }: { accountId: string }) {
  const translate = useTranslate();
  const { session } = useSession();
  const ready = useConsoleTexts();
  if (!ready || !session) return null;
  return (
    <Menu data-testid="console-menu" aria-label={translate('ls.console.menu.label')}>
      {/* react-admin marks an item active for every path below it, except its basename's root: home is that root. */}
      <BasenameContextProvider basename={consolePath(accountId)}>
        <Menu.Item to={`${consolePath(accountId)}/`} primaryText={translate('ls.console.menu.home')} leftIcon={iconOf('home')} />
      </BasenameContextProvider>
      {menuResourcesFor(session, accountId).map((d) => (
        <Menu.Item key={d.name} to={consolePath(accountId, d.name)} primaryText={translate(`resources.${d.name}.name`, { smart_count: 2, _: d.name })} leftIcon={iconOf(d.icon)} />
      ))}
      {menuPagesFor(session, accountId).map((p) => (
        <Menu.Item key={p.name} to={consolePath(accountId, p.name)} primaryText={translate(`ls.console.menu.${p.name}`)} leftIcon={iconOf(p.name)} />
      ))}
      <Menu.Item to="/logout" primaryText={translate('ls.menu.logout')} leftIcon={<LogoutIcon />} />
    </Menu>
  );
}
