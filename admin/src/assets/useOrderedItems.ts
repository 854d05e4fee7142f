import { useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import { failureText } from '../providers/failure';
import { orderedItems } from './assetsApi';

/**
 * The ordered ids of a collection's assets or a group's carousels (GET/PUT …/assets, …/items), with `store(next)` that
 * saves the complete new order and shows what the server answers. A refused store says why (a toast) and rejects, so
 * the sortable list puts the stored order back. The react-query key is dropped with the account's cache like every other.
 */
export function useOrderedItems(accountId: string, resource: 'collections' | 'carousel-groups', id: string) {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const items = useMemo(() => orderedItems(accountId, resource, id), [accountId, resource, id]);
  const key = useMemo(() => [resource, 'items', id], [resource, id]);
  const { data: ids = [], isPending } = useQuery({ queryKey: key, queryFn: items.read });
  const [saving, setSaving] = useState(false);

  async function store(next: string[]) {
    setSaving(true);
    try {
      queryClient.setQueryData(key, await items.store(next));
    } catch (e) {
      const text = failureText(e, translate);
      notify(text, { type: 'error' });
      throw new Error(text, { cause: e });
    } finally {
      setSaving(false);
    }
  }
  return { ids, isPending, saving, store };
}
