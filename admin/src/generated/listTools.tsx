import { useContext } from 'react';
import Button from '@mui/material/Button';
import DownloadIcon from '@mui/icons-material/Download';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import TerminalIcon from '@mui/icons-material/Terminal';
import { LinkBase, useCreatePath, useListContext, useLocaleState, useNotify, useTranslate } from 'react-admin';
import type { ResourceDeclaration } from '../../../resources/types';
import { ConsoleContext } from '../console/ConsoleContext';
import { useSession } from '../layout/useSession';
import { copyText } from '../layout/CopyButton';
import { canInAccount } from '../permissions';
import { accountUrl } from '../providers/accountPath';
import { curlCommand, listQuery } from '../providers/curl';

/** The list's filter as the API takes it (empty values left out, as the list request does). */
export function activeFilter(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}

/** The CSV of everything a list's filter matches, in its sort, with the column labels of `lang` (platform-and-flows.md 1). */
export function exportUrl(accountId: string, resource: string, filter: Record<string, unknown>, sort: { field: string; order: string }, lang: string): string {
  return `${accountUrl(accountId, resource, 'export.csv')}${listQuery({ filter, sort: [sort.field, sort.order], lang })}`;
}

/** The list request of one page, as the console's data provider makes it (ra-data-simple-rest), as an absolute URL. */
export function listRequestUrl(
  origin: string,
  accountId: string,
  resource: string,
  filter: Record<string, unknown>,
  sort: { field: string; order: string },
  page: number,
  perPage: number,
): string {
  const start = (page - 1) * perPage;
  return `${origin}${accountUrl(accountId, resource)}${listQuery({ filter, sort: [sort.field, sort.order], range: [start, start + perPage - 1] })}`;
}

/** The console's account, when there is one (the generated screens also run in tests without it). */
export const useConsoleAccountId = (): string | undefined => useContext(ConsoleContext)?.accountId;

/** "Copy as cURL" is offered with app_general export_curl in this account (platform-and-flows.md 2). */
export function useCanCopyCurl(): boolean {
  const accountId = useConsoleAccountId();
  const { session } = useSession();
  return !!accountId && canInAccount(session, accountId, 'app_general', 'export_curl');
}

/** "Export": a download of every row the list's filter matches (no row cap: the server streams it). */
export function ExportButton({ decl, accountId }: { decl: ResourceDeclaration; accountId: string }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { filterValues, sort, total } = useListContext();
  return (
    <Button
      size="small"
      startIcon={<DownloadIcon />}
      href={exportUrl(accountId, decl.name, activeFilter(filterValues ?? {}), sort, locale)}
      download
      disabled={!total}
      data-testid="list-export"
    >
      {translate('ls.list_tools.export')}
    </Button>
  );
}

/** A button that puts a curl command on the clipboard and says so. */
export function CurlButton({ url, command }: { url?: () => string; command?: () => string }) {
  const translate = useTranslate();
  const notify = useNotify();
  return (
    <Button
      size="small"
      startIcon={<TerminalIcon />}
      onClick={async () => {
        await copyText(command ? command() : curlCommand(url!()));
        notify(translate('ls.list_tools.curl_copied'), { type: 'info' });
      }}
      data-testid="copy-curl"
    >
      {translate('ls.list_tools.curl')}
    </Button>
  );
}

/** "Copy as cURL" of the list's current request: its filter, sort and page. */
export function ListCurlButton({ decl, accountId }: { decl: ResourceDeclaration; accountId: string }) {
  const { filterValues, sort, page, perPage } = useListContext();
  return <CurlButton url={() => listRequestUrl(window.location.origin, accountId, decl.name, activeFilter(filterValues ?? {}), sort, page, perPage)} />;
}

/** "Trash": the list's deleted records, to restore or delete for good (a trash resource's list; TrashList.tsx). */
export function TrashButton({ decl }: { decl: ResourceDeclaration }) {
  const translate = useTranslate();
  const to = `${useCreatePath()({ type: 'list', resource: decl.name })}/trash`;
  return (
    <Button component={LinkBase} to={to} size="small" startIcon={<DeleteOutlineIcon />} data-testid="trash-button">
      {translate('ls.trash.button')}
    </Button>
  );
}
