import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import ErrorIcon from '@mui/icons-material/ErrorOutlineOutlined';
import { isDirty, moved, type Draft } from './designerModel';
import { TYPE_ICONS } from './typeIcons';

export type T = (key: string, options?: Record<string, unknown>) => string;

export interface ElementListProps {
  drafts: readonly Draft[];
  selected: string | null;
  canEdit: boolean;
  /** A reorder is being stored: no new one starts until it is done. */
  orderBusy: boolean;
  t: T;
  onSelect: (key: string) => void;
  onDelete: (key: string) => void;
  /** Shows an order without storing it (while an element is lifted by keyboard). */
  onPreviewOrder: (keys: string[]) => void;
  /** Stores the order now shown; `previous` is what to go back to when that fails. */
  onCommitOrder: (keys: string[], previous: string[]) => void;
  announce: (text: string) => void;
}

interface Lifted {
  key: string;
  /** The order before the lift (Escape goes back to it). */
  original: string[];
}

interface PointerDrag {
  key: string;
  pointerId: number;
  from: number;
  to: number;
  startY: number;
  startScroll: number;
  started: boolean;
  row: HTMLElement;
  /** Each row's top and height in the scrolled content's coordinates, taken when the drag starts. */
  rects: { top: number; height: number }[];
  keys: string[];
}

const HELP_ID = 'fd-move-help';

/**
 * The elements in order: select, delete, and reorder by pointer (drag the handle) or keyboard (Space on the handle
 * lifts, arrows move, Space drops, Escape cancels; Alt+arrow moves one place at once). Each finished reorder is one
 * call of onCommitOrder. Rows are memoised: typing in one element redraws only its row.
 */
export const ElementList = memo(function ElementList(props: ElementListProps) {
  const { drafts, selected, canEdit, orderBusy, t, onSelect, onDelete, onPreviewOrder, onCommitOrder, announce } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const indicatorRef = useRef<HTMLDivElement>(null);
  const dragRef = useRef<PointerDrag | null>(null);
  const [lifted, setLifted] = useState<Lifted | null>(null);
  const latest = useRef({ drafts, lifted, orderBusy, onPreviewOrder, onCommitOrder, announce, t });
  useLayoutEffect(() => {
    latest.current = { drafts, lifted, orderBusy, onPreviewOrder, onCommitOrder, announce, t };
  });

  const nameOf = (d: Draft | undefined) => (d?.title.trim() ? d.title : (d?.name ?? ''));
  const keys = () => latest.current.drafts.map((d) => d.key);

  // ---- keyboard

  const onHandleKeyDown = useCallback((e: KeyboardEvent<HTMLButtonElement>, key: string) => {
    const { drafts: list, lifted: up, orderBusy: busy, onPreviewOrder: show, onCommitOrder: commit, announce: say, t: tr } = latest.current;
    const order = list.map((d) => d.key);
    const index = order.indexOf(key);
    const draft = list[index];
    const count = order.length;
    const name = nameOf(draft);
    const step = e.key === 'ArrowUp' ? -1 : e.key === 'ArrowDown' ? 1 : e.key === 'Home' ? -index : e.key === 'End' ? count - 1 - index : 0;
    if (up && up.key === key) {
      if (step !== 0) {
        e.preventDefault();
        const to = Math.max(0, Math.min(count - 1, index + step));
        if (to !== index) show(moved(order, index, to));
        say(tr('position', { name, position: to + 1, count }));
      } else if (e.key === ' ' || e.key === 'Enter') {
        e.preventDefault();
        setLifted(null);
        say(tr('dropped', { name, position: index + 1, count }));
        if (order.join() !== up.original.join()) commit(order, up.original);
      } else if (e.key === 'Escape') {
        e.preventDefault();
        setLifted(null);
        show(up.original);
        say(tr('cancelled', { name, position: up.original.indexOf(key) + 1 }));
      } else if (e.key === 'Tab') {
        setLifted(null);
        show(up.original);
        say(tr('cancelled', { name, position: up.original.indexOf(key) + 1 }));
      }
      return;
    }
    if (e.key === ' ' || e.key === 'Enter') {
      e.preventDefault();
      if (busy) return say(tr('order_busy'));
      setLifted({ key, original: order });
      say(tr('lifted', { name, position: index + 1, count }));
      return;
    }
    if (e.altKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
      e.preventDefault();
      const to = index + step;
      if (to < 0 || to >= count) return;
      if (busy) return say(tr('order_busy'));
      const next = moved(order, index, to);
      show(next);
      commit(next, order);
      say(tr('position', { name, position: to + 1, count }));
    }
  }, []);

  // Leaving the handle while an element is lifted puts it back (the move is not stored).
  const onHandleBlur = useCallback((key: string) => {
    setTimeout(() => {
      const { lifted: up, onPreviewOrder: show } = latest.current;
      if (!up || up.key !== key) return;
      const handle = scrollRef.current?.querySelector<HTMLElement>(`[data-row="${cssEscape(key)}"] .fd-handle`);
      if (handle && document.activeElement === handle) return;
      setLifted(null);
      show(up.original);
    }, 0);
  }, []);

  // Arrows walk the rows (one tab stop for the list), Home and End jump.
  const onSelectKeyDown = useCallback(
    (e: KeyboardEvent<HTMLButtonElement>, key: string) => {
      if (e.altKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
        // the same shortcut as on the handle
        const handle = (e.currentTarget.parentElement as HTMLElement).querySelector<HTMLButtonElement>('.fd-handle');
        if (handle) {
          onHandleKeyDown(e, key);
          requestAnimationFrame(() => (e.target as HTMLElement).isConnected && (e.target as HTMLElement).focus());
        }
        return;
      }
      const buttons = [...(scrollRef.current?.querySelectorAll<HTMLButtonElement>('.fd-select') ?? [])];
      const i = buttons.indexOf(e.currentTarget);
      const target = e.key === 'ArrowDown' ? i + 1 : e.key === 'ArrowUp' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? buttons.length - 1 : -1;
      if (target < 0 || target >= buttons.length || target === i) return;
      e.preventDefault();
      buttons[target].focus();
      buttons[target].scrollIntoView?.({ block: 'nearest' });
    },
    [onHandleKeyDown],
  );

  // ---- pointer

  const onHandlePointerDown = useCallback((e: PointerEvent<HTMLButtonElement>, key: string) => {
    if (e.button !== 0 || !scrollRef.current) return;
    const { orderBusy: busy, announce: say, t: tr } = latest.current;
    if (busy) return say(tr('order_busy'));
    const container = scrollRef.current;
    const rows = [...container.querySelectorAll<HTMLElement>('[data-row]')];
    const from = rows.findIndex((r) => r.dataset.row === key);
    if (from < 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture?.(e.pointerId);
    const box = container.getBoundingClientRect();
    const rects = rows.map((r) => {
      const b = r.getBoundingClientRect();
      return { top: b.top - box.top + container.scrollTop, height: b.height };
    });
    dragRef.current = { key, pointerId: e.pointerId, from, to: from, startY: e.clientY, startScroll: container.scrollTop, started: false, row: rows[from], rects, keys: keys() };
  }, []);

  const onHandlePointerMove = useCallback((e: PointerEvent<HTMLButtonElement>) => {
    const drag = dragRef.current;
    const container = scrollRef.current;
    if (!drag || !container || e.pointerId !== drag.pointerId) return;
    if (!drag.started && Math.abs(e.clientY - drag.startY) < 4) return;
    if (!drag.started) {
      drag.started = true;
      drag.row.classList.add('fd-row--dragging');
    }
    const box = container.getBoundingClientRect();
    // scroll along near the edges of the list
    if (e.clientY < box.top + 32) container.scrollTop -= 12;
    else if (e.clientY > box.bottom - 32) container.scrollTop += 12;
    const dy = e.clientY - drag.startY + (container.scrollTop - drag.startScroll);
    drag.row.style.transform = `translateY(${dy}px)`;
    const y = e.clientY - box.top + container.scrollTop;
    let to = 0;
    drag.rects.forEach((r, i) => {
      if (i !== drag.from && r.top + r.height / 2 < y) to++;
    });
    drag.to = to;
    const indicator = indicatorRef.current;
    if (indicator) {
      if (to === drag.from) indicator.style.display = 'none';
      else {
        // the gap before the row that will follow it, or after the last row
        const others = drag.rects.filter((_, i) => i !== drag.from);
        const top = to < others.length ? others[to].top : others[others.length - 1].top + others[others.length - 1].height;
        indicator.style.display = 'block';
        indicator.style.top = `${top - 1}px`;
      }
    }
  }, []);

  const endDrag = useCallback((commit: boolean) => {
    const drag = dragRef.current;
    dragRef.current = null;
    if (!drag) return;
    drag.row.style.transform = '';
    drag.row.classList.remove('fd-row--dragging');
    if (indicatorRef.current) indicatorRef.current.style.display = 'none';
    if (!commit || !drag.started || drag.to === drag.from) return;
    const { drafts: list, onPreviewOrder: show, onCommitOrder: save, announce: say, t: tr } = latest.current;
    const order = list.map((d) => d.key);
    if (order.join() !== drag.keys.join()) return; // the list changed meanwhile
    const next = moved(order, drag.from, drag.to);
    show(next);
    save(next, order);
    say(tr('dropped', { name: nameOf(list[drag.from]), position: drag.to + 1, count: order.length }));
  }, []);

  const onHandlePointerUp = useCallback(
    (e: PointerEvent<HTMLButtonElement>) => {
      if (dragRef.current?.pointerId === e.pointerId) endDrag(true);
    },
    [endDrag],
  );
  const onHandlePointerCancel = useCallback(
    (e: PointerEvent<HTMLButtonElement>) => {
      if (dragRef.current?.pointerId === e.pointerId) endDrag(false);
    },
    [endDrag],
  );

  useEffect(() => () => endDrag(false), [endDrag]);

  // one handlers object for the life of the list, so no row redraws because a parent passed new callbacks
  const parent = useRef({ onSelect, onDelete });
  useLayoutEffect(() => {
    parent.current = { onSelect, onDelete };
  });
  const [rowHandlers] = useState<RowHandlers>(() => ({
    onSelect: (key) => parent.current.onSelect(key),
    onDelete: (key) => parent.current.onDelete(key),
    onHandleKeyDown,
    onHandleBlur,
    onSelectKeyDown,
    onHandlePointerDown,
    onHandlePointerMove,
    onHandlePointerUp,
    onHandlePointerCancel,
  }));

  const focusKey = selected && drafts.some((d) => d.key === selected) ? selected : drafts[0]?.key;
  return (
    <div className="fd-list-scroll" ref={scrollRef}>
      {canEdit ? (
        <p id={HELP_ID} className="fd-sr">
          {t('move_help')}
        </p>
      ) : null}
      <ol className="fd-list" aria-label={t('list_label')}>
        {drafts.map((d, i) => (
          <ElementRow
            key={d.key}
            draft={d}
            position={i + 1}
            selected={d.key === selected}
            tabStop={d.key === focusKey}
            lifted={lifted?.key === d.key}
            canEdit={canEdit}
            t={t}
            handlers={rowHandlers}
          />
        ))}
      </ol>
      <div ref={indicatorRef} className="fd-drop-indicator" aria-hidden="true" />
    </div>
  );
});

interface RowHandlers {
  onSelect: (key: string) => void;
  onDelete: (key: string) => void;
  onHandleKeyDown: (e: KeyboardEvent<HTMLButtonElement>, key: string) => void;
  onHandleBlur: (key: string) => void;
  onSelectKeyDown: (e: KeyboardEvent<HTMLButtonElement>, key: string) => void;
  onHandlePointerDown: (e: PointerEvent<HTMLButtonElement>, key: string) => void;
  onHandlePointerMove: (e: PointerEvent<HTMLButtonElement>) => void;
  onHandlePointerUp: (e: PointerEvent<HTMLButtonElement>) => void;
  onHandlePointerCancel: (e: PointerEvent<HTMLButtonElement>) => void;
}

interface RowProps {
  draft: Draft;
  position: number;
  selected: boolean;
  tabStop: boolean;
  lifted: boolean;
  canEdit: boolean;
  t: T;
  handlers: RowHandlers;
}

const ElementRow = memo(function ElementRow({ draft, selected, tabStop, lifted, canEdit, t, handlers }: RowProps) {
  const handleRef = useRef<HTMLButtonElement>(null);
  // a lifted row moves in the DOM with each arrow press; keep the focus on its handle
  useLayoutEffect(() => {
    if (lifted && handleRef.current && document.activeElement !== handleRef.current) handleRef.current.focus();
  });
  const Icon = TYPE_ICONS[draft.type];
  const title = draft.title.trim() || t('unnamed');
  const dirty = isDirty(draft);
  const hasErrors = Object.keys(draft.errors).length > 0;
  const classes = ['fd-row', selected ? 'fd-row--selected' : '', lifted ? 'fd-row--lifted' : ''].filter(Boolean).join(' ');
  return (
    <li className={classes} data-row={draft.key}>
      {canEdit ? (
        <button
          ref={handleRef}
          type="button"
          className="fd-handle"
          tabIndex={tabStop ? 0 : -1}
          aria-label={t('move_named', { name: title })}
          aria-describedby={HELP_ID}
          aria-pressed={lifted}
          onKeyDown={(e) => handlers.onHandleKeyDown(e, draft.key)}
          onBlur={() => handlers.onHandleBlur(draft.key)}
          onPointerDown={(e) => handlers.onHandlePointerDown(e, draft.key)}
          onPointerMove={handlers.onHandlePointerMove}
          onPointerUp={handlers.onHandlePointerUp}
          onPointerCancel={handlers.onHandlePointerCancel}
        >
          <DragIndicatorIcon fontSize="small" />
        </button>
      ) : null}
      <button
        type="button"
        className="fd-select"
        tabIndex={tabStop ? 0 : -1}
        aria-current={selected ? 'true' : undefined}
        onClick={() => handlers.onSelect(draft.key)}
        onKeyDown={(e) => handlers.onSelectKeyDown(e, draft.key)}
      >
        <Icon className="fd-type-icon" fontSize="small" aria-hidden="true" />
        <span className="fd-row-text">
          <span className="fd-row-title">
            {title}
            {draft.required ? (
              <span className="fd-required">
                <span aria-hidden="true"> *</span>
                <span className="fd-sr"> ({t('required')})</span>
              </span>
            ) : null}
          </span>
          <span className="fd-row-meta">
            <span className="fd-row-name">{draft.name || '—'}</span>
            <span aria-hidden="true"> · </span>
            <span className="fd-row-type">{t(`types.${draft.type}`)}</span>
          </span>
        </span>
        {hasErrors ? <ErrorIcon className="fd-row-error" fontSize="small" aria-hidden="true" /> : null}
        {dirty ? (
          <span className="fd-dirty" title={t(draft.id ? 'unsaved' : 'new')}>
            <span aria-hidden="true">●</span>
            <span className="fd-sr">, {t(draft.id ? 'unsaved' : 'new')}</span>
          </span>
        ) : null}
      </button>
      {canEdit ? (
        <button type="button" className="fd-delete" tabIndex={tabStop ? 0 : -1} aria-label={t('delete_named', { name: title })} onClick={() => handlers.onDelete(draft.key)}>
          <DeleteIcon fontSize="small" />
        </button>
      ) : null}
    </li>
  );
});

export function cssEscape(value: string): string {
  return typeof CSS !== 'undefined' && typeof CSS.escape === 'function' ? CSS.escape(value) : value.replace(/["\\]/g, '\\$&');
}
