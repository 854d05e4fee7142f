import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/EditOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useCreate, useDelete, useGetList, useGetOne, useNotify, useTranslate, useUpdate, type RaRecord } from 'react-admin';
import { carousels, groupSchedules, WEEK_DAYS, type WeekDay } from '../../../resources/carousels';
import { settings } from '../../../resources/settings';
import { useResourceAccess } from '../generated/access';

type Schedule = RaRecord & { gs_carouselid: string; gs_days: WeekDay[]; gs_from: string; gs_to: string; gs_order: number };
type Draft = { id?: string; gs_carouselid: string; gs_days: WeekDay[]; gs_from: string; gs_to: string };

const WEEKDAYS: WeekDay[] = ['mon', 'tue', 'wed', 'thu', 'fri'];

/** The days as people say them: "Every day", "Weekdays", or the days in week order. */
function useDaysText() {
  const translate = useTranslate();
  return (days: readonly string[]) => {
    if (days.length === 7) return translate('ls.schedules.every_day');
    if (days.length === 5 && WEEKDAYS.every((d) => days.includes(d))) return translate('ls.schedules.weekdays');
    return WEEK_DAYS.filter((d) => days.includes(d))
      .map((d) => translate(`ls.schedules.day_${d}`))
      .join(', ');
  };
}

/** Add or edit one window: the carousel, the days (chips), from and to. The API's field errors show under each. */
function ScheduleDialog({
  groupId,
  draft,
  carouselOptions,
  onClose,
  onSaved,
}: {
  groupId: string;
  draft: Draft;
  carouselOptions: RaRecord[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const translate = useTranslate();
  const [value, setValue] = useState<Draft>(draft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [create, { isPending: creating }] = useCreate();
  const [update, { isPending: updating }] = useUpdate();
  const field = (name: string) => (errors[name] ? translate(errors[name], { _: errors[name] }) : undefined);
  const toggle = (d: WeekDay) =>
    setValue((v) => ({ ...v, gs_days: v.gs_days.includes(d) ? v.gs_days.filter((x) => x !== d) : WEEK_DAYS.filter((x) => x === d || v.gs_days.includes(x)) }));
  const submit = async () => {
    const data = { gs_carouselid: value.gs_carouselid, gs_days: value.gs_days, gs_from: value.gs_from, gs_to: value.gs_to };
    const local: Record<string, string> = {};
    if (!data.gs_carouselid) local.gs_carouselid = 'error_required';
    if (!data.gs_days.length) local.gs_days = 'error_days_invalid';
    if (Object.keys(local).length) return setErrors(local);
    try {
      if (value.id) await update(groupSchedules.name, { id: value.id, data, previousData: draft }, { returnPromise: true, mutationMode: 'pessimistic' });
      else await create(groupSchedules.name, { data: { ...data, gs_groupid: groupId } }, { returnPromise: true });
      onSaved();
    } catch (e) {
      const body = (e as { body?: { fields?: Record<string, string> } }).body;
      setErrors(body?.fields ?? { gs_carouselid: (e as Error).message || 'ra.notification.http_error' });
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="schedule-dialog-title">
      <Box
        component="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <DialogTitle id="schedule-dialog-title">{translate(value.id ? 'ls.schedules.edit' : 'ls.schedules.add')}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
          <TextField
            select
            fullWidth
            label={translate('resources.group-schedules.fields.gs_carouselid')}
            value={value.gs_carouselid}
            onChange={(e) => setValue((v) => ({ ...v, gs_carouselid: e.target.value }))}
            error={!!errors.gs_carouselid}
            helperText={field('gs_carouselid')}
            slotProps={{ htmlInput: { 'data-testid': 'schedule-carousel' } }}
          >
            {carouselOptions.map((c) => (
              <MenuItem key={c.id} value={String(c.id)}>
                {String(c.c_title)}
              </MenuItem>
            ))}
          </TextField>
          <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
            <FormLabel component="legend" error={!!errors.gs_days} sx={{ mb: 1 }}>
              {translate('ls.schedules.days')}
            </FormLabel>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }} role="group" aria-label={translate('ls.schedules.days')}>
              {WEEK_DAYS.map((d) => {
                const on = value.gs_days.includes(d);
                return (
                  <Chip
                    key={d}
                    label={translate(`ls.schedules.day_${d}`)}
                    color={on ? 'primary' : 'default'}
                    variant={on ? 'filled' : 'outlined'}
                    onClick={() => toggle(d)}
                    aria-pressed={on}
                    data-testid={`schedule-day-${d}`}
                    sx={{ minWidth: 56, minHeight: 40 }}
                  />
                );
              })}
            </Box>
            {errors.gs_days && <FormHelperText error>{field('gs_days')}</FormHelperText>}
          </Box>
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
            {(['gs_from', 'gs_to'] as const).map((name) => (
              <TextField
                key={name}
                type="time"
                label={translate(`resources.group-schedules.fields.${name}`)}
                value={value[name]}
                onChange={(e) => setValue((v) => ({ ...v, [name]: e.target.value }))}
                error={!!errors[name]}
                helperText={field(name)}
                sx={{ flex: '1 1 140px' }}
                slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 60, 'data-testid': `schedule-${name.slice(3)}` } }}
              />
            ))}
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={creating || updating} data-testid="schedule-save">
            {translate('ra.action.save')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

/**
 * A group's dayparting (platform-and-flows.md 7: group-schedules): each window with its carousel, days and times in
 * the account's time zone; add, edit (a dialog with day chips and times) and delete with the group's update right.
 */
export function GroupSchedules({ accountId, groupId }: { accountId: string; groupId: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const daysText = useDaysText();
  const { canCreate, canUpdate, canDelete } = useResourceAccess(groupSchedules.name);
  const [editing, setEditing] = useState<Draft | null>(null);
  const [remove] = useDelete();
  const {
    data = [],
    isPending,
    refetch,
  } = useGetList<Schedule>(groupSchedules.name, {
    filter: { gs_groupid: groupId },
    sort: { field: 'gs_order', order: 'ASC' },
    pagination: { page: 1, perPage: 200 },
  });
  const { data: carouselRows = [] } = useGetList(carousels.name, { sort: { field: 'c_title', order: 'ASC' }, pagination: { page: 1, perPage: 500 } });
  const { data: accountSettings } = useGetOne(settings.name, { id: accountId }, { retry: false });
  const zone = String(accountSettings?.ls_timezone ?? 'Europe/Amsterdam');
  const titleOf = (id: string) => String(carouselRows.find((c) => String(c.id) === id)?.c_title ?? '…');
  const timesText = (s: Schedule) =>
    s.gs_from === s.gs_to ? translate('ls.schedules.all_day') : `${s.gs_from}–${s.gs_to}${s.gs_to < s.gs_from ? ` (${translate('ls.schedules.overnight')})` : ''}`;

  return (
    <Box data-testid="group-schedules">
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {translate('ls.schedules.help', { zone })}
      </Typography>
      {!isPending && data.length === 0 && (
        <Typography sx={{ mb: 2 }} data-testid="group-schedules-empty">
          {translate('ls.schedules.empty')}
        </Typography>
      )}
      {data.length > 0 && (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mb: 2, display: 'grid', gap: 1, maxWidth: 720 }} aria-label={translate('ls.schedules.title')}>
          {data.map((s) => {
            const name = titleOf(s.gs_carouselid);
            return (
              <Box
                component="li"
                key={s.id}
                data-testid="group-schedule"
                sx={{ display: 'flex', alignItems: 'center', gap: 1, p: 1, pl: 2, border: 1, borderColor: 'divider', borderRadius: 1, minWidth: 0 }}
              >
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Typography sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>{name}</Typography>
                  <Typography variant="body2" color="text.secondary" data-testid="group-schedule-when">
                    {daysText(s.gs_days)} · {timesText(s)}
                  </Typography>
                </Box>
                {canUpdate && (
                  <Tooltip title={translate('ls.schedules.edit_named', { name })}>
                    <IconButton
                      aria-label={translate('ls.schedules.edit_named', { name })}
                      onClick={() => setEditing({ id: String(s.id), gs_carouselid: s.gs_carouselid, gs_days: s.gs_days, gs_from: s.gs_from, gs_to: s.gs_to })}
                      data-testid="group-schedule-edit"
                    >
                      <EditIcon />
                    </IconButton>
                  </Tooltip>
                )}
                {canDelete && (
                  <Tooltip title={translate('ls.schedules.delete_named', { name })}>
                    <IconButton
                      aria-label={translate('ls.schedules.delete_named', { name })}
                      onClick={() =>
                        void remove(groupSchedules.name, { id: s.id, previousData: s }, { mutationMode: 'pessimistic' })
                          .then(() => {
                            notify(translate('ls.schedules.deleted'), { type: 'success' });
                            void refetch();
                          })
                          .catch(() => undefined)
                      }
                      data-testid="group-schedule-delete"
                    >
                      <DeleteIcon />
                    </IconButton>
                  </Tooltip>
                )}
              </Box>
            );
          })}
        </Box>
      )}
      {canCreate && (
        <Button
          variant="outlined"
          startIcon={<AddIcon />}
          onClick={() => setEditing({ gs_carouselid: '', gs_days: [...WEEKDAYS], gs_from: '08:00', gs_to: '12:00' })}
          data-testid="group-schedule-add"
        >
          {translate('ls.schedules.add')}
        </Button>
      )}
      {editing && (
        <ScheduleDialog
          groupId={groupId}
          draft={editing}
          carouselOptions={carouselRows}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            notify(translate('ls.schedules.saved'), { type: 'success' });
            void refetch();
          }}
        />
      )}
    </Box>
  );
}
