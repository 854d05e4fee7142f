import { useDeferredValue, useMemo, useState, type KeyboardEventHandler } from 'react';
import { RENDER_CAP, searchList, withChosen, type ListIndex } from './model';
import { fill, type RendererTexts } from './texts';

/**
 * Search over a list index with a capped result: the first RENDER_CAP matches are drawn (prefix matches first),
 * plus the chosen entries, and a note says how many there are in all. The query is deferred so typing stays quick
 * while a long list redraws.
 */
export function useListSearch(index: ListIndex, chosen: readonly number[]) {
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const result = useMemo(() => searchList(index, deferred, RENDER_CAP), [index, deferred]);
  const shown = useMemo(() => (deferred.trim() ? result.matches : withChosen(result.matches, chosen)), [result, chosen, deferred]);
  return { query, setQuery, shown, total: result.total, matched: result.matches.length };
}

/** The note under a searchable list: nothing, "No results", or "Showing 200 of 5,000. Type to narrow the list." */
export function searchNote(texts: RendererTexts, locale: string, matched: number, total: number): string {
  if (total === 0) return texts.noResults;
  if (matched < total) return fill(texts.narrow, { shown: matched.toLocaleString(locale), total: total.toLocaleString(locale) });
  return '';
}

export function SearchBox({
  id,
  controls,
  value,
  onChange,
  texts,
  onKeyDown,
}: {
  id: string;
  controls: string;
  value: string;
  onChange: (v: string) => void;
  texts: RendererTexts;
  onKeyDown?: KeyboardEventHandler<HTMLInputElement>;
}) {
  return (
    <div className="ls-form-search">
      <label htmlFor={id} className="ls-form-search-label">
        {texts.search}
      </label>
      <input
        id={id}
        type="search"
        className="ls-form-input ls-form-search-input"
        value={value}
        autoComplete="off"
        aria-controls={controls}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
      />
    </div>
  );
}

export function Note({ text, id }: { text: string; id?: string }) {
  return (
    <p id={id} className="ls-form-note" role="status">
      {text}
    </p>
  );
}
