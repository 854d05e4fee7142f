import { useEffect } from 'react';

/** Where the keys belong to what has the focus: a text field keeps its own undo, a dialog its keys. */
const OWN_KEYS = 'input, textarea, select, [contenteditable="true"], [role="dialog"]';

/** While `enabled`: Ctrl/Cmd+Z undoes, Shift+Ctrl/Cmd+Z or Ctrl/Cmd+Y redoes, anywhere on the page but in OWN_KEYS. */
export function useUndoKeys(enabled: boolean, undo: () => void, redo: () => void): void {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      const target = e.target as HTMLElement | null;
      if (target?.closest?.(OWN_KEYS)) return;
      const k = e.key.toLowerCase();
      if (k === 'z' && !e.shiftKey) {
        e.preventDefault();
        undo();
      } else if ((k === 'z' && e.shiftKey) || k === 'y') {
        e.preventDefault();
        redo();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [enabled, undo, redo]);
}
