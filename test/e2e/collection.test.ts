import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureAdminBuilt, startServer, type E2eServer } from './support/server';
import { DESKTOP, HAS_CHROMIUM, launch, newPage, PHONE, shot, SKIP_REASON } from './support/browser';
import { ApiClient } from './support/api';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

type Row = Record<string, unknown>;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/** A picture drawn in the browser (a stand with a title), as PNG bytes; a short WebM clip recorded from a canvas. */
async function drawMedia(browser: Browser): Promise<{ photo: Buffer; logo: Buffer; clip: Buffer }> {
  const page = await browser.newPage();
  try {
    const out = await page.evaluate(async () => {
      const canvas = (w: number, h: number) => Object.assign(document.createElement('canvas'), { width: w, height: h });
      const photo = canvas(1200, 800);
      let g = photo.getContext('2d')!;
      const grad = g.createLinearGradient(0, 0, 1200, 800);
      grad.addColorStop(0, '#1f6f8b');
      grad.addColorStop(1, '#99c24d');
      g.fillStyle = grad;
      g.fillRect(0, 0, 1200, 800);
      g.fillStyle = '#fff';
      g.font = 'bold 96px sans-serif';
      g.fillText('Stand B12', 80, 420);
      const logo = canvas(400, 160);
      g = logo.getContext('2d')!;
      g.fillStyle = '#0a7d3b';
      g.fillRect(0, 0, 400, 160);
      g.fillStyle = '#fff';
      g.font = 'bold 64px sans-serif';
      g.fillText('EXPO', 110, 105);
      const film = canvas(640, 360);
      const fg = film.getContext('2d')!;
      const recorder = new MediaRecorder(film.captureStream(25), { mimeType: 'video/webm' });
      const chunks: Blob[] = [];
      recorder.ondataavailable = (e) => chunks.push(e.data);
      const stopped = new Promise((r) => (recorder.onstop = r));
      recorder.start();
      for (let i = 0; i < 20; i++) {
        fg.fillStyle = `hsl(${i * 18}, 70%, 45%)`;
        fg.fillRect(0, 0, 640, 360);
        fg.fillStyle = '#fff';
        fg.font = 'bold 48px sans-serif';
        fg.fillText(`Demo ${i}`, 220, 200);
        await new Promise((r) => setTimeout(r, 40));
      }
      recorder.stop();
      await stopped;
      const b64 = async (blob: Blob) => btoa(String.fromCharCode(...new Uint8Array(await blob.arrayBuffer())));
      const png = (c: HTMLCanvasElement) => c.toDataURL('image/png').split(',')[1];
      return { photo: png(photo), logo: png(logo), clip: await b64(new Blob(chunks, { type: 'video/webm' })) };
    });
    return { photo: Buffer.from(out.photo, 'base64'), logo: Buffer.from(out.logo, 'base64'), clip: Buffer.from(out.clip, 'base64') };
  } finally {
    await page.close();
  }
}

/**
 * A collection's public page /c/{token} in Chromium against the real server: at 375 px behind the download form of a
 * QR layer (the form style's title, logo and CSS; the answers stored as a download lead; then the download links,
 * which download), and at 1280 px without a form (the image and the video shown inline, the PDF as a card); no
 * sideways scroll; Dutch by ?lang=. Screenshots collection-*.
 */
describe.skipIf(!HAS_CHROMIUM)("a collection's page in the browser", () => {
  let server: E2eServer;
  let browser: Browser;
  let root: ApiClient;
  let base: string;
  let token: string;
  const ids: Record<string, string> = {};

  const asset = async (title: string, bytes: Buffer, filename: string): Promise<string> =>
    String((await root.createAsset(base.split('/')[2], { as_title: title, as_name: `a${crypto.randomUUID().slice(0, 8)}` }, bytes, filename)).id);

  beforeAll(async () => {
    ensureAdminBuilt();
    server = await startServer({}, { postgres: true });
    browser = await launch();
    root = new ApiClient(server.baseUrl);
    await root.login(server.adminEmail, server.adminPassword);
    const account = await root.create('/accounts', { a_name: 'Collection Events', a_is_enabled: true });
    base = `/accounts/${account.id}`;
    const media = await drawMedia(browser);
    const pdf = await asset('Price list 2027 with every stand size and the options for corner stands', PDF, 'prices.pdf');
    const photo = await asset('Stand photo', media.photo, 'stand.png');
    const clip = await asset('Demo clip', media.clip, 'demo.webm');
    const logo = await asset('Logo', media.logo, 'logo.png');
    const collection = await root.create<Row>(`${base}/collections`, { co_title: 'Expo brochures', co_name: 'brochures' });
    token = String(collection.co_token);
    expect((await root.call('PUT', `${base}/collections/${collection.id}/assets`, { ids: [pdf, photo, clip] })).status).toBe(200);

    const form = await root.create(`${base}/forms`, { f_title: 'Download form', f_name: 'downloads' });
    await root.create(`${base}/form-elements`, { fe_formid: form.id, fe_type: 'text', fe_name: 'email', fe_title: 'E-mail', fe_is_required: true });
    await root.create(`${base}/form-elements`, { fe_formid: form.id, fe_type: 'text', fe_name: 'first_name', fe_title: 'First name' });
    await root.create(`${base}/form-elements`, { fe_formid: form.id, fe_type: 'text', fe_name: 'company', fe_title: 'Company', fe_is_required: true });
    ids.event = (
      await root.create(`${base}/events`, { ev_title: 'Autumn Expo', ev_name: 'autumn', ev_access_type: 'open', ev_consent_text: 'Yes, send me news about the Autumn Expo.' })
    ).id;
    const style = await root.create(`${base}/form-styles`, {
      st_title: 'Green',
      st_eventid: ids.event,
      st_form_title: 'Get the Expo brochures',
      st_form_description: 'Tell us who you are and download the price list, photos and the demo.',
      st_form_logo_assetid: logo,
      st_thanks_title: 'Enjoy the brochures!',
      st_custom_css: ':root { --ls-form-accent: #0a7d3b; --ls-page-bg: #e6f4ea; }',
    });
    const carousel = await root.create(`${base}/carousels`, { c_title: 'Lobby', c_name: 'lobby' });
    const variant = await root.create(`${base}/variants`, { v_carouselid: carousel.id, v_title: 'Landscape', v_name: 'landscape', v_width: 1920, v_height: 1080 });
    const slide = await root.create(`${base}/slides`, { sl_carouselid: carousel.id, sl_title: 'Brochures' });
    ids.layer = (
      await root.create(`${base}/layers`, {
        ly_slideid: slide.id,
        ly_variantid: variant.id,
        ly_type: 'collectionqr',
        ly_collectionid: collection.id,
        ly_download_formid: form.id,
        ly_form_styleid: style.id,
      })
    ).id;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop().catch(() => undefined);
  });

  const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

  it('at 375 px behind the form: the style, the files locked; sent, the lead is stored and the downloads come', async () => {
    const { context, page, errors } = await newPage(browser, server.baseUrl, PHONE);
    await page.goto(`/c/${token}?l=${ids.layer}`);
    await page.getByRole('heading', { level: 1, name: 'Get the Expo brochures' }).waitFor();
    await expect.poll(() => page.getByRole('img', { name: 'Logo' }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(400);
    // the style's CSS is applied (accent colour on the button, page background): the stylesheet may arrive after the page
    await expect.poll(() => page.getByRole('button', { name: 'Send and download' }).evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(10, 125, 59)');
    expect(await page.locator('.ls-collection-download').count()).toBe(0);
    expect(await page.getByText('Send the form above to download').count()).toBe(3);
    expect(await noSideScroll(page)).toBe(true);
    await shot(page, 'collection-form');

    await page.getByRole('textbox', { name: /E-mail/ }).fill('vera.visitor@example.com');
    await page.getByRole('textbox', { name: /First name/ }).fill('Vera');
    await page.getByRole('button', { name: 'Send and download' }).click();
    await page.getByText('Please check the fields marked below.').waitFor(); // company is required
    await page.getByRole('textbox', { name: /Company/ }).fill('Acme');
    await page.getByRole('checkbox', { name: 'Yes, send me news about the Autumn Expo.' }).check();
    await page.getByRole('button', { name: 'Send and download' }).click();
    await page.getByText('Enjoy the brochures!').waitFor();
    const links = page.getByRole('link', { name: /^Download / });
    expect(await links.count()).toBe(3);
    expect(await noSideScroll(page)).toBe(true);
    await shot(page, 'collection-downloads');

    const [download] = await Promise.all([page.waitForEvent('download'), links.first().click()]);
    expect(download.suggestedFilename()).toBe('prices.pdf');
    // a reload keeps the downloads open for this visitor (the cookie)
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Expo brochures' }).waitFor();
    expect(await page.getByRole('link', { name: /^Download / }).count()).toBe(3);
    expect(errors).toEqual([]);
    await context.close();

    const lead = await server.withDb((db) => db('leads').where('ld_source', 'download').first());
    expect(lead).toMatchObject({ ld_eventid: ids.event, ld_email: 'vera.visitor@example.com', ld_first_name: 'Vera', ld_consent_news: true });
    expect(lead.ld_answers).toMatchObject({ company: 'Acme' });
  }, 120_000);

  it('at 1280 px without a form: the image and the video inline, the PDF as a card, three to a row; Dutch by ?lang=nl', async () => {
    const { context, page, errors } = await newPage(browser, server.baseUrl, DESKTOP);
    await page.goto(`/c/${token}`);
    await page.getByRole('heading', { level: 1, name: 'Expo brochures' }).waitFor();
    const image = page.getByRole('img', { name: 'Stand photo' });
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1200);
    const video = page.locator('video');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
    expect(await video.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBe(640);
    const tops = await page.locator('.ls-collection-item').evaluateAll((items) => items.map((i) => Math.round(i.getBoundingClientRect().top)));
    expect(new Set(tops).size).toBe(1); // one row
    expect(await page.getByRole('link', { name: /^Open Price list/ }).getAttribute('target')).toBe('_blank');
    expect(await noSideScroll(page)).toBe(true);
    await shot(page, 'collection-open');

    await page.goto(`/c/${token}?l=${ids.layer}&lang=nl`);
    await page.getByRole('button', { name: 'Versturen en downloaden' }).waitFor();
    expect(await page.getByText('Verstuur het formulier hierboven om te downloaden').count()).toBe(3);
    await shot(page, 'collection-form-nl');
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
