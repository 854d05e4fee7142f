import { useCallback, useEffect, useRef, useState, type Dispatch } from 'react';
import type { ListItemNode } from '../../../resources/answers';
import type { DesignerApi } from './designerApi';
import { isListType, type Draft, type ListRecord } from './designerModel';
import type { Action } from './designerState';

/**
 * The designer's server data: the graph (elements in order with their list trees) into the state, the account's lists
 * for the picker, and each further list an element uses, fetched once.
 */
export function useDesignerData(api: DesignerApi, drafts: Draft[], dispatch: Dispatch<Action>) {
  const [lists, setLists] = useState<ListRecord[] | null>(null);
  const [trees, setTrees] = useState<ReadonlyMap<string, ListItemNode[]>>(() => new Map());
  const treeRequests = useRef(new Set<string>());

  const load = useCallback(() => {
    let live = true;
    dispatch({ type: 'loading' });
    api.graph().then(
      (graph) => {
        if (!live) return;
        const found = new Map<string, ListItemNode[]>();
        for (const el of graph.elements) if (el.fe_listid && Array.isArray(el.items)) found.set(el.fe_listid, el.items);
        for (const id of found.keys()) treeRequests.current.add(id);
        setTrees(found);
        dispatch({ type: 'loaded', records: graph.elements });
      },
      () => live && dispatch({ type: 'failed' }),
    );
    api.lists().then(
      (rows) => live && setLists(rows.map((l) => ({ l_id: String(l.l_id ?? (l as { id?: string }).id), l_title: l.l_title, l_name: l.l_name }))),
      () => live && setLists([]),
    );
    return () => {
      live = false;
    };
  }, [api, dispatch]);
  useEffect(() => load(), [load]);

  // each list an element uses, once
  useEffect(() => {
    for (const d of drafts) {
      const id = d.listId;
      if (!isListType(d.type) || !id || treeRequests.current.has(id)) continue;
      treeRequests.current.add(id);
      api.tree(id).then(
        (items) => setTrees((prev) => new Map(prev).set(id, items)),
        () => {
          treeRequests.current.delete(id);
          setTrees((prev) => new Map(prev).set(id, []));
        },
      );
    }
  }, [drafts, api]);

  return { load, lists, trees };
}
