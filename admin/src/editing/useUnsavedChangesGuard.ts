import { useEffect } from 'react';

/** While `unsaved`, leaving or reloading the page asks first (the browser's own question). */
export function useUnsavedChangesGuard(unsaved: boolean): void {
  useEffect(() => {
    if (!unsaved) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);
}
