import { useCallback, useEffect, useState } from 'react';
import { parentIds, type ListItemNode } from './listTree';
import type { ListApi } from './listApi';

/**
 * The list's items from the API: loaded on mount with every item open, again on request (`expandAll` opens them all
 * again); `loadError` says why the last load failed.
 */
export function useListTree(client: ListApi, failure: (e: unknown) => string, setExpanded: (open: ReadonlySet<string>) => void) {
  const [tree, setTree] = useState<ListItemNode[] | null>(null);
  const [loadError, setLoadError] = useState<string | undefined>();

  const load = useCallback(
    async (signal?: AbortSignal, expandAll = false) => {
      try {
        const nodes = await client.tree(signal);
        setTree(nodes);
        setLoadError(undefined);
        if (expandAll) setExpanded(new Set(parentIds(nodes)));
      } catch (e) {
        if (signal?.aborted) return;
        setLoadError(failure(e));
      }
    },
    [client, failure, setExpanded],
  );

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal, true);
    return () => controller.abort();
  }, [load]);

  return { tree, setTree, loadError, load };
}
