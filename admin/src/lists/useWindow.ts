import { useCallback, useLayoutEffect, useRef, useState, type UIEvent } from 'react';

/**
 * Windowing for a list of fixed-height rows: which rows are in (or near) the scrolled viewport, so a tree of 5,000
 * items renders a screenful of them. The scroll box is `ref`; rows are placed absolutely at index * rowHeight inside
 * a spacer of totalHeight. Where the box has no measured height (no layout, as in jsdom) `fallbackHeight` is used.
 */
export function useWindow(count: number, rowHeight: number, fallbackHeight: number, overscan = 8) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(fallbackHeight);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setViewport(el.clientHeight || fallbackHeight);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [fallbackHeight]);

  const onScroll = useCallback((e: UIEvent<HTMLDivElement>) => setScrollTop(e.currentTarget.scrollTop), []);

  /** Scrolls just enough for row `index` to be in view. */
  const scrollToIndex = useCallback(
    (index: number) => {
      const el = ref.current;
      if (!el) return;
      const top = index * rowHeight;
      const height = el.clientHeight || fallbackHeight;
      if (top < el.scrollTop) el.scrollTop = top;
      else if (top + rowHeight > el.scrollTop + height) el.scrollTop = top + rowHeight - height;
      setScrollTop(el.scrollTop);
    },
    [rowHeight, fallbackHeight],
  );

  const start = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const end = Math.min(count, Math.ceil((scrollTop + viewport) / rowHeight) + overscan);
  return { ref, onScroll, start, end, totalHeight: count * rowHeight, scrollToIndex };
}
