import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import EditNoteIcon from '@mui/icons-material/EditNote';
import { BulkActionsToolbar, Confirm, Form, useListContext, useNotify, useRefresh, useTranslate, type Identifier } from 'react-admin';
import type { ResourceDeclaration } from '../../../resources/types';
import { accountPath } from '../providers/accountPath';
import { api, ApiRequestError } from '../providers/http';
import { failureText } from '../providers/failure';
import { kindOf } from './kinds';
import { activeFilter } from './listTools';

/** The fields a bulk update may change (`bulk: true` in the declaration), writable after create. */
export const bulkFieldsOf = (decl: ResourceDeclaration) => Object.entries(decl.fields ?? {}).filter(([, m]) => m.bulk && !m.readOnly && !m.createOnly);

/** What a bulk action works on: the rows ticked, or every row the list's filter matches ("select all N matching"). */
export type BulkTarget = { ids: Identifier[] } | { filter: Record<string, unknown> };

/** The body of POST …/{resource}/bulk (platform-and-flows.md 1). */
export function bulkBody(action: 'delete' | 'update', target: BulkTarget, changes?: Record<string, unknown>): Record<string, unknown> {
  return { action, ...target, ...(action === 'update' ? { changes } : {}) };
}

/** A refusal's reasons as lines: the API's words for each (translated by code where the console has one). */
export function refusalReasons(err: unknown, translate: (key: string, options?: Record<string, unknown>) => string): string[] | undefined {
  if (!(err instanceof ApiRequestError) || err.code !== 'bulk_refused') return undefined;
  const reasons = Array.isArray(err.body.reasons) ? (err.body.reasons as unknown[]) : [];
  const lines = reasons.map((r) => {
    if (typeof r === 'string') return r;
    const { id, code, message, fields } = (r ?? {}) as { id?: string; code?: string; message?: string; fields?: Record<string, string> };
    // A field's own error says more than the code (an owner who is no member: "validation_failed").
    const fieldText = Object.values(fields ?? {})
      .map((c) => translate(c, { _: '' }))
      .filter(Boolean)
      .join('; ');
    const text = fieldText || (code && translate(`error_${code}`, { _: '' })) || message || code || '';
    return id ? `${id}: ${text}` : text;
  });
  return lines.length ? lines : [err.body.message ?? translate('error_bulk_refused', { _: 'Nothing was changed.' })];
}

interface BulkState {
  allMatching: boolean;
  setAllMatching(v: boolean): void;
  /** Shows a refusal's reasons (the dialog of BulkScope). */
  onRefused(reasons: string[]): void;
}
const BulkContext = createContext<BulkState>({ allMatching: false, setAllMatching: () => undefined, onRefused: () => undefined });

/** "All matching" on or off, for a bar of bulk actions (the desktop's over the table, the phone's at the foot). */
export const useBulkState = () => useContext(BulkContext);

/** True when every row of the page shown is ticked. */
export function useWholePage(): boolean {
  const { data, selectedIds = [] } = useListContext();
  return !!data?.length && data.every((r) => selectedIds.includes(r.id));
}

/** Once a whole page is ticked and more rows match: "Select all N matching" (then the actions send the filter). */
function SelectAllMatching() {
  const translate = useTranslate();
  const { total } = useListContext();
  const { data } = useListContext();
  const wholePage = useWholePage();
  const { allMatching, setAllMatching } = useContext(BulkContext);
  if (!wholePage || !total || total <= (data?.length ?? 0)) return null;
  if (allMatching)
    return (
      <Typography variant="body2" data-testid="all-matching-selected">
        {translate('ls.list_tools.all_matching_selected', { count: total })}
      </Typography>
    );
  return (
    <Button size="small" onClick={() => setAllMatching(true)} data-testid="select-all-matching">
      {translate('ls.list_tools.select_all_matching', { count: total })}
    </Button>
  );
}

/** The target and its size: the filter when all matching are selected, else the ticked ids. */
export function useBulkTarget(): { target: BulkTarget; count: number; allMatching: boolean } {
  const { selectedIds = [], filterValues, total } = useListContext();
  const { allMatching } = useContext(BulkContext);
  return allMatching
    ? { target: { filter: activeFilter(filterValues ?? {}) }, count: total ?? 0, allMatching }
    : { target: { ids: selectedIds }, count: selectedIds.length, allMatching };
}

/** Runs a bulk call: a toast with the count, the selection cleared and the list reloaded; a refusal's reasons shown. */
function useBulkRun(decl: ResourceDeclaration, accountId: string) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const { onUnselectItems } = useListContext();
  const { setAllMatching, onRefused } = useContext(BulkContext);
  return async (body: Record<string, unknown>, done: string): Promise<boolean> => {
    try {
      const res = await api<{ count: number }>(accountPath(accountId, decl.name, 'bulk'), { method: 'POST', body });
      notify(translate(done, { count: res?.count ?? 0 }), { type: 'success' });
      setAllMatching(false);
      onUnselectItems();
      refresh();
      return true;
    } catch (err) {
      const reasons = refusalReasons(err, translate);
      if (reasons) onRefused(reasons);
      else notify(failureText(err, translate), { type: 'error' });
      return false;
    }
  };
}

function BulkDelete({ decl, accountId }: { decl: ResourceDeclaration; accountId: string }) {
  const translate = useTranslate();
  const { target, count, allMatching } = useBulkTarget();
  const run = useBulkRun(decl, accountId);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <Button size="small" color="error" startIcon={<DeleteIcon />} onClick={() => setOpen(true)} disabled={!count} data-testid="bulk-delete">
        {translate('ra.action.delete')}
      </Button>
      <Confirm
        isOpen={open}
        loading={busy}
        title={translate('ls.list_tools.bulk_delete_title', { count })}
        content={`${allMatching ? `${translate('ls.list_tools.bulk_all_matching', { count })} ` : ''}${translate('ls.list_tools.bulk_delete_text', { count })}`}
        confirm={translate('ls.list_tools.bulk_delete_confirm', { count })}
        confirmColor="warning"
        onConfirm={async () => {
          setBusy(true);
          await run(bulkBody('delete', target), 'ls.list_tools.bulk_deleted');
          setBusy(false);
          setOpen(false);
        }}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

function BulkUpdate({ decl, accountId }: { decl: ResourceDeclaration; accountId: string }) {
  const translate = useTranslate();
  const { target, count, allMatching } = useBulkTarget();
  const run = useBulkRun(decl, accountId);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const fields = bulkFieldsOf(decl);
  return (
    <>
      <Button size="small" startIcon={<EditNoteIcon />} onClick={() => setOpen(true)} disabled={!count} data-testid="bulk-update">
        {translate('ls.list_tools.bulk_update')}
      </Button>
      {open && (
        <Dialog open onClose={() => setOpen(false)} fullWidth maxWidth="sm" aria-labelledby="bulk-update-title">
          <Form
            onSubmit={async (values: Record<string, unknown>) => {
              // Only what was given a value is changed; the rest stays as each row has it (a yes/no left empty too).
              const changes = Object.fromEntries(
                fields.map(([f]) => [f, values[f]]).filter(([f, v]) => v !== undefined && !(v === null && decl.fields?.[f as string]?.kind === 'boolean')),
              );
              if (!Object.keys(changes).length) return;
              setBusy(true);
              if (await run(bulkBody('update', target, changes), 'ls.list_tools.bulk_updated')) setOpen(false);
              setBusy(false);
            }}
          >
            <DialogTitle id="bulk-update-title">{translate('ls.list_tools.bulk_update_title', { count })}</DialogTitle>
            <DialogContent>
              <Typography variant="body2" sx={{ mb: 2 }}>
                {allMatching && `${translate('ls.list_tools.bulk_all_matching', { count })} `}
                {translate('ls.list_tools.bulk_update_text')}
              </Typography>
              {fields.map(([source, meta]) => {
                // A yes/no as a switch would always say "no": the filter's yes / no / empty instead.
                const Input = (meta.kind === 'boolean' ? kindOf(meta).Filter : undefined) ?? kindOf(meta).Input;
                return <Input key={source} source={source} meta={{ ...meta, required: false }} decl={decl} mode="update" label={meta.label} />;
              })}
            </DialogContent>
            <DialogActions>
              <Button onClick={() => setOpen(false)}>{translate('ra.action.cancel')}</Button>
              <Button type="submit" variant="contained" disabled={busy} data-testid="bulk-update-save">
                {translate('ls.list_tools.bulk_update_confirm', { count })}
              </Button>
            </DialogActions>
          </Form>
        </Dialog>
      )}
    </>
  );
}

interface BulkProps {
  decl: ResourceDeclaration;
  accountId: string;
  canUpdate: boolean;
  canDelete: boolean;
}

/** The bulk actions the caller may use: update of the declaration's `bulk` fields (update bit), delete (delete bit). */
export function BulkButtons({ decl, accountId, canUpdate, canDelete }: BulkProps) {
  return (
    <>
      {canUpdate && bulkFieldsOf(decl).length > 0 && <BulkUpdate decl={decl} accountId={accountId} />}
      {canDelete && <BulkDelete decl={decl} accountId={accountId} />}
    </>
  );
}

/**
 * What a bar of bulk actions stands in: "all matching" (ended when a row is unticked, or a new page, search or
 * filter comes) and the dialog with a refusal's reasons.
 */
export function BulkScope({ children }: { children: ReactNode }) {
  const translate = useTranslate();
  const { selectedIds = [] } = useListContext();
  const wholePage = useWholePage();
  const [allMatching, setAllMatching] = useState(false);
  const [refused, setRefused] = useState<string[] | null>(null);
  useEffect(() => {
    if (!wholePage) setAllMatching(false);
  }, [wholePage, selectedIds.length]);
  const state = useMemo(() => ({ allMatching, setAllMatching, onRefused: setRefused }), [allMatching]);
  return (
    <BulkContext.Provider value={state}>
      {children}
      <Dialog open={!!refused} onClose={() => setRefused(null)} aria-labelledby="bulk-refused-title">
        <DialogTitle id="bulk-refused-title">{translate('ls.list_tools.bulk_refused_title')}</DialogTitle>
        <DialogContent>
          <Alert severity="warning" data-testid="bulk-refused">
            <Typography variant="body2">{translate('ls.list_tools.bulk_refused_text')}</Typography>
            <ul style={{ margin: '8px 0 0', paddingLeft: 20 }}>
              {(refused ?? []).map((line, i) => (
                <li key={i}>{line}</li>
              ))}
            </ul>
          </Alert>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setRefused(null)}>{translate('ra.action.close')}</Button>
        </DialogActions>
      </Dialog>
    </BulkContext.Provider>
  );
}

/**
 * The bar over a list with rows ticked (platform-and-flows.md 1, "bulk"): how many, "select all N matching" once the
 * whole page is ticked, bulk update of the declaration's `bulk` fields (update bit) and bulk delete (delete bit),
 * each through POST …/{resource}/bulk in one transaction. A refusal changes nothing; its reasons are shown.
 */
export function BulkToolbar(props: BulkProps) {
  return (
    <BulkScope>
      {/* In the flow above the rows, not slid up over the list's actions: the list's content scrolls sideways
          (overflow-x auto), which would clip a bar moved out of it, and a click would reach the buttons under it.
          The doubled class outweighs react-admin's ".root .toolbar" rule. */}
      <Box sx={{ '& .RaBulkActionsToolbar-toolbar.RaBulkActionsToolbar-toolbar': { position: 'relative', transform: 'none' } }}>
        <BulkActionsToolbar selectAllButton={<SelectAllMatching />}>
          <BulkButtons {...props} />
        </BulkActionsToolbar>
      </Box>
    </BulkScope>
  );
}
