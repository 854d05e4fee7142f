import { accountPath, accountUrl } from '../providers/accountPath';
import { api, type ApiErrorBody } from '../providers/http';
import type { ListItemNode } from './listTree';

/** The list tree editor's calls (account-console.md: lists, list-items). */

export interface ListItemRecord {
  id: string;
  li_id: string;
  li_listid: string;
  li_parentid: string | null;
  li_title: string;
  li_value: string;
  li_order: number;
}

/** One bad row of an import (POST /lists/{id}/import, 400). */
export interface ListImportRowError {
  row: number;
  code: string;
  title: string;
  value: string;
  parent_value: string;
}

export type ListImportFailure = ApiErrorBody & { errors?: ListImportRowError[] };

export function listApi(accountId: string, listId: string) {
  const items = accountPath(accountId, 'list-items');
  const item = (id: string) => accountPath(accountId, 'list-items', id);
  return {
    tree: (signal?: AbortSignal) => api<ListItemNode[]>(accountPath(accountId, 'lists', listId, 'tree'), { signal }),
    create: (parentId: string | null, title: string) => api<ListItemRecord>(items, { method: 'POST', body: { li_listid: listId, li_parentid: parentId, li_title: title } }),
    rename: (id: string, title: string) => api<ListItemRecord>(item(id), { method: 'PUT', body: { li_title: title } }),
    /** Under another parent (last among its children; then `order` puts it in place). */
    reparent: (id: string, parentId: string | null) => api<ListItemRecord>(item(id), { method: 'PUT', body: { li_parentid: parentId } }),
    /** The complete children of one parent, in their new order. */
    order: (ids: string[]) => api<ListItemRecord[]>(accountPath(accountId, 'list-items', 'order'), { method: 'PUT', body: { ids } }),
    remove: (id: string) => api<ListItemRecord>(item(id), { method: 'DELETE' }),
    exportUrl: accountUrl(accountId, 'lists', listId, 'export.csv'),
    /** The file as multipart field `file`; resolves the success body, rejects with ApiRequestError (rows in body.errors). */
    importFile(file: File): Promise<{ code: 'ok'; rows: number; created: number }> {
      const form = new FormData();
      form.append('file', file, file.name);
      return api(accountPath(accountId, 'lists', listId, 'import'), { method: 'POST', body: form });
    },
  };
}

export type ListApi = ReturnType<typeof listApi>;
