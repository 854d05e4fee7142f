import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { ensureAdminBuilt, startServer, type E2eServer } from './support/server';
import { DESKTOP, HAS_CHROMIUM, launch, newPage, PHONE, shot, SKIP_REASON } from './support/browser';
import { choose, control, ListScreen, LoginScreen } from './support/pages';
import { ApiClient } from './support/api';
import { drawImage } from './support/media';
import { readQrCodes } from './support/qr';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

type Row = Record<string, unknown>;

/**
 * Assets, collections, carousel groups and codes in Chromium against the real server (local storage driver): a root
 * user uploads images (the browser makes their thumbnails), sees a taken name refused under its field and the same
 * upload saved under another name, replaces a file (version 2), builds a collection from the multi-select picker and
 * reorders it by mouse and keyboard, makes a group of two carousels with a code, and opens the code's QR (downloads,
 * print layout). A form style then picks its logo with the asset picker by keyboard.
 */
describe.skipIf(!HAS_CHROMIUM)('assets, collections, groups and codes in the browser', () => {
  let server: E2eServer;
  let browser: Browser;
  let root: ApiClient;
  let accountId = '';
  const ids: Record<string, string> = {};

  const api = async <T = unknown>(path: string) => {
    const res = await root.call<T>('GET', `/accounts/${accountId}${path}`);
    expect(res.status, path).toBe(200);
    return res.body;
  };
  const at = (page: Page, path: string | RegExp) => page.waitForURL((u) => (typeof path === 'string' ? u.pathname === `/console/${accountId}${path}` : path.test(u.pathname)));
  const idFromUrl = (page: Page) => page.url().split('?')[0].split('/').pop()!;
  const signIn = async (page: Page) => {
    const login = new LoginScreen(page);
    await login.open();
    await login.signIn(server.adminEmail, server.adminPassword);
    await page.waitForURL('**/accounts/selection');
  };
  const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  /** Whether an <img> has loaded a picture (not a broken link). */
  const loaded = (img: Locator) => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0);

  beforeAll(async () => {
    ensureAdminBuilt();
    server = await startServer();
    browser = await launch();
    root = new ApiClient(server.baseUrl);
    await root.login(server.adminEmail, server.adminPassword);
    accountId = (await root.create<{ id: string }>('/accounts', { a_name: 'Harbour Fair', a_is_enabled: true })).id;
    ids.welcome = (await root.create(`/accounts/${accountId}/carousels`, { c_title: 'Welcome loop', c_name: 'welcome' })).id;
    ids.sponsors = (await root.create(`/accounts/${accountId}/carousels`, { c_title: 'Sponsors', c_name: 'sponsors' })).id;
    ids.standby = (await root.create(`/accounts/${accountId}/carousels`, { c_title: 'Screensaver', c_name: 'screensaver' })).id;
    ids.style = (await root.create(`/accounts/${accountId}/form-styles`, { st_title: 'Harbour blue' })).id;
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('uploads images with thumbnails, refuses a taken name and a CSV, replaces a file, builds and reorders a collection, and gives a group a code with its QR', async () => {
    const { page, context, errors } = await newPage(browser, server.baseUrl, DESKTOP);
    page.setDefaultTimeout(20_000);
    try {
      await signIn(page);
      await page.goto(`/console/${accountId}/assets`);
      await page.getByTestId('list-empty').waitFor();

      // Upload: three images and a CSV; each image gets a thumbnail, the CSV is refused before anything is sent.
      await page.getByTestId('create-button').first().click();
      await at(page, '/assets/new');
      const hall = await drawImage(page, 'image/png', 'Hall map', 200, 1200, 800);
      const stand = await drawImage(page, 'image/jpeg', 'Stand 12', 20, 900, 600);
      const dock = await drawImage(page, 'image/jpeg', 'Dock', 300, 640, 640);
      const teaser = await recordVideo(page);
      await page.getByTestId('asset-upload-input').setInputFiles([
        { name: 'Hall map.png', mimeType: 'image/png', buffer: hall },
        { name: 'stand_12.jpg', mimeType: 'image/jpeg', buffer: stand },
        { name: 'dock.jpg', mimeType: 'image/jpeg', buffer: dock },
        { name: 'visitors.csv', mimeType: 'text/csv', buffer: Buffer.from('name\nAva\n') },
        { name: 'Teaser.webm', mimeType: 'video/webm', buffer: teaser },
      ]);
      const rows = page.getByTestId('asset-upload-item');
      await expect.poll(() => rows.count()).toBe(5);
      expect(await rows.nth(0).getByTestId('asset-upload-title').inputValue()).toBe('Hall map');
      expect(await rows.nth(0).getByTestId('asset-upload-asset-name').inputValue()).toBe('hall-map');
      expect(await rows.nth(1).getByTestId('asset-upload-title').inputValue()).toBe('stand 12');
      expect(await rows.nth(1).getByTestId('asset-upload-asset-name').inputValue()).toBe('stand_12');
      // The name follows a changed title until it is typed itself.
      await rows.nth(1).getByTestId('asset-upload-title').fill('Stand 12');
      expect(await rows.nth(1).getByTestId('asset-upload-asset-name').inputValue()).toBe('stand-12');
      await expect.poll(() => rows.nth(3).getAttribute('data-status')).toBe('failed');
      expect(await rows.nth(3).getByTestId('asset-upload-state').innerText()).toContain('This type of file cannot be an asset');
      // The browser's thumbnails, before the upload.
      await expect.poll(() => rows.nth(0).locator('img').count()).toBe(1);
      await expect.poll(() => loaded(rows.nth(0).locator('img'))).toBe(true);
      // A video's poster: a frame drawn by <video> and a canvas.
      await expect.poll(() => loaded(rows.nth(4).locator('img'))).toBe(true);
      await shot(page, 'assets-upload-queue');
      await page.getByTestId('asset-start-upload').click();
      await expect.poll(() => rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-status')))).toEqual(['done', 'done', 'done', 'failed', 'done']);
      await page.getByTestId('asset-upload-summary').getByText('4 assets uploaded · 1 file not uploaded').waitFor();
      await shot(page, 'assets-upload-done');

      type Asset = Row & { id: string; as_name: string; as_version: number; url: string; thumbnail_url: string | null };
      const assets = async () => api<Asset[]>('/assets');
      const hallAsset = (await assets()).find((a) => a.as_name === 'hall-map')!;
      expect(hallAsset).toMatchObject({ as_title: 'Hall map', as_type: 'image/png', as_version: 1, kind: 'image' });
      expect(hallAsset.thumbnail_url).toMatch(/^\/storage\/assets\//);
      // The thumbnail is the browser's: at most 320 px, WebP (Chromium encodes it).
      const thumb = await page.evaluate(async (url) => {
        const res = await fetch(url);
        const bitmap = await createImageBitmap(await res.blob());
        return { type: res.headers.get('content-type'), width: bitmap.width, height: bitmap.height };
      }, hallAsset.thumbnail_url!);
      expect(thumb).toEqual({ type: 'image/webp', width: 320, height: 213 });
      const teaserAsset = (await assets()).find((a) => a.as_name === 'teaser')!;
      expect(teaserAsset).toMatchObject({ as_type: 'video/webm', kind: 'video' });
      expect(teaserAsset.thumbnail_url).toMatch(/^\/storage\/assets\//);

      // The same name again: refused under the name field; the bytes stay uploaded and register under a new name.
      await page.getByTestId('asset-clear-uploads').click();
      await expect.poll(() => rows.count()).toBe(1);
      await rows.first().getByTestId('asset-upload-remove').click();
      await expect.poll(() => rows.count()).toBe(0);
      await page.getByTestId('asset-upload-input').setInputFiles([{ name: 'hall-map.png', mimeType: 'image/png', buffer: hall }]);
      await page.getByTestId('asset-start-upload').click();
      await expect.poll(() => rows.first().getAttribute('data-status')).toBe('failed');
      const nameField = rows.first().locator('.MuiFormControl-root', { has: page.getByTestId('asset-upload-asset-name') });
      await nameField.getByText('This name is already in use').waitFor();
      await shot(page, 'assets-upload-name-taken');
      const signs = { n: 0 };
      page.on('request', (r) => r.url().endsWith('/assets/sign') && signs.n++);
      await rows.first().getByTestId('asset-upload-asset-name').fill('hall-map-copy');
      await page.getByTestId('asset-start-upload').click();
      await expect.poll(() => rows.first().getAttribute('data-status')).toBe('done');
      expect(signs.n).toBe(0); // registered the bytes sent the first time
      expect((await assets()).map((a) => a.as_name).sort()).toEqual(['dock', 'hall-map', 'hall-map-copy', 'stand-12', 'teaser']);

      // The list: thumbnails beside the titles, the kind filter and the search.
      await page.getByTestId('assets-back').click();
      await at(page, '/assets');
      const list = new ListScreen(page);
      const hallRow = list.row('Hall map');
      await hallRow.waitFor();
      await expect.poll(() => list.rows().count()).toBe(5);
      const hallThumb = hallRow.getByTestId('asset-thumb').locator('img');
      expect(await hallThumb.getAttribute('src')).toBe(hallAsset.thumbnail_url);
      await expect.poll(() => loaded(hallThumb)).toBe(true);
      // The video's poster, with a play mark.
      const teaserThumb = list.row('Teaser').getByTestId('asset-thumb');
      expect(await teaserThumb.getAttribute('data-kind')).toBe('video');
      await expect.poll(() => loaded(teaserThumb.locator('img'))).toBe(true);
      await shot(page, 'assets-list');
      await choose(page, 'as_type', 'Video');
      await expect.poll(() => list.rows().allInnerTexts()).toEqual([expect.stringContaining('Teaser')]);
      await choose(page, 'as_type', 'PDF');
      await page.getByText('No assets found using the current filters.').waitFor();
      await choose(page, 'as_type', 'Image');
      await expect.poll(() => list.rows().count()).toBe(4);
      await list.search().fill('stand');
      await expect.poll(() => list.rows().count()).toBe(1);
      await list.search().fill('');
      await expect.poll(() => list.rows().count()).toBe(4);
      // The empty choice reads "All kinds" (react-admin names it "Clear value" for screen readers).
      await control(page, 'as_type').locator('[role=combobox]').click();
      await page.getByRole('option').filter({ hasText: 'All kinds' }).click();
      await expect.poll(() => list.rows().count()).toBe(5);

      // Replace the hall map's file: same id, version 2, the new picture shown; the old bytes are gone.
      await hallRow.click();
      await at(page, `/assets/${hallAsset.id}`);
      await page.getByTestId('asset-version').getByText('Version 1').waitFor();
      await expect.poll(() => loaded(page.getByTestId('asset-preview'))).toBe(true);
      const hall2 = await drawImage(page, 'image/png', 'Hall map 2', 120, 1200, 800);
      await page.getByTestId('asset-replace-input').setInputFiles({ name: 'hall-map-v2.png', mimeType: 'image/png', buffer: hall2 });
      // Replacing asks first (what uses the asset changes with it); nothing is replaced before the confirmation.
      await page.getByTestId('asset-replace-confirm').waitFor();
      expect((await api<Asset>(`/assets/${hallAsset.id}`)).as_version).toBe(1);
      await page.getByTestId('asset-replace-go').click();
      await page.getByTestId('asset-version').getByText('Version 2').waitFor();
      await page.getByText('The file was replaced; this is version 2.').waitFor();
      const replaced = await api<Asset>(`/assets/${hallAsset.id}`);
      expect(replaced).toMatchObject({ id: hallAsset.id, as_version: 2, as_filename: 'hall-map-v2.png' });
      await expect.poll(() => page.getByTestId('asset-preview').getAttribute('src')).toBe(replaced.url);
      await expect.poll(() => loaded(page.getByTestId('asset-preview'))).toBe(true);
      expect((await fetch(server.baseUrl + hallAsset.url)).status).toBe(404);
      expect((await fetch(server.baseUrl + replaced.url)).status).toBe(200);
      expect(await page.getByTestId('readonly-as_version').innerText()).toContain('2');
      await shot(page, 'assets-edit-replaced');

      // A collection: three assets from the multi-select picker, reordered by mouse and by keyboard.
      await page.getByRole('menuitem', { name: 'Collections' }).click();
      await at(page, '/collections');
      // The collections' own button: under load the assets' (also create-button) can still be on screen for a moment.
      await page.locator('[data-testid=create-button][href$="/collections/new"]').click();
      await page.locator('[name=co_title]').fill('Press kit');
      await page.locator('[name=co_name]').fill('press-kit');
      await page.getByRole('button', { name: 'Save' }).click();
      await at(page, /\/collections\/[0-9a-f-]{36}$/);
      ids.collection = idFromUrl(page);
      const collection = await api<{ co_token: string }>(`/collections/${ids.collection}`);
      expect(await page.getByTestId('collection-url').innerText()).toBe(`${server.baseUrl}/c/${collection.co_token}`);
      await page.getByTestId('collection-assets-empty').waitFor();
      await page.getByTestId('collection-add-assets').click();
      const dialog = page.getByTestId('asset-picker-dialog');
      await expect.poll(() => dialog.getByTestId('asset-picker-option').count()).toBe(5);
      for (const title of ['Stand 12', 'Hall map', 'dock']) await dialog.getByRole('option', { name: new RegExp(`^${title}`) }).click();
      await shot(page, 'collection-picker');
      await dialog.getByTestId('asset-picker-add').click();
      const titles = () => page.getByTestId('collection-asset-title').allInnerTexts();
      await expect.poll(titles).toEqual(['Stand 12', 'Hall map', 'dock']);
      const byName = new Map((await assets()).map((a) => [a.as_title, a.id]));
      const stored = async () => (await api<{ ids: string[] }>(`/collections/${ids.collection}/assets`)).ids;
      expect(await stored()).toEqual(['Stand 12', 'Hall map', 'dock'].map((t) => byName.get(t)));

      const handle = (name: string) => page.getByRole('button', { name: `Move ${name}`, exact: true });
      const listItems = page.getByTestId('collection-assets-list').locator('li');
      let put = page.waitForResponse((r) => r.url().endsWith(`/collections/${ids.collection}/assets`) && r.request().method() === 'PUT');
      const from = (await handle('dock').boundingBox())!;
      const over = (await listItems.first().boundingBox())!;
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(from.x + from.width / 2, over.y + over.height * 0.2, { steps: 12 });
      await page.getByTestId('sortable-drop-line').waitFor();
      await page.mouse.up();
      expect((await put).status()).toBe(200);
      await expect.poll(titles).toEqual(['dock', 'Stand 12', 'Hall map']);
      put = page.waitForResponse((r) => r.url().endsWith(`/collections/${ids.collection}/assets`) && r.request().method() === 'PUT');
      await handle('Hall map').focus();
      await page.keyboard.press('Space');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('Space');
      expect((await put).status()).toBe(200);
      await expect.poll(titles).toEqual(['dock', 'Hall map', 'Stand 12']);
      expect(await stored()).toEqual(['dock', 'Hall map', 'Stand 12'].map((t) => byName.get(t)));
      await shot(page, 'collection-edit');

      // A group of two carousels with a standby one, reordered; a code for it, and the code's QR.
      await page.getByRole('menuitem', { name: 'Carousel groups' }).click();
      await at(page, '/carousel-groups');
      await page.getByTestId('create-button').first().click();
      await page.locator('[name=cg_title]').fill('Hall 1 screens');
      await choose(page, 'cg_standby_carouselid', 'Screensaver');
      await page.getByRole('button', { name: 'Save' }).click();
      await at(page, /\/carousel-groups\/[0-9a-f-]{36}$/);
      ids.group = idFromUrl(page);
      await page.getByTestId('group-carousels-empty').waitFor();
      for (const title of ['Welcome loop', 'Sponsors']) {
        await choose(page, 'gi_carouselid', title);
        await page.getByTestId('group-carousels-add').click();
        await page.getByTestId('group-carousels-list').getByText(title, { exact: true }).waitFor();
      }
      put = page.waitForResponse((r) => r.url().endsWith(`/carousel-groups/${ids.group}/items`) && r.request().method() === 'PUT');
      await handle('Sponsors').focus();
      await page.keyboard.press('Alt+ArrowUp');
      expect((await put).status()).toBe(200);
      await expect.poll(() => page.getByTestId('group-carousel-title').allInnerTexts()).toEqual(['Sponsors', 'Welcome loop']);
      expect((await api<{ ids: string[] }>(`/carousel-groups/${ids.group}/items`)).ids).toEqual([ids.sponsors, ids.welcome]);

      await page.getByTestId('group-codes-empty').waitFor();
      await page.getByTestId('group-new-code').click();
      await page.getByTestId('new-code-title').fill('Totem at the entrance');
      await page.getByTestId('new-code-create').click();
      const codeRow = page.getByTestId('group-code');
      await codeRow.getByText('Totem at the entrance').waitFor();
      const [code] = await api<{ id: string; cc_code: string }[]>(`/codes?filter=${encodeURIComponent(JSON.stringify({ cc_groupid: ids.group }))}`);
      expect(await codeRow.getByTestId('group-code-value').innerText()).toBe(code.cc_code);
      expect(await codeRow.getByTestId('code-qr').getAttribute('data-text')).toBe(`${server.baseUrl}/play/${code.cc_code}`);
      await shot(page, 'group-edit');

      await codeRow.getByTestId('group-code-open').click();
      await at(page, `/codes/${code.id}`);
      const panel = page.getByTestId('code-qr-panel');
      await panel.getByTestId('code-value').getByText(code.cc_code).waitFor();
      const url = `${server.baseUrl}/play/${code.cc_code}`;
      expect(await panel.getByTestId('code-qr').getAttribute('data-text')).toBe(url);
      expect(await panel.getByTestId('code-open-player').getAttribute('href')).toBe(url);
      // The QR on screen reads as the player's address (drawn to a canvas by Chromium, read by ZXing).
      const onScreen = await page.evaluate(async () => {
        const svg = document.querySelector('[data-testid=code-qr-panel] [data-testid=code-qr]')!;
        const img = new Image();
        img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(svg))}`;
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = canvas.height = 400;
        canvas.getContext('2d')!.drawImage(img, 0, 0, 400, 400);
        return canvas.toDataURL('image/png').split(',')[1];
      });
      expect(await readQrCodes(Buffer.from(onScreen, 'base64'))).toEqual([url]);
      await shot(page, 'code-edit');

      const png$ = page.waitForEvent('download');
      await panel.getByTestId('code-download-png').click();
      const png = await png$;
      expect(png.suggestedFilename()).toBe(`code-${code.cc_code}.png`);
      const pngBytes = await streamBytes(await png.createReadStream());
      expect(pngBytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(await readQrCodes(pngBytes)).toEqual([url]);
      const svg$ = page.waitForEvent('download');
      await panel.getByTestId('code-download-svg').click();
      const svg = await svg$;
      expect(svg.suggestedFilename()).toBe(`code-${code.cc_code}.svg`);
      const svgText = (await streamBytes(await svg.createReadStream())).toString();
      expect(svgText).toContain('<svg xmlns="http://www.w3.org/2000/svg"');
      expect(svgText).toContain('<title>Totem at the entrance</title>');
      const svgPng = await page.evaluate(async (text) => {
        const img = new Image();
        img.src = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = canvas.height = 500;
        canvas.getContext('2d')!.drawImage(img, 0, 0, 500, 500);
        return canvas.toDataURL('image/png').split(',')[1];
      }, svgText);
      expect(await readQrCodes(Buffer.from(svgPng, 'base64'))).toEqual([url]);

      // Printed: only the sheet with the title, the QR and the code.
      await page.emulateMedia({ media: 'print' });
      const sheet = page.getByTestId('code-print');
      expect(await sheet.isVisible()).toBe(true);
      expect(await sheet.innerText()).toContain('Totem at the entrance');
      expect(await page.locator('.RaLayout-appFrame').isVisible()).toBe(false);
      await shot(page, 'code-print');
      await page.emulateMedia({ media: 'screen' });
      expect(await sheet.isVisible()).toBe(false);

      // The codes list opens the player from a row.
      await page.getByRole('menuitem', { name: 'Codes' }).click();
      await at(page, '/codes');
      const row = new ListScreen(page).row(code.cc_code);
      await row.waitFor();
      expect(await row.getByRole('link', { name: `Open the player of code ${code.cc_code}` }).getAttribute('href')).toBe(url);
      await shot(page, 'codes-list');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 240_000);

  it('a form style picks its logo with the asset picker, by keyboard; only images are offered', async () => {
    const { page, context, errors } = await newPage(browser, server.baseUrl, DESKTOP);
    page.setDefaultTimeout(20_000);
    try {
      await signIn(page);
      await page.goto(`/console/${accountId}/form-styles/${ids.style}`);
      const picker = page.getByTestId('asset-input-st_form_logo_assetid');
      await picker.getByText('No asset chosen').waitFor();
      await picker.getByTestId('asset-picker-open').focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByTestId('asset-picker-dialog');
      await dialog.getByText('Only: Image').waitFor();
      await expect.poll(() => dialog.getByTestId('asset-picker-option').count()).toBe(4);
      await page.keyboard.type('doc');
      await expect.poll(() => dialog.getByTestId('asset-picker-option').count()).toBe(1);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'hidden' });
      await picker.getByTestId('asset-picker-title').getByText('dock').waitFor();
      // The font fields offer fonts only: none uploaded.
      await page.getByTestId('asset-input-st_font_1').getByTestId('asset-picker-open').click();
      await dialog.getByTestId('asset-picker-empty').waitFor();
      await shot(page, 'form-style-font-picker');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Save' }).click();
      await at(page, '/form-styles');
      const style = await api<{ st_form_logo_assetid: string }>(`/form-styles/${ids.style}`);
      const dock = (await api<{ id: string; as_name: string }[]>('/assets')).find((a) => a.as_name === 'dock')!;
      expect(style.st_form_logo_assetid).toBe(dock.id);
      await page.goto(`/console/${accountId}/form-styles/${ids.style}`);
      await picker.getByTestId('asset-picker-title').getByText('dock').waitFor();
      await expect.poll(() => loaded(picker.getByTestId('asset-thumb').locator('img'))).toBe(true);
      await shot(page, 'form-style-logo');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('the screens fit a phone (375 px) without sideways scrolling', async () => {
    const { page, context, errors } = await newPage(browser, server.baseUrl, PHONE);
    page.setDefaultTimeout(20_000);
    try {
      await signIn(page);
      const [code] = await api<{ id: string }[]>('/codes');
      const hall = (await api<{ id: string; as_name: string }[]>('/assets')).find((a) => a.as_name === 'hall-map')!;
      for (const [path, name, ready] of [
        ['/assets', 'phone-assets', 'asset-thumb'],
        ['/assets/new', 'phone-assets-new', 'asset-uploader'],
        [`/assets/${hall.id}`, 'phone-asset-edit', 'asset-file-panel'],
        [`/collections/${ids.collection}`, 'phone-collection', 'collection-assets-list'],
        [`/carousel-groups/${ids.group}`, 'phone-group', 'group-code'],
        [`/codes/${code.id}`, 'phone-code', 'code-qr-panel'],
      ] as const) {
        await page.goto(`/console/${accountId}${path}`);
        await page.getByTestId(ready).first().waitFor();
        expect(await overflow(page), path).toBeLessThanOrEqual(0);
        await shot(page, name);
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});

/** A 1.5 s WebM (a colour-changing canvas with a word) as Chromium's MediaRecorder makes it. */
async function recordVideo(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 360;
    const g = canvas.getContext('2d')!;
    const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm' });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (e) => chunks.push(e.data);
    const stopped = new Promise((resolve) => (recorder.onstop = resolve));
    recorder.start();
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      const frame = () => {
        const t = performance.now() - t0;
        g.fillStyle = `hsl(${Math.round(t / 6)}, 70%, 45%)`;
        g.fillRect(0, 0, 640, 360);
        g.fillStyle = '#ffffff';
        g.font = 'bold 64px sans-serif';
        g.fillText('Teaser', 200, 200);
        if (t < 1500) requestAnimationFrame(frame);
        else resolve();
      };
      frame();
    });
    recorder.stop();
    await stopped;
    const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
    let text = '';
    for (const b of bytes) text += String.fromCharCode(b);
    return btoa(text);
  });
  return Buffer.from(base64, 'base64');
}

async function streamBytes(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks);
}
