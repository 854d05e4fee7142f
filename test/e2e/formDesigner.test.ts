import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ViteDevServer } from 'vite';
import { ApiClient } from './support/api';
import { DESKTOP, HAS_CHROMIUM, launch, PHONE, shot, SKIP_REASON } from './support/browser';
import { ROOT, startServer, type E2eServer } from './support/server';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

interface Element {
  id: string;
  fe_title: string;
  fe_name: string;
}

/**
 * The form designer in Chromium against the real API: the app runs as in the other end-to-end tests (its own PGlite
 * database), the designer's page (test/e2e/designer/) is served by Vite with /api proxied to it, so the browser signs
 * in and calls the API as the console does. A form with five elements is made through the API; the test drags one
 * with the mouse and checks the order the API stored, reorders by keyboard on a phone, and saves an edit (and sees
 * the API's 409 on the field).
 */
describe.skipIf(!HAS_CHROMIUM)('form designer in the browser', () => {
  let server: E2eServer;
  let vite: ViteDevServer;
  let browser: Browser;
  let root: ApiClient;
  let base = '';
  let account = '';
  let form = '';

  const storedTitles = async () => {
    const res = await root.call<{ elements: Element[] }>('GET', `/accounts/${account}/forms/${form}/graph`);
    expect(res.status).toBe(200);
    return res.body.elements.map((e) => e.fe_title);
  };

  beforeAll(async () => {
    server = await startServer();
    root = new ApiClient(server.baseUrl);
    await root.login(server.adminEmail, server.adminPassword);
    account = (await root.create<{ id: string }>('/accounts', { a_name: 'Designer e2e', a_is_enabled: true })).id;
    form = (await root.create<{ id: string }>(`/accounts/${account}/forms`, { f_title: 'Registration', f_name: 'registration' })).id;
    const list = (await root.create<{ id: string }>(`/accounts/${account}/lists`, { l_title: 'Colours', l_name: 'colours' })).id;
    for (const title of ['Red', 'Green', 'Blue']) await root.create(`/accounts/${account}/list-items`, { li_listid: list, li_title: title });
    // a list no element uses yet: the designer loads its tree when it is picked
    const sizes = (await root.create<{ id: string }>(`/accounts/${account}/lists`, { l_title: 'Sizes', l_name: 'sizes' })).id;
    const medium = await root.create<{ id: string }>(`/accounts/${account}/list-items`, { li_listid: sizes, li_title: 'Medium' });
    await root.create(`/accounts/${account}/list-items`, { li_listid: sizes, li_title: 'Small' });
    await root.create(`/accounts/${account}/list-items`, { li_listid: sizes, li_title: 'Medium tall', li_parentid: medium.id });
    const element = (body: Record<string, unknown>) => root.create<Element>(`/accounts/${account}/form-elements`, { fe_formid: form, fe_is_required: false, ...body });
    await element({ fe_title: 'First name', fe_name: 'first_name', fe_type: 'text', fe_is_required: true });
    await element({ fe_title: 'Company', fe_name: 'company', fe_type: 'text', fe_options: { max_length: 80 } });
    await element({ fe_title: 'Colour', fe_name: 'colour', fe_type: 'choice_chips_single', fe_listid: list });
    await element({ fe_title: 'Newsletter', fe_name: 'newsletter', fe_type: 'toggle', fe_options: { default: true } });
    await element({ fe_title: 'Budget', fe_name: 'budget', fe_type: 'slider', fe_options: { min: 0, max: 50, step: 5 } });

    const { createServer } = await import('vite');
    vite = await createServer({
      configFile: path.join(ROOT, 'test/e2e/designer/vite.config.ts'),
      server: { host: '127.0.0.1', port: 0, proxy: { '/api': server.baseUrl } },
      logLevel: 'error',
    });
    await vite.listen();
    base = vite.resolvedUrls!.local[0].replace(/\/$/, '');
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await vite?.close();
    await server?.stop();
  });

  /** A signed-in browser on the designer's page (through the proxy, so the cookies are the page's). */
  async function open(viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await browser.newContext({ baseURL: base, viewport, locale: 'en-GB', colorScheme: 'light' });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.request.get('/api/1/auth/me');
    const csrf = (await context.cookies()).find((c) => c.name === 'ls.csrf-token')!.value;
    const login = await page.request.post('/api/1/auth/web', {
      data: { u_email: server.adminEmail, u_password: server.adminPassword },
      headers: { 'X-CSRF-Token': decodeURIComponent(csrf) },
    });
    expect(login.status()).toBe(200);
    await page.goto(`/?account=${account}&form=${form}`);
    await page.locator('.fd-row').nth(4).waitFor();
    return { context, page, errors };
  }
  const rowTitles = (page: Page) => page.locator('.fd-row .fd-row-title').evaluateAll((nodes) => nodes.map((n) => (n.firstChild?.textContent ?? '').trim()));
  const previewTitles = (page: Page) => page.locator('.fd-preview .ls-form > [data-name]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-name')));

  it('drags an element to a new place with the mouse; the API stores the order (1280 px)', async () => {
    const { context, page, errors } = await open(DESKTOP);
    try {
      expect(await rowTitles(page)).toEqual(['First name', 'Company', 'Colour', 'Newsletter', 'Budget']);
      const handle = page.getByRole('button', { name: 'Move First name' });
      const from = (await handle.boundingBox())!;
      const target = (await page.locator('.fd-row').nth(2).boundingBox())!;
      const saved = page.waitForResponse((r) => r.url().endsWith('/form-elements/order') && r.request().method() === 'PUT');
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      // past the middle of the third row: the element goes after it
      await page.mouse.move(from.x + from.width / 2, target.y + target.height * 0.75, { steps: 12 });
      await expect.poll(() => page.locator('.fd-drop-indicator').evaluate((n) => getComputedStyle(n).display)).toBe('block');
      await page.mouse.up();
      const response = await saved;
      expect(response.status()).toBe(200);
      expect(JSON.parse(response.request().postData()!).ids).toHaveLength(5);
      const order = ['Company', 'Colour', 'First name', 'Newsletter', 'Budget'];
      expect(await rowTitles(page)).toEqual(order);
      expect(await previewTitles(page)).toEqual(['company', 'colour', 'first_name', 'newsletter', 'budget']);
      expect(await storedTitles()).toEqual(order);
      await expect.poll(() => page.getByTestId('fd-announcer').textContent()).toContain('The new order is saved.');
      await shot(page, 'form-designer');
      // after a reload it is still there
      await page.reload();
      await page.locator('.fd-row').nth(4).waitFor();
      expect(await rowTitles(page)).toEqual(order);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('saves an edit through the API and shows its 409 on the field (1280 px)', async () => {
    const { context, page, errors } = await open(DESKTOP);
    try {
      // an element the page does not know about yet takes the name first
      await root.create(`/accounts/${account}/form-elements`, { fe_formid: form, fe_title: 'Elsewhere', fe_name: 'job_title', fe_type: 'text' });
      await page.locator('.fd-select', { hasText: 'Company' }).click();
      const editor = page.locator('.fd-panel--editor');
      await editor.getByRole('textbox', { name: 'Title' }).fill('Organisation');
      await expect.poll(() => page.locator('.fd-preview [data-name="company"] .ls-form-label').first().textContent()).toBe('Organisation');
      await editor.getByRole('textbox', { name: 'Data name' }).fill('job_title');
      await editor.getByRole('button', { name: 'Save' }).click();
      await editor.getByText('This name is already in use').waitFor();
      expect(await editor.getByRole('textbox', { name: 'Data name' }).getAttribute('aria-invalid')).toBe('true');
      await editor.getByRole('textbox', { name: 'Data name' }).fill('organisation');
      await editor.getByRole('button', { name: 'Save' }).click();
      await editor.getByText('Saved', { exact: true }).waitFor();
      const stored = (await root.call<{ elements: (Element & { fe_options: unknown })[] }>('GET', `/accounts/${account}/forms/${form}/graph`)).body.elements.find(
        (e) => e.fe_name === 'organisation',
      );
      expect(stored).toMatchObject({ fe_title: 'Organisation', fe_options: { max_length: 80 } });

      // a new radio tree on the list no element used: its tree comes from the API once, and the preview draws it
      await page.getByRole('button', { name: 'Add element' }).click();
      await page.getByRole('menuitem', { name: 'Radio tree' }).click();
      await page.keyboard.type('T-shirt size');
      const tree = page.waitForResponse((r) => /\/lists\/[^/]+\/tree$/.test(r.url()));
      await editor.getByRole('combobox', { name: 'List' }).click();
      await page.getByRole('option', { name: /^Sizes/ }).click();
      expect((await tree).status()).toBe(200);
      const preview = page.locator('.fd-preview');
      await preview.getByRole('tree', { name: 'T-shirt size' }).waitFor();
      expect(await preview.getByRole('treeitem').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('Medium'), expect.stringContaining('Small')]));
      await editor.getByText('3 items').waitFor(); // the list's nodes, the nested one included
      await editor.getByRole('button', { name: 'Save' }).click();
      await editor.getByText('Saved', { exact: true }).waitFor();
      const created = (await root.call<{ elements: Element[] }>('GET', `/accounts/${account}/forms/${form}/graph`)).body.elements.at(-1);
      expect(created).toMatchObject({ fe_title: 'T-shirt size', fe_name: 't-shirt_size', fe_type: 'radio_tree' });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('reorders by keyboard on a phone, with the preview in its own tab (375 px)', async () => {
    const { context, page, errors } = await open(PHONE);
    try {
      const before = await storedTitles();
      const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
      const last = before[before.length - 1];
      const saved = page.waitForResponse((r) => r.url().endsWith('/form-elements/order'));
      await page.getByRole('button', { name: `Move ${last}` }).focus();
      await page.keyboard.press('Space');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('Space');
      expect((await saved).status()).toBe(200);
      const expected = [...before];
      expected.splice(before.length - 3, 0, expected.pop()!);
      expect(await storedTitles()).toEqual(expected);
      await shot(page, 'form-designer-list');
      // selecting an element opens its tab; the preview has its own
      await page.locator('.fd-select', { hasText: 'Budget' }).click();
      await page.locator('.fd-panel--editor').getByRole('textbox', { name: 'Maximum' }).waitFor();
      await shot(page, 'form-designer-element');
      await page.getByRole('tab', { name: 'Preview' }).click();
      await page.locator('.fd-preview').getByRole('slider', { name: 'Budget' }).waitFor();
      await shot(page, 'form-designer-preview');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
