import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import QRCode from 'qrcode';
import { AdminContext, type DataProvider, type I18nProvider } from 'react-admin';
import { MemoryRouter } from 'react-router';
import { addConsoleTexts, addReactAdminTexts, i18nReady } from '../../admin/src/i18n';
import { ConsoleContext } from '../../admin/src/console/ConsoleContext';
import { AssetUploader } from '../../admin/src/assets/AssetUploader';
import { AssetPicker } from '../../admin/src/assets/AssetPicker';
import { AssetFilePanel } from '../../admin/src/assets/AssetEdit';
import type { AssetRecord } from '../../admin/src/assets/assetsApi';
import { realUploaderDeps, type UploaderDeps } from '../../admin/src/assets/assetDeps';
import type { ReplaceDeps } from '../../admin/src/assets/assetUpload';
import {
  assetErrorOf,
  checkFields,
  identifierFrom,
  nameFromFilename,
  runAssetJob,
  titleFromFilename,
  uniqueName,
  uploadAssetBytes,
  AssetUploadError,
} from '../../admin/src/assets/assetUpload';
import { thumbSize } from '../../admin/src/assets/thumbnail';
import { ApiRequestError } from '../../admin/src/providers/http';
import { qrMatrix, qrPath, qrSvg, playerUrl, QUIET_ZONE } from '../../admin/src/codes/qr';
import { CodeQrPanel } from '../../admin/src/codes/CodeQr';
import { setSession } from '../../admin/src/providers/session';
import { ACCOUNT, mountConsole, sessionAs, type Row } from '../helpers/consoleScreens';

let i18nProvider: I18nProvider;
beforeAll(async () => {
  localStorage.setItem('RaStore.locale', JSON.stringify('en'));
  i18nProvider = await i18nReady();
  await addReactAdminTexts();
  await addConsoleTexts();
});

const PATH = `/assets/${ACCOUNT}/2026/11`;
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const file = (name: string, type: string, size = 10) => new File([new Uint8Array(size).fill(65)], name, { type });

describe('asset names and errors', () => {
  it('takes a title and an identifier from a file name, and keeps names of one upload apart', () => {
    expect(titleFromFilename('Hall map 2026.PNG')).toBe('Hall map 2026');
    expect(titleFromFilename('stand__12.jpg')).toBe('stand 12');
    expect(titleFromFilename('.png')).toBe('.png');
    expect(nameFromFilename('Hall map é 2026.PNG')).toBe('hall-map-e-2026');
    expect(nameFromFilename('2026 keynote.mp4')).toBe('keynote');
    expect(nameFromFilename('€€€.pdf')).toBe('asset');
    expect(nameFromFilename(`${'a'.repeat(80)}.png`)).toHaveLength(63);
    expect(identifierFrom('Stand 12 — Hall B')).toBe('stand-12-hall-b');
    expect(uniqueName('logo', new Set(['logo', 'logo-2']))).toBe('logo-3');
    expect(uniqueName('x'.repeat(63), new Set(['x'.repeat(63)]))).toBe(`${'x'.repeat(61)}-2`);
    expect(thumbSize(1200, 800)).toEqual({ width: 320, height: 213 });
    expect(thumbSize(100, 50)).toEqual({ width: 100, height: 50 });
    expect(thumbSize(300, 3000)).toEqual({ width: 32, height: 320 });
  });

  it('says what went wrong in the words of the API, and whether the stored bytes can still be registered', () => {
    const taken = assetErrorOf(new ApiRequestError(409, { code: 'name_taken', fields: { as_name: 'error_name_taken' } }), 'register');
    expect(taken).toMatchObject({ key: 'error_name_taken', fields: { as_name: 'error_name_taken' }, retryable: true, keepsUpload: true });
    const type = assetErrorOf(new ApiRequestError(400, { code: 'asset_type_not_allowed', fields: { fs_filename: 'error_asset_type_not_allowed' } }), 'register');
    expect(type).toMatchObject({ key: 'error_asset_type_not_allowed', retryable: false, keepsUpload: false });
    expect(assetErrorOf({ code: 'file_type_not_allowed' }, 'storage').key).toBe('error_asset_type_not_allowed');
    expect(assetErrorOf({ code: 'file_too_large' }, 'storage')).toMatchObject({ key: 'error_file_too_large', retryable: false });
    expect(assetErrorOf(new ApiRequestError(400, { code: 'asset_upload_not_found', fields: { as_fileid: 'error_upload_not_found' } }), 'register')).toMatchObject({
      key: 'error_upload_not_found',
      retryable: true,
      keepsUpload: false,
    });
    expect(assetErrorOf(new ApiRequestError(500, { code: 'unknown_error' }), 'register')).toMatchObject({ key: 'error_upload_failed', keepsUpload: true });
    expect(assetErrorOf(new TypeError('Failed to fetch'), 'register')).toMatchObject({ key: 'error_network', keepsUpload: true });
    expect(assetErrorOf('<Error/>', 'storage').key).toBe('error_upload_storage_failed');
  });

  it('checks a title and name before sending with the create rules of the declaration (resources/assets.ts)', () => {
    expect(checkFields('Hall map', 'hall-map')).toEqual({});
    expect(checkFields('  ', '')).toEqual({ as_title: 'error_required', as_name: 'error_required' });
    expect(checkFields('Hall map', '2026-map')).toEqual({ as_name: 'error_identifier_invalid' });
    expect(checkFields('x'.repeat(501), 'Map')).toEqual({ as_title: 'error_too_long', as_name: 'error_identifier_invalid' });
  });
});

/** Fake upload dependencies: what was signed, PUT and registered, with answers by file name. */
function fakeDeps(answers: { create?: (body: Row) => Promise<Row>; put?: (url: string) => Promise<{ status: number; body: unknown }>; maxBytes?: number } = {}) {
  const calls = { sign: [] as string[][], put: [] as { url: string; type: string; size: number }[], create: [] as Row[] };
  let n = 0;
  const deps: UploaderDeps = {
    async sign(ids) {
      calls.sign.push(ids);
      return ids.map((id) => ({ id, url: `http://storage.test${PATH}/${id}?signature=x`, path: PATH, expires_at: '', max_bytes: answers.maxBytes ?? 1000 }));
    },
    async put(url, blob, onProgress) {
      calls.put.push({ url, type: blob.type, size: blob.size });
      onProgress(0.5);
      const answer = answers.put ? await answers.put(url) : { status: 200, body: { code: 'ok' } };
      onProgress(1);
      return answer;
    },
    async create(fields) {
      const body = fields as unknown as Row;
      calls.create.push(body);
      if (answers.create) return (await answers.create(body)) as never;
      n++;
      return { ...body, id: `asset-${n}`, as_id: `asset-${n}`, as_version: 1, kind: 'image', url: `/storage${PATH}/${body.as_fileid}?v=1`, thumbnail_url: null } as never;
    },
    thumbnail: async (f) => (f.type.startsWith('image/') ? new Blob(['thumb'], { type: 'image/webp' }) : null),
  };
  return { deps, calls };
}

describe('asset upload pipeline', () => {
  it('signs the file and its thumbnail together, PUTs both, and registers the file with the thumbnail', async () => {
    const { deps, calls } = fakeDeps();
    const thumb = new Blob(['tiny'], { type: 'image/webp' });
    const progress: number[] = [];
    const fields = await uploadAssetBytes(file('Hall map.png', 'image/png', 100), thumb, deps, (p) => progress.push(p));
    expect(calls.sign).toHaveLength(1);
    const [fileId, thumbId] = calls.sign[0];
    expect(fields).toEqual({ as_fileid: fileId, fs_filename: 'Hall map.png', fs_type: 'image/png', fs_path: PATH, as_thumb_fileid: thumbId });
    expect(calls.put.map((p) => [p.url.split('?')[0].split('/').pop(), p.type])).toEqual([
      [fileId, 'image/png'],
      [thumbId, 'image/webp'],
    ]);
    // Progress over all bytes, ending at 1.
    expect(progress.at(-1)).toBe(1);
    expect(progress.every((p, i) => i === 0 || p >= progress[i - 1])).toBe(true);
  });

  it('leaves out a thumbnail that fails to arrive, refuses too large a file before sending it, and a type no asset may have before signing', async () => {
    const failingThumb = fakeDeps({ put: async (url) => (url.includes(calls2()) ? { status: 500, body: '' } : { status: 200, body: {} }) });
    let thumbUrlPart = '';
    const calls2 = () => thumbUrlPart;
    failingThumb.deps.sign = async (ids) => {
      thumbUrlPart = ids[1];
      return ids.map((id) => ({ id, url: `http://storage.test${PATH}/${id}`, path: PATH, expires_at: '', max_bytes: 1000 }));
    };
    const fields = await uploadAssetBytes(file('a.png', 'image/png'), new Blob(['t'], { type: 'image/jpeg' }), failingThumb.deps);
    expect(fields.as_thumb_fileid).toBeNull();

    const { deps, calls } = fakeDeps({ maxBytes: 50 });
    await expect(uploadAssetBytes(file('big.png', 'image/png', 51), null, deps)).rejects.toMatchObject({ key: 'error_file_too_large', retryable: false });
    expect(calls.put).toHaveLength(0);
    await expect(uploadAssetBytes(file('list.csv', 'text/csv'), null, deps)).rejects.toMatchObject({ key: 'error_asset_type_not_allowed' });
    expect(calls.sign).toHaveLength(1);
  });

  it('a taken name keeps the stored bytes: the retry registers them again without signing or sending', async () => {
    let first = true;
    const { deps, calls } = fakeDeps({
      create: async (body) => {
        if (first) {
          first = false;
          throw new ApiRequestError(409, { code: 'name_taken', message: 'taken', fields: { as_name: 'error_name_taken' } });
        }
        return { ...body, id: 'a1' };
      },
    });
    const job = { file: file('logo.png', 'image/png'), title: 'Logo', name: 'logo', thumb: null as Blob | null, uploaded: undefined as never };
    let kept: unknown;
    const error = await runAssetJob(job, deps, (p) => ('uploaded' in p ? (kept = p.uploaded) : undefined)).catch((e) => e);
    expect(error).toBeInstanceOf(AssetUploadError);
    expect(error.fields).toEqual({ as_name: 'error_name_taken' });
    expect(kept).toBeTruthy();
    const asset = await runAssetJob({ ...job, name: 'logo-2', uploaded: kept as never }, deps, () => undefined);
    expect(asset.id).toBe('a1');
    expect(calls.sign).toHaveLength(1);
    expect(calls.put).toHaveLength(1);
    expect(calls.create.map((c) => [c.as_name, c.as_fileid])).toEqual([
      ['logo', calls.sign[0][0]],
      ['logo-2', calls.sign[0][0]],
    ]);
    // A title or name the form refuses is never sent.
    await expect(runAssetJob({ ...job, title: ' ', name: 'Bad Name' }, deps, () => undefined)).rejects.toMatchObject({
      fields: { as_title: 'error_required', as_name: 'error_identifier_invalid' },
    });
    expect(calls.create).toHaveLength(2);
  });
});

/** XMLHttpRequest as putWithProgress uses it (the storage server's PUT). */
class FakeXhr {
  static sent: { url: string; name: string; type: string }[] = [];
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  responseText = '';
  private url = '';
  private type = '';
  open(_m: string, url: string) {
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    if (name.toLowerCase() === 'content-type') this.type = value;
  }
  abort() {}
  send(body: Blob) {
    FakeXhr.sent.push({ url: this.url, name: body instanceof File ? body.name : 'thumbnail', type: this.type });
    setTimeout(() => {
      this.upload.onprogress?.({ lengthComputable: true, loaded: Math.ceil(body.size / 2), total: body.size });
      setTimeout(() => {
        this.status = 200;
        this.responseText = '{"code":"ok"}';
        this.onload?.();
      }, 5);
    }, 5);
  }
}

describe('asset uploader (the console screen, against a fake API)', () => {
  let registered: Row[];
  let taken: Set<string>;
  let signed: string[][];

  beforeEach(() => {
    registered = [];
    signed = [];
    taken = new Set(['hall-map']);
    FakeXhr.sent = [];
    document.cookie = 'ls.csrf-token=test-token; path=/';
    let blobs = 0;
    URL.createObjectURL = vi.fn(() => `blob:thumb-${++blobs}`);
    URL.revokeObjectURL = vi.fn();
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
        const url = String(input);
        const body = init.body ? JSON.parse(String(init.body)) : undefined;
        if (url === `/api/1/accounts/${ACCOUNT}/assets/sign`) {
          signed.push(body.ids);
          return json(
            200,
            body.ids.map((id: string) => ({ id, url: `http://storage.test${PATH}/${id}?s=1`, path: PATH, expires_at: '', max_bytes: 5000 })),
          );
        }
        if (url === `/api/1/accounts/${ACCOUNT}/assets` && init.method === 'POST') {
          registered.push(body);
          if (taken.has(body.as_name)) return json(409, { code: 'name_taken', message: 'This name is already in use', fields: { as_name: 'error_name_taken' } });
          taken.add(body.as_name);
          return json(201, {
            ...body,
            id: `id-${body.as_name}`,
            as_id: `id-${body.as_name}`,
            as_version: 1,
            kind: 'image',
            url: `/storage${PATH}/${body.as_fileid}?v=1`,
            thumbnail_url: body.as_thumb_fileid ? `/storage${PATH}/${body.as_thumb_fileid}` : null,
          });
        }
        return json(404, { code: 'not_found' });
      }),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  function renderUploader() {
    const onUploaded = vi.fn();
    const thumbnail = vi.fn(async (f: File, _type: string) => (f.type.startsWith('image/') ? new Blob(['thumb'], { type: 'image/webp' }) : null));
    render(
      <MemoryRouter>
        <AdminContext i18nProvider={i18nProvider}>
          <AssetUploader accountId={ACCOUNT} onUploaded={onUploaded} deps={{ ...realUploaderDeps(ACCOUNT), thumbnail }} />
        </AdminContext>
      </MemoryRouter>,
    );
    const user = userEvent.setup({ applyAccept: false });
    const rows = () => screen.queryAllByTestId('asset-upload-item');
    const row = (name: string) => rows().find((r) => within(r).getByTestId('asset-upload-name').textContent === name)!;
    const pick = (files: File[]) => user.upload(screen.getByTestId('asset-upload-input') as HTMLInputElement, files);
    return { user, rows, row, pick, onUploaded, thumbnail };
  }

  it('queues picked and dropped files with a thumbnail, a title and a unique name each; a file no asset may be is refused at once', async () => {
    const { rows, row, pick, thumbnail } = renderUploader();
    await pick([file('Hall map.png', 'image/png'), file('hall_map.jpg', 'image/jpeg'), file('visitors.csv', 'text/csv')]);
    fireEvent.drop(screen.getByTestId('asset-dropzone'), { dataTransfer: { files: [file('Teaser.mp4', 'video/mp4')] } });
    expect(rows().map((r) => within(r).getByTestId('asset-upload-name').textContent)).toEqual(['Hall map.png', 'hall_map.jpg', 'visitors.csv', 'Teaser.mp4']);
    const value = (name: string, id: string) => (within(row(name)).getByTestId(id) as HTMLInputElement).value;
    expect([value('Hall map.png', 'asset-upload-title'), value('Hall map.png', 'asset-upload-asset-name')]).toEqual(['Hall map', 'hall-map']);
    // Two files of one upload never get the same name.
    expect(value('hall_map.jpg', 'asset-upload-asset-name')).toBe('hall_map');
    expect(value('Teaser.mp4', 'asset-upload-asset-name')).toBe('teaser');
    expect(row('visitors.csv').dataset.status).toBe('failed');
    expect(within(row('visitors.csv')).getByTestId('asset-upload-state').textContent).toContain('This type of file cannot be an asset');
    // The browser's thumbnails of the others, shown before the upload.
    await waitFor(() => expect(row('Hall map.png').querySelector('img')?.getAttribute('src')).toMatch(/^blob:thumb-/));
    expect(thumbnail.mock.calls.map(([f, type]) => [f.name, type])).toEqual([
      ['Hall map.png', 'image/png'],
      ['hall_map.jpg', 'image/jpeg'],
      ['Teaser.mp4', 'video/mp4'],
    ]);
    expect(screen.getByTestId('asset-start-upload').textContent).toBe('Upload 3 files');
    expect(signed).toHaveLength(0);
  });

  it('uploads each file with its thumbnail and progress; a taken name shows under its field and, once changed, registers the same bytes', async () => {
    const { user, row, pick, onUploaded } = renderUploader();
    await pick([file('Hall map.png', 'image/png'), file('dock.jpg', 'image/jpeg')]);
    await user.click(screen.getByTestId('asset-start-upload'));
    await waitFor(() => expect(screen.getAllByTestId('asset-upload-progress').length).toBeGreaterThan(0));
    await waitFor(() => expect(screen.getByTestId('asset-upload-summary').textContent).toBe('1 asset uploaded · 1 file not uploaded'));

    expect(row('dock.jpg').dataset.status).toBe('done');
    expect(onUploaded).toHaveBeenCalledTimes(1);
    expect(onUploaded.mock.calls[0][0]).toMatchObject({ id: 'id-dock', as_title: 'dock' });
    // Each file signed with its thumbnail; both PUT; registered with the thumbnail's id.
    expect(signed.map((ids) => ids.length)).toEqual([2, 2]);
    const dock = registered.find((r) => r.as_name === 'dock')!;
    expect(dock).toMatchObject({ as_title: 'dock', fs_filename: 'dock.jpg', fs_type: 'image/jpeg', fs_path: PATH });
    const dockIds = signed.find((ids) => ids[0] === dock.as_fileid)!;
    expect(dock.as_thumb_fileid).toBe(dockIds[1]);
    expect(FakeXhr.sent.filter((s) => s.url.includes(dockIds[0]) || s.url.includes(dockIds[1])).map((s) => s.type)).toEqual(['image/jpeg', 'image/webp']);

    // The taken name: the error under the name field, the title and the stored bytes kept.
    const hall = row('Hall map.png');
    expect(hall.dataset.status).toBe('failed');
    const nameInput = within(hall).getByTestId('asset-upload-asset-name') as HTMLInputElement;
    expect(nameInput.getAttribute('aria-invalid')).toBe('true');
    expect(within(hall).getAllByText('This name is already in use').length).toBeGreaterThan(0);
    expect((within(hall).getByTestId('asset-upload-title') as HTMLInputElement).value).toBe('Hall map');
    await user.clear(nameInput);
    await user.type(nameInput, 'hall-map-2026');
    expect(row('Hall map.png').dataset.status).toBe('queued');
    const putsBefore = FakeXhr.sent.length;
    await user.click(screen.getByTestId('asset-start-upload'));
    await waitFor(() => expect(row('Hall map.png').dataset.status).toBe('done'));
    expect(signed).toHaveLength(2);
    expect(FakeXhr.sent).toHaveLength(putsBefore);
    const tries = registered.filter((r) => r.fs_filename === 'Hall map.png');
    expect(tries.map((r) => r.as_name)).toEqual(['hall-map', 'hall-map-2026']);
    expect(tries[1].as_fileid).toBe(tries[0].as_fileid);
    expect(onUploaded).toHaveBeenCalledTimes(2);
    expect(screen.getByTestId('asset-upload-summary').textContent).toBe('2 assets uploaded');
  });

  it('does not send a title or name the form refuses', async () => {
    const { user, row, pick } = renderUploader();
    await pick([file('a.png', 'image/png')]);
    const name = within(row('a.png')).getByTestId('asset-upload-asset-name');
    await user.clear(name);
    await user.type(name, '9 Lives');
    await user.click(screen.getByTestId('asset-start-upload'));
    await waitFor(() => expect(row('a.png').dataset.status).toBe('failed'));
    expect(within(row('a.png')).getAllByText('Use lower-case letters, digits, - and _, starting with a letter (at most 63)').length).toBeGreaterThan(0);
    expect(signed).toHaveLength(0);
    expect(registered).toHaveLength(0);
  });
});

describe("replacing an asset's file (the edit page's file panel)", () => {
  afterEach(cleanup);

  const asset = {
    id: 'a1',
    as_id: 'a1',
    as_title: 'Hall map',
    as_name: 'hall-map',
    as_version: 1,
    as_filename: 'hall-map.png',
    as_sha256: 'f'.repeat(64),
    kind: 'image',
    url: `/storage${PATH}/f1?v=1`,
    thumbnail_url: null,
  } as unknown as AssetRecord;

  /** Fake dependencies: PUT answers from `puts` in turn (an Error is a dropped connection), the API's replacement from `replace`. */
  function renderPanel(puts: (Error | number)[], replace: () => Promise<AssetRecord> = async () => ({ ...asset, as_version: 2 })) {
    const calls = { put: 0, replace: 0 };
    const deps: ReplaceDeps = {
      sign: async (ids) => ids.map((id) => ({ id, url: `http://storage.test${PATH}/${id}`, path: PATH, expires_at: '', max_bytes: 100 })),
      async put(_url, _blob, onProgress) {
        const answer = puts[calls.put++] ?? 200;
        if (answer instanceof Error) throw answer;
        onProgress(1);
        return { status: answer, body: answer === 200 ? { code: 'ok' } : { code: 'unknown_error' } };
      },
      thumbnail: async () => null,
      replace: () => {
        calls.replace++;
        return replace();
      },
    };
    render(
      <MemoryRouter>
        <AdminContext i18nProvider={i18nProvider}>
          <ConsoleContext.Provider value={{ accountId: ACCOUNT, role: 'root' }}>
            <AssetFilePanel asset={asset} deps={deps} />
          </ConsoleContext.Provider>
        </AdminContext>
      </MemoryRouter>,
    );
    const user = userEvent.setup({ applyAccept: false });
    // Choosing a file asks first (what shows the asset will change); "Replace" goes on.
    const pick = async (f: File) => {
      await user.upload(await screen.findByTestId('asset-replace-input'), f);
      const confirm = await screen.findByTestId('asset-replace-confirm');
      expect(confirm.textContent).toContain(f.name);
      await user.click(within(confirm).getByTestId('asset-replace-go'));
    };
    return { calls, user, pick };
  }

  it('offers "Try again" after a failure a retry can mend, and the retry sends the same file', async () => {
    const { calls, user, pick } = renderPanel([new Error('network')]);
    await pick(file('hall-map-v2.png', 'image/png'));
    const alert = await screen.findByTestId('asset-replace-error');
    expect(alert.textContent).toContain('Failed to upload the asset to the storage server (check server log)');
    expect(calls.replace).toBe(0);
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(calls.replace).toBe(1));
    expect(calls.put).toBe(2);
    await waitFor(() => expect(screen.queryByTestId('asset-replace-error')).toBeNull());
  });

  it('choosing a file asks first: cancelled, nothing is uploaded', async () => {
    const { calls, user } = renderPanel([]);
    await user.upload(await screen.findByTestId('asset-replace-input'), file('hall-map-v2.png', 'image/png'));
    const confirm = await screen.findByTestId('asset-replace-confirm');
    expect(confirm.textContent).toContain('Everything that shows this asset will show the new file');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('asset-replace-confirm')).toBeNull());
    expect(calls).toEqual({ put: 0, replace: 0 });
  });

  it('offers no retry when the file itself is refused or the caller may not replace it', async () => {
    await renderPanel([]).pick(file('huge.png', 'image/png', 500));
    const tooLarge = await screen.findByTestId('asset-replace-error');
    expect(tooLarge.textContent).toContain('The file is too large');
    expect(within(tooLarge).queryByRole('button')).toBeNull();
    cleanup();

    const { calls, pick } = renderPanel([], async () => {
      throw new ApiRequestError(403, { code: 'forbidden', message: 'no' });
    });
    await pick(file('hall-map-v2.png', 'image/png'));
    const forbidden = await screen.findByTestId('asset-replace-error');
    expect(forbidden.textContent).toContain('You do not have permission to do this');
    expect(within(forbidden).queryByRole('button')).toBeNull();
    expect(calls.replace).toBe(1);
  });
});

/** Asset n's id (a v4 UUID, as the form's rule wants). */
const A = (n: number) => `0b7e4f6e-2c1d-4c61-9d55-0c0f4e1a2b${String(n).padStart(2, '0')}`;
const ASSETS: Row[] = Array.from({ length: 30 }, (_, i) => {
  const kind = i % 3 === 2 ? 'video' : 'image';
  const n = String(i + 1).padStart(2, '0');
  return {
    id: A(i + 1),
    as_id: A(i + 1),
    as_title: `${kind === 'video' ? 'Clip' : 'Photo'} ${n}`,
    as_name: `${kind}-${n}`,
    as_type: kind === 'video' ? 'video/mp4' : 'image/png',
    kind,
    url: `/storage/x/${A(i + 1)}?v=1`,
    thumbnail_url: null,
    as_version: 1,
  };
});

/** A data provider with assets: prefix search over title and name, as_type as a list, sorted pages. */
function assetsProvider(rows: Row[]) {
  const lists: Row[] = [];
  const provider = {
    async getList(_resource: string, params: { pagination: { page: number; perPage: number }; filter: Row }) {
      lists.push(params.filter);
      const q = String(params.filter.q ?? '').toLowerCase();
      const types = params.filter.as_type as string[] | undefined;
      const found = rows
        .filter((r) => !q || String(r.as_title).toLowerCase().startsWith(q) || String(r.as_name).startsWith(q))
        .filter((r) => !types || types.includes(String(r.as_type)))
        .sort((a, b) => String(a.as_title).localeCompare(String(b.as_title)));
      const { page, perPage } = params.pagination;
      return { data: found.slice((page - 1) * perPage, page * perPage), total: found.length };
    },
    async getMany(_resource: string, params: { ids: string[] }) {
      return { data: rows.filter((r) => params.ids.includes(String(r.id))) };
    },
  } as unknown as DataProvider;
  return { provider, lists };
}

describe('AssetPicker', () => {
  afterEach(cleanup);

  function renderPicker(initial: string | null, kinds?: string[]) {
    const { provider, lists } = assetsProvider(ASSETS);
    const changes: (string | null)[] = [];
    function Host() {
      const [value, setValue] = useState<string | null>(initial);
      return (
        <AssetPicker
          value={value}
          kinds={kinds}
          label="Next button image"
          onChange={(id) => {
            changes.push(id);
            setValue(id);
          }}
        />
      );
    }
    render(
      <MemoryRouter>
        <AdminContext dataProvider={provider} i18nProvider={i18nProvider}>
          <ConsoleContext.Provider value={{ accountId: ACCOUNT, role: 'root' }}>
            <Host />
          </ConsoleContext.Provider>
        </AdminContext>
      </MemoryRouter>,
    );
    return { user: userEvent.setup(), changes, lists };
  }

  it('shows the chosen asset, chooses another from a searchable grid by keyboard, and clears', async () => {
    const { user, changes } = renderPicker(A(2));
    await screen.findByText('Photo 02');
    expect(screen.getByRole('group', { name: 'Next button image' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Change…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Next button image' });
    // 24 a page, sorted by title; the current one marked.
    await waitFor(() => expect(within(dialog).getAllByRole('option')).toHaveLength(24));
    expect(within(dialog).getByTestId('asset-picker-range').textContent).toBe('1–24 of 30');
    expect(
      within(dialog)
        .getByRole('option', { name: /Photo 02/ })
        .getAttribute('aria-selected'),
    ).toBe('true');
    // The search field has the focus: typing searches, the Down arrow enters the grid, arrows move, Enter chooses.
    expect(document.activeElement).toBe(within(dialog).getByTestId('asset-picker-search'));
    await user.keyboard('photo 1');
    await waitFor(() =>
      expect(
        within(dialog)
          .getAllByRole('option')
          .map((o) => o.textContent?.slice(0, 8)),
      ).toEqual(['Photo 10', 'Photo 11', 'Photo 13', 'Photo 14', 'Photo 16', 'Photo 17', 'Photo 19']),
    );
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Photo 10image-10'));
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(document.activeElement?.textContent).toBe('Photo 13image-13');
    await user.keyboard('{ArrowLeft}{End}');
    expect(document.activeElement?.textContent).toBe('Photo 19image-19');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(changes).toEqual([A(19)]);
    expect(screen.getByTestId('asset-picker-title').textContent).toBe('Photo 19');
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(changes).toEqual([A(19), null]);
    expect(screen.getByTestId('asset-picker-title').textContent).toBe('No asset chosen');
  });

  it('offers only the kinds asked for, page by page', async () => {
    const { user, changes, lists } = renderPicker(null, ['video']);
    expect(screen.getByTestId('asset-picker-title').textContent).toBe('No asset chosen');
    expect(screen.queryByRole('button', { name: 'Clear' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Choose…' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Only: Video')).toBeTruthy();
    await waitFor(() => expect(within(dialog).getAllByRole('option')).toHaveLength(10));
    expect(lists.at(-1)).toEqual({ as_type: ['video/mp4', 'video/webm'] });
    expect(
      within(dialog)
        .getAllByRole('option')
        .every((o) => o.textContent?.startsWith('Clip')),
    ).toBe(true);
    // Ten videos fit one page: no pager.
    expect(within(dialog).queryByTestId('asset-picker-next')).toBeNull();
    await user.click(within(dialog).getByRole('option', { name: /Clip 06/ }));
    expect(changes).toEqual([A(6)]);
  });

  it('pages through more than 24 assets', async () => {
    const { user } = renderPicker(null);
    await user.click(screen.getByRole('button', { name: 'Choose…' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getAllByRole('option')).toHaveLength(24));
    // "Next" at once after opening: no search is pending, so nothing sends the grid back to page 1 afterwards.
    await user.click(within(dialog).getByTestId('asset-picker-next'));
    await waitFor(() => expect(within(dialog).getAllByRole('option')).toHaveLength(6));
    await new Promise((r) => setTimeout(r, 400)); // longer than the search's 250 ms pause
    expect(within(dialog).getAllByRole('option')).toHaveLength(6);
    expect(within(dialog).getByTestId('asset-picker-range').textContent).toBe('25–30 of 30');
    expect((within(dialog).getByTestId('asset-picker-next') as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(dialog).getByTestId('asset-picker-search'));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('is the generated form input of asset fields: a variant shows its button image and saves the one picked', async () => {
    const variant: Row = {
      id: 'v1',
      v_carouselid: 'c1',
      v_title: 'Portrait',
      v_name: 'portrait',
      v_width: 1080,
      v_height: 1920,
      v_x: 0,
      v_y: 0,
      v_autoplay: true,
      v_default_duration_ms: 8000,
      v_infinite: true,
      v_navigation_enabled: true,
      v_next_assetid: A(1),
    };
    const { user, data } = mountConsole(
      sessionAs('root', 'root'),
      '/variants/v1',
      { variants: [variant], carousels: [{ id: 'c1', c_title: 'Welcome', c_name: 'welcome' }], assets: ASSETS },
      i18nProvider,
    );
    const next = await screen.findByTestId('asset-input-v_next_assetid');
    await within(next).findByText('Photo 01');
    const prev = screen.getByTestId('asset-input-v_prev_assetid');
    expect(within(prev).getByText('No asset chosen')).toBeTruthy();
    await user.click(within(prev).getByRole('button', { name: 'Choose…' }));
    const dialog = await screen.findByRole('dialog');
    // Button images are images: no clips offered.
    await waitFor(() => expect(within(dialog).getAllByRole('option')).toHaveLength(20));
    await user.click(within(dialog).getByRole('option', { name: /Photo 05/ }));
    await within(prev).findByText('Photo 05');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(data.calls.find((c) => c.method === 'update')).toBeTruthy());
    const update = data.calls.find((c) => c.method === 'update')!.params as { data: Row };
    expect(update.data).toMatchObject({ v_next_assetid: A(1), v_prev_assetid: A(5) });
    setSession(null);
  });
});

describe('code QR', () => {
  afterEach(cleanup);

  it("draws the modules of the player's address, and the SVG download is the same picture", () => {
    const url = playerUrl('M9PKHFKR4J', 'https://leadstage.example');
    expect(url).toBe('https://leadstage.example/play/M9PKHFKR4J');
    const m = qrMatrix(url);
    const reference = QRCode.create(url, { errorCorrectionLevel: 'M' }).modules;
    expect(m.size).toBe(reference.size);
    // The path has one unit square per dark module, at its place plus the quiet zone.
    const squares = [...qrPath(m).matchAll(/M(\d+) (\d+)h1v1h-1z/g)].map(([, x, y]) => `${Number(y) - QUIET_ZONE},${Number(x) - QUIET_ZONE}`);
    const dark: string[] = [];
    for (let r = 0; r < reference.size; r++) for (let c = 0; c < reference.size; c++) if (reference.get(r, c)) dark.push(`${r},${c}`);
    expect(squares).toEqual(dark);
    const svg = qrSvg(url, { title: 'Totem <entrance>' });
    expect(svg).toContain(`viewBox="0 0 ${m.size + 8} ${m.size + 8}"`);
    expect(svg).toContain('<title>Totem &lt;entrance&gt;</title>');
    expect(svg).toContain(qrPath(m));
  });

  it('the panel shows the QR, the code and the address, opens the player, and prints a sheet with the title', () => {
    render(
      <AdminContext i18nProvider={i18nProvider}>
        <CodeQrPanel code="M9PKHFKR4J" title="Totem at the entrance" />
      </AdminContext>,
    );
    const url = `${window.location.origin}/play/M9PKHFKR4J`;
    const panel = screen.getByTestId('code-qr-panel');
    expect(within(panel).getByRole('img', { name: 'QR code of the player for code M9PKHFKR4J' }).getAttribute('data-text')).toBe(url);
    expect(within(panel).getByTestId('code-value').textContent).toBe('M9PKHFKR4J');
    expect(within(panel).getByRole('link', { name: 'Open player' }).getAttribute('href')).toBe(url);
    expect(within(panel).getByTestId('code-player-url').textContent).toBe(url);
    for (const name of ['PNG', 'SVG', 'Print']) expect(within(panel).getByRole('button', { name })).toBeTruthy();
    // The print sheet lives outside the page's layout, hidden on screen.
    const sheet = screen.getByTestId('code-print');
    expect(sheet.parentElement).toBe(document.body);
    expect(sheet.textContent).toContain('Totem at the entrance');
    expect(sheet.textContent).toContain('M9PKHFKR4J');
  });
});
