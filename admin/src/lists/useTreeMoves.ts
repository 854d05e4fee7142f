import { useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { LIST_MAX_DEPTH } from '../../../resources/listItems';
import type { ListApi } from './listApi';
import { findPlace, subtreeHeight, type ListItemNode, type Move } from './listTree';

type Translate = (key: string, options?: Record<string, unknown>) => string;

interface Deps {
  client: ListApi;
  tree: ListItemNode[] | null;
  setTree: Dispatch<SetStateAction<ListItemNode[] | null>>;
  canUpdate: boolean;
  /** Reads the tree again (after a failed call, to show what is stored). */
  reload: () => Promise<void>;
  expand: (id: string) => void;
  announce: (text: string) => void;
  failure: (e: unknown) => string;
  translate: Translate;
}

/**
 * Moving items (by drag and drop or by keyboard): shown at once, stored in the background one call after another (a
 * quick series of moves arrives in order); a move the list's depth does not allow, or a failed call, is the `notice`.
 */
export function useTreeMoves({ client, tree, setTree, canUpdate, reload, expand, announce, failure, translate }: Deps) {
  const [notice, setNotice] = useState<string | undefined>();
  const moveQueue = useRef<Promise<unknown>>(Promise.resolve());

  /** Runs API calls one after another, reloading after a failure. */
  const enqueue = (work: () => Promise<unknown>) => {
    moveQueue.current = moveQueue.current.then(work).catch(async (e) => {
      setNotice(failure(e));
      await reload();
    });
    return moveQueue.current;
  };

  function applyMove(move: Move | undefined) {
    if (!move || !canUpdate || !tree) return;
    const place = findPlace(tree, move.id)!;
    const parentDepth = move.toParentId === null ? 0 : findPlace(tree, move.toParentId)!.depth;
    if (parentDepth + subtreeHeight(place.node) > LIST_MAX_DEPTH) {
      setNotice(translate('error_list_too_deep'));
      return;
    }
    setNotice(undefined);
    setTree(move.tree);
    if (move.toParentId) expand(move.toParentId);
    announce(translate('ls.lists.moved', { title: place.node.li_title }));
    const ids = move.siblings.map((n) => n.li_id);
    void enqueue(async () => {
      if (move.fromParentId !== move.toParentId) {
        await client.reparent(move.id, move.toParentId);
        // The server puts a moved item last among its new siblings.
        if (move.toIndex === ids.length - 1) return;
      }
      await client.order(ids);
    });
  }

  return { notice, setNotice, applyMove };
}
