import { memo, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { describedBy, ErrorText, ids, RequiredMark, type ElementProps } from './Field';
import { Note, searchNote } from './ListSearch';
import { OptionList, optionId, useActiveOption, useOptionSearch } from './OptionList';
import { asString, indexList, type ListIndex } from './model';

/**
 * picker: a button that shows the choice and opens a dialog with a searchable list: a sheet from the bottom on a
 * phone, a centred dialog on wider screens. The dialog keeps the focus inside (Tab cycles), Escape or the close
 * button shut it, and the focus returns to the button.
 */
export const PickerElement = memo(function PickerElement(props: ElementProps) {
  const { el, value, error, id, texts } = props;
  const index = useMemo(() => indexList(el.items), [el.items]);
  const selected = asString(value);
  const chosenIndex = index.byValue.get(selected) ?? -1;
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const valueId = `${id}-value`;
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  return (
    <div className={`ls-form-field ls-form-field--picker${error ? ' ls-form-field--invalid' : ''}`} data-name={el.fe_name}>
      <div className="ls-form-label-row">
        <label id={ids(id).label} htmlFor={id} className="ls-form-label">
          {el.fe_title}
          {el.fe_is_required ? <RequiredMark texts={texts} spoken /> : null}
        </label>
      </div>
      <button
        ref={button}
        id={id}
        type="button"
        className="ls-form-input ls-form-picker-button"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-labelledby={`${ids(id).label} ${valueId}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error)}
        onClick={() => setOpen(true)}
      >
        <span id={valueId} className={selected ? 'ls-form-picker-value' : 'ls-form-picker-value ls-form-placeholder'}>
          {chosenIndex >= 0 ? index.entries[chosenIndex].title : selected || texts.choose}
        </span>
        <span className="ls-form-chevron" aria-hidden="true" />
      </button>
      <ErrorText id={id} error={error} />
      {open ? <PickerDialog props={props} index={index} chosenIndex={chosenIndex} onClose={close} /> : null}
    </div>
  );
});

function PickerDialog({ props, index, chosenIndex, onClose }: { props: ElementProps; index: ListIndex; chosenIndex: number; onClose: () => void }) {
  const { el, emit, id, texts, locale } = props;
  const [query, setQuery] = useState('');
  const { shown, total, matched, current } = useOptionSearch(index, chosenIndex, query);
  const nav = useActiveOption(current, chosenIndex);
  const dialog = useRef<HTMLDivElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const titleId = `${id}-dialog-title`;
  const listId = `${id}-dialog-list`;
  const searchId = `${id}-dialog-search`;

  useEffect(() => {
    search.current?.focus();
    nav.start();
    // the page behind does not scroll while the sheet is open
    const body = document.body.style;
    const before = body.overflow;
    body.overflow = 'hidden';
    return () => {
      body.overflow = before;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the sheet opens
  }, []);

  const pick = (i: number) => {
    emit(el.fe_name, index.entries[i].value);
    onClose();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onClose();
      return;
    }
    if (e.key !== 'Tab' || !dialog.current) return;
    const focusable = [...dialog.current.querySelectorAll<HTMLElement>('input, button')].filter((n) => !n.hasAttribute('disabled'));
    if (!focusable.length) return;
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  return (
    <div
      className="ls-form-sheet-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div ref={dialog} className="ls-form-sheet" role="dialog" aria-modal="true" aria-labelledby={titleId} onKeyDown={onKeyDown}>
        <div className="ls-form-sheet-head">
          <h2 id={titleId} className="ls-form-sheet-title">
            {el.fe_title}
          </h2>
          <button type="button" className="ls-form-icon-button" aria-label={texts.close} onClick={onClose}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <div className="ls-form-search">
          <label htmlFor={searchId} className="ls-form-search-label">
            {texts.search}
          </label>
          <input
            ref={search}
            id={searchId}
            type="search"
            role="combobox"
            className="ls-form-input ls-form-search-input"
            autoComplete="off"
            value={query}
            aria-autocomplete="list"
            aria-expanded="true"
            aria-controls={listId}
            aria-activedescendant={nav.active >= 0 && nav.active < shown.length ? optionId(listId, nav.active) : undefined}
            onChange={(e) => {
              setQuery(e.target.value);
              nav.setActive(0);
            }}
            onKeyDown={(e) => nav.onKey(e, pick)}
          />
        </div>
        <OptionList id={listId} index={index} shown={shown} active={nav.active} chosenIndex={chosenIndex} labelledBy={titleId} onPick={pick} className="ls-form-sheet-list" />
        <Note text={index.entries.length ? searchNote(texts, locale, matched, total) : texts.noItems} />
        {chosenIndex >= 0 || asString(props.value) ? (
          <div className="ls-form-sheet-foot">
            <button
              type="button"
              className="ls-form-text-button"
              onClick={() => {
                emit(el.fe_name, '');
                onClose();
              }}
            >
              {texts.clear}
            </button>
          </div>
        ) : null}
      </div>
    </div>
  );
}
