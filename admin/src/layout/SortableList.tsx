import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import { useTranslate } from 'react-admin';
import { moveItem } from './sortable';

export interface SortableListProps<T extends { id: string }> {
  /** The items in their stored order. */
  items: readonly T[];
  nameOf: (item: T) => string;
  /** Reordering is offered (the update bit). */
  canMove: boolean;
  /** The list's accessible name. */
  label: string;
  /** Stores a new order (every id); a rejection puts the previous order back. */
  onCommit: (ids: string[]) => Promise<void>;
  /** A row's content after its drag handle (title, buttons). */
  renderRow: (item: T, index: number) => ReactNode;
  testId?: string;
}

interface PointerDrag {
  id: string;
  pointerId: number;
  from: number;
  to: number;
  startY: number;
  started: boolean;
  /** Each row's top and bottom relative to the list, when the drag began. */
  rects: { top: number; bottom: number }[];
}

const HELP_ID = 'sortable-move-help';

/**
 * A short ordered list whose rows move by dragging their handle (mouse, pen or finger: pointer events with capture; a
 * line shows where the row lands) or by keyboard on the handle (Space or Enter lifts, arrows, Home and End move, Space or
 * Enter drops, Escape or Tab puts it back; Alt+arrow moves one place at once). Each finished move is one onCommit with
 * every id; while it is stored the list shows the new order, and a failure puts the old one back. Moves are announced
 * in a polite live region.
 */
export function SortableList<T extends { id: string }>({ items, nameOf, canMove, label, onCommit, renderRow, testId }: SortableListProps<T>) {
  const translate = useTranslate();
  const [override, setOverride] = useState<string[] | null>(null);
  const [lifted, setLifted] = useState<{ id: string; original: string[] } | null>(null);
  const [drag, setDrag] = useState<{ id: string; to: number; dy: number } | null>(null);
  const [saving, setSaving] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const listRef = useRef<HTMLUListElement>(null);
  const pointer = useRef<PointerDrag | null>(null);
  const handles = useRef(new Map<string, HTMLButtonElement>());

  const stored = items.map((i) => i.id);
  const storedKey = stored.join(',');
  // A new stored order (after a save or a refetch) replaces what was shown.
  useEffect(() => {
    setOverride(null);
  }, [storedKey]);
  const order = (override ?? stored).filter((id) => stored.includes(id));
  const byId = new Map(items.map((i) => [i.id, i]));
  const shown = order.map((id) => byId.get(id)!).filter(Boolean);
  const name = (id: string) => {
    const item = byId.get(id);
    return item ? nameOf(item) : '';
  };

  // The lifted row's handle keeps the focus while React moves its row.
  useLayoutEffect(() => {
    if (lifted) handles.current.get(lifted.id)?.focus();
  });

  async function commit(next: string[], previous: string[], moved: string) {
    if (next.join(',') === previous.join(',')) return;
    setOverride(next);
    setSaving(true);
    try {
      await onCommit(next);
      setAnnouncement(translate('ls.sortable.saved', { name: name(moved), position: next.indexOf(moved) + 1, count: next.length }));
    } catch (e) {
      setOverride(null);
      setAnnouncement(translate('ls.sortable.failed', { reason: e instanceof Error ? e.message : '' }));
    } finally {
      setSaving(false);
    }
  }

  function onKeyDown(e: KeyboardEvent<HTMLButtonElement>, id: string) {
    const index = order.indexOf(id);
    const count = order.length;
    const step = e.key === 'ArrowUp' ? -1 : e.key === 'ArrowDown' ? 1 : e.key === 'Home' ? -index : e.key === 'End' ? count - 1 - index : 0;
    const drop = e.key === ' ' || e.key === 'Enter';
    if (lifted?.id === id) {
      if (step) {
        e.preventDefault();
        const to = Math.max(0, Math.min(count - 1, index + step));
        setOverride(moveItem(order, index, to));
        setAnnouncement(translate('ls.sortable.position', { name: name(id), position: to + 1, count }));
      } else if (drop) {
        e.preventDefault();
        setLifted(null);
        setAnnouncement(translate('ls.sortable.dropped', { name: name(id), position: index + 1, count }));
        void commit(order, lifted.original, id);
      } else if (e.key === 'Escape') {
        e.preventDefault();
        cancelLift();
      }
      return;
    }
    if (saving) {
      if (drop || (e.altKey && step)) {
        e.preventDefault();
        setAnnouncement(translate('ls.sortable.busy'));
      }
      return;
    }
    if (e.altKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
      e.preventDefault();
      const to = Math.max(0, Math.min(count - 1, index + step));
      if (to !== index) void commit(moveItem(order, index, to), order, id);
    } else if (drop) {
      e.preventDefault();
      setLifted({ id, original: order });
      setAnnouncement(translate('ls.sortable.lifted', { name: name(id), position: index + 1, count }));
    }
  }

  function cancelLift() {
    if (!lifted) return;
    const back = lifted.original;
    setLifted(null);
    setOverride(null);
    setAnnouncement(translate('ls.sortable.cancelled', { name: name(lifted.id), position: back.indexOf(lifted.id) + 1 }));
  }

  function onPointerDown(e: PointerEvent<HTMLButtonElement>, id: string) {
    if (!canMove || saving || lifted || (e.pointerType === 'mouse' && e.button !== 0) || !listRef.current) return;
    const top = listRef.current.getBoundingClientRect().top;
    const rows = [...listRef.current.querySelectorAll<HTMLElement>(':scope > li')];
    pointer.current = {
      id,
      pointerId: e.pointerId,
      from: order.indexOf(id),
      to: order.indexOf(id),
      startY: e.clientY,
      started: false,
      rects: rows.map((r) => {
        const b = r.getBoundingClientRect();
        return { top: b.top - top, bottom: b.bottom - top };
      }),
    };
    // No text selection while dragging; the handle takes the focus a press would have given it.
    e.preventDefault();
    e.currentTarget.focus();
    e.currentTarget.setPointerCapture(e.pointerId);
  }

  function onPointerMove(e: PointerEvent<HTMLButtonElement>) {
    const p = pointer.current;
    if (!p || e.pointerId !== p.pointerId || !listRef.current) return;
    const dy = e.clientY - p.startY;
    if (!p.started && Math.abs(dy) < 4) return;
    p.started = true;
    const y = e.clientY - listRef.current.getBoundingClientRect().top;
    // The new place: how many of the other rows lie above the pointer (by their middles).
    p.to = p.rects.filter((r, i) => i !== p.from && (r.top + r.bottom) / 2 < y).length;
    setDrag({ id: p.id, to: p.to, dy });
  }

  function onPointerUp(e: PointerEvent<HTMLButtonElement>) {
    const p = pointer.current;
    if (!p || e.pointerId !== p.pointerId) return;
    pointer.current = null;
    setDrag(null);
    if (p.started && p.to !== p.from) {
      const next = moveItem(order, p.from, p.to);
      setAnnouncement(translate('ls.sortable.dropped', { name: name(p.id), position: p.to + 1, count: order.length }));
      void commit(next, order, p.id);
    }
  }

  function onPointerCancel() {
    pointer.current = null;
    setDrag(null);
  }

  // Where the line shows while dragging: below the row the dragged one would follow (or above the first).
  let lineTop: number | undefined;
  if (drag && pointer.current) {
    const others = pointer.current.rects.filter((_, i) => i !== pointer.current!.from);
    lineTop = drag.to === 0 ? (others[0]?.top ?? 0) - 2 : (others[drag.to - 1]?.bottom ?? 0) + 2;
  }

  return (
    <Box sx={{ position: 'relative' }}>
      <Box component="ul" ref={listRef} aria-label={label} data-testid={testId} sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 1 }}>
        {shown.map((item, index) => {
          const isDragged = drag?.id === item.id;
          const isLifted = lifted?.id === item.id;
          return (
            <Box
              component="li"
              key={item.id}
              data-id={item.id}
              sx={{
                display: 'flex',
                alignItems: 'center',
                gap: 1,
                minHeight: 56,
                pl: canMove ? 0.5 : 2,
                pr: 1,
                border: 1,
                borderColor: isLifted ? 'primary.main' : 'divider',
                borderRadius: 1,
                bgcolor: 'background.paper',
                boxShadow: isDragged || isLifted ? 4 : 0,
                transform: isDragged ? `translateY(${drag!.dy}px)` : undefined,
                position: 'relative',
                zIndex: isDragged ? 2 : undefined,
                minWidth: 0,
              }}
            >
              {canMove && (
                <IconButton
                  ref={(node: HTMLButtonElement | null) => {
                    if (node) handles.current.set(item.id, node);
                    else handles.current.delete(item.id);
                  }}
                  aria-label={translate('ls.sortable.move', { name: nameOf(item) })}
                  aria-describedby={HELP_ID}
                  aria-pressed={isLifted}
                  onKeyDown={(e) => onKeyDown(e, item.id)}
                  onBlur={() => lifted?.id === item.id && cancelLift()}
                  onPointerDown={(e) => onPointerDown(e, item.id)}
                  onPointerMove={onPointerMove}
                  onPointerUp={onPointerUp}
                  onPointerCancel={onPointerCancel}
                  sx={{ cursor: drag ? 'grabbing' : 'grab', touchAction: 'none' }}
                  data-testid="sortable-handle"
                >
                  <DragIndicatorIcon />
                </IconButton>
              )}
              {renderRow(item, index)}
            </Box>
          );
        })}
      </Box>
      {lineTop !== undefined && (
        <Box
          data-testid="sortable-drop-line"
          sx={{ position: 'absolute', left: 0, right: 0, top: lineTop - 1, height: 3, bgcolor: 'primary.main', borderRadius: 1, pointerEvents: 'none' }}
        />
      )}
      <Box id={HELP_ID} sx={{ display: 'none' }}>
        {translate('ls.sortable.help')}
      </Box>
      <Box role="status" aria-live="polite" data-testid="sortable-announcer" sx={visuallyHidden}>
        {announcement}
      </Box>
    </Box>
  );
}

const visuallyHidden = { position: 'absolute', width: '1px', height: '1px', p: 0, m: '-1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap', border: 0 } as const;
