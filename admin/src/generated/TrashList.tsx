import { useCallback, useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CircularProgress from '@mui/material/CircularProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DeleteForeverIcon from '@mui/icons-material/DeleteForever';
import RestoreIcon from '@mui/icons-material/RestoreFromTrash';
import { Confirm, LinkBase, useCreatePath, useLocaleState, useNotify, useTranslate, type RaRecord } from 'react-admin';
import type { ResourceDeclaration } from '../../../resources/types';
import { api } from '../providers/http';
import { accountPath } from '../providers/accountPath';
import { failureText } from '../providers/failure';
import { titleOf } from './rules';
import { useResourceAccess } from './access';
import { useConsoleAccountId } from './listTools';

const PAGE = 25;

/** The trash marker of a declaration (api/models/scope.ts deletedAtOf). */
export const deletedAtOf = (decl: ResourceDeclaration): string => `${decl.primaryKey.replace(/_id$/, '')}_deleted_at`;

type Pending = { action: 'restore' | 'purge'; record: RaRecord };

/**
 * The trash of a list (platform-and-flows.md section 1): its deleted records, most recently deleted first, each with
 * "Restore" and "Delete for good" (both confirmed, both with the delete bit). At /console/{a}/{resource}/trash.
 */
export function TrashList({ decl }: { decl: ResourceDeclaration }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const accountId = useConsoleAccountId();
  const { canDelete } = useResourceAccess(decl.name);
  const listPath = useCreatePath()({ type: 'list', resource: decl.name });
  const [page, setPage] = useState(0);
  const [rows, setRows] = useState<RaRecord[]>();
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState<Pending>();
  const [busy, setBusy] = useState(false);
  const deletedAt = deletedAtOf(decl);
  const base = accountId ? accountPath(accountId, decl.path ?? decl.name) : `/${decl.path ?? decl.name}`;
  const name = translate(`resources.${decl.name}.name`, { smart_count: 2, _: decl.name });

  const load = useCallback(async () => {
    setError(undefined);
    try {
      const range = JSON.stringify([page * PAGE, page * PAGE + PAGE - 1]);
      const sort = JSON.stringify([deletedAt, 'DESC']);
      const found = await api<RaRecord[]>(`${base}/trash?range=${encodeURIComponent(range)}&sort=${encodeURIComponent(sort)}`);
      setRows(found);
      // The page's rows tell the total when it is the last page; otherwise there is at least one more page.
      setTotal(found.length < PAGE ? page * PAGE + found.length : (page + 2) * PAGE);
    } catch (e) {
      setError(failureText(e, translate));
    }
  }, [base, deletedAt, page, translate]);

  useEffect(() => {
    void load();
  }, [load]);

  const act = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      const { action, record } = pending;
      await api(`${base}/${encodeURIComponent(String(record.id))}/${action}`, { method: action === 'restore' ? 'POST' : 'DELETE' });
      notify(translate(action === 'restore' ? 'ls.trash.restored' : 'ls.trash.purged', { title: titleOf(decl, record) }), { type: 'info' });
      setPending(undefined);
      await load();
    } catch (e) {
      notify(failureText(e, translate), { type: 'error' });
      setPending(undefined);
    } finally {
      setBusy(false);
    }
  };

  const when = (value: unknown) => (value ? new Date(String(value)).toLocaleString(locale) : '—');
  return (
    // A grid column of minmax(0, 1fr): a wide table scrolls inside its card instead of widening the page (the layout's
    // content is a flex item, as wide as its widest content otherwise).
    <Box sx={{ mt: 2, display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)' }} data-testid="trash-list">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1, flexWrap: 'wrap' }}>
        <Button component={LinkBase} to={listPath} startIcon={<ArrowBackIcon />} data-testid="trash-back">
          {name}
        </Button>
        <Typography variant="h6" component="h1" sx={{ flex: 1 }}>
          {translate('ls.trash.title', { name })}
        </Typography>
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate('ls.trash.intro')}
      </Typography>
      {error && (
        <Alert severity="error" action={<Button onClick={() => void load()}>{translate('ls.trash.retry')}</Button>}>
          {error}
        </Alert>
      )}
      {!rows && !error && <CircularProgress size={24} aria-label={translate('ls.trash.loading')} />}
      {rows && rows.length === 0 && page === 0 && <Typography data-testid="trash-empty">{translate('ls.trash.empty')}</Typography>}
      {rows && rows.length > 0 && (
        <Card sx={{ overflowX: 'auto' }}>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{translate('ls.trash.record')}</TableCell>
                <TableCell>{translate('ls.trash.deleted_at')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((r) => (
                <TableRow key={String(r.id)} data-testid="trash-row">
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{titleOf(decl, r)}</TableCell>
                  <TableCell sx={{ whiteSpace: { sm: 'nowrap' } }}>{when(r[deletedAt])}</TableCell>
                  <TableCell align="right">
                    {canDelete && (
                      // On a phone the two actions stack rather than push the table past the screen's edge.
                      <Box sx={{ display: 'flex', flexWrap: { xs: 'wrap', sm: 'nowrap' }, justifyContent: 'flex-end', gap: 0.5 }}>
                        <Button size="small" startIcon={<RestoreIcon />} onClick={() => setPending({ action: 'restore', record: r })} data-testid="trash-restore">
                          {translate('ls.trash.restore')}
                        </Button>
                        <Button size="small" color="error" startIcon={<DeleteForeverIcon />} onClick={() => setPending({ action: 'purge', record: r })} data-testid="trash-purge">
                          {translate('ls.trash.purge')}
                        </Button>
                      </Box>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
      )}
      {rows && (page > 0 || total > (page + 1) * PAGE) && (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, mt: 1 }}>
          <Button disabled={page === 0} onClick={() => setPage(page - 1)}>
            {translate('ls.trash.previous')}
          </Button>
          <Button disabled={total <= (page + 1) * PAGE} onClick={() => setPage(page + 1)}>
            {translate('ls.trash.next')}
          </Button>
        </Box>
      )}
      <Confirm
        isOpen={!!pending}
        loading={busy}
        title={pending ? translate(`ls.trash.${pending.action}_title`, { title: titleOf(decl, pending.record) }) : ''}
        content={pending ? translate(`ls.trash.${pending.action}_text`) : ''}
        confirm={pending ? translate(`ls.trash.${pending.action}`) : ''}
        onConfirm={() => void act()}
        onClose={() => setPending(undefined)}
      />
    </Box>
  );
}

export default TrashList;
