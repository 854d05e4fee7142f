import { useLayoutEffect, useState } from 'react';

/**
 * An element's laid-out width, kept up to date (undefined where it cannot be measured, e.g. without ResizeObserver),
 * and the callback ref to put on it (the element may appear after a loading state).
 */
export function useOwnWidth(): [number | undefined, (node: HTMLElement | null) => void] {
  const [node, setNode] = useState<HTMLElement | null>(null);
  const [width, setWidth] = useState<number | undefined>(undefined);
  useLayoutEffect(() => {
    if (!node || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      const w = node.getBoundingClientRect().width;
      setWidth(w > 0 ? Math.round(w) : undefined);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(node);
    return () => observer.disconnect();
  }, [node]);
  return [width, setNode];
}
