import { api } from '../providers/http';
import type { Folder } from '../../../resources/folders';
import type { SignedUpload, StoredFile } from '../../../resources/files';

/** The media library's calls (spec 7, /api/1/storage). A folder id of null is the root level. */

export type MediaFolder = Folder & { id: string };
export type MediaFile = StoredFile & { id: string; url: string };
export type SignedEntry = SignedUpload & { expires_at?: string; max_bytes?: number };

const folderPath = (id: string | null) => `/storage/folders/${id ? encodeURIComponent(id) : 'root'}`;

export const mediaApi = {
  folders: (parentId: string | null) => api<MediaFolder[]>(parentId ? folderPath(parentId) : '/storage/folders'),
  /** The folder and its ancestors, root first (the breadcrumb); [] for the root level. */
  parents: (id: string | null) => (id ? api<MediaFolder[]>(`${folderPath(id)}/parents`) : Promise.resolve([] as MediaFolder[])),
  files: (folderId: string | null) => api<MediaFile[]>(`${folderPath(folderId)}/files`),
  createFolder: (fo_title: string, fo_parentid: string | null) => api<MediaFolder>('/storage/folders', { method: 'POST', body: { fo_title, fo_parentid } }),
  renameFolder: (fo_id: string, fo_title: string) => api<MediaFolder>('/storage/folders', { method: 'PUT', body: { fo_id, fo_title } }),
  deleteFolder: (id: string) => api<MediaFolder>(`/storage/folders/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  deleteFile: (id: string) => api<MediaFile>(`/storage/files/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  sign: (ids: string[], destination: string | null) => api<SignedEntry[]>('/storage/sign', { method: 'POST', body: { ids, destination: destination ?? 'root' } }),
  register: (body: { fs_id: string; fs_folderid: string | null; fs_filename: string; fs_type: string; fs_path: string }) =>
    api<MediaFile>('/storage/files', { method: 'POST', body }),
};

/** react-query keys: one family per folder, so a change refreshes exactly what shows it. */
export const mediaKeys = {
  all: ['media'] as const,
  folders: (id: string | null) => ['media', 'folders', id ?? 'root'] as const,
  parents: (id: string | null) => ['media', 'parents', id ?? 'root'] as const,
  files: (id: string | null) => ['media', 'files', id ?? 'root'] as const,
};
