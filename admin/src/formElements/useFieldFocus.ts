import { useCallback, useState } from 'react';

/** Where the element editor should put the focus: its first error or its title. */
export type FieldFocus = { key: string; n: number; target: 'error' | 'title' };

/** Asks the element editor to focus (`n` counts the requests, so the same request twice is seen twice). */
export function useFieldFocus(): [FieldFocus | null, (key: string, target: FieldFocus['target']) => void] {
  const [focus, setFocus] = useState<FieldFocus | null>(null);
  const focusOn = useCallback((key: string, target: FieldFocus['target']) => setFocus((f) => ({ key, n: (f?.n ?? 0) + 1, target })), []);
  return [focus, focusOn];
}
