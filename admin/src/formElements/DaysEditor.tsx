import { useState, type KeyboardEvent } from 'react';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import CloseIcon from '@mui/icons-material/Close';
import { isIsoDate } from '../../../resources/answers';
import type { T } from './ElementList';

/** A small editor for a list of dates (YYYY-MM-DD): a date input with Add, and each date with a remove button. */
export function DaysEditor({
  id,
  label,
  days,
  onChange,
  error,
  locale,
  t,
  translateError,
}: {
  id: string;
  label: string;
  days: readonly string[];
  onChange: (days: string[]) => void;
  error?: string;
  locale: string;
  t: T;
  translateError: (key: string) => string;
}) {
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const format = (day: string) => {
    const [y, m, d] = day.split('-').map(Number);
    return new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, d)));
  };
  function add() {
    const day = value.trim();
    if (!isIsoDate(day)) return setProblem(translateError('error_date_invalid'));
    if (days.includes(day)) return setProblem(t('options.day_exists'));
    onChange([...days, day].sort());
    setValue('');
    setProblem(undefined);
  }
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      add();
    }
  };
  const shown = problem ?? error;
  return (
    <fieldset className="fd-days" aria-describedby={shown ? `${id}-error` : undefined}>
      <legend className="fd-days-legend">{label}</legend>
      <div className="fd-days-add">
        <TextField
          id={id}
          type="date"
          size="small"
          label={t('options.date')}
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            setProblem(undefined);
          }}
          onKeyDown={onKeyDown}
          error={Boolean(shown)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <Button variant="outlined" size="small" onClick={add}>
          {t('options.add_day')}
        </Button>
      </div>
      {shown ? (
        <p id={`${id}-error`} className="fd-field-error" role="alert">
          {shown}
        </p>
      ) : null}
      {days.length ? (
        <ul className="fd-days-list">
          {days.map((day) => (
            <li key={day} className="fd-day">
              <time dateTime={day}>{format(day)}</time>
              <IconButton size="small" aria-label={t('options.remove_day', { day: format(day) })} onClick={() => onChange(days.filter((d) => d !== day))}>
                <CloseIcon fontSize="small" />
              </IconButton>
            </li>
          ))}
        </ul>
      ) : (
        <p className="fd-muted">{t('options.no_days')}</p>
      )}
    </fieldset>
  );
}
