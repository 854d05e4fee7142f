import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, testDataProvider, type I18nProvider } from 'react-admin';
// The same react-router module instance as the screens (react-admin's own TestMemoryRouter may resolve another copy under Vitest).
import { MemoryRouter } from 'react-router';
import { Uploader } from '../../admin/src/media/Uploader';
import MediaPage from '../../admin/src/media/MediaPage';
import { fileKind, hasThumbnail } from '../../admin/src/media/fileKinds';
import { formatBytes } from '../../admin/src/media/format';
import { uploadErrorKey } from '../../admin/src/media/upload';
import { REGISTER_FAILED, STORAGE_FAILED } from '../../admin/src/uploads/transfer';
import { ApiRequestError } from '../../admin/src/providers/http';
import { setSession, type Session } from '../../admin/src/providers/session';
import { addReactAdminTexts, i18nReady } from '../../admin/src/i18n';
import en from '../../admin/src/i18n/en';
import nl from '../../admin/src/i18n/nl';
import { createTranslator, type Messages } from '../../admin/src/i18n/tiny';
import { STORAGE_MESSAGES } from '../../resources/files';
import { grantsOf } from '../../resources/permissions';

let i18nProvider: I18nProvider;
beforeAll(async () => {
  localStorage.setItem('RaStore.locale', JSON.stringify('en'));
  i18nProvider = await i18nReady();
  await addReactAdminTexts();
});

const PATH = '/files/2026/11';
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** What the fake API and the fake storage server saw. */
interface Calls {
  sign: { ids: string[]; destination: string }[];
  put: { url: string; name: string; contentType: string }[];
  register: Record<string, unknown>[];
}
let calls: Calls;
/** How the fake storage server answers a PUT, by file name: a status with a body, or 'network' for a dropped connection. */
let putAnswer: Record<string, { status: number; body: unknown } | 'network'>;
/** How the fake API answers a registration, by file name. */
let registerAnswer: Record<string, { status: number; body: unknown }>;

/** XMLHttpRequest as the uploader uses it: open, setRequestHeader, upload.onprogress, onload/onerror, send. */
class FakeXhr {
  static instances: FakeXhr[] = [];
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  responseText = '';
  private url = '';
  private headers: Record<string, string> = {};
  constructor() {
    FakeXhr.instances.push(this);
  }
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  abort() {}
  send(file: File) {
    calls.put.push({ url: this.url, name: file.name, contentType: this.headers['content-type'] });
    const answer = putAnswer[file.name] ?? { status: 200, body: { code: 'ok', size: file.size } };
    setTimeout(() => {
      this.upload.onprogress?.({ lengthComputable: true, loaded: Math.ceil(file.size / 2), total: file.size });
      setTimeout(() => {
        if (answer === 'network') return this.onerror?.();
        this.upload.onprogress?.({ lengthComputable: true, loaded: file.size, total: file.size });
        this.status = answer.status;
        this.responseText = JSON.stringify(answer.body);
        this.onload?.();
      }, 5);
    }, 5);
  }
}

/** The files the fake API lists per folder, and its folders. */
let listed: { folders: unknown[]; files: unknown[] };

function fakeFetch(input: RequestInfo | URL, init: RequestInit = {}) {
  const url = String(input);
  const method = init.method ?? 'GET';
  const body = init.body ? JSON.parse(String(init.body)) : undefined;
  if (url === '/api/1/storage/sign' && method === 'POST') {
    calls.sign.push(body);
    return Promise.resolve(
      json(
        200,
        body.ids.map((id: string) => ({ id, url: `http://storage.test${PATH}/${id}?signature=x`, path: PATH, max_bytes: 1000 })),
      ),
    );
  }
  if (url === '/api/1/storage/files' && method === 'POST') {
    calls.register.push(body);
    const answer = registerAnswer[body.fs_filename];
    if (answer) return Promise.resolve(json(answer.status, answer.body));
    const ext = body.fs_filename.split('.').pop();
    return Promise.resolve(json(201, { ...body, id: body.fs_id, fs_extension: ext, fs_size: 10, url: `/storage${body.fs_path}/${body.fs_id}` }));
  }
  if (/^\/api\/1\/storage\/folders(\/root)?$/.test(url) && method === 'GET') return Promise.resolve(json(200, listed.folders));
  if (url === '/api/1/storage/folders/root/files') return Promise.resolve(json(200, listed.files));
  return Promise.resolve(json(404, { code: 'not_found', message: `no fake for ${method} ${url}` }));
}

beforeEach(() => {
  calls = { sign: [], put: [], register: [] };
  putAnswer = {};
  registerAnswer = {};
  listed = { folders: [], files: [] };
  FakeXhr.instances = [];
  document.cookie = 'ls.csrf-token=test-token; path=/';
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const file = (name: string, type: string, size = 10) => new File([new Uint8Array(size).fill(65)], name, { type });

function renderUploader(onUploaded = vi.fn()) {
  render(
    <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider}>
      <Uploader folderId="0b7f3c1e-8a8e-4f7e-9a53-0f7f3b9d2c11" folderName="Keynotes" onUploaded={onUploaded} />
    </AdminContext>,
  );
  const user = userEvent.setup({ applyAccept: false });
  const rows = () => screen.queryAllByTestId('upload-item');
  const row = (name: string) => rows().find((r) => within(r).getByTestId('upload-name').textContent === name)!;
  const pick = (files: File[]) => user.upload(screen.getByTestId('upload-input') as HTMLInputElement, files);
  return { user, rows, row, pick, onUploaded };
}

describe('media uploader (spec 4)', () => {
  it('takes picked and dropped files into a list where each can be removed before the upload', async () => {
    const { user, rows, row, pick } = renderUploader();
    expect(screen.getByText('Upload to Keynotes')).toBeTruthy();
    expect(rows()).toHaveLength(0);
    expect(screen.queryByTestId('start-upload')).toBeNull();

    await pick([file('a.png', 'image/png'), file('b.jpg', 'image/jpeg')]);
    fireEvent.drop(screen.getByTestId('dropzone'), { dataTransfer: { files: [file('c.pdf', 'application/pdf')] } });
    expect(rows().map((r) => within(r).getByTestId('upload-name').textContent)).toEqual(['a.png', 'b.jpg', 'c.pdf']);
    expect(row('a.png').textContent).toContain('Ready to upload');
    expect(screen.getByTestId('start-upload').textContent).toBe('Upload 3 files');

    await user.click(within(row('b.jpg')).getByRole('button', { name: 'Remove b.jpg from the list' }));
    expect(rows().map((r) => within(r).getByTestId('upload-name').textContent)).toEqual(['a.png', 'c.pdf']);
    expect(screen.getByTestId('start-upload').textContent).toBe('Upload 2 files');
    // Nothing was sent yet.
    expect(calls.sign).toHaveLength(0);
    expect(FakeXhr.instances).toHaveLength(0);
  });

  it('signs, PUTs with progress and registers each file; a failing file is skipped with its error and the rest go on', async () => {
    const onUploaded = vi.fn();
    const { user, row, pick } = renderUploader(onUploaded);
    putAnswer['broken.pdf'] = 'network';
    putAnswer['tool.csv'] = { status: 415, body: { code: 'file_type_not_allowed', message: 'This type of file is not allowed' } };
    putAnswer['refused.mp4'] = { status: 500, body: '<Error>InternalError</Error>' };
    registerAnswer['fake.png'] = {
      status: 400,
      body: { code: 'file_content_mismatch', message: 'The contents of the file do not match its type', fields: { fs_type: 'error_file_content_mismatch' } },
    };
    registerAnswer['lost.txt'] = { status: 500, body: { code: 'unknown_error', message: 'An unknown error occured.' } };

    await pick([
      file('first.png', 'image/png'),
      file('dropped-later.png', 'image/png'),
      file('broken.pdf', 'application/pdf'),
      file('fake.png', 'image/png'),
      file('tool.csv', 'text/csv'),
      file('refused.mp4', 'video/mp4'),
      file('lost.txt', 'text/plain'),
      file('huge.png', 'image/png', 2000),
      file('second.jpg', 'image/jpeg'),
    ]);
    await user.click(within(row('dropped-later.png')).getByRole('button', { name: /Remove/ }));
    await user.click(screen.getByTestId('start-upload'));

    // A progress bar while the bytes go out.
    await waitFor(() => expect(screen.getAllByTestId('upload-progress').length).toBeGreaterThan(0));
    await waitFor(() => expect(screen.getByTestId('upload-summary').textContent).toBe('2 files uploaded · 6 files failed'), { timeout: 5000 });

    // One sign call for every file still in the list, into the current folder; the removed file went nowhere.
    expect(calls.sign).toHaveLength(1);
    expect(calls.sign[0].ids).toHaveLength(8);
    expect(calls.sign[0].destination).toBe('0b7f3c1e-8a8e-4f7e-9a53-0f7f3b9d2c11');
    const sent = calls.put.map((p) => p.name).sort();
    // The oversized file is refused before its bytes go out (the signed entry says max_bytes 1000).
    expect(sent).toEqual(['broken.pdf', 'fake.png', 'first.png', 'lost.txt', 'refused.mp4', 'second.jpg', 'tool.csv']);
    expect(calls.put.find((p) => p.name === 'first.png')).toMatchObject({ contentType: 'image/png' });
    expect(calls.put.every((p) => p.url.startsWith(`http://storage.test${PATH}/`))).toBe(true);
    // Registered: only what reached the storage server, with the signed id and path.
    expect(calls.register.map((r) => r.fs_filename).sort()).toEqual(['fake.png', 'first.png', 'lost.txt', 'second.jpg']);
    const first = calls.register.find((r) => r.fs_filename === 'first.png')!;
    expect(first).toMatchObject({ fs_folderid: '0b7f3c1e-8a8e-4f7e-9a53-0f7f3b9d2c11', fs_type: 'image/png', fs_path: PATH });
    expect(calls.sign[0].ids).toContain(first.fs_id);

    const state = (name: string) => within(row(name)).getByTestId('upload-state').textContent;
    expect(row('first.png').dataset.status).toBe('done');
    expect(row('second.jpg').dataset.status).toBe('done');
    expect(state('first.png')).toContain('Uploaded');
    // Spec 8's texts for a failed PUT and a failed registration; the API's own clearer reason where it has one.
    expect(state('broken.pdf')).toContain('Failed to upload the asset to the storage server (check server log)');
    expect(state('refused.mp4')).toContain('Failed to upload the asset to the storage server (check server log)');
    expect(state('lost.txt')).toContain('Failed to upload the asset (check server log)');
    expect(state('tool.csv')).toContain('This type of file is not allowed');
    expect(state('fake.png')).toContain('The contents of the file do not match its type');
    expect(state('huge.png')).toContain('The file is too large');
    expect(row('fake.png').dataset.status).toBe('failed');
    expect(screen.getAllByRole('alert')).toHaveLength(6);
    // The file list refreshes once, after the batch.
    expect(onUploaded).toHaveBeenCalledTimes(1);

    // Finished rows can be cleared; a failed one can be tried again.
    await user.click(within(row('lost.txt')).getByRole('button', { name: 'Try lost.txt again' }));
    expect(row('lost.txt').dataset.status).toBe('queued');
    await user.click(screen.getByTestId('clear-uploads'));
    expect(screen.getAllByTestId('upload-item').map((r) => r.dataset.status)).toEqual(['queued']);
    delete registerAnswer['lost.txt'];
    await user.click(screen.getByTestId('start-upload'));
    await waitFor(() => expect(row('lost.txt').dataset.status).toBe('done'));
    expect(onUploaded).toHaveBeenCalledTimes(2);
  });

  it('does not refresh the list when nothing was stored', async () => {
    const onUploaded = vi.fn();
    const { user, row, pick } = renderUploader(onUploaded);
    putAnswer['only.png'] = 'network';
    await pick([file('only.png', 'image/png')]);
    await user.click(screen.getByTestId('start-upload'));
    await waitFor(() => expect(row('only.png').dataset.status).toBe('failed'));
    expect(screen.getByTestId('upload-summary').textContent).toBe('1 file failed');
    expect(calls.register).toHaveLength(0);
    expect(onUploaded).not.toHaveBeenCalled();
  });

  it('marks every file failed when the signing itself is refused', async () => {
    const { user, rows, pick } = renderUploader();
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(json(400, { code: 'validation_failed', message: 'The folder does not exist', fields: { destination: 'error_folder_not_found' } }))),
    );
    await pick([file('a.png', 'image/png'), file('b.png', 'image/png')]);
    await user.click(screen.getByTestId('start-upload'));
    await waitFor(() => expect(rows().every((r) => r.dataset.status === 'failed')).toBe(true));
    expect(rows()[0].textContent).toContain('The folder does not exist (any more)');
    expect(FakeXhr.instances).toHaveLength(0);
  });
});

describe('upload error texts', () => {
  it('picks the clear API reason, else the generic text of the step', () => {
    expect(uploadErrorKey('storage', { code: 'file_too_large' })).toBe('error_file_too_large');
    expect(uploadErrorKey('storage', { code: 'signature_invalid' })).toBe(STORAGE_FAILED);
    expect(uploadErrorKey('storage', '<Error/>')).toBe(STORAGE_FAILED);
    expect(uploadErrorKey('register', new ApiRequestError(400, { code: 'validation_failed', fields: { fs_filename: 'error_file_type_not_allowed' } }))).toBe(
      'error_file_type_not_allowed',
    );
    expect(uploadErrorKey('register', new ApiRequestError(400, { code: 'validation_failed', fields: { fs_id: 'error_upload_not_found' } }))).toBe(REGISTER_FAILED);
    expect(uploadErrorKey('register', new ApiRequestError(500, { code: 'unknown_error' }))).toBe(REGISTER_FAILED);
  });

  it('every storage message key and upload text exists in English and Dutch', () => {
    const keys = [...Object.keys(STORAGE_MESSAGES), STORAGE_FAILED, REGISTER_FAILED, 'error_folder_not_empty', 'error_file_content_mismatch', 'error_logo_type'];
    for (const [lang, messages] of Object.entries({ en, nl })) {
      const t = createTranslator(messages as unknown as Messages, lang as 'en' | 'nl');
      for (const key of keys) expect(t.exists(key), `${lang}: ${key}`).toBe(true);
    }
    const t = createTranslator(en as unknown as Messages, 'en');
    expect(t.t(STORAGE_FAILED)).toBe('Failed to upload the asset to the storage server (check server log)');
    expect(t.t(REGISTER_FAILED)).toBe('Failed to upload the asset (check server log)');
  });
});

describe('file kinds', () => {
  it('thumbnails for png, jpeg and jpg only; icons by type for the rest', () => {
    expect(['png', 'JPEG', 'jpg', 'gif', 'webp', 'pdf'].map(hasThumbnail)).toEqual([true, true, true, false, false, false]);
    expect(fileKind('image/gif', 'a.gif')).toBe('image');
    expect(fileKind('video/mp4', 'a.mp4')).toBe('video');
    expect(fileKind('application/pdf', 'a.pdf')).toBe('pdf');
    expect(fileKind('text/csv', 'a.csv')).toBe('text');
    expect(fileKind('', 'notes.txt')).toBe('text');
    expect(fileKind('application/x-msdownload', 'tool.exe')).toBe('generic');
    expect(formatBytes(512, 'en')).toBe('512 B');
    expect(formatBytes(1536, 'en')).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 * 1024, 'nl')).toBe('5 MB');
  });
});

describe('media screen permissions (spec 6)', () => {
  const session = (grants: Record<string, number>): Session => ({
    code: 'ok',
    user: { id: 'me', u_id: 'me', u_first_name: 'Me', u_last_name: '', u_email: 'me@example.com', u_role: 'root', u_is_verified: true, u_is_enabled: true },
    permissions: grants,
    accounts: [],
    settings: { passwordMinLength: 4 },
  });

  function renderPage(grants: Record<string, number>) {
    setSession(session(grants));
    listed = {
      folders: [{ id: 'f1', fo_id: 'f1', fo_title: 'Keynotes', fo_parentid: null }],
      files: [
        { id: 'x1', fs_id: 'x1', fs_folderid: null, fs_filename: 'stage.png', fs_type: 'image/png', fs_path: PATH, fs_extension: 'png', fs_size: 2048, url: `/storage${PATH}/x1` },
      ],
    };
    render(
      <MemoryRouter initialEntries={['/media']}>
        <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider}>
          <MediaPage />
        </AdminContext>
      </MemoryRouter>,
    );
  }

  it('root (entry_files 15) gets new folder, uploader, rename and delete', async () => {
    renderPage(grantsOf('root'));
    await screen.findByText('Keynotes');
    await screen.findByText('stage.png');
    expect(screen.getByTestId('new-folder')).toBeTruthy();
    expect(screen.getByTestId('uploader')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Rename Keynotes' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete Keynotes' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete stage.png' })).toBeTruthy();
    // Folders open by link (keyboard: Tab + Enter), the breadcrumb starts at the root.
    expect(screen.getByRole('link', { name: 'Keynotes' }).getAttribute('href')).toBe('/media?folder=f1');
    expect(screen.getByTestId('media-breadcrumb').textContent).toBe('Media');
    expect((screen.getByTestId('thumbnail') as HTMLImageElement).getAttribute('src')).toBe(`/storage${PATH}/x1`);
  });

  it('read only (entry_files 1): browsing, opening and copying, but no add, rename, delete or upload', async () => {
    renderPage({ ...grantsOf('root'), entry_files: 1 });
    await screen.findByText('Keynotes');
    await screen.findByText('stage.png');
    expect(screen.queryByTestId('new-folder')).toBeNull();
    expect(screen.queryByTestId('uploader')).toBeNull();
    expect(screen.queryByTestId('rename-folder')).toBeNull();
    expect(screen.queryByTestId('delete-folder')).toBeNull();
    expect(screen.queryByTestId('delete-file')).toBeNull();
    expect(screen.getByRole('link', { name: 'Open stage.png' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Copy the address of stage.png/ })).toBeTruthy();
  });

  it('create without delete (entry_files 7): rename and add, no delete', async () => {
    renderPage({ ...grantsOf('root'), entry_files: 7 });
    await screen.findByText('Keynotes');
    await act(async () => undefined);
    expect(screen.getByTestId('new-folder')).toBeTruthy();
    expect(screen.getByTestId('rename-folder')).toBeTruthy();
    expect(screen.queryByTestId('delete-folder')).toBeNull();
  });
});
