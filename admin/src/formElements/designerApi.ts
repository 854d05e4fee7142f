import { accountPath } from '../providers/accountPath';
import { api } from '../providers/http';
import type { ListItemNode } from '../../../resources/answers';
import type { ElementRecord, ListRecord } from './designerModel';

/** The form designer's calls (account-console.md section 3: forms, form-elements, lists, list-items). */
export interface DesignerApi {
  /** The form with its elements in order and each element's list tree: GET /forms/{id}/graph. */
  graph(): Promise<{ form: Record<string, unknown>; elements: ElementRecord[] }>;
  /** The account's lists, for the picker. */
  lists(): Promise<ListRecord[]>;
  /** One list's items as a tree: GET /lists/{id}/tree. */
  tree(listId: string): Promise<ListItemNode[]>;
  create(body: Record<string, unknown>): Promise<ElementRecord>;
  update(id: string, body: Record<string, unknown>): Promise<ElementRecord>;
  remove(id: string): Promise<void>;
  /** PUT /form-elements/order: every element of the form, in the new order. */
  order(ids: string[]): Promise<unknown>;
}

export function designerApi(accountId: string, formId: string): DesignerApi {
  const path = (...segments: string[]) => accountPath(accountId, ...segments);
  return {
    graph: () => api(path('forms', formId, 'graph')),
    lists: () => api<ListRecord[]>(path('lists')),
    tree: (listId) => api<ListItemNode[]>(path('lists', listId, 'tree')),
    create: (body) => api<ElementRecord>(path('form-elements'), { method: 'POST', body }),
    update: (id, body) => api<ElementRecord>(path('form-elements', id), { method: 'PUT', body }),
    remove: async (id) => {
      await api(path('form-elements', id), { method: 'DELETE' });
    },
    order: (ids) => api(path('form-elements', 'order'), { method: 'PUT', body: { ids } }),
  };
}
