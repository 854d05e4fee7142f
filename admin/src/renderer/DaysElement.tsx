import { memo, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { describedBy, GroupShell, type ElementProps } from './Field';
import { Note } from './ListSearch';
import { addDays, addMonths, asStrings, calendarMonths, dayOptions, parseDate, weekdayMon } from './model';

/** A Monday, for the weekday names. */
const MONDAY = Date.UTC(2024, 0, 1);

/**
 * date_selector_days: a Monday-first calendar (spec 9) of the months from the first to the last offered day, one
 * grid per month. Only offered days can be chosen, the disabled ones not; several days may be chosen. One tab stop;
 * arrows move by a day or a week (across months), Home/End to the week's Monday/Sunday, Page Up/Down by a month,
 * Space/Enter choose or drop the day.
 */
export const DaysElement = memo(function DaysElement(props: ElementProps) {
  const { el, value, emit, error, id, texts, locale } = props;
  const { days, disabled } = useMemo(() => dayOptions(el), [el]);
  const offered = useMemo(() => new Set(days), [days]);
  const off = useMemo(() => new Set(disabled), [disabled]);
  const months = useMemo(() => calendarMonths(days), [days]);
  const values = asStrings(value);
  const chosen = new Set(values);
  const selectable = (d: string) => offered.has(d) && !off.has(d);

  const format = useMemo(() => {
    const utc = { timeZone: 'UTC' } as const;
    return {
      month: new Intl.DateTimeFormat(locale, { ...utc, month: 'long', year: 'numeric' }),
      day: new Intl.DateTimeFormat(locale, { ...utc, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }),
      short: new Intl.DateTimeFormat(locale, { ...utc, weekday: 'short' }),
      long: new Intl.DateTimeFormat(locale, { ...utc, weekday: 'long' }),
    };
  }, [locale]);
  const weekdays = useMemo(
    () => Array.from({ length: 7 }, (_, i) => ({ short: format.short.format(MONDAY + i * 86_400_000), long: format.long.format(MONDAY + i * 86_400_000) })),
    [format],
  );

  const first = months[0]?.first ?? '';
  const last = months.length ? addDays(addMonths(months[months.length - 1].first, 1), -1) : '';
  const [focusDay, setFocusDay] = useState('');
  const inRange = (d: string) => d >= first && d <= last;
  const tabStop = focusDay && inRange(focusDay) ? focusDay : (values.find(selectable) ?? days.find(selectable) ?? days[0]);
  const refs = useRef(new Map<string, HTMLElement>());

  const toggle = (d: string) => {
    if (!selectable(d)) return;
    const next = chosen.has(d) ? values.filter((x) => x !== d) : [...values, d].sort();
    emit(el.fe_name, next);
  };
  const moveTo = (d: string) => {
    const target = d < first ? first : d > last ? last : d;
    setFocusDay(target);
    refs.current.get(target)?.focus();
  };
  const onKeyDown = (e: KeyboardEvent, d: string) => {
    const wd = weekdayMon(d);
    const moves: Record<string, () => string> = {
      ArrowRight: () => addDays(d, 1),
      ArrowLeft: () => addDays(d, -1),
      ArrowDown: () => addDays(d, 7),
      ArrowUp: () => addDays(d, -7),
      Home: () => addDays(d, -wd),
      End: () => addDays(d, 6 - wd),
      PageDown: () => addMonths(d, 1),
      PageUp: () => addMonths(d, -1),
    };
    if (e.key === ' ' || e.key === 'Enter') {
      e.preventDefault();
      setFocusDay(d);
      toggle(d);
    } else if (moves[e.key]) {
      e.preventDefault();
      moveTo(moves[e.key]());
    }
  };

  return (
    <GroupShell props={props}>
      {months.length === 0 ? <Note text={texts.noDays} /> : null}
      <div className="ls-form-months">
        {months.map((m) => {
          const captionId = `${id}-${m.month}`;
          return (
            <table key={m.month} role="grid" className="ls-form-calendar" aria-labelledby={captionId} aria-multiselectable="true" aria-describedby={describedBy(id, error)}>
              <caption id={captionId} className="ls-form-calendar-caption">
                {format.month.format(parseDate(m.first))}
              </caption>
              <thead>
                <tr role="row">
                  {weekdays.map((w) => (
                    <th key={w.long} role="columnheader" scope="col" abbr={w.long}>
                      {w.short}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {m.weeks.map((week, wi) => (
                  <tr key={wi} role="row">
                    {week.map((d, di) => {
                      if (!d) return <td key={di} role="gridcell" className="ls-form-day ls-form-day--blank" />;
                      const can = selectable(d);
                      const isChosen = chosen.has(d);
                      const cls = ['ls-form-day', can ? 'ls-form-day--open' : offered.has(d) ? 'ls-form-day--disabled' : 'ls-form-day--off', isChosen ? 'ls-form-day--chosen' : ''];
                      return (
                        <td
                          key={d}
                          role="gridcell"
                          className={cls.join(' ').trim()}
                          data-date={d}
                          tabIndex={d === tabStop ? 0 : -1}
                          aria-label={format.day.format(parseDate(d))}
                          aria-selected={can || isChosen ? isChosen : undefined}
                          aria-disabled={can ? undefined : true}
                          ref={(node) => {
                            if (node) refs.current.set(d, node);
                            else refs.current.delete(d);
                          }}
                          onClick={() => {
                            setFocusDay(d);
                            toggle(d);
                          }}
                          onKeyDown={(e) => onKeyDown(e, d)}
                        >
                          {Number(d.slice(8))}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          );
        })}
      </div>
    </GroupShell>
  );
});
