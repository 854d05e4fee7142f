import { memo, useDeferredValue, useEffect, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent, type RefObject } from 'react';
import { describedBy, GroupShell, ids, type ElementProps } from './Field';
import { Note, SearchBox, searchNote } from './ListSearch';
import { ancestors, asString, asStrings, checkStates, CHECKED, indexList, MIXED, SEARCH_THRESHOLD, toggleChecked, treeRows, type CheckState, type ListIndex } from './model';

const ARIA_CHECKED: Record<CheckState, 'true' | 'false' | 'mixed'> = { 0: 'false', 1: 'true', 2: 'mixed' };

/**
 * checkbox_tree and radio_tree: a tree (role=tree, flat rows with aria-level) with one tab stop. Up/Down move,
 * Right opens a node or goes to its first child, Left closes it or goes to the parent, Home/End jump, Space/Enter
 * check (a parent checks or clears its subtree; a parent whose children are partly checked is mixed) or choose.
 * Nodes start closed except those on the way to a chosen one; above 15 items a search shows the matching nodes
 * with their ancestors.
 */
export const TreeElement = memo(function TreeElement(props: ElementProps) {
  const { el, value, emit, error, id, texts, locale } = props;
  const multiple = el.fe_type === 'checkbox_tree';
  const index = useMemo(() => indexList(el.items), [el.items]);
  const values = useMemo(() => (multiple ? asStrings(value) : []), [multiple, value]);
  const selected = multiple ? '' : asString(value);
  const states = useMemo(() => (multiple ? checkStates(index, new Set(values)) : null), [multiple, index, values]);
  const chosen = useMemo(() => {
    const list = multiple ? values : selected ? [selected] : [];
    return list.map((v) => index.byValue.get(v) ?? -1).filter((i) => i >= 0);
  }, [multiple, values, selected, index]);

  const [expanded, setExpanded] = useState<ReadonlySet<number>>(() => new Set(chosen.flatMap((i) => ancestors(index, i))));
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const searching = deferred.trim() !== '';
  const { rows, total, open } = useMemo(() => treeRows(index, expanded, deferred), [index, expanded, deferred]);

  const [focusAt, setFocusAt] = useState(-1);
  const refs = useRef(new Map<number, HTMLElement>());
  const pendingFocus = useRef(-1);
  const tabStop = rows.includes(focusAt) ? focusAt : (chosen.find((i) => rows.includes(i)) ?? rows[0]);
  useEffect(() => {
    if (pendingFocus.current < 0) return;
    refs.current.get(pendingFocus.current)?.focus();
    pendingFocus.current = -1;
  });
  const moveTo = (i: number | undefined) => {
    if (i === undefined) return;
    setFocusAt(i);
    pendingFocus.current = i;
    refs.current.get(i)?.focus();
  };
  const setOpen = (i: number, on: boolean) => {
    setExpanded((prev) => {
      const next = new Set(prev);
      if (on) next.add(i);
      else next.delete(i);
      return next;
    });
  };

  const activate = (i: number) => {
    setFocusAt(i);
    if (multiple) emit(el.fe_name, toggleChecked(index, values, i));
    else emit(el.fe_name, selected === index.entries[i].value && !el.fe_is_required ? '' : index.entries[i].value);
  };

  const onKeyDown = (e: KeyboardEvent, pos: number) => {
    const i = rows[pos];
    const entry = index.entries[i];
    const parent = entry.children.length > 0;
    switch (e.key) {
      case 'ArrowDown':
        moveTo(rows[pos + 1]);
        break;
      case 'ArrowUp':
        moveTo(rows[pos - 1]);
        break;
      case 'Home':
        moveTo(rows[0]);
        break;
      case 'End':
        moveTo(rows[rows.length - 1]);
        break;
      case 'ArrowRight':
        if (!parent) break;
        if (!open(i)) setOpen(i, true);
        else if (index.entries[rows[pos + 1]]?.parent === i) moveTo(rows[pos + 1]);
        break;
      case 'ArrowLeft':
        if (parent && open(i) && !searching) setOpen(i, false);
        else if (entry.parent >= 0 && rows.includes(entry.parent)) moveTo(entry.parent);
        break;
      case ' ':
      case 'Enter':
        activate(i);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  // the rows get one stable object whose functions are this render's: typing the element's title in the designer
  // redraws the label, not the 200 rows
  const actions = useRef<RowActions>(null!);
  actions.current = {
    activate,
    key: onKeyDown,
    twisty: (i) => {
      setFocusAt(i);
      if (!searching) setOpen(i, !open(i));
    },
  };

  return (
    <GroupShell props={props}>
      {index.entries.length > SEARCH_THRESHOLD ? (
        <SearchBox
          id={`${id}-search`}
          controls={id}
          value={query}
          onChange={setQuery}
          texts={texts}
          onKeyDown={(e) => {
            if (e.key !== 'ArrowDown') return;
            // the rows may still be drawn for an earlier query: move to the first row of the query as typed, and
            // let the effect focus it once it is drawn
            const typed = query === deferred ? rows : treeRows(index, expanded, query).rows;
            if (!typed.length) return;
            e.preventDefault();
            moveTo(typed.includes(tabStop) ? tabStop : typed[0]);
          }}
        />
      ) : null}
      <div
        id={id}
        role="tree"
        className="ls-form-tree"
        aria-labelledby={ids(id).title}
        aria-multiselectable={multiple || undefined}
        aria-required={el.fe_is_required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error)}
      >
        <TreeRows id={id} index={index} rows={rows} states={states} selected={selected} multiple={multiple} tabStop={tabStop} open={open} refs={refs} actions={actions} />
      </div>
      <Note text={index.entries.length ? searchNote(texts, locale, rows.length, total) : texts.noItems} />
    </GroupShell>
  );
});

type RowActions = { activate: (i: number) => void; key: (e: KeyboardEvent, pos: number) => void; twisty: (i: number) => void };

const TreeRows = memo(function TreeRows({
  id,
  index,
  rows,
  states,
  selected,
  multiple,
  tabStop,
  open,
  refs,
  actions,
}: {
  id: string;
  index: ListIndex;
  rows: readonly number[];
  states: readonly CheckState[] | null;
  selected: string;
  multiple: boolean;
  tabStop: number | undefined;
  open: (i: number) => boolean;
  refs: RefObject<Map<number, HTMLElement>>;
  actions: RefObject<RowActions>;
}) {
  return (
    <>
      {rows.map((i, pos) => {
        const entry = index.entries[i];
        const parent = entry.children.length > 0;
        const state = states ? states[i] : selected === entry.value ? CHECKED : 0;
        return (
          <div
            key={i}
            id={`${id}-node-${i}`}
            role="treeitem"
            className="ls-form-tree-row"
            style={{ '--ls-depth': entry.depth } as CSSProperties}
            aria-level={entry.depth + 1}
            aria-posinset={entry.pos}
            aria-setsize={entry.size}
            aria-expanded={parent ? open(i) : undefined}
            aria-checked={multiple ? ARIA_CHECKED[state] : undefined}
            aria-selected={multiple ? undefined : state === CHECKED}
            tabIndex={i === tabStop ? 0 : -1}
            ref={(node) => {
              if (node) refs.current.set(i, node);
              else refs.current.delete(i);
            }}
            onClick={() => actions.current.activate(i)}
            onKeyDown={(e) => actions.current.key(e, pos)}
          >
            <span
              className={`ls-form-tree-twisty${parent ? '' : ' ls-form-tree-twisty--leaf'}`}
              aria-hidden="true"
              onClick={(e) => {
                if (!parent) return;
                e.stopPropagation();
                actions.current.twisty(i);
              }}
            />
            <span
              className={`ls-form-tree-box ls-form-tree-box--${multiple ? 'checkbox' : 'radio'}`}
              data-state={state === CHECKED ? 'on' : state === MIXED ? 'mixed' : 'off'}
              aria-hidden="true"
            />
            <span className="ls-form-tree-title">{entry.title}</span>
          </div>
        );
      })}
    </>
  );
});
