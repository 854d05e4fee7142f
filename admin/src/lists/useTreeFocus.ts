import { useEffect, useRef, useState, type RefObject } from 'react';
import { rowIndexOf, type Row } from './treeRows';

/**
 * The row with the keyboard focus (the tree's one tab stop). `focusRow` moves it there after the next render: the row
 * is scrolled into the window first (so it renders), then focused. `focusAfterRender` asks the same for the focused row.
 */
export function useTreeFocus(rows: readonly Row[], window: { start: number; end: number; scrollToIndex: (index: number) => void; ref: RefObject<HTMLDivElement | null> }) {
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const focusAfterRender = useRef(false);
  const { start, end, scrollToIndex, ref } = window;

  const focusRow = (id: string | null) => {
    if (!id) return;
    setFocusedId(id);
    focusAfterRender.current = true;
  };

  useEffect(() => {
    if (!focusAfterRender.current || !focusedId) return;
    const index = rowIndexOf(rows, focusedId);
    if (index >= 0 && (index < start || index >= end)) return scrollToIndex(index);
    focusAfterRender.current = false;
    const el = [...(ref.current?.querySelectorAll<HTMLElement>('[data-id]') ?? [])].find((x) => x.dataset.id === focusedId);
    if (el) {
      if (index >= 0) scrollToIndex(index);
      el.focus({ preventScroll: true });
    }
  });

  /** The row that takes Tab: the focused one when it is in the window, else the window's first item. */
  const inWindow = rows.slice(start, end);
  const tabbable = inWindow.some((r) => r.kind === 'node' && r.node.li_id === focusedId)
    ? focusedId
    : (inWindow.find((r) => r.kind === 'node') as (Row & { kind: 'node' }) | undefined)?.node.li_id;

  return { focusedId, setFocusedId, focusRow, focusAfterRender, tabbable };
}
