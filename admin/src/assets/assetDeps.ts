import { putWithProgress } from '../uploads/transfer';
import { assetsApi } from './assetsApi';
import type { AssetJobDeps, ReplaceDeps } from './assetUpload';
import { makeThumbnail } from './thumbnail';

/** What the upload screens call: the account's API, the storage PUT with progress, the browser's thumbnail. Tests pass fakes. */
export interface UploaderDeps extends AssetJobDeps {
  thumbnail(file: File, type: string): Promise<Blob | null>;
}

export function realUploaderDeps(accountId: string): UploaderDeps {
  return {
    sign: (ids) => assetsApi.sign(accountId, ids),
    put: (url, blob, onProgress) => putWithProgress(url, blob, onProgress),
    create: (body) => assetsApi.create(accountId, body),
    thumbnail: (file, type) => makeThumbnail(file, type),
  };
}

export function realReplaceDeps(accountId: string): ReplaceDeps {
  return {
    sign: (ids) => assetsApi.sign(accountId, ids),
    put: (url, blob, onProgress) => putWithProgress(url, blob, onProgress),
    thumbnail: (file, type) => makeThumbnail(file, type),
    replace: (id, fields) => assetsApi.replaceFile(accountId, id, fields),
  };
}
