import Button from '@mui/material/Button';
import DownloadIcon from '@mui/icons-material/Download';
import { useListContext, useTranslate } from 'react-admin';
import { accountUrl } from '../providers/accountPath';
import { activeFilter } from '../generated/listTools';
import { useConsoleAccount } from '../console/ConsoleContext';

/** The CSV of every lead the filter matches (the server streams it). */
export function exportHref(accountId: string, filter: Record<string, unknown>): string {
  const query = Object.keys(filter).length ? `?filter=${encodeURIComponent(JSON.stringify(filter))}` : '';
  return `${accountUrl(accountId, 'leads', 'export.csv')}${query}`;
}

/**
 * The leads' CSV of every lead the list's filter matches, not only the page shown, with a column per form element
 * (GET /leads/export.csv, the leads' own export). Actions on many leads are the list's generic bulk bar (tick rows,
 * or "select all N matching"): change the owner or the validity, or delete.
 */
export function LeadExportButton() {
  const translate = useTranslate();
  const { accountId } = useConsoleAccount();
  const { filterValues, total } = useListContext();
  const count = total ?? 0;
  return (
    <Button size="small" startIcon={<DownloadIcon />} href={exportHref(accountId, activeFilter(filterValues ?? {}))} download disabled={!count} data-testid="leads-export">
      {translate('ls.console.leads.export', { count })}
    </Button>
  );
}
