import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CheckIcon from '@mui/icons-material/Check';
import ScheduleIcon from '@mui/icons-material/Schedule';
import SkipNextIcon from '@mui/icons-material/SkipNext';
import { HttpError, LinkBase, Title, useDataProvider, useLocation, useLocaleState, useNotify, useTranslate, type RaRecord } from 'react-admin';
import { defaultAnswers } from '../../../resources/answers';
import { leads } from '../../../resources/leads';
import { FormRenderer, type AnswerValue } from '../renderer';
import { ReferenceCell } from '../generated/cells';
import { useResourceAccess } from '../generated/access';
import { DelayedProgress } from '../layout/DelayedProgress';
import { AccessDeniedPage } from '../layout/Pages';
import { useConsoleAccount } from '../console/ConsoleContext';
import { consolePath } from '../console/access';
import { leadElements, leadFormGroups, useEventGraph, useRendererSettings } from './leadData';
import { LeadPhotos } from './LeadPhotos';

type Lead = RaRecord & Record<string, unknown>;
const QUEUE_PAGE = 100;

/** Keys of the queue (shown on the buttons): Ctrl+Enter done, Alt+P postpone, Alt+N next. */
export function queueKey(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>): 'done' | 'postpone' | 'next' | null {
  if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') return 'done';
  if (e.altKey && !e.ctrlKey && (e.key === 'p' || e.key === 'P' || e.key === 'π')) return 'postpone';
  if (e.altKey && !e.ctrlKey && (e.key === 'n' || e.key === 'N' || e.key === '˜')) return 'next';
  return null;
}

/** Pending cards first, then postponed ones, each oldest first; a lead asked for by ?lead= goes in front. */
function useQueue(first: string | null) {
  const dataProvider = useDataProvider();
  const [queue, setQueue] = useState<Lead[] | null>(null);
  const [error, setError] = useState(false);
  const load = useCallback(async () => {
    try {
      const page = (status: string) =>
        dataProvider.getList<Lead>('leads', {
          filter: { ld_transcription_status: status },
          sort: { field: 'ld_captured_at', order: 'ASC' },
          pagination: { page: 1, perPage: QUEUE_PAGE },
        });
      const [pending, postponed] = await Promise.all([page('pending'), page('postponed')]);
      let rows = [...pending.data, ...postponed.data];
      if (first) {
        const at = rows.findIndex((r) => r.id === first);
        if (at >= 0) rows = [rows[at], ...rows.slice(0, at), ...rows.slice(at + 1)];
        else {
          const { data } = await dataProvider.getOne<Lead>('leads', { id: first });
          if (data.ld_transcription_status === 'pending' || data.ld_transcription_status === 'postponed') rows = [data, ...rows];
        }
      }
      setQueue(rows);
    } catch {
      setError(true);
    }
  }, [dataProvider, first]);
  useEffect(() => {
    void load();
  }, [load]);
  return { queue, setQueue, error, reload: load };
}

function QueueItem({
  lead,
  position,
  total,
  onDone,
  onPostpone,
  onNext,
}: {
  lead: Lead;
  position: number;
  total: number;
  onDone: (answers: Record<string, unknown>) => Promise<Record<string, string> | null>;
  onPostpone: (answers: Record<string, unknown>) => Promise<void>;
  onNext: () => void;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { accountId } = useConsoleAccount();
  const graph = useEventGraph(accountId, lead.ld_eventid);
  const settings = useRendererSettings();
  const elements = useMemo(() => leadElements(graph.data, lead.ld_source), [graph.data, lead.ld_source]);
  const groups = useMemo(() => leadFormGroups(graph.data, lead.ld_source), [graph.data, lead.ld_source]);
  const [values, setValues] = useState<Record<string, unknown>>(() => ({ ...((lead.ld_answers as Record<string, unknown>) ?? {}) }));
  // What the form shows untouched (a toggle off, a slider at its start) is what Done stores, as in the capture app.
  useEffect(() => {
    if (elements.length) setValues((v) => ({ ...defaultAnswers(elements), ...v }));
  }, [elements]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const latest = useRef({ values, busy });
  latest.current = { values, busy };

  const done = useCallback(async () => {
    if (latest.current.busy) return;
    setBusy(true);
    const fields = await onDone(latest.current.values);
    setBusy(false);
    if (fields) setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, translate(v, { _: v })])));
  }, [onDone, translate]);
  const postpone = useCallback(async () => {
    if (latest.current.busy) return;
    setBusy(true);
    await onPostpone(latest.current.values);
    setBusy(false);
  }, [onPostpone]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const action = queueKey(e);
      if (!action) return;
      e.preventDefault();
      if (action === 'done') void done();
      else if (action === 'postpone') void postpone();
      else onNext();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [done, postpone, onNext]);

  const event = graph.data?.event;
  const captured =
    typeof lead.ld_captured_at === 'string' ? new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(lead.ld_captured_at)) : '';
  return (
    <Stack spacing={2} data-testid="queue-item" data-lead={lead.id}>
      <Box>
        <Typography variant="overline" color="text.secondary" component="p" aria-live="polite">
          {translate('ls.console.leads.queue_position', { position, total })}
          {lead.ld_transcription_status === 'postponed' ? ` · ${translate('resources.leads.options.ld_transcription_status.postponed')}` : ''}
        </Typography>
        <Typography variant="body2" color="text.secondary" data-testid="queue-captured">
          {translate('ls.console.leads.captured_by_at', { event: String(event?.ev_title ?? ''), time: captured })}{' '}
          <Box component="strong" sx={{ color: 'text.primary' }}>
            <ReferenceCell record={lead} source="ld_captured_by" meta={leads.fields!.ld_captured_by} decl={leads} />
          </Box>
        </Typography>
      </Box>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 1fr)' }, gap: 3, alignItems: 'start' }}>
        <Box sx={{ position: { md: 'sticky' }, top: { md: 72 }, minWidth: 0 }}>
          <LeadPhotos accountId={accountId} front={lead.ld_front_fileid} back={lead.ld_back_fileid} />
        </Box>
        <Box sx={{ minWidth: 0 }}>
          {graph.isError ? (
            <Alert severity="warning">{translate('ls.console.leads.forms_unavailable')}</Alert>
          ) : graph.isPending ? (
            <DelayedProgress />
          ) : (
            <Stack spacing={3}>
              {groups.map((g) => (
                <Box component="section" key={g.id} aria-labelledby={`queue-form-${g.id}`} data-testid="queue-form">
                  <Typography variant="subtitle1" component="h2" id={`queue-form-${g.id}`} sx={{ fontWeight: 600, mb: 1 }}>
                    {g.title}
                  </Typography>
                  <FormRenderer
                    elements={g.elements}
                    values={values}
                    errors={errors}
                    onChange={(name: string, value: AnswerValue) => {
                      setValues((v) => ({ ...v, [name]: value }));
                      setErrors(({ [name]: _gone, ...rest }) => rest);
                    }}
                    idPrefix="queue"
                    {...settings}
                  />
                </Box>
              ))}
            </Stack>
          )}
        </Box>
      </Box>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1, position: 'sticky', bottom: 0, py: 1, bgcolor: 'background.paper', zIndex: 1 }}>
        <Button variant="contained" startIcon={<CheckIcon />} onClick={() => void done()} disabled={busy || graph.isPending} aria-keyshortcuts="Control+Enter" title="Ctrl+Enter">
          {translate('ls.console.leads.queue_done')}
        </Button>
        <Button variant="outlined" startIcon={<ScheduleIcon />} onClick={() => void postpone()} disabled={busy} aria-keyshortcuts="Alt+P" title="Alt+P">
          {translate('ls.console.leads.queue_postpone')}
        </Button>
        <Button startIcon={<SkipNextIcon />} onClick={onNext} disabled={busy || total < 2} aria-keyshortcuts="Alt+N" title="Alt+N">
          {translate('ls.console.leads.queue_next')}
        </Button>
        <Box sx={{ flex: 1 }} />
        <Typography variant="caption" color="text.secondary" sx={{ alignSelf: 'center', display: { xs: 'none', sm: 'block' } }}>
          {translate('ls.console.leads.queue_keys')}
        </Typography>
      </Stack>
    </Stack>
  );
}

/**
 * /console/{a}/transcription: business cards to type in, one after another — the photos beside the event's forms
 * (the shared renderer), "Done" (the answers must be complete: lead_incomplete shows under the fields), "Postpone"
 * (to the back of the queue, typed answers kept) and "Next"; each with a key. It names who captured the card.
 */
export default function TranscriptionQueue() {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider();
  const { accountId } = useConsoleAccount();
  const { canUpdate, isPending: accessPending } = useResourceAccess('leads');
  const location = useLocation();
  const { queue, setQueue, error } = useQueue(new URLSearchParams(location.search).get('lead'));
  const [at, setAt] = useState(0);

  const current = queue && queue.length ? queue[Math.min(at, queue.length - 1)] : undefined;
  const next = useCallback(() => setAt((i) => (queue && queue.length ? (i + 1) % queue.length : 0)), [queue]);
  const drop = useCallback(
    (id: unknown) => {
      setQueue((q) => (q ? q.filter((r) => r.id !== id) : q));
      setAt((i) => (queue && i >= queue.length - 1 ? 0 : i));
    },
    [queue, setQueue],
  );

  const onDone = useCallback(
    async (answers: Record<string, unknown>) => {
      if (!current) return null;
      try {
        await dataProvider.update('leads', { id: current.id, data: { ld_answers: answers, ld_transcription_status: 'done' }, previousData: current });
        notify(translate('ls.console.leads.queue_saved'), { type: 'success' });
        drop(current.id);
        return null;
      } catch (err) {
        const body = err instanceof HttpError ? (err.body as { fields?: Record<string, string> } | undefined) : undefined;
        notify(err instanceof Error ? err.message : translate('error_network'), { type: 'error' });
        return body?.fields ?? {};
      }
    },
    [current, dataProvider, drop, notify, translate],
  );
  const onPostpone = useCallback(
    async (answers: Record<string, unknown>) => {
      if (!current) return;
      try {
        const { data } = await dataProvider.update<Lead>('leads', { id: current.id, data: { ld_answers: answers, ld_transcription_status: 'postponed' }, previousData: current });
        notify(translate('ls.console.leads.queue_postponed'), { type: 'info' });
        // to the back of the queue
        setQueue((q) => (q ? [...q.filter((r) => r.id !== current.id), { ...current, ...data }] : q));
        setAt((i) => (queue && i >= queue.length - 1 ? 0 : i));
      } catch (err) {
        notify(err instanceof Error ? err.message : translate('error_network'), { type: 'error' });
      }
    },
    [current, dataProvider, notify, queue, setQueue, translate],
  );

  if (accessPending) return <DelayedProgress />;
  if (!canUpdate) return <AccessDeniedPage />;
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 1400 }}>
      <Title title={translate('ls.console.leads.queue_title')} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {translate('ls.console.leads.queue_title')}
      </Typography>
      {error ? (
        <Alert severity="error">{translate('ls.console.leads.queue_error')}</Alert>
      ) : !queue ? (
        <DelayedProgress />
      ) : !current ? (
        <Card variant="outlined" data-testid="queue-empty">
          <CardContent>
            <Typography sx={{ mb: 2 }}>{translate('ls.console.leads.queue_empty')}</Typography>
            <Button component={LinkBase} to={consolePath(accountId, 'leads')} variant="outlined">
              {translate('ls.console.leads.back_to_leads')}
            </Button>
          </CardContent>
        </Card>
      ) : (
        <QueueItem
          key={String(current.id)}
          lead={current}
          position={Math.min(at, queue.length - 1) + 1}
          total={queue.length}
          onDone={onDone}
          onPostpone={onPostpone}
          onNext={next}
        />
      )}
    </Box>
  );
}
