import { memo, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { describedBy, GroupShell, ids, type ElementProps } from './Field';
import { Note, SearchBox, searchNote, useListSearch } from './ListSearch';
import { asString, asStrings, indexList, SEARCH_THRESHOLD } from './model';

const NEXT: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/**
 * choice_chips_single: a radiogroup of chips with one tab stop (the chosen chip, else the first); arrows move and
 * choose, Home/End jump; choosing the chosen chip again clears it unless the element is required.
 */
export const ChipsSingleElement = memo(function ChipsSingleElement(props: ElementProps) {
  const { el, value, emit, error, id, texts, locale } = props;
  const index = useMemo(() => indexList(el.items), [el.items]);
  const selected = asString(value);
  const at = index.byValue.get(selected) ?? -1;
  const chosen = useMemo(() => (at >= 0 ? [at] : []), [at]);
  const { query, setQuery, shown, total, matched } = useListSearch(index, chosen);
  const [focusAt, setFocusAt] = useState(-1);
  const refs = useRef(new Map<number, HTMLElement>());
  const tabStop = shown.includes(at) ? at : shown.includes(focusAt) ? focusAt : shown[0];

  const choose = (i: number) => {
    setFocusAt(i);
    emit(el.fe_name, index.entries[i].value);
  };
  const onKeyDown = (e: KeyboardEvent, pos: number) => {
    let next = -1;
    if (e.key in NEXT) next = (pos + NEXT[e.key] + shown.length) % shown.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = shown.length - 1;
    if (next < 0) return;
    e.preventDefault();
    choose(shown[next]);
    refs.current.get(shown[next])?.focus();
  };

  return (
    <GroupShell props={props}>
      {index.entries.length > SEARCH_THRESHOLD ? <SearchBox id={`${id}-search`} controls={id} value={query} onChange={setQuery} texts={texts} /> : null}
      <div
        id={id}
        role="radiogroup"
        className="ls-form-chips"
        aria-labelledby={ids(id).title}
        aria-required={el.fe_is_required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error)}
      >
        {shown.map((i, pos) => {
          const entry = index.entries[i];
          const checked = i === at;
          return (
            <button
              key={i}
              type="button"
              role="radio"
              className="ls-form-chip"
              aria-checked={checked}
              tabIndex={i === tabStop ? 0 : -1}
              ref={(node) => {
                if (node) refs.current.set(i, node);
                else refs.current.delete(i);
              }}
              onClick={() => (checked && !el.fe_is_required ? emit(el.fe_name, '') : choose(i))}
              onKeyDown={(e) => onKeyDown(e, pos)}
            >
              {entry.title}
            </button>
          );
        })}
      </div>
      <Note text={index.entries.length ? searchNote(texts, locale, matched, total) : texts.noItems} />
    </GroupShell>
  );
});

/** choice_chips_multiple: chips that are checkboxes (native inputs under the chip face). */
export const ChipsMultipleElement = memo(function ChipsMultipleElement(props: ElementProps) {
  const { el, value, emit, error, id, texts, locale } = props;
  const index = useMemo(() => indexList(el.items), [el.items]);
  const values = asStrings(value);
  const set = useMemo(() => new Set(values), [values]);
  const chosen = useMemo(() => values.map((v) => index.byValue.get(v) ?? -1), [values, index]);
  const { query, setQuery, shown, total, matched } = useListSearch(index, chosen);

  const toggle = (v: string, on: boolean) => {
    const next = on ? new Set([...values, v]) : new Set(values.filter((x) => x !== v));
    // in list order, answers outside the list kept at the end
    const ordered = index.entries.filter((e) => next.has(e.value)).map((e) => e.value);
    emit(el.fe_name, [...new Set(ordered.concat([...next].filter((x) => !index.byValue.has(x))))]);
  };

  return (
    <GroupShell props={props}>
      {index.entries.length > SEARCH_THRESHOLD ? <SearchBox id={`${id}-search`} controls={id} value={query} onChange={setQuery} texts={texts} /> : null}
      <div id={id} className="ls-form-chips">
        {shown.map((i) => {
          const entry = index.entries[i];
          return (
            <label key={i} className="ls-form-chip-option">
              <input
                type="checkbox"
                className="ls-form-chip-input"
                name={el.fe_name}
                value={entry.value}
                checked={set.has(entry.value)}
                aria-invalid={error ? true : undefined}
                onChange={(e) => toggle(entry.value, e.target.checked)}
              />
              <span className="ls-form-chip">{entry.title}</span>
            </label>
          );
        })}
      </div>
      <Note text={index.entries.length ? searchNote(texts, locale, matched, total) : texts.noItems} />
    </GroupShell>
  );
});
