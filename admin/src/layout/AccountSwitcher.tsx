import { useState } from 'react';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import { useTranslate } from 'react-admin';
import { useNavigate } from 'react-router';
import { adminAccounts } from '../permissions';
import { useSession } from './useSession';

/**
 * The account switcher: the entry admin (root) and every account the user administers (membership role root or
 * superadmin); an account opens at its own admin address.
 */
export function AccountSwitcher() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { session } = useSession();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (!session) return null;
  const accounts = adminAccounts(session);
  const close = () => setAnchor(null);
  return (
    <>
      <Button
        color="inherit"
        size="small"
        onClick={(e) => setAnchor(e.currentTarget)}
        startIcon={<SwapHorizIcon />}
        aria-haspopup="menu"
        aria-controls={anchor ? 'account-switcher' : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        data-testid="account-switcher"
        sx={{ whiteSpace: 'nowrap', minWidth: 0, '& .label': { display: { xs: 'none', sm: 'inline' } } }}
      >
        <span className="label">{translate('ls.switcher.entry_admin')}</span>
      </Button>
      <Menu id="account-switcher" anchorEl={anchor} open={!!anchor} onClose={close} slotProps={{ paper: { sx: { minWidth: 260, maxWidth: 360 } } }}>
        {session.user.u_role === 'root' && (
          <MenuItem
            selected
            onClick={() => {
              close();
              navigate('/accounts');
            }}
          >
            <ListItemText primary={translate('ls.switcher.entry_admin')} secondary={translate('ls.selection.entry_admin_description')} />
          </MenuItem>
        )}
        {accounts.map((a) => (
          <MenuItem
            key={a.a_id}
            disabled={!a.a_admin_url}
            onClick={() => {
              close();
              if (a.a_admin_url) window.location.assign(a.a_admin_url);
            }}
          >
            <ListItemText
              primary={a.a_name}
              secondary={a.a_admin_url ? translate(`ls.roles.${a.au_role}`) : translate('ls.switcher.no_admin_url')}
            />
          </MenuItem>
        ))}
        <Divider />
        <MenuItem
          onClick={() => {
            close();
            navigate('/accounts/selection');
          }}
        >
          {translate('ls.switcher.all')}
        </MenuItem>
      </Menu>
    </>
  );
}
