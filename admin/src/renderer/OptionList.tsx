import { useDeferredValue, useEffect, useMemo, useState, type CSSProperties, type KeyboardEvent } from 'react';
import { RENDER_CAP, searchList, withChosen, type ListIndex } from './model';

/**
 * The searchable option list behind the combobox and the picker: the text box keeps the focus and points at the
 * active option with aria-activedescendant; Up/Down move, Home/End jump (when asked), Enter chooses.
 */
const optionsFor = (index: ListIndex, query: string, chosenIndex: number) => {
  const result = searchList(index, query, RENDER_CAP);
  const shown = query.trim() ? result.matches : withChosen(result.matches, chosenIndex >= 0 ? [chosenIndex] : []);
  return { shown, total: result.total, matched: result.matches.length };
};

/**
 * The list redraws from a deferred query (typing stays smooth with 5,000 items), but keys act on the query as typed:
 * `current()` is what is shown, or, while the redraw is still behind the typing, the list for the typed query. Without
 * it a fast typist's "po", Down, Enter picked from the list before the filter.
 */
export function useOptionSearch(index: ListIndex, chosenIndex: number, query: string) {
  const deferred = useDeferredValue(query);
  const view = useMemo(() => optionsFor(index, deferred, chosenIndex), [index, deferred, chosenIndex]);
  const current = () => (deferred === query ? view.shown : optionsFor(index, query, chosenIndex).shown);
  return { ...view, current };
}

export function useActiveOption(current: () => readonly number[], chosenIndex: number) {
  const [active, setActive] = useState(-1);
  const start = () => setActive(Math.max(0, current().indexOf(chosenIndex)));
  const onKey = (e: KeyboardEvent, pick: (entry: number) => void, withHomeEnd = false): boolean => {
    const shown = current();
    const last = shown.length - 1;
    let next: number | null = null;
    if (e.key === 'ArrowDown') next = Math.min(active + 1, last);
    else if (e.key === 'ArrowUp') next = Math.max(active - 1, 0);
    else if (withHomeEnd && e.key === 'Home') next = 0;
    else if (withHomeEnd && e.key === 'End') next = last;
    else if (e.key === 'PageDown') next = Math.min(active + 10, last);
    else if (e.key === 'PageUp') next = Math.max(active - 10, 0);
    else if (e.key === 'Enter' && active >= 0 && active <= last) {
      e.preventDefault();
      pick(shown[active]);
      return true;
    }
    if (next === null) return false;
    e.preventDefault();
    setActive(next);
    return true;
  };
  return { active, setActive, start, onKey };
}

export const optionId = (listId: string, pos: number) => `${listId}-opt-${pos}`;

export function OptionList({
  id,
  index,
  shown,
  active,
  chosenIndex,
  labelledBy,
  onPick,
  className = '',
}: {
  id: string;
  index: ListIndex;
  shown: readonly number[];
  active: number;
  chosenIndex: number;
  labelledBy: string;
  onPick: (entry: number) => void;
  className?: string;
}) {
  useEffect(() => {
    if (active < 0) return;
    const node = document.getElementById(optionId(id, active));
    node?.scrollIntoView?.({ block: 'nearest' });
  }, [id, active]);
  return (
    <ul id={id} role="listbox" className={`ls-form-listbox ${className}`} aria-labelledby={labelledBy}>
      {shown.map((i, pos) => {
        const entry = index.entries[i];
        return (
          <li
            key={i}
            id={optionId(id, pos)}
            role="option"
            className={`ls-form-option${pos === active ? ' ls-form-option--active' : ''}`}
            style={entry.depth ? ({ '--ls-depth': entry.depth } as CSSProperties) : undefined}
            aria-selected={i === chosenIndex}
            // keep the focus in the text box
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => onPick(i)}
          >
            {entry.title}
          </li>
        );
      })}
    </ul>
  );
}
