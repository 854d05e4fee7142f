import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import AddIcon from '@mui/icons-material/Add';
import { useNotify, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router';
import type { MeetingStatus } from '../../../resources/meetings';
import { api, ApiRequestError } from '../providers/http';
import { accountPath } from '../providers/accountPath';
import { useResourceAccess } from '../generated/access';
import { consolePath } from '../console/access';
import { buildDayGrid, dayIn, nextStatuses, shiftDay, timeIn, type GridCell, type GridMeeting, type GridSlot } from './dayGrid';

interface Member {
  id: string;
  au_userid: string;
  u_first_name: string | null;
  u_last_name: string | null;
  u_email: string | null;
}

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
const fullName = (first?: string | null, last?: string | null) => [first, last].filter((v) => v && v.trim()).join(' ');
const memberName = (m: Member) => fullName(m.u_first_name, m.u_last_name) || m.u_email || m.au_userid;
const visitorName = (m: GridMeeting) => fullName(m.ld_first_name, m.ld_last_name) || m.ld_email || '—';
const listQuery = (filter: Record<string, unknown>, sort: [string, 'ASC' | 'DESC']) =>
  new URLSearchParams({ filter: JSON.stringify(filter), sort: JSON.stringify(sort), range: JSON.stringify([0, 999]) }).toString();

/** The colours of a slot's state and a meeting's status (with the words, never colour alone). */
const STATE_COLOR = { free: 'success', requested: 'warning', accepted: 'primary' } as const;
const STATUS_COLOR: Record<MeetingStatus, 'warning' | 'primary' | 'default' | 'success' | 'error'> = {
  requested: 'warning',
  accepted: 'primary',
  declined: 'default',
  cancelled: 'default',
  done: 'success',
  no_show: 'error',
};

/**
 * An event's meetings as a day grid (platform-and-flows.md 5, console): the slots of one day in the account's time
 * zone, one row per start time and one column per host (slots without a host in their own column), each slot free,
 * requested or accepted with its visitors' names. A meeting opens a dialog with the moves its status allows (a PUT of
 * mg_status). The day is in the address (?day=YYYY-MM-DD); "Generate slots" makes a day of slots
 * (POST …/meeting-slots/generate). Every control is a button or input, so the grid works by keyboard.
 */
export function MeetingDayGrid({ accountId, eventId }: { accountId: string; eventId: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const tr = (key: string, options?: Record<string, unknown>) => translate(`ls.console.meeting_grid.${key}`, options);
  const [params, setParams] = useSearchParams();
  const [timeZone, setTimeZone] = useState<string | null>(null);
  // What was loaded, and for which day: the grid never shows one day's slots under another's date.
  const [loaded, setLoaded] = useState<{ day: string; slots: GridSlot[]; meetings: GridMeeting[] } | null>(null);
  const [members, setMembers] = useState<Member[]>([]);
  const [failed, setFailed] = useState(false);
  const [open, setOpen] = useState<{ meeting: GridMeeting; cell: GridCell } | null>(null);
  const [generating, setGenerating] = useState(false);
  const [reload, setReload] = useState(0);
  const slotAccess = useResourceAccess('meeting-slots');
  const meetingAccess = useResourceAccess('meetings');

  const asked = params.get('day');
  const day = asked && DAY_RE.test(asked) ? asked : timeZone ? dayIn(new Date(), timeZone) : null;
  const setDay = (next: string) =>
    DAY_RE.test(next) &&
    setParams(
      (p) => {
        const out = new URLSearchParams(p);
        out.set('day', next);
        return out;
      },
      { replace: true },
    );

  useEffect(() => {
    let alive = true;
    api<{ ls_timezone?: string }>(accountPath(accountId, 'settings')).then(
      (s) => alive && setTimeZone(s.ls_timezone || 'Europe/Amsterdam'),
      () => alive && setTimeZone('Europe/Amsterdam'),
    );
    api<Member[]>(`${accountPath(accountId, 'members')}?${listQuery({}, ['u_first_name', 'ASC'])}`).then(
      (m) => alive && setMembers(m),
      () => undefined,
    );
    return () => {
      alive = false;
    };
  }, [accountId]);

  useEffect(() => {
    if (!day || !timeZone) return;
    let alive = true;
    // A wide window around the day (any zone's day lies within it); the grid keeps the slots of the zone's day.
    const filter = { ms_eventid: eventId, ms_start_from: `${shiftDay(day, -1)}T00:00:00.000Z`, ms_start_to: `${shiftDay(day, 2)}T00:00:00.000Z` };
    Promise.all([
      api<GridSlot[]>(`${accountPath(accountId, 'meeting-slots')}?${listQuery(filter, ['ms_start', 'ASC'])}`),
      api<GridMeeting[]>(`${accountPath(accountId, 'meetings')}?${listQuery({ mg_eventid: eventId }, ['mg_created_at', 'DESC'])}`),
    ]).then(
      ([s, m]) => {
        if (!alive) return;
        setLoaded({ day, slots: s, meetings: m });
        setFailed(false);
      },
      () => alive && setFailed(true),
    );
    return () => {
      alive = false;
    };
  }, [accountId, eventId, day, timeZone, reload]);

  const grid = useMemo(() => (loaded && loaded.day === day && timeZone ? buildDayGrid(loaded.slots, loaded.meetings, day, timeZone) : null), [loaded, day, timeZone]);
  const hostLabel = useCallback(
    (column: string) => {
      if (!column) return tr('any_host');
      const m = members.find((x) => x.au_userid === column);
      return m ? memberName(m) : tr('host_unknown');
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [members, translate],
  );

  const changeStatus = async (meeting: GridMeeting, status: MeetingStatus) => {
    try {
      await api(accountPath(accountId, 'meetings', meeting.mg_id), { method: 'PUT', body: { mg_status: status } });
      notify(tr('status_changed', { name: visitorName(meeting), status: translate(`resources.meetings.options.mg_status.${status}`) }), { type: 'success' });
      setOpen(null);
      setReload((n) => n + 1);
    } catch (e) {
      notify(e instanceof ApiRequestError ? e.body.message || e.code : tr('load_failed'), { type: 'error' });
    }
  };

  if (!day || !timeZone) return <Typography color="text.secondary">{tr('loading')}</Typography>;
  const dayLabel = new Intl.DateTimeFormat(translate('ls.console.meeting_grid.date_locale'), {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${day}T12:00:00Z`));
  const time = (iso: string) => timeIn(iso, timeZone);

  return (
    <Box data-testid="meeting-grid">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 2 }}>
        <Tooltip title={tr('previous_day')}>
          <IconButton onClick={() => setDay(shiftDay(day, -1))} aria-label={tr('previous_day')}>
            <ChevronLeftIcon />
          </IconButton>
        </Tooltip>
        <TextField
          type="date"
          size="small"
          fullWidth={false}
          sx={{ width: 180 }}
          label={tr('day')}
          value={day}
          onChange={(e) => setDay(e.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'meeting-grid-day' } }}
        />
        <Tooltip title={tr('next_day')}>
          <IconButton onClick={() => setDay(shiftDay(day, 1))} aria-label={tr('next_day')}>
            <ChevronRightIcon />
          </IconButton>
        </Tooltip>
        <Button onClick={() => setDay(dayIn(new Date(), timeZone))}>{tr('today')}</Button>
        <Box sx={{ flex: 1 }} />
        {slotAccess.canCreate && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setGenerating(true)}>
            {tr('generate')}
          </Button>
        )}
      </Box>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        {dayLabel}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {tr('zone', { zone: timeZone.replace(/_/g, ' ') })} ·{' '}
        <a href={`${consolePath(accountId)}/meetings?filter=${encodeURIComponent(JSON.stringify({ mg_eventid: eventId }))}`}>{tr('all_meetings')}</a>
      </Typography>
      {failed && <Alert severity="error">{tr('load_failed')}</Alert>}
      {grid && grid.rows.length === 0 && (
        <Typography color="text.secondary" sx={{ py: 3 }} data-testid="meeting-grid-empty">
          {tr('empty')}
        </Typography>
      )}
      {grid && grid.rows.length > 0 && (
        <Box sx={{ overflowX: 'auto' }}>
          <Box
            component="table"
            sx={{ borderCollapse: 'collapse', minWidth: '100%', '& th, & td': { border: 1, borderColor: 'divider', p: 1, verticalAlign: 'top', textAlign: 'left' } }}
          >
            <caption style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>{tr('caption', { day: dayLabel })}</caption>
            <thead>
              <tr>
                <Box component="th" scope="col" sx={{ width: 72 }}>
                  {tr('time')}
                </Box>
                {grid.columns.map((c) => (
                  <Box component="th" scope="col" key={c || 'any'} sx={{ minWidth: 180 }}>
                    {hostLabel(c)}
                  </Box>
                ))}
              </tr>
            </thead>
            <tbody>
              {grid.rows.map((row) => (
                <tr key={row.key}>
                  <Box component="th" scope="row" sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
                    {row.label}
                  </Box>
                  {grid.columns.map((c) => {
                    const cell = grid.cells.get(`${row.key}|${c}`);
                    if (!cell) return <td key={c || 'any'} aria-label={tr('no_slot')} />;
                    return (
                      <Box
                        component="td"
                        key={c || 'any'}
                        data-testid="meeting-slot"
                        data-state={cell.state}
                        data-start={row.key}
                        sx={{ bgcolor: cell.state === 'free' ? 'transparent' : cell.state === 'requested' ? 'rgba(237,108,2,0.08)' : 'rgba(25,118,210,0.08)' }}
                      >
                        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                          <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                            {time(cell.slot.ms_start)}–{time(cell.slot.ms_end)}
                          </Typography>
                          <Chip size="small" color={STATE_COLOR[cell.state]} variant={cell.state === 'free' ? 'outlined' : 'filled'} label={tr(`state_${cell.state}`)} />
                          {Number(cell.slot.ms_capacity) > 1 && (
                            <Typography variant="caption" color="text.secondary">
                              {tr('places', { free: cell.free, capacity: cell.slot.ms_capacity })}
                            </Typography>
                          )}
                        </Box>
                        {cell.slot.ms_location && (
                          <Typography variant="caption" color="text.secondary" component="div">
                            {cell.slot.ms_location}
                          </Typography>
                        )}
                        {cell.meetings.length > 0 && (
                          <Box component="ul" sx={{ listStyle: 'none', m: 0, mt: 0.5, p: 0, display: 'grid', gap: 0.5 }}>
                            {cell.meetings.map((m) => (
                              <li key={m.mg_id}>
                                <Button
                                  size="small"
                                  variant="text"
                                  onClick={() => setOpen({ meeting: m, cell })}
                                  data-testid="meeting-chip"
                                  data-status={m.mg_status}
                                  sx={{ justifyContent: 'flex-start', textTransform: 'none', textAlign: 'left', gap: 1, px: 0.5 }}
                                  aria-label={tr('open_meeting', { name: visitorName(m), status: translate(`resources.meetings.options.mg_status.${m.mg_status}`) })}
                                >
                                  <Chip size="small" color={STATUS_COLOR[m.mg_status]} label={translate(`resources.meetings.options.mg_status.${m.mg_status}`)} />
                                  <span>{visitorName(m)}</span>
                                </Button>
                              </li>
                            ))}
                          </Box>
                        )}
                      </Box>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </Box>
        </Box>
      )}
      {open && (
        <MeetingDialog
          meeting={open.meeting}
          cell={open.cell}
          time={time}
          host={open.meeting.mg_hostid ? fullName(open.meeting.host_first_name, open.meeting.host_last_name) || hostLabel(open.meeting.mg_hostid) : tr('any_host')}
          canUpdate={meetingAccess.canUpdate}
          onClose={() => setOpen(null)}
          onStatus={changeStatus}
        />
      )}
      {generating && (
        <GenerateDialog
          accountId={accountId}
          eventId={eventId}
          day={day}
          members={members}
          onClose={() => setGenerating(false)}
          onDone={(count, first) => {
            setGenerating(false);
            notify(tr('generated', { count }), { type: 'success' });
            if (first !== day) setDay(first);
            setReload((n) => n + 1);
          }}
        />
      )}
    </Box>
  );
}

function MeetingDialog(props: {
  meeting: GridMeeting;
  cell: GridCell;
  time: (iso: string) => string;
  host: string;
  canUpdate: boolean;
  onClose: () => void;
  onStatus: (m: GridMeeting, s: MeetingStatus) => Promise<void>;
}) {
  const { meeting, cell, time, host, canUpdate, onClose, onStatus } = props;
  const translate = useTranslate();
  const tr = (key: string, options?: Record<string, unknown>) => translate(`ls.console.meeting_grid.${key}`, options);
  const [busy, setBusy] = useState(false);
  const moves = canUpdate ? nextStatuses(meeting.mg_status) : [];
  const act = async (s: MeetingStatus) => {
    setBusy(true);
    await onStatus(meeting, s);
    setBusy(false);
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby="meeting-dialog-title" fullWidth maxWidth="xs">
      <DialogTitle id="meeting-dialog-title">{visitorName(meeting)}</DialogTitle>
      <DialogContent>
        <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5, '& dt': { color: 'text.secondary' }, '& dd': { m: 0 } }}>
          <dt>{tr('status')}</dt>
          <dd data-testid="meeting-dialog-status">{translate(`resources.meetings.options.mg_status.${meeting.mg_status}`)}</dd>
          <dt>{tr('time')}</dt>
          <dd>
            {time(cell.slot.ms_start)}–{time(cell.slot.ms_end)}
          </dd>
          {cell.slot.ms_location && (
            <>
              <dt>{tr('location')}</dt>
              <dd>{cell.slot.ms_location}</dd>
            </>
          )}
          <dt>{tr('host')}</dt>
          <dd>{host}</dd>
          {meeting.ld_email && (
            <>
              <dt>{tr('email')}</dt>
              <dd>
                <a href={`mailto:${meeting.ld_email}`}>{meeting.ld_email}</a>
              </dd>
            </>
          )}
          {meeting.mg_message && (
            <>
              <dt>{tr('message')}</dt>
              <dd style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{meeting.mg_message}</dd>
            </>
          )}
        </Box>
        {moves.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
            {tr('final')}
          </Typography>
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        {moves.map((s) => (
          <Button
            key={s}
            onClick={() => act(s)}
            disabled={busy}
            variant={s === 'accepted' ? 'contained' : 'outlined'}
            color={s === 'declined' || s === 'cancelled' ? 'error' : 'primary'}
          >
            {tr(`action_${s}`)}
          </Button>
        ))}
        <Button onClick={onClose}>{tr('close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

/** POST …/meeting-slots/generate for one day: times in the account's zone, the API's field errors under the inputs. */
function GenerateDialog(props: { accountId: string; eventId: string; day: string; members: Member[]; onClose: () => void; onDone: (count: number, firstDay: string) => void }) {
  const { accountId, eventId, day, members, onClose, onDone } = props;
  const translate = useTranslate();
  const tr = (key: string, options?: Record<string, unknown>) => translate(`ls.console.meeting_grid.${key}`, options);
  const [values, setValues] = useState({ date: day, from: '09:00', to: '17:00', minutes: '30', gap_minutes: '0', ms_location: '', ms_capacity: '1', ms_hostid: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const set = (name: keyof typeof values) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [name]: e.target.value }));
    // A changed value is checked again on the next Generate: its old error goes.
    setErrors((all) => (all[name] ? { ...all, [name]: '' } : all));
  };
  const num = (v: string) => (v.trim() === '' ? undefined : Number(v));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    setFailure('');
    try {
      const made = await api<GridSlot[]>(accountPath(accountId, 'meeting-slots', 'generate'), {
        method: 'POST',
        body: {
          ms_eventid: eventId,
          date: values.date,
          from: values.from,
          to: values.to,
          minutes: num(values.minutes),
          gap_minutes: num(values.gap_minutes),
          ms_location: values.ms_location,
          ms_capacity: num(values.ms_capacity),
          ms_hostid: values.ms_hostid || null,
        },
      });
      onDone(made.length, values.date);
    } catch (err) {
      if (err instanceof ApiRequestError) {
        const fields = (err.body.fields ?? {}) as Record<string, string>;
        setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, translate(v)])));
        if (!Object.keys(fields).length) setFailure(translate(`error_${err.code}`, { _: err.body.message || err.code }));
      } else setFailure(tr('load_failed'));
    } finally {
      setBusy(false);
    }
  };
  const field = (name: keyof typeof values, type: string, extra: Record<string, unknown> = {}) => (
    <TextField
      name={name}
      type={type}
      label={tr(`field_${name}`)}
      value={values[name]}
      onChange={set(name)}
      error={!!errors[name]}
      helperText={errors[name] || ' '}
      size="small"
      fullWidth
      slotProps={{ inputLabel: { shrink: true } }}
      {...extra}
    />
  );
  return (
    <Dialog open onClose={onClose} aria-labelledby="generate-dialog-title" fullWidth maxWidth="sm">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="generate-dialog-title">{tr('generate_title')}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {tr('generate_help')}
          </Typography>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2, pt: 1 }}>
            {field('date', 'date')}
            {field('ms_hostid', 'text', {
              select: true,
              slotProps: { inputLabel: { shrink: true }, select: { displayEmpty: true } },
              children: [
                <MenuItem key="" value="">
                  {tr('any_host')}
                </MenuItem>,
                ...members.map((m) => (
                  <MenuItem key={m.au_userid} value={m.au_userid}>
                    {memberName(m)}
                  </MenuItem>
                )),
              ],
            })}
            {field('from', 'time')}
            {field('to', 'time')}
            {field('minutes', 'number', { slotProps: { inputLabel: { shrink: true }, htmlInput: { min: 5, max: 480 } } })}
            {field('gap_minutes', 'number', { slotProps: { inputLabel: { shrink: true }, htmlInput: { min: 0, max: 480 } } })}
            {field('ms_location', 'text')}
            {field('ms_capacity', 'number', { slotProps: { inputLabel: { shrink: true }, htmlInput: { min: 1, max: 1000 } } })}
          </Box>
          {failure && (
            <Alert severity="error" data-testid="generate-failure">
              {failure}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{tr('cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {tr('generate_submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
