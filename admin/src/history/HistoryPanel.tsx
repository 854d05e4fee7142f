import { useCallback, useEffect, useRef, useState } from 'react';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import HistoryIcon from '@mui/icons-material/History';
import { Confirm, useLocaleState, useNotify, useRefresh, useTranslate } from 'react-admin';
import type { ResourceDeclaration } from '../../../resources/types';
import { api } from '../providers/http';
import { failureText } from '../providers/failure';
import { optionLabelKey } from '../generated/rules';

/** One entry as GET …/{id}/history answers it (platform-and-flows.md section 1). */
export interface HistoryEntry {
  h_id: string;
  h_at: string;
  h_userid: string | null;
  h_user_label: string;
  h_action: 'create' | 'update' | 'delete' | 'restore';
  h_changes: Record<string, [unknown, unknown]>;
}

export interface HistoryPanelProps {
  decl: ResourceDeclaration;
  /** The record's API path (…/events/{id}); the history is at <path>/history. */
  path: string;
  canRevert: boolean;
}

/**
 * A stored value in words: empty as a dash, yes/no, secrets as set/cleared, a choice by its label, a list of plain
 * values (tags) joined by ", ", objects as JSON.
 */
function useValueText(decl: ResourceDeclaration) {
  const translate = useTranslate();
  return (value: unknown, field: string): string => {
    if (value === null || value === undefined || value === '') return '—';
    if (decl.fields?.[field]?.kind === 'enum' && typeof value === 'string') return translate(optionLabelKey(decl, field, value), { _: value });
    if (value === true) return translate('ls.history.yes');
    if (value === false) return translate('ls.history.no');
    if (value === 'set' || value === 'cleared') return translate(`ls.history.secret_${value}`);
    if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) return value.length ? value.join(', ') : '—';
    if (typeof value === 'object') return JSON.stringify(value);
    return String(value);
  };
}

/**
 * The record's history on its edit page: who changed what and when, newest first, loaded when opened; "Revert" puts
 * the fields back as they were after an entry (confirmed; a normal update, so it is checked and becomes an entry).
 */
export function HistoryPanel({ decl, path, canRevert }: HistoryPanelProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const refresh = useRefresh();
  const valueText = useValueText(decl);
  const [open, setOpen] = useState(false);
  const [entries, setEntries] = useState<HistoryEntry[]>();
  const [error, setError] = useState<string>();
  const [reverting, setReverting] = useState<HistoryEntry>();
  const [busy, setBusy] = useState(false);

  // The texts of a failure in the language of the moment, without reloading when the translator changes.
  const translateRef = useRef(translate);
  translateRef.current = translate;
  const load = useCallback(async () => {
    setError(undefined);
    try {
      setEntries(await api<HistoryEntry[]>(`${path}/history`));
    } catch (e) {
      setError(failureText(e, translateRef.current));
    }
  }, [path]);

  useEffect(() => {
    if (open) void load();
  }, [open, load]);

  // The trash marker (a delete or restore entry) is no declared field: it reads as "Deleted".
  const fieldLabel = (field: string) => (field.endsWith('_deleted_at') ? translate('ls.trash.deleted_at') : translate(`resources.${decl.name}.fields.${field}`, { _: field }));
  const when = (at: string) => new Date(at).toLocaleString(locale ?? 'en', { dateStyle: 'medium', timeStyle: 'short' });

  const revert = async () => {
    if (!reverting) return;
    setBusy(true);
    try {
      await api(`${path}/history/${encodeURIComponent(reverting.h_id)}/revert`, { method: 'POST' });
      notify('ls.history.reverted', { type: 'success' });
      refresh();
      await load();
    } catch (e) {
      notify(failureText(e, translate), { type: 'error' });
    } finally {
      setBusy(false);
      setReverting(undefined);
    }
  };

  return (
    <Accordion expanded={open} onChange={(_e, expanded) => setOpen(expanded)} disableGutters sx={{ mt: 2 }} data-testid="history-panel">
      <AccordionSummary expandIcon={<ExpandMoreIcon />} aria-controls="history-content" id="history-header">
        <HistoryIcon sx={{ mr: 1, color: 'text.secondary' }} />
        <Typography>{translate('ls.history.title')}</Typography>
      </AccordionSummary>
      <AccordionDetails id="history-content">
        {error && (
          <Alert severity="error" action={<Button onClick={() => void load()}>{translate('ls.history.retry')}</Button>}>
            {error}
          </Alert>
        )}
        {!entries && !error && <CircularProgress size={24} aria-label={translate('ls.history.loading')} />}
        {entries && entries.length === 0 && <Typography color="text.secondary">{translate('ls.history.empty')}</Typography>}
        {entries && entries.length > 0 && (
          <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
            {entries.map((entry, index) => (
              <Box component="li" key={entry.h_id} data-testid="history-entry" sx={{ borderLeft: 3, borderColor: 'divider', pl: 1.5 }}>
                <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
                  <Chip size="small" label={translate(`ls.history.action_${entry.h_action}`)} />
                  <Typography variant="body2" sx={{ fontWeight: 500 }}>
                    {entry.h_user_label === 'system' ? translate('ls.history.system') : entry.h_user_label}
                  </Typography>
                  <Typography variant="body2" color="text.secondary" component="time" dateTime={entry.h_at}>
                    {when(entry.h_at)}
                  </Typography>
                  {canRevert && index > 0 && entry.h_action !== 'delete' && (
                    <Button size="small" sx={{ ml: 'auto' }} onClick={() => setReverting(entry)} data-testid="history-revert">
                      {translate('ls.history.revert')}
                    </Button>
                  )}
                </Box>
                <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'minmax(8rem, auto) 1fr' }, columnGap: 2, rowGap: 0.25, m: 0, mt: 0.5 }}>
                  {Object.entries(entry.h_changes).map(([field, [before, after]]) => (
                    <Box key={field} sx={{ display: 'contents' }}>
                      <Typography component="dt" variant="body2" color="text.secondary">
                        {fieldLabel(field)}
                      </Typography>
                      <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                        {entry.h_action === 'create' ? valueText(after, field) : `${valueText(before, field)} → ${valueText(after, field)}`}
                      </Typography>
                    </Box>
                  ))}
                </Box>
              </Box>
            ))}
          </Box>
        )}
      </AccordionDetails>
      <Confirm
        isOpen={!!reverting}
        loading={busy}
        title={translate('ls.history.revert_title')}
        content={reverting ? translate('ls.history.revert_text', { when: when(reverting.h_at) }) : ''}
        confirm={translate('ls.history.revert')}
        onConfirm={() => void revert()}
        onClose={() => setReverting(undefined)}
      />
    </Accordion>
  );
}
