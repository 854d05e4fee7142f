import { memo, useMemo, useRef, useState } from 'react';
import { describedBy, FieldShell, ids, type ElementProps } from './Field';
import { Note, searchNote } from './ListSearch';
import { OptionList, optionId, useActiveOption, useOptionSearch } from './OptionList';
import { asString, indexList, SEARCH_THRESHOLD, type ListIndex } from './model';

/** selectbox: a native select up to 15 items; above that a searchable combobox (spec 9). */
export const SelectElement = memo(function SelectElement(props: ElementProps) {
  const index = useMemo(() => indexList(props.el.items), [props.el.items]);
  return index.entries.length > SEARCH_THRESHOLD ? <ComboboxSelect props={props} index={index} /> : <NativeSelect props={props} index={index} />;
});

function NativeSelect({ props, index }: { props: ElementProps; index: ListIndex }) {
  const { el, value, emit, error, id, texts } = props;
  const selected = asString(value);
  const known = index.byValue.has(selected);
  return (
    <FieldShell props={props}>
      <div className="ls-form-select-wrap">
        <select
          id={id}
          name={el.fe_name}
          className="ls-form-input ls-form-select"
          value={selected}
          aria-required={el.fe_is_required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error)}
          onChange={(e) => emit(el.fe_name, e.target.value)}
        >
          <option value="">{texts.choose}</option>
          {index.entries.map((e) => (
            <option key={e.index} value={e.value}>
              {'\u00a0\u00a0\u00a0'.repeat(e.depth)}
              {e.title}
            </option>
          ))}
          {selected && !known ? <option value={selected}>{selected}</option> : null}
        </select>
      </div>
    </FieldShell>
  );
}

/**
 * The combobox (APG "list autocomplete"): typing filters (titles starting with the text first, then those
 * containing it), Down/Up open and move, Enter chooses, Escape closes and puts the choice back, leaving an emptied
 * box clears the answer. At most 200 options are drawn; the note asks to type to narrow the rest.
 */
function ComboboxSelect({ props, index }: { props: ElementProps; index: ListIndex }) {
  const { el, value, emit, error, id, texts, locale } = props;
  const selected = asString(value);
  const chosenIndex = index.byValue.get(selected) ?? -1;
  const chosenTitle = chosenIndex >= 0 ? index.entries[chosenIndex].title : selected;
  const [open, setOpen] = useState(false);
  const [text, setText] = useState<string | null>(null); // null: not typing, the box shows the choice
  const { shown, total, matched, current } = useOptionSearch(index, chosenIndex, text ?? '');
  const nav = useActiveOption(current, chosenIndex);
  const input = useRef<HTMLInputElement>(null);
  const listId = `${id}-listbox`;
  const noteId = `${id}-note`;

  const close = () => {
    setOpen(false);
    setText(null);
    nav.setActive(-1);
  };
  const pick = (i: number) => {
    emit(el.fe_name, index.entries[i].value);
    close();
  };
  const openList = () => {
    setOpen(true);
    nav.start();
  };

  return (
    <FieldShell props={props}>
      <div className="ls-form-combobox">
        <input
          ref={input}
          id={id}
          type="text"
          role="combobox"
          className="ls-form-input ls-form-combobox-input"
          autoComplete="off"
          placeholder={texts.search}
          value={text ?? chosenTitle}
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={open && nav.active >= 0 && nav.active < shown.length ? optionId(listId, nav.active) : undefined}
          aria-required={el.fe_is_required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error)}
          onClick={() => (open ? null : openList())}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
            nav.setActive(0);
          }}
          onBlur={() => {
            if (text !== null && text.trim() === '' && selected) emit(el.fe_name, '');
            close();
          }}
          onKeyDown={(e) => {
            if (!open) {
              if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
                e.preventDefault();
                openList();
              }
              return;
            }
            if (e.key === 'Escape') {
              e.preventDefault();
              close();
              return;
            }
            nav.onKey(e, pick);
          }}
        />
        {selected ? (
          <button
            type="button"
            className="ls-form-clear"
            aria-label={`${texts.clear}: ${el.fe_title}`}
            onClick={() => {
              emit(el.fe_name, '');
              setText(null);
              input.current?.focus();
            }}
          >
            <span aria-hidden="true">×</span>
          </button>
        ) : null}
        <span className="ls-form-chevron" aria-hidden="true" />
        <div className="ls-form-popup" hidden={!open}>
          {open ? (
            <OptionList id={listId} index={index} shown={shown} active={nav.active} chosenIndex={chosenIndex} labelledBy={ids(id).label} onPick={pick} />
          ) : (
            <ul id={listId} role="listbox" aria-labelledby={ids(id).label} />
          )}
          <Note id={noteId} text={open ? searchNote(texts, locale, matched, total) : ''} />
        </div>
      </div>
    </FieldShell>
  );
}
