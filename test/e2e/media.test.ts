import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ensureAdminBuilt, startServer, type E2eServer } from './support/server';
import { DESKTOP, HAS_CHROMIUM, launch, newPage, PHONE, shot, SKIP_REASON } from './support/browser';
import { Layout, LoginScreen } from './support/pages';
import { ApiClient } from './support/api';
import { drawImage, MediaScreen } from './support/media';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

const STORAGE_FAILED = 'Failed to upload the asset to the storage server (check server log)';
const NOT_ALLOWED = 'This type of file is not allowed';
const NOT_EMPTY = 'Only an empty folder can be deleted: move or delete its folders and files first';

async function signIn(page: Page, server: E2eServer) {
  const login = new LoginScreen(page);
  await login.open();
  await login.signIn(server.adminEmail, server.adminPassword);
  await page.waitForURL('**/accounts/selection');
  await page.getByTestId('select-entry-admin').click();
  await page.waitForURL((u) => u.pathname === '/accounts');
}

/**
 * The media library and account logos in Chromium against the real server (local storage driver under the temporary
 * DATA_DIR): the root user builds nested folders, uploads two images and a file the server refuses, sees the
 * thumbnails and the error, moves around by breadcrumb, renames and deletes, and gives an account its logo.
 */
describe.skipIf(!HAS_CHROMIUM)('media library in the browser', () => {
  let server: E2eServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let media: MediaScreen;
  const ids: Record<string, string> = {};
  let png: Buffer;
  let jpeg: Buffer;

  beforeAll(async () => {
    ensureAdminBuilt();
    server = await startServer();
    browser = await launch();
    ({ context, page, errors } = await newPage(browser, server.baseUrl));
    media = new MediaScreen(page);
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
  });

  it('opens /media from the menu: an empty root with the breadcrumb, folders, files and the uploader', async () => {
    await signIn(page, server);
    await page.getByRole('menuitem', { name: 'Media' }).click();
    await page.waitForURL((u) => u.pathname === '/media');
    await media.ready();
    expect(await media.crumbs()).toEqual(['Media']);
    await page.getByTestId('no-folders').waitFor();
    await page.getByTestId('no-files').waitFor();
    expect(await page.getByTestId('uploader').innerText()).toContain('Upload to Media');
    expect(await new Layout(page).title().innerText()).toContain('Media');
    await shot(page, 'media-empty');
  });

  it('creates nested folders, each opening with its breadcrumb (separator ">") and in the address', async () => {
    // The title is required: the shared rule answers before any call.
    await page.getByTestId('new-folder').click();
    await media.dialog().getByTestId('folder-dialog-submit').click();
    await media.dialog().getByText('Please enter a title').waitFor();
    await shot(page, 'media-new-folder');
    await page.keyboard.press('Escape');
    await media.dialog().waitFor({ state: 'hidden' });

    await media.newFolder('Events 2026');
    await media.newFolder('Archive');
    expect(await media.folderTitles()).toEqual(['Archive', 'Events 2026']);
    await media.enter('Events 2026');
    ids.events = media.currentFolder()!;
    expect(await media.crumbs()).toEqual(['Media', 'Events 2026']);
    expect(await media.breadcrumb().innerText()).toMatch(/Media\s*>\s*Events 2026/);
    await media.newFolder('Keynotes');
    await media.enter('Keynotes');
    ids.keynotes = media.currentFolder()!;
    expect(await media.crumbs()).toEqual(['Media', 'Events 2026', 'Keynotes']);
    expect(await page.getByTestId('uploader').innerText()).toContain('Upload to Keynotes');
  });

  it('uploads two images and a refused file: thumbnails that load, and the error; the rest goes on', async () => {
    png = await drawImage(page, 'image/png', 'Main stage', 215);
    jpeg = await drawImage(page, 'image/jpeg', 'Crowd', 20);
    // A Windows program: its first bytes say so, and the storage server refuses them.
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62), Buffer.from('PE\0\0'), Buffer.alloc(2000, 0x90)]);
    exe.writeUInt32LE(64, 0x3c);

    await media.pick([
      { name: 'main-stage.png', mimeType: 'image/png', buffer: png },
      { name: 'draft.png', mimeType: 'image/png', buffer: png },
    ]);
    await media.drop([
      { name: 'crowd.jpg', mimeType: 'image/jpeg', buffer: jpeg },
      { name: 'setup.exe', mimeType: 'application/x-msdownload', buffer: exe },
    ]);
    await media.uploadRow('setup.exe').waitFor();
    // The draft goes before the upload.
    await media.uploadRow('draft.png').getByRole('button', { name: 'Remove draft.png from the list' }).click();
    await media.uploadRow('draft.png').waitFor({ state: 'detached' });
    expect(await page.getByTestId('upload-name').allInnerTexts()).toEqual(['main-stage.png', 'crowd.jpg', 'setup.exe']);
    await shot(page, 'media-upload-queue');

    await page.getByTestId('start-upload').click();
    await expect
      .poll(
        () =>
          page
            .getByTestId('upload-summary')
            .innerText()
            .catch(() => ''),
        { timeout: 30_000 },
      )
      .toBe('2 files uploaded · 1 file failed');
    expect(await media.uploadRow('setup.exe').getAttribute('data-status')).toBe('failed');
    expect(await media.uploadRow('setup.exe').getByTestId('upload-state').innerText()).toContain(NOT_ALLOWED);
    expect(await media.uploadRow('main-stage.png').getAttribute('data-status')).toBe('done');
    expect(await media.uploadRow('crowd.jpg').getAttribute('data-status')).toBe('done');

    // The list refreshed: both images, with thumbnails from /storage{fs_path}/{fs_id} that really loaded.
    await expect.poll(() => media.fileNames()).toEqual(['crowd.jpg', 'main-stage.png']);
    for (const name of ['crowd.jpg', 'main-stage.png']) {
      const img = media.file(name).getByTestId('thumbnail');
      await img.scrollIntoViewIfNeeded();
      await expect.poll(() => MediaScreen.loaded(img)).toBe(true);
      expect(await img.getAttribute('src')).toMatch(/^\/storage\/files\/\d{4}\/\d{2}\/[0-9a-f-]{36}$/);
      expect(await img.getAttribute('alt')).toBe(name);
    }
    ids.stage = (await media.file('main-stage.png').getAttribute('data-id'))!;
    expect(await page.getByTestId('files-section').innerText()).toContain('PNG');
    await shot(page, 'media-uploaded');
    expect(errors).toEqual([]);
  });

  it('shows the spec text when the storage server fails a PUT; a retry goes through', async () => {
    // The storage server drops the connection for this one upload.
    await page.route('**/storage/files/**', (route) => (route.request().method() === 'PUT' ? route.abort('connectionreset') : route.fallback()));
    try {
      await page.getByTestId('clear-uploads').click();
      await media.pick([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Speaker notes\n') }]);
      await page.getByTestId('start-upload').click();
      await expect.poll(() => media.uploadRow('notes.txt').getAttribute('data-status'), { timeout: 20_000 }).toBe('failed');
      expect(await media.uploadRow('notes.txt').getByTestId('upload-state').innerText()).toContain(STORAGE_FAILED);
    } finally {
      await page.unroute('**/storage/files/**');
    }
    await shot(page, 'media-upload-failed');
    // Tried again without the fault: it goes through, with an icon instead of a thumbnail.
    await media.uploadRow('notes.txt').getByRole('button', { name: 'Try notes.txt again' }).click();
    await page.getByTestId('start-upload').click();
    await expect.poll(() => media.uploadRow('notes.txt').getAttribute('data-status'), { timeout: 20_000 }).toBe('done');
    await media.file('notes.txt').waitFor();
    expect(await media.file('notes.txt').getByTestId('thumbnail').count()).toBe(0);
    expect(await media.file('notes.txt').locator('[data-kind=text]').count()).toBe(1);
  });

  it('opens, downloads and copies the address of a file', async () => {
    const card = media.file('main-stage.png');
    const href = (await card.getByTestId('open-file').getAttribute('href'))!;
    expect(href).toMatch(new RegExp(`/storage/files/\\d{4}/\\d{2}/${ids.stage}$`));
    const served = await fetch(server.baseUrl + href);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.compare(Buffer.from(await served.arrayBuffer()), png)).toBe(0);
    expect(await card.getByTestId('download-file').getAttribute('href')).toBe(`${href}?download`);
    await card.getByTestId('copy-button').click();
    await expect.poll(() => card.getByTestId('copy-button').innerText()).toContain('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(server.baseUrl + href);
  });

  it('keeps the folder across a reload and the back button, and navigates by breadcrumb and keyboard', async () => {
    await page.reload();
    await media.ready();
    expect(media.currentFolder()).toBe(ids.keynotes);
    expect(await media.crumbs()).toEqual(['Media', 'Events 2026', 'Keynotes']);
    expect(await media.fileNames()).toEqual(['crowd.jpg', 'main-stage.png', 'notes.txt']);

    await page.goBack();
    await expect.poll(() => media.currentFolder()).toBe(ids.events);
    await expect.poll(() => media.crumbs()).toEqual(['Media', 'Events 2026']);
    await page.goForward();
    await expect.poll(() => media.crumbs()).toEqual(['Media', 'Events 2026', 'Keynotes']);

    await media.breadcrumb().getByRole('link', { name: 'Events 2026' }).click();
    await expect.poll(() => media.currentFolder()).toBe(ids.events);
    await media.folder('Keynotes').waitFor();
    expect(await media.crumbs()).toEqual(['Media', 'Events 2026']);
    await page.getByTestId('no-files').waitFor();
    await media.breadcrumb().getByRole('link', { name: 'Media' }).click();
    await expect.poll(() => media.currentFolder()).toBeNull();
    await media.folder('Events 2026').waitFor();
    expect(await media.crumbs()).toEqual(['Media']);

    // Folders are links: focus and Enter open them.
    await media.folder('Events 2026').getByTestId('open-folder').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => media.currentFolder()).toBe(ids.events);
    await media.folder('Keynotes').waitFor();
  });

  it('renames and deletes a folder with a confirmation; a folder that is not empty shows why it stays', async () => {
    await media.newFolder('Old talks');
    await media.rename('Old talks', 'Talks 2025');
    expect(await media.folderTitles()).toEqual(['Keynotes', 'Talks 2025']);
    await shot(page, 'media-renamed');

    await media.folder('Talks 2025').getByTestId('delete-folder').click();
    expect(await media.dialog().innerText()).toContain('Delete the folder "Talks 2025"?');
    // Cancel keeps it.
    await media.dialog().getByRole('button', { name: 'Cancel' }).click();
    await media.dialog().waitFor({ state: 'hidden' });
    expect(await media.folderTitles()).toEqual(['Keynotes', 'Talks 2025']);
    await media.folder('Talks 2025').getByTestId('delete-folder').click();
    await media.dialog().getByTestId('confirm-delete').click();
    await media.dialog().waitFor({ state: 'hidden' });
    await expect.poll(() => media.folderTitles()).toEqual(['Keynotes']);

    // Keynotes holds files: the API refuses, and the dialog says so.
    await media.folder('Keynotes').getByTestId('delete-folder').click();
    await media.dialog().getByTestId('confirm-delete').click();
    await expect.poll(() => media.dialog().getByTestId('confirm-error').innerText()).toBe(NOT_EMPTY);
    await shot(page, 'media-delete-not-empty');
    await media.dialog().getByRole('button', { name: 'Close' }).click();
    await media.dialog().waitFor({ state: 'hidden' });
    expect(await media.folderTitles()).toEqual(['Keynotes']);
  });

  it('deletes a file with a confirmation; its address stops serving', async () => {
    await media.enter('Keynotes');
    const href = (await media.file('crowd.jpg').getByTestId('open-file').getAttribute('href'))!;
    await media.file('crowd.jpg').getByTestId('delete-file').click();
    expect(await media.dialog().innerText()).toContain('Delete the file "crowd.jpg"?');
    await media.dialog().getByTestId('confirm-delete').click();
    await media.dialog().waitFor({ state: 'hidden' });
    await expect.poll(() => media.fileNames()).toEqual(['main-stage.png', 'notes.txt']);
    expect((await fetch(server.baseUrl + href)).status).toBe(404);
    expect(errors).toEqual([]);
  });

  it('looks right in the dark theme', async () => {
    await page.getByRole('button', { name: 'Toggle light/dark mode' }).click();
    await page.waitForTimeout(300);
    await shot(page, 'media-dark');
    await page.getByRole('button', { name: 'Toggle light/dark mode' }).click();
  });

  it('works on a phone: the lists stack, nothing overflows, upload still works', async () => {
    const phone = await newPage(browser, server.baseUrl, PHONE);
    try {
      await signIn(phone.page, server);
      const small = new MediaScreen(phone.page);
      await small.open(ids.keynotes);
      await small.file('main-stage.png').waitFor();
      const overflow = () => phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(await overflow()).toBeLessThanOrEqual(0);
      // One column: the cards sit under each other.
      const boxes = await Promise.all(['main-stage.png', 'notes.txt'].map((n) => small.file(n).boundingBox()));
      expect(boxes[1]!.y).toBeGreaterThan(boxes[0]!.y + boxes[0]!.height - 1);
      expect(Math.abs(boxes[1]!.x - boxes[0]!.x)).toBeLessThan(2);
      await shot(phone.page, 'media-keynotes');
      await small.pick([{ name: 'phone-shot.jpg', mimeType: 'image/jpeg', buffer: jpeg }]);
      await small.uploadRow('phone-shot.jpg').waitFor();
      expect(await overflow()).toBeLessThanOrEqual(0);
      await shot(phone.page, 'media-upload-queue');
      await phone.page.getByTestId('start-upload').click();
      await small.file('phone-shot.jpg').waitFor({ timeout: 20_000 });
      await expect.poll(() => MediaScreen.loaded(small.file('phone-shot.jpg').getByTestId('thumbnail'))).toBe(true);
      await small.open(ids.events);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await shot(phone.page, 'media-events');
      expect(phone.errors).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });

  it('uploads, replaces and removes an account logo in the account form', async () => {
    const api = new ApiClient(server.baseUrl);
    await api.login(server.adminEmail, server.adminPassword);
    const account = await api.create<{ id: string }>('/accounts', { a_name: 'Logo Events BV', a_is_enabled: true });
    await page.goto(`/accounts/${account.id}`);
    await page.locator('[name=a_name]').waitFor();
    await page.getByTestId('account-logo-none').waitFor();
    await shot(page, 'account-logo-none');

    // Not an image: refused before anything is sent.
    await page.getByTestId('logo-input').setInputFiles({ name: 'brochure.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') });
    await expect.poll(() => page.getByTestId('logo-error').innerText()).toContain('The logo must be a PNG, JPEG, GIF or WebP image');

    const logo = await drawImage(page, 'image/png', 'LOGO', 140, 360, 120);
    await page.getByTestId('logo-input').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logo });
    const img = page.getByTestId('account-logo');
    await img.waitFor();
    await expect.poll(() => MediaScreen.loaded(img)).toBe(true);
    expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(360);
    expect(await page.getByTestId('logo-error').count()).toBe(0);
    expect(await page.getByTestId('logo-upload').innerText()).toBe('Replace logo');
    const served = await fetch(`${server.baseUrl}/storage/logos/${account.id}`);
    expect(served.headers.get('content-type')).toBe('image/png');
    await shot(page, 'account-logo');

    // Replace: the new image shows at once (same address, new version).
    const wide = await drawImage(page, 'image/jpeg', 'NEW', 300, 480, 120);
    await page.getByTestId('logo-input').setInputFiles({ name: 'logo.jpg', mimeType: 'image/jpeg', buffer: wide });
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(480);

    // It stays after a reload (the account's logo flag), on a phone too.
    await page.reload();
    await expect.poll(() => MediaScreen.loaded(page.getByTestId('account-logo'))).toBe(true);
    const phone = await newPage(browser, server.baseUrl, PHONE);
    try {
      await signIn(phone.page, server);
      await phone.page.goto(`/accounts/${account.id}`);
      await expect.poll(() => MediaScreen.loaded(phone.page.getByTestId('account-logo'))).toBe(true);
      expect(await phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      await shot(phone.page, 'account-logo');
    } finally {
      await phone.context.close();
    }

    await page.getByTestId('logo-remove').click();
    await media.dialog().getByTestId('confirm-delete').click();
    await page.getByTestId('account-logo-none').waitFor();
    expect((await fetch(`${server.baseUrl}/storage/logos/${account.id}`)).status).toBe(404);
    await page.setViewportSize(DESKTOP);
    expect(errors).toEqual([]);
  });
});
