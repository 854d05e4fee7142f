import { useStore } from 'react-admin';
import type { ResourceDeclaration } from '../../../resources/types';

/** The list fields of a declaration, in declaration order: the generated list's columns (DataTable's children). */
export const listFieldsOf = (decl: ResourceDeclaration): string[] =>
  Object.entries(decl.fields ?? {})
    .filter(([, m]) => m.list)
    .map(([f]) => f);

/** Where react-admin's DataTable keeps the hidden columns (and `<key>_columnRanks` their order) of a resource's list. */
export const columnsStoreKey = (resource: string) => `${resource}.datatable`;

/**
 * The columns a list shows, as react-admin's column chooser (ColumnsButton) keeps them: which of the list fields are
 * hidden, and the order (ranks: child indexes in display order). `shown` is null while the list shows every field in
 * declaration order (a saved view then follows later changes to the declaration); `show` sets them from a view.
 */
export function useListColumns(decl: ResourceDeclaration) {
  const key = columnsStoreKey(decl.name);
  const all = listFieldsOf(decl);
  const [hidden, setHidden] = useStore<string[]>(key, []);
  const [ranks, setRanks] = useStore<number[] | undefined>(`${key}_columnRanks`);
  const order = [...(ranks ?? []).filter((i) => i < all.length), ...all.map((_, i) => i).filter((i) => !(ranks ?? []).includes(i))];
  const visible = order.map((i) => all[i]).filter((f) => !hidden.includes(f));
  const shown = visible.length === all.length && visible.every((f, i) => f === all[i]) ? null : visible;
  const show = (columns: string[] | null) => {
    const wanted = (columns ?? all).filter((c) => all.includes(c));
    if (!columns || !wanted.length) {
      setHidden([]);
      setRanks(undefined);
      return;
    }
    setHidden(all.filter((f) => !wanted.includes(f)));
    setRanks([...wanted.map((c) => all.indexOf(c)), ...all.map((_, i) => i).filter((i) => !wanted.includes(all[i]))]);
  };
  return { shown, show, storeKey: key };
}
