import { useState } from 'react';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import BlockIcon from '@mui/icons-material/Block';
import DeleteIcon from '@mui/icons-material/Delete';
import DownloadIcon from '@mui/icons-material/Download';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import { Confirm, useListContext, useNotify, useRefresh, useTranslate } from 'react-admin';
import { accountPath, accountUrl } from '../providers/accountPath';
import { api } from '../providers/http';
import { failureText } from '../providers/failure';
import { useResourceAccess } from '../generated/access';
import { useConsoleAccount } from '../console/ConsoleContext';

export type BulkAction = 'valid' | 'invalid' | 'delete';

/** The list's filter as the API takes it (empty values left out, as the list request does). */
export function activeFilter(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}

/** The CSV of every lead the filter matches (the server streams it). */
export function exportHref(accountId: string, filter: Record<string, unknown>): string {
  const query = Object.keys(filter).length ? `?filter=${encodeURIComponent(JSON.stringify(filter))}` : '';
  return `${accountUrl(accountId, 'leads', 'export.csv')}${query}`;
}

/**
 * Actions on every lead the list's filter matches, not only the page shown: mark valid or invalid, delete (each after
 * a confirmation that says how many), and download them as CSV. The server does each in one statement
 * (POST /leads/bulk {filter, action}); without a filter it has to be told `all`.
 */
export function LeadBulkActions() {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const { accountId } = useConsoleAccount();
  const { filterValues, total } = useListContext();
  const { canUpdate, canDelete } = useResourceAccess('leads');
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const [asked, setAsked] = useState<BulkAction | null>(null);
  const [busy, setBusy] = useState(false);
  const filter = activeFilter(filterValues ?? {});
  const count = total ?? 0;
  const smart = { count };

  const run = async (action: BulkAction) => {
    setBusy(true);
    try {
      const res = await api<{ count: number }>(accountPath(accountId, 'leads', 'bulk'), {
        method: 'POST',
        body: { filter, action, ...(Object.keys(filter).length ? {} : { all: true }) },
      });
      notify(translate(`ls.console.leads.bulk_done_${action}`, { count: res.count }), { type: 'success' });
      refresh();
    } catch (err) {
      notify(failureText(err, translate), { type: 'error' });
    } finally {
      setBusy(false);
      setAsked(null);
    }
  };

  const choose = (action: BulkAction) => {
    setMenu(null);
    setAsked(action);
  };

  return (
    <>
      <Button size="small" startIcon={<DownloadIcon />} href={exportHref(accountId, filter)} download disabled={!count} data-testid="leads-export">
        {translate('ls.console.leads.export', { ...smart })}
      </Button>
      {(canUpdate || canDelete) && (
        <>
          <Button
            size="small"
            startIcon={<MoreVertIcon />}
            onClick={(e) => setMenu(e.currentTarget)}
            disabled={!count || busy}
            aria-haspopup="menu"
            aria-expanded={!!menu}
            data-testid="leads-bulk"
          >
            {translate('ls.console.leads.bulk', { ...smart })}
          </Button>
          <Menu anchorEl={menu} open={!!menu} onClose={() => setMenu(null)}>
            {canUpdate && (
              <MenuItem onClick={() => choose('valid')}>
                <ListItemIcon>
                  <CheckCircleIcon fontSize="small" />
                </ListItemIcon>
                {translate('ls.console.leads.bulk_valid', { ...smart })}
              </MenuItem>
            )}
            {canUpdate && (
              <MenuItem onClick={() => choose('invalid')}>
                <ListItemIcon>
                  <BlockIcon fontSize="small" />
                </ListItemIcon>
                {translate('ls.console.leads.bulk_invalid', { ...smart })}
              </MenuItem>
            )}
            {canDelete && (
              <MenuItem onClick={() => choose('delete')} sx={{ color: 'error.main' }}>
                <ListItemIcon>
                  <DeleteIcon fontSize="small" color="error" />
                </ListItemIcon>
                {translate('ls.console.leads.bulk_delete', { ...smart })}
              </MenuItem>
            )}
          </Menu>
          <Confirm
            isOpen={!!asked}
            loading={busy}
            title={translate(`ls.console.leads.bulk_title_${asked ?? 'valid'}`, { ...smart })}
            content={translate(asked === 'delete' ? 'ls.console.leads.bulk_text_delete' : 'ls.console.leads.bulk_text', { ...smart })}
            confirm={translate(`ls.console.leads.bulk_confirm_${asked ?? 'valid'}`)}
            confirmColor={asked === 'delete' ? 'warning' : 'primary'}
            onConfirm={() => asked && run(asked)}
            onClose={() => setAsked(null)}
          />
        </>
      )}
    </>
  );
}
