import { useGetList, useGetManyAggregate } from 'react-admin';

/** The referenced record with `key` = value, when `needed` (not among the records already loaded). */
export function useChosenRecord(reference: string, key: string, value: string | null | undefined, needed: boolean): Record<string, unknown>[] {
  const byId = needed && key === 'id';
  const byKey = needed && key !== 'id';
  const { data: withId = [] } = useGetManyAggregate(reference, { ids: byId ? [value] : [] }, { enabled: byId });
  const { data: withKey = [] } = useGetList(reference, { pagination: { page: 1, perPage: 1 }, sort: { field: 'id', order: 'ASC' }, filter: { [key]: value } }, { enabled: byKey });
  return byId ? withId : byKey ? withKey : [];
}
