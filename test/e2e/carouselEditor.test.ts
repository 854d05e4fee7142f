import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { ApiClient } from './support/api';
import { DESKTOP, HAS_CHROMIUM, launch, newPage, shot, SKIP_REASON } from './support/browser';
import { drawImage } from './support/media';
import { LoginScreen } from './support/pages';
import { ensureAdminBuilt, startServer, type E2eServer } from './support/server';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

// The carousel graph's rows as the API answers them, read field by field in the assertions.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Row = Record<string, any>;

/** An MP4 header (ftyp isom) and filler: what the asset check needs to take it as a video. */
function mp4(size: number): Buffer {
  const buf = Buffer.alloc(size);
  Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d, 0, 0, 2, 0, 0x69, 0x73, 0x6f, 0x6d, 0x69, 0x73, 0x6f, 0x32]).copy(buf);
  for (let i = 24; i < size; i++) buf[i] = i % 251;
  return buf;
}

/**
 * The carousel editor in Chromium against the real API and the built console: a carousel created on its screen, two
 * variants and three slides added in the editor's dialogs, image (uploaded through the API first), video, hotspot and
 * collection QR layers added, a layer dragged (free and snapped) and resized with the mouse and nudged with the arrow
 * keys, each checked in what the API stored; a move undone and redone; slides reordered by mouse and keyboard; the
 * editor at 1280 and 1200 px (and stacked at 900) photographed.
 */
describe.skipIf(!HAS_CHROMIUM)('carousel editor in the browser', () => {
  let server: E2eServer;
  let browser: Browser;
  let root: ApiClient;
  let account = '';
  let carousel = '';

  const graph = async () => {
    const res = await root.call<Row>('GET', `/accounts/${account}/carousels/${carousel}/graph`);
    expect(res.status).toBe(200);
    return res.body;
  };
  const storedLayers = async (slideTitle: string, variantName: string): Promise<Row[]> => {
    const g = await graph();
    const slide = g.slides.find((s: Row) => s.sl_title === slideTitle);
    const variant = g.variants.find((v: Row) => v.v_name === variantName);
    return slide.layers[variant.v_id] ?? [];
  };

  /** An asset through the upload path (sign, PUT the bytes, register), with a poster when given. */
  const uploadAsset = async (title: string, name: string, bytes: Buffer, filename: string, thumb?: Buffer): Promise<string> =>
    (await root.createAsset(account, { as_title: title, as_name: name }, bytes, filename, thumb)).as_id;

  beforeAll(async () => {
    ensureAdminBuilt();
    // (on a PostgreSQL database of its own when TEST_DATABASE_URL is set)
    server = await startServer({}, { postgres: true });
    root = new ApiClient(server.baseUrl);
    await root.login(server.adminEmail, server.adminPassword);
    account = (await root.create<{ id: string }>('/accounts', { a_name: 'Carousel e2e', a_is_enabled: true })).id;
    // what the hotspot and the QR code point at
    await root.create(`/accounts/${account}/carousels`, { c_title: 'Product tour', c_name: 'tour' });
    await root.create(`/accounts/${account}/collections`, { co_title: 'Brochures', co_name: 'brochures' });
    browser = await launch();
    // the pictures are drawn by the browser (no image files in the repository)
    const { context, page } = await newPage(browser, server.baseUrl);
    const photo = await drawImage(page, 'image/png', 'Booth photo', 200, 800, 450);
    const poster = await drawImage(page, 'image/jpeg', 'Teaser', 20, 640, 360);
    await context.close();
    await uploadAsset('Booth photo', 'booth', photo, 'booth.png');
    await uploadAsset('Teaser clip', 'teaser', mp4(50_000), 'teaser.mp4', poster);
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function signedIn(viewport = DESKTOP) {
    const opened = await newPage(browser, server.baseUrl, viewport);
    // in the preview frame only: every message it receives, kept across its reloads (see the preview test below)
    await opened.context.addInitScript(() => {
      if (window.top === window) return;
      window.addEventListener('message', (e) => {
        const all = JSON.parse(sessionStorage.getItem('ls-test-preview-messages') ?? '[]');
        all.push(e.data);
        sessionStorage.setItem('ls-test-preview-messages', JSON.stringify(all));
      });
    });
    const login = new LoginScreen(opened.page);
    await login.open();
    await login.signIn(server.adminEmail, server.adminPassword);
    await opened.page.waitForURL('**/accounts/selection');
    return opened;
  }

  const status = (page: Page) => page.getByTestId('ce-save-status');
  /** Waits for one save call and for the editor to say everything is saved. */
  async function saving(page: Page, match: (method: string, path: string) => boolean, act: () => Promise<unknown>) {
    const response = page.waitForResponse((r) => match(r.request().method(), new URL(r.url()).pathname));
    response.catch(() => undefined); // (awaited below; a failing act must not leave it unhandled)
    await act();
    const r = await response;
    expect(r.status(), await r.text()).toBeLessThan(300);
    await expect.poll(() => status(page).getAttribute('data-status')).toBe('saved');
    return JSON.parse(r.request().postData() ?? 'null');
  }
  const layerBox = (page: Page, type: string) => page.locator(`.ce-box[data-type="${type}"]`).first();
  const stageScale = async (page: Page) => {
    const box = (await page.getByTestId('ce-stage').boundingBox())!;
    return box.width / 1920;
  };

  async function addVariant(page: Page, title: string, name: string, width: number, height: number) {
    await page.getByRole('button', { name: 'Add variant' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New variant' });
    await dialog.locator('[name="v_title"]').fill(title);
    await dialog.locator('[name="v_name"]').fill(name);
    await dialog.locator('[name="v_width"]').fill(String(width));
    await dialog.locator('[name="v_height"]').fill(String(height));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }

  async function addSlide(page: Page, title: string) {
    await page
      .getByRole('region', { name: /^Slides \(/ })
      .getByRole('button', { name: 'Add' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'New slide' });
    await dialog.locator('[name="sl_title"]').fill(title);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }

  async function addLayer(page: Page, type: string, choose: (dialog: Locator) => Promise<void>) {
    await page.getByRole('button', { name: 'Add layer' }).click();
    await page.getByRole('menuitem', { name: type, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Add: ${type}` });
    await choose(dialog);
    await saving(
      page,
      (m, p) => m === 'POST' && p.endsWith('/layers'),
      () => dialog.getByRole('button', { name: 'Add' }).click(),
    );
  }
  const pickAsset = (title: string) => async (dialog: Locator) => {
    await dialog.getByTestId('asset-picker-open').click();
    await dialog
      .page()
      .getByRole('dialog', { name: 'Asset' })
      .getByRole('option', { name: new RegExp(title) })
      .click();
    await dialog.getByText(title, { exact: true }).waitFor();
  };
  const pickOption = (label: string, option: string) => async (dialog: Locator) => {
    await dialog.getByRole('combobox', { name: label }).click();
    await dialog.page().getByRole('option', { name: option, exact: true }).click();
  };

  it('builds a carousel: variants, slides and every kind of layer; drags, resizes, nudges, undoes and redoes; reorders slides (1280 px)', async () => {
    const { context, page, errors } = await signedIn();
    try {
      // a new carousel opens in its editor
      await page.goto(`/console/${account}/carousels/new`);
      await page.locator('[name="c_title"]').fill('Lobby');
      await page.locator('[name="c_name"]').fill('lobby');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL((u) => /\/carousels\/[0-9a-f-]{36}$/.test(u.pathname));
      carousel = page.url().split('/').pop()!;
      await page.getByText('Add a variant first', { exact: false }).waitFor();

      await addVariant(page, 'Landscape', 'landscape', 1920, 1080);
      await addVariant(page, 'Portrait', 'portrait', 1080, 1920);
      for (const title of ['Welcome', 'Products', 'Contact']) await addSlide(page, title);
      const g = await graph();
      expect(g.variants.map((v: Row) => [v.v_name, v.v_width, v.v_height])).toEqual([
        ['portrait', 1080, 1920],
        ['landscape', 1920, 1080],
      ]);
      expect(g.slides.map((s: Row) => s.sl_title)).toEqual(['Welcome', 'Products', 'Contact']);

      // layers on the first slide in the landscape variant
      await page.getByTestId('ce-variant').filter({ hasText: 'Landscape' }).click();
      await page.getByTestId('ce-slide').filter({ hasText: 'Welcome' }).click();
      await addLayer(page, 'Image', pickAsset('Booth photo'));
      await addLayer(page, 'Video', pickAsset('Teaser clip'));
      await addLayer(page, 'Hotspot', pickOption('Opens carousel', 'Product tour'));
      await addLayer(page, 'Collection QR code', pickOption('Collection', 'Brochures'));
      let stored = await storedLayers('Welcome', 'landscape');
      expect(stored.map((l) => l.ly_type)).toEqual(['image', 'video', 'hotspot', 'collectionqr']);
      const image = stored[0];
      // the image keeps its proportions (800 × 450), 40 % of the canvas wide, centred
      expect(image).toMatchObject({ ly_width: 768, ly_height: 432, ly_x: 576, ly_y: 324 });
      expect(stored[1]).toMatchObject({ ly_muted: true, ly_autoplay: true });
      // the picture is drawn from the asset
      await expect
        .poll(() =>
          page
            .locator('.ce-clip img')
            .first()
            .evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth),
        )
        .toBe(800);

      // the hotspot and the QR code sit on top of the image's middle: move them aside with the keyboard (Shift+arrows)
      const hotspot = layerBox(page, 'hotspot');
      await hotspot.focus();
      for (let i = 0; i < 50; i++) await page.keyboard.press('Shift+ArrowRight');
      await expect.poll(async () => (await storedLayers('Welcome', 'landscape'))[2].ly_x, { timeout: 10_000 }).toBe(576 + 500);
      const qr = layerBox(page, 'collectionqr');
      await qr.focus();
      for (let i = 0; i < 50; i++) await page.keyboard.press('Shift+ArrowLeft');
      await expect.poll(async () => (await storedLayers('Welcome', 'landscape'))[3].ly_x, { timeout: 10_000 }).toBe(720 - 500);
      const video = layerBox(page, 'video');
      await video.focus();
      for (let i = 0; i < 40; i++) await page.keyboard.press('Shift+ArrowDown');
      await expect.poll(async () => (await storedLayers('Welcome', 'landscape'))[1].ly_y, { timeout: 10_000 }).toBe(324 + 400);

      // the live preview (the player's preview page) is told of each save. It reloads itself, and its address changes
      // with the slide and variant, so the messages are recorded by a script that every load of the frame runs, in the
      // tab's sessionStorage (shared with this same-origin page): none is lost to a reload.
      const welcome = g.slides.find((x: Row) => x.sl_title === 'Welcome').sl_id;
      const products = g.slides.find((x: Row) => x.sl_title === 'Products').sl_id;
      const previewMessages = () => page.evaluate(() => JSON.parse(sessionStorage.getItem('ls-test-preview-messages') ?? '[]') as unknown[]);

      // drag the image by its middle (the others are moved off it) with the mouse (Alt: no snapping): the API stores
      // where it was dropped
      const scale = await stageScale(page);
      const imageBox = layerBox(page, 'image');
      let b = (await imageBox.boundingBox())!;
      await page.keyboard.down('Alt');
      const moved = await saving(
        page,
        (m, p) => m === 'PUT' && p.endsWith(`/layers/${image.ly_id}`),
        async () => {
          await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
          await page.mouse.down();
          await page.mouse.move(b.x + b.width / 2 + 40, b.y + b.height / 2 + 30, { steps: 8 });
          await page.mouse.move(b.x + b.width / 2 + 60, b.y + b.height / 2 + 40, { steps: 8 });
          await page.mouse.up();
        },
      );
      await page.keyboard.up('Alt');
      stored = await storedLayers('Welcome', 'landscape');
      expect(moved).toEqual({ ly_x: stored[0].ly_x, ly_y: stored[0].ly_y });
      expect(Math.abs(stored[0].ly_x - (576 + 60 / scale))).toBeLessThanOrEqual(2);
      expect(Math.abs(stored[0].ly_y - (324 + 40 / scale))).toBeLessThanOrEqual(2);
      expect(stored[0]).toMatchObject({ ly_width: 768, ly_height: 432 });
      expect(await imageBox.getAttribute('aria-label')).toContain(`x ${stored[0].ly_x}, y ${stored[0].ly_y}`);

      // resize by the bottom-right handle (Alt: no snapping): wider and higher by the mouse's way over the scale
      b = (await imageBox.boundingBox())!;
      const handle = imageBox.locator('[data-handle="se"]');
      const h = (await handle.boundingBox())!;
      await page.keyboard.down('Alt');
      await saving(
        page,
        (m, p) => m === 'PUT' && p.endsWith(`/layers/${image.ly_id}`),
        async () => {
          await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
          await page.mouse.down();
          await page.mouse.move(h.x + h.width / 2 + 25, h.y + h.height / 2 + 30, { steps: 10 });
          await page.mouse.up();
        },
      );
      await page.keyboard.up('Alt');
      const resized = (await storedLayers('Welcome', 'landscape'))[0];
      expect(resized).toMatchObject({ ly_x: stored[0].ly_x, ly_y: stored[0].ly_y });
      expect(Math.abs(resized.ly_width - (768 + 25 / scale))).toBeLessThanOrEqual(2);
      expect(Math.abs(resized.ly_height - (432 + 30 / scale))).toBeLessThanOrEqual(2);

      // a drag near the canvas' left edge snaps onto it, with a guide while dragging
      b = (await imageBox.boundingBox())!;
      const stage = (await page.getByTestId('ce-stage').boundingBox())!;
      const toEdge = b.x - stage.x - 1; // a screen pixel short of the edge: nothing else is nearer
      await saving(
        page,
        (m, p) => m === 'PUT' && p.endsWith(`/layers/${image.ly_id}`),
        async () => {
          await page.mouse.move(b.x + 30, b.y + 30);
          await page.mouse.down();
          await page.mouse.move(b.x + 30 - toEdge, b.y + 30, { steps: 10 });
          await page.locator('.ce-guide--x[style*="left: 0px"]').waitFor();
          await shot(page, 'carousel-editor-snapping');
          await page.mouse.up();
        },
      );
      const snapped = (await storedLayers('Welcome', 'landscape'))[0];
      expect(snapped.ly_x).toBe(0);
      // (the mouse did not go up or down; the top may have snapped to a line within reach)
      expect(Math.abs(snapped.ly_y - resized.ly_y)).toBeLessThanOrEqual(Math.ceil(6 / scale));

      // nudge with the arrow keys: 1 px, 10 px with Shift; saved once the keys pause
      await imageBox.focus();
      await saving(
        page,
        (m, p) => m === 'PUT' && p.endsWith(`/layers/${image.ly_id}`),
        async () => {
          for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'Shift+ArrowDown']) await page.keyboard.press(key);
        },
      );
      const nudged = (await storedLayers('Welcome', 'landscape'))[0];
      expect([nudged.ly_x, nudged.ly_y]).toEqual([3, snapped.ly_y + 10]);

      // undo the nudges and the snapped move (Ctrl+Z), redo one (Ctrl+Shift+Z): each is stored
      await saving(
        page,
        (m, p) => m === 'PUT' && p.endsWith(`/layers/${image.ly_id}`),
        () => page.keyboard.press('Control+z'),
      );
      expect((await storedLayers('Welcome', 'landscape'))[0]).toMatchObject({ ly_x: 0, ly_y: snapped.ly_y });
      await saving(
        page,
        (m, p) => m === 'PUT' && p.endsWith(`/layers/${image.ly_id}`),
        () => page.getByRole('button', { name: 'Undo' }).click(),
      );
      expect((await storedLayers('Welcome', 'landscape'))[0]).toMatchObject({ ly_x: resized.ly_x, ly_y: resized.ly_y });
      await saving(
        page,
        (m, p) => m === 'PUT' && p.endsWith(`/layers/${image.ly_id}`),
        () => page.keyboard.press('Control+Shift+z'),
      );
      expect((await storedLayers('Welcome', 'landscape'))[0]).toMatchObject({ ly_x: 0, ly_y: snapped.ly_y });

      // the preview's address names the variant (and the slide shown when it was chosen); saves and slide changes are
      // messages, so the player is not reloaded
      expect(await page.getByTestId('ce-preview').getAttribute('src')).toMatch(new RegExp(`^/play/_preview/${account}/${carousel}\\?slide=[0-9a-f-]{36}&variant=landscape$`));
      expect(await previewMessages()).toContainEqual({ type: 'leadstage-preview', slideId: welcome, reload: true });
      await page.getByTestId('ce-slide').filter({ hasText: 'Products' }).click();
      await expect.poll(previewMessages).toContainEqual({ type: 'leadstage-preview', slideId: products, reload: true });
      await page.getByTestId('ce-slide').filter({ hasText: 'Welcome' }).click();
      await page.getByTestId('ce-layer-row').filter({ hasText: 'Image' }).click();
      await shot(page, 'carousel-editor');

      // reorder slides: Contact to the top by keyboard, then Products to the end with the mouse
      const slideOrder = async () => (await graph()).slides.map((s: Row) => s.sl_title);
      const handleOf = (title: string) => page.getByRole('button', { name: `Move ${title}` });
      let order = page.waitForResponse((r) => r.url().endsWith('/slides/order'));
      await handleOf('Contact').focus();
      await page.keyboard.press('Space');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('Space');
      expect((await order).status()).toBe(200);
      expect(await slideOrder()).toEqual(['Contact', 'Welcome', 'Products']);
      const from = (await handleOf('Products').boundingBox())!;
      const target = (await page.getByTestId('ce-slides').locator('li').first().boundingBox())!;
      order = page.waitForResponse((r) => r.url().endsWith('/slides/order'));
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(from.x + from.width / 2, target.y + 4, { steps: 12 });
      await page.mouse.up();
      expect((await order).status()).toBe(200);
      expect(await slideOrder()).toEqual(['Products', 'Contact', 'Welcome']);
      await expect
        .poll(() => page.getByTestId('ce-slide').allInnerTexts())
        .toEqual([expect.stringContaining('1. Products'), expect.stringContaining('2. Contact'), expect.stringContaining('3. Welcome')]);

      // after a reload the editor shows what was stored
      await page.reload();
      await page.getByTestId('ce-stage').waitFor();
      await page.getByTestId('ce-variant').filter({ hasText: 'Landscape' }).click();
      await page.getByTestId('ce-slide').filter({ hasText: 'Welcome' }).click();
      await expect.poll(() => page.locator('.ce-box').count()).toBe(4);
      expect(await layerBox(page, 'image').getAttribute('aria-label')).toContain(`x 0, y ${snapped.ly_y}`);
      expect(errors).toEqual([]);

      // what the editor built plays: a group with this carousel, a code, and /play/{code} in a 1920×1080 window shows
      // the first slide (Products, after the reorder) and then Contact and Welcome, whose image sits where it was
      // dragged (the stage is the variant's 1920×1080 at scale 1)
      const group = await root.create<Row>(`/accounts/${account}/carousel-groups`, { cg_title: 'Lobby screens' });
      expect((await root.call('PUT', `/accounts/${account}/carousel-groups/${group.id}/items`, { ids: [carousel] })).status).toBe(200);
      const code = String((await root.create<Row>(`/accounts/${account}/codes`, { cc_groupid: group.id })).cc_code);
      const player = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1920, height: 1080 } });
      try {
        const screen = await player.newPage();
        await screen.goto(`/play/${code}?variant=landscape`);
        const slides = (await graph()).slides as Row[];
        const idOf = (title: string) => String(slides.find((x) => x.sl_title === title)!.sl_id);
        const shown = (title: string) => screen.locator(`[data-slide="${idOf(title)}"]`).first();
        await shown('Products').waitFor({ state: 'attached', timeout: 20_000 });
        // Welcome comes third, after two slides of 8 s (their default duration); the player says when a slide shows
        const welcomeShows = screen.evaluate(
          (id) => new Promise<number>((resolve) => window.addEventListener('ls-player-slide', (e) => (e as CustomEvent).detail.slideId === id && resolve(performance.now()))),
          idOf('Welcome'),
        );
        const productsAt = await screen.evaluate(() => performance.now());
        expect((await welcomeShows) - productsAt).toBeGreaterThan(14_000);
        const image = shown('Welcome').locator(`[data-layer="${(await storedLayers('Welcome', 'landscape'))[0].ly_id}"]`);
        await image.waitFor({ state: 'visible', timeout: 30_000 });
        const stage = (await screen
          .locator(`[data-slide="${idOf('Welcome')}"]`)
          .first()
          .boundingBox())!;
        const box = (await image.boundingBox())!;
        expect(Math.round(box.x - stage.x)).toBe(0);
        expect(Math.round(box.y - stage.y)).toBe(snapped.ly_y);
      } finally {
        await player.close();
      }
    } finally {
      await context.close();
    }
  });

  it('fits at 1200 px with the inspector beside the canvas, and stacks it below at 900 px', async () => {
    for (const width of [1200, 900]) {
      const { context, page, errors } = await signedIn({ width, height: 900 });
      try {
        await page.goto(`/console/${account}/carousels/${carousel}`);
        await page.getByTestId('ce-stage').waitFor();
        await page.getByTestId('ce-variant').filter({ hasText: 'Landscape' }).click();
        await page.getByTestId('ce-slide').filter({ hasText: 'Welcome' }).click();
        await layerBox(page, 'video').click();
        await page.getByTestId('ce-inspector').getByRole('switch', { name: 'Muted' }).waitFor();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        const canvas = (await page.getByTestId('ce-stage').boundingBox())!;
        const inspector = (await page.getByTestId('ce-inspector').boundingBox())!;
        if (width === 1200) expect(inspector.x).toBeGreaterThan(canvas.x + canvas.width);
        else expect(inspector.y).toBeGreaterThan(canvas.y + canvas.height);
        // the canvas keeps the variant's proportions
        expect(Math.abs(canvas.width / canvas.height - 16 / 9)).toBeLessThan(0.02);
        // a video flag from the inspector is stored
        const body = await saving(
          page,
          (m, p) => m === 'PUT' && p.includes('/layers/'),
          () => page.getByTestId('ce-inspector').getByRole('switch', { name: 'Loop' }).click(),
        );
        expect(body).toEqual({ ly_loop: width === 1200 });
        await shot(page, 'carousel-editor-video');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});
