import { useCallback, useState } from 'react';

/** Which items of the tree are open; `expand` opens or closes one. */
export function useExpanded() {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const expand = useCallback(
    (id: string, open = true) =>
      setExpanded((prev) => {
        if (prev.has(id) === open) return prev;
        const next = new Set(prev);
        if (open) next.add(id);
        else next.delete(id);
        return next;
      }),
    [],
  );
  return { expanded, setExpanded, expand };
}
