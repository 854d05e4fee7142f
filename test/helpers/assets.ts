import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { TestApp, TestClient } from './app.js';
import { PNG, putBytes } from './storage.js';

type Row = Record<string, unknown>;

/** Signs uploads for new ids in an account (POST /assets/sign), with absolute URLs. */
export async function signAssets(t: TestApp, client: TestClient, accountId: string, count = 1): Promise<{ id: string; url: string; path: string }[]> {
  const ids = Array.from({ length: count }, () => crypto.randomUUID());
  const res = await client.post(`/api/1/accounts/${accountId}/assets/sign`, { ids });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { id: string; url: string; path: string }[]).map((s) => ({ ...s, url: new URL(s.url, t.baseUrl).href }));
}

/** Uploads bytes (and optionally a thumbnail) and answers the file fields of a create or replacement. */
export async function uploadAssetFile(t: TestApp, client: TestClient, accountId: string, bytes: Buffer = PNG, filename = 'picture.png', thumb?: Buffer): Promise<Row> {
  const [file, th] = await signAssets(t, client, accountId, thumb ? 2 : 1);
  expect((await putBytes(file.url, bytes)).status).toBe(200);
  if (thumb) expect((await putBytes(th.url, thumb)).status).toBe(200);
  return { as_fileid: file.id, fs_filename: filename, fs_type: '', fs_path: file.path, ...(thumb ? { as_thumb_fileid: th.id } : {}) };
}

/** Creates an asset through the whole upload path (201 expected) and answers it. */
export async function createAsset(t: TestApp, client: TestClient, accountId: string, fields: Row = {}, bytes: Buffer = PNG, filename = 'picture.png'): Promise<Row> {
  const file = await uploadAssetFile(t, client, accountId, bytes, filename);
  const res = await client.post(`/api/1/accounts/${accountId}/assets`, {
    as_title: `Asset ${crypto.randomUUID().slice(0, 6)}`,
    as_name: `a${crypto.randomUUID().slice(0, 8)}`,
    ...file,
    ...fields,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
