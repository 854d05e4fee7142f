import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import { useGetOne, useMatch, useNavigate, useTranslate } from 'react-admin';
import { openAccount } from '../console/paths';
import { useSession } from './useSession';

/**
 * The account switcher: the entry admin (root) and every account the user belongs to; an account opens at its own
 * admin address when it has one, else its console here, which first drops every cached record of the previous
 * account. Inside a console the button names the account.
 */
export function AccountSwitcher() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { session } = useSession();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const inConsole = useMatch({ path: '/console/:accountId', end: false });
  const currentId = inConsole?.params.accountId;
  const current = session?.accounts.find((a) => a.a_id === currentId);
  // A root user in an account it is not a member of: the account's name from the account itself.
  const { data: account } = useGetOne<{ id: string; a_name: string }>('accounts', { id: currentId ?? '' }, { enabled: !!currentId && !!session && !current, retry: false });
  if (!session) return null;
  const label = currentId ? (current?.a_name ?? account?.a_name ?? translate('ls.switcher.console')) : translate('ls.switcher.entry_admin');
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
        aria-label={`${translate('ls.switcher.label')}: ${label}`}
        data-testid="account-switcher"
        // On a phone too the account's name shows (ellipsised), not only the switcher's icon.
        sx={{
          whiteSpace: 'nowrap',
          minWidth: 0,
          flexShrink: 1,
          '& .label': { display: 'inline-block', maxWidth: { xs: 110, sm: 220 }, overflow: 'hidden', textOverflow: 'ellipsis' },
        }}
      >
        <span className="label" data-testid="account-switcher-label">
          {label}
        </span>
      </Button>
      <Menu id="account-switcher" anchorEl={anchor} open={!!anchor} onClose={close} slotProps={{ paper: { sx: { minWidth: 260, maxWidth: 360 } } }}>
        {session.user.u_role === 'root' && (
          <MenuItem
            selected={!currentId}
            onClick={() => {
              close();
              navigate('/accounts');
            }}
          >
            <ListItemText primary={translate('ls.switcher.entry_admin')} secondary={translate('ls.selection.entry_admin_description')} />
          </MenuItem>
        )}
        {session.accounts.map((a) => (
          <MenuItem
            key={a.a_id}
            selected={a.a_id === currentId}
            data-testid="switch-account"
            onClick={() => {
              close();
              openAccount(a, navigate, queryClient);
            }}
          >
            <ListItemText primary={a.a_name} secondary={translate(`ls.roles.${a.au_role}`)} />
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
