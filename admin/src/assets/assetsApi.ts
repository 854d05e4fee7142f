import { accountPath } from '../providers/accountPath';
import { api } from '../providers/http';
import type { AssetKind } from '../../../resources/assets';

/** The asset calls beyond the generic CRUD (account-console.md: assets, collections, carousel-groups). */

/** An asset as the API answers it (api/services/assets.ts serializeAsset). */
export interface AssetRecord {
  id: string;
  as_id: string;
  as_title: string;
  as_name: string;
  as_type: string;
  as_size: number;
  as_version: number;
  as_fileid: string;
  as_filename: string;
  as_sha256: string;
  as_thumb_fileid: string | null;
  /** The current bytes (carries the version). */
  url: string;
  /** The thumbnail or video poster made at upload, if any. */
  thumbnail_url: string | null;
  kind: AssetKind;
}

export interface SignedAssetUpload {
  id: string;
  url: string;
  path: string;
  expires_at: string;
  max_bytes: number;
}

/** The uploaded file of a create or a replacement (POST /assets, PUT /assets/{id}/file). */
export interface AssetFileFields {
  as_fileid: string;
  fs_filename: string;
  fs_type: string;
  fs_path: string;
  as_thumb_fileid?: string | null;
}

export const assetsApi = {
  sign: (accountId: string, ids: string[]) => api<SignedAssetUpload[]>(accountPath(accountId, 'assets', 'sign'), { method: 'POST', body: { ids } }),
  create: (accountId: string, body: AssetFileFields & { as_title: string; as_name: string }) => api<AssetRecord>(accountPath(accountId, 'assets'), { method: 'POST', body }),
  replaceFile: (accountId: string, id: string, body: AssetFileFields) => api<AssetRecord>(accountPath(accountId, 'assets', id, 'file'), { method: 'PUT', body }),
};

/** An ordered set of ids of a parent (a collection's assets, a group's carousels). */
export interface OrderedItems {
  read(): Promise<string[]>;
  store(ids: string[]): Promise<string[]>;
}

export function orderedItems(accountId: string, resource: 'collections' | 'carousel-groups', id: string): OrderedItems {
  const path = accountPath(accountId, resource, id, resource === 'collections' ? 'assets' : 'items');
  return {
    read: async () => (await api<{ ids: string[] }>(path)).ids,
    store: async (ids) => (await api<{ ids: string[] }>(path, { method: 'PUT', body: { ids } })).ids,
  };
}
