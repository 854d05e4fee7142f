import { api, API_URL, ApiRequestError, withCsrf, withCsrfRetry, type ApiErrorBody } from '../providers/http';
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
  const base = `/accounts/${encodeURIComponent(accountId)}`;
  const items = `${base}/list-items`;
  return {
    tree: (signal?: AbortSignal) => api<ListItemNode[]>(`${base}/lists/${encodeURIComponent(listId)}/tree`, { signal }),
    create: (parentId: string | null, title: string) => api<ListItemRecord>(items, { method: 'POST', body: { li_listid: listId, li_parentid: parentId, li_title: title } }),
    rename: (id: string, title: string) => api<ListItemRecord>(`${items}/${encodeURIComponent(id)}`, { method: 'PUT', body: { li_title: title } }),
    /** Under another parent (last among its children; then `order` puts it in place). */
    reparent: (id: string, parentId: string | null) => api<ListItemRecord>(`${items}/${encodeURIComponent(id)}`, { method: 'PUT', body: { li_parentid: parentId } }),
    /** The complete children of one parent, in their new order. */
    order: (ids: string[]) => api<ListItemRecord[]>(`${items}/order`, { method: 'PUT', body: { ids } }),
    remove: (id: string) => api<ListItemRecord>(`${items}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    exportUrl: `${API_URL}${base}/lists/${encodeURIComponent(listId)}/export.csv`,
    /** The file as multipart field `file`; resolves the success body, rejects with ApiRequestError (rows in body.errors). */
    async importFile(file: File): Promise<{ code: 'ok'; rows: number; created: number }> {
      const call = async () => {
        const form = new FormData();
        form.append('file', file, file.name);
        const res = await fetch(`${API_URL}${base}/lists/${encodeURIComponent(listId)}/import`, { method: 'POST', credentials: 'include', headers: withCsrf(), body: form });
        let body: unknown;
        try {
          body = await res.json();
        } catch {
          body = undefined;
        }
        if (!res.ok) throw new ApiRequestError(res.status, body && typeof body === 'object' && 'code' in body ? (body as ApiErrorBody) : { code: res.status >= 500 ? 'unknown_error' : 'http_error' });
        return body as { code: 'ok'; rows: number; created: number };
      };
      return withCsrfRetry(call, (e) => (e instanceof ApiRequestError ? { status: e.status, body: e.body } : undefined));
    },
  };
}

export type ListApi = ReturnType<typeof listApi>;
