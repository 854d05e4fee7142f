import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { readQrCodes } from './support/qr';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './support/api';
import { HAS_CHROMIUM, launch, SCREENSHOTS, shot, SKIP_REASON } from './support/browser';
import { decodePng } from './support/png';
import { ensureAdminBuilt, startServer, type E2eServer } from './support/server';
import { startTcpProxy, type TcpProxy } from '../helpers/tcpProxy';
import { encodePng } from '../../admin/vite.app.config';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

/**
 * The totem player (/play/{code}) in Chromium against the real server, seeded through the console API: a group of two
 * carousels ("main": an image with a hotspot and the navigation buttons, a video, an image with a collection QR code;
 * "info", which the hotspot opens) and a standby carousel ("idle"); the assets uploaded through the asset sign/register
 * API (PNGs drawn here; a WebM recorded by Chromium itself from a canvas, since no encoder is installed here and
 * Chromium decodes VP8). The player is reached through a TCP proxy, so cutting it cuts the network for the page and its
 * service worker alike (and context.setOffline as well).
 *
 * Checked: the first slide on a cold load, slides advancing on their durations, the letterbox, the video playing, the
 * QR code decoded from a screenshot (ZXing, the barcode-detector package's engine) to the collection's link, a hotspot
 * switching carousel, the standby carousel after the screensaver timeout and a touch bringing the group back, events
 * in the plays statistics (none lost, none twice), a reload with the network cut still playing, a replaced asset shown
 * after the poll, 50 transitions traced for dropped frames, the unknown-code message in English and Dutch, and the
 * editor's preview page. Screenshots: test/e2e/screenshots/player-*.png.
 */

const VIEW = { width: 1280, height: 860 }; // a 16:9 canvas of 1280×720 letterboxed by 70 px top and bottom
const CANVAS = { width: 1280, height: 720 };
const TOP = (VIEW.height - CANVAS.height) / 2;
const BG = '#202040';
const COLOURS = { red: [214, 40, 40], green: [42, 157, 143], blue: [38, 70, 200], orange: [244, 140, 30], purple: [128, 50, 170], white: [250, 250, 250] } as const;
type Rgb = readonly [number, number, number];
const DURATIONS = { m1: 2000, m2: 2500, m3: 2000, i1: 3000 };
const SCREENSAVER_S = 15;

type Row = Record<string, unknown>;
interface Shown {
  mode: string;
  carouselId: string;
  slideId: string;
  t: number;
  page: number;
}

/** A PNG of `w`×`h`: the colour with a soft diagonal gradient and fine stripes (something to raster, not one flat fill). */
function picture(w: number, h: number, [r, g, b]: Rgb): Buffer {
  const px = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const shade = 0.85 + 0.15 * ((x + y) / (w + h)) - (y % 8 === 0 ? 0.04 : 0);
      px.set([Math.round(r * shade), Math.round(g * shade), Math.round(b * shade), 255], (y * w + x) * 4);
    }
  }
  return encodePng(w, h, px);
}

/** The colour at a point of a PNG screenshot. */
function pixel(png: Buffer, x: number, y: number): Rgb {
  const img = decodePng(png);
  const i = (img.width * y + x) * 4;
  return [img.data[i], img.data[i + 1], img.data[i + 2]];
}
const near = (a: Rgb, b: Rgb, tolerance = 40) => a.every((v, i) => Math.abs(v - b[i]) <= tolerance);
const hex = (c: string): Rgb => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16)) as unknown as Rgb;

/** Every QR code ZXing finds in a PNG screenshot. */
const decodeQr = readQrCodes;

describe.skipIf(!HAS_CHROMIUM)('totem player (/play/{code})', () => {
  let server: E2eServer;
  let browser: Browser;
  let proxy: TcpProxy;
  let origin: string; // the player's origin: the proxy
  let root: ApiClient;
  let a: string;
  const ids: Record<string, string> = {};
  let code: string;
  let perfCode: string;
  let coToken: string;
  let live: { context: BrowserContext; page: Page; errors: string[] };
  const figures: Record<string, string> = {};
  /** Each asset's current bytes and type by id, for the stand-in local media server. */
  const bytesOf = new Map<string, { bytes: Buffer; type: string }>();

  const api = async <T = Row>(method: string, p: string, body?: unknown): Promise<T> => {
    const res = await root.call<T>(method, `${a}${p}`, body);
    if (res.status >= 300) throw new Error(`${method} ${p} -> ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };

  /** Signs, PUTs and registers a file (or replaces an asset's file): the console's upload path. */
  async function upload(bytes: Buffer, filename: string, replace?: string): Promise<Row> {
    const file = await root.uploadAssetFile(a.split('/')[2], bytes, filename);
    const name = filename.replace(/\W.*$/, '').toLowerCase();
    const asset = replace ? await api('PUT', `/assets/${replace}/file`, file) : await api('POST', '/assets', { as_title: filename, as_name: name, ...file });
    bytesOf.set(String(asset.id), { bytes, type: String(asset.as_type) });
    return asset;
  }

  /** A WebM (VP8) of a moving block on yellow, recorded by Chromium from a canvas. */
  async function recordWebm(): Promise<Buffer> {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.setContent('<body></body>');
      const b64 = await page.evaluate(async () => {
        const c = document.createElement('canvas');
        c.width = 320;
        c.height = 180;
        document.body.append(c);
        const g = c.getContext('2d')!;
        const rec = new MediaRecorder(c.captureStream(25), { mimeType: 'video/webm;codecs=vp8', videoBitsPerSecond: 400_000 });
        const chunks: Blob[] = [];
        rec.ondataavailable = (e) => chunks.push(e.data);
        const stopped = new Promise((r) => (rec.onstop = r));
        rec.start(100);
        const t0 = performance.now();
        await new Promise<void>((resolve) => {
          const draw = () => {
            const t = performance.now() - t0;
            g.fillStyle = '#f4c430';
            g.fillRect(0, 0, 320, 180);
            g.fillStyle = '#1d3557';
            g.fillRect((t / 8) % 280, 60, 40, 60);
            if (t < 3000) requestAnimationFrame(draw);
            else resolve();
          };
          draw();
        });
        rec.stop();
        await stopped;
        const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
        let s = '';
        for (const b of bytes) s += String.fromCharCode(b);
        return btoa(s);
      });
      return Buffer.from(b64, 'base64');
    } finally {
      await context.close();
    }
  }

  async function variant(carouselId: string, extra: Row = {}): Promise<string> {
    const v = await api<Row>('POST', '/variants', {
      v_carouselid: carouselId,
      v_title: 'HD',
      v_name: 'hd',
      v_width: CANVAS.width,
      v_height: CANVAS.height,
      v_bgcolor: BG,
      v_default_duration_ms: 1500,
      v_screensaver_timeout_s: SCREENSAVER_S,
      ...extra,
    });
    return String(v.id);
  }
  const slide = async (carouselId: string, title: string, extra: Row = {}) =>
    String((await api<Row>('POST', '/slides', { sl_carouselid: carouselId, sl_title: title, ...extra })).id);
  const layer = async (slideId: string, variantId: string, body: Row) => String((await api<Row>('POST', '/layers', { ly_slideid: slideId, ly_variantid: variantId, ...body })).id);
  const full = { ly_x: 0, ly_y: 0, ly_width: CANVAS.width, ly_height: CANVAS.height };

  /** A player page in a fresh profile, recording every slide it shows (kept across reloads in sessionStorage). */
  async function openPlayer(url: string, locale = 'en-GB') {
    const context = await browser.newContext({ baseURL: origin, viewport: VIEW, locale });
    await context.addInitScript(() => {
      // the player's own window only (an iframe layer's sandboxed page has no storage to write to)
      if (window.top !== window) return;
      const load = () => JSON.parse(sessionStorage.getItem('ls-test-shown') ?? '[]');
      const pageNo = Number(sessionStorage.getItem('ls-test-page') ?? '0') + 1;
      sessionStorage.setItem('ls-test-page', String(pageNo));
      window.addEventListener('ls-player-slide', (e) => {
        const d = (e as CustomEvent).detail;
        const all = load();
        all.push({ mode: d.mode, carouselId: d.carouselId, slideId: d.slideId, t: performance.now(), page: pageNo });
        sessionStorage.setItem('ls-test-shown', JSON.stringify(all));
      });
    });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);
    return { context, page, errors };
  }
  const shownOf = (page: Page): Promise<Shown[]> => page.evaluate(() => JSON.parse(sessionStorage.getItem('ls-test-shown') ?? '[]'));
  /** Waits until the page has shown `slideId` after `count` slides were shown; answers that show. */
  async function waitShown(page: Page, slideId: string, after: number, timeout = 20_000): Promise<Shown> {
    const deadline = Date.now() + timeout;
    for (;;) {
      const all = await shownOf(page);
      const hit = all.slice(after).find((s) => s.slideId === slideId);
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`slide ${slideId} not shown after #${after}; shown: ${all.map((s) => s.slideId.slice(0, 4)).join(' ')}`);
      await page.waitForTimeout(50);
    }
  }
  const screenshot = async (page: Page, name: string) => {
    await shot(page, name);
    return fs.readFileSync(path.join(SCREENSHOTS, `${name}-${VIEW.width}.png`));
  };

  beforeAll(async () => {
    ensureAdminBuilt();
    [server, browser] = await Promise.all([startServer({}, { postgres: true }), launch()]);
    proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(server.baseUrl).port) });
    origin = `http://127.0.0.1:${proxy.port}`;
    root = new ApiClient(server.baseUrl);
    await root.login(server.adminEmail, server.adminPassword);
    a = `/accounts/${(await root.create('/accounts', { a_name: 'Player Expo', a_is_enabled: true })).id}`;

    // assets, through the upload API
    for (const [name, colour] of [
      ['red', COLOURS.red],
      ['green', COLOURS.green],
      ['blue', COLOURS.blue],
      ['orange', COLOURS.orange],
    ] as const)
      ids[name] = String((await upload(picture(CANVAS.width, CANVAS.height, colour), `${name}.png`)).id);
    for (const b of ['next', 'prev', 'home']) ids[`btn_${b}`] = String((await upload(picture(64, 64, COLOURS.white), `${b}.png`)).id);
    ids.video = String((await upload(await recordWebm(), 'clip.webm')).id);
    const collection = await api<Row>('POST', '/collections', { co_title: 'Brochures', co_name: 'brochures' });
    ids.collection = String(collection.id);
    coToken = String(collection.co_token);
    await api('PUT', `/collections/${ids.collection}/assets`, { ids: [ids.red] });

    // carousels
    ids.main = String((await api<Row>('POST', '/carousels', { c_title: 'Main', c_name: 'main' })).id);
    ids.info = String((await api<Row>('POST', '/carousels', { c_title: 'Info', c_name: 'info' })).id);
    ids.idle = String((await api<Row>('POST', '/carousels', { c_title: 'Idle', c_name: 'idle' })).id);
    const nav = {
      v_navigation_enabled: true,
      v_prev_assetid: ids.btn_prev,
      v_prev_x: 24,
      v_prev_y: 632,
      v_home_assetid: ids.btn_home,
      v_home_x: 108,
      v_home_y: 632,
      v_next_assetid: ids.btn_next,
      v_next_x: 1192,
      v_next_y: 632,
    };
    ids.vMain = await variant(ids.main, nav);
    // a portrait layout too: the landscape window must pick "hd"
    await api('POST', '/variants', { v_carouselid: ids.main, v_title: 'Portrait', v_name: 'portrait', v_width: 1080, v_height: 1920 });
    ids.vInfo = await variant(ids.info);
    ids.vIdle = await variant(ids.idle);
    ids.m1 = await slide(ids.main, 'Welcome', { sl_duration_ms: DURATIONS.m1 });
    ids.m2 = await slide(ids.main, 'Film', { sl_duration_ms: DURATIONS.m2, sl_bgcolor: '#000000' });
    ids.m3 = await slide(ids.main, 'Take it home', { sl_duration_ms: DURATIONS.m3 });
    ids.i1 = await slide(ids.info, 'Info', { sl_duration_ms: DURATIONS.i1 });
    ids.s1 = await slide(ids.idle, 'Come closer', { sl_duration_ms: 3000 });
    await layer(ids.m1, ids.vMain, { ly_type: 'image', ly_assetid: ids.red, ...full });
    ids.hotspot = await layer(ids.m1, ids.vMain, {
      ly_type: 'hotspot',
      ly_title: 'More info',
      ly_hotspot_carouselid: ids.info,
      ly_x: 880,
      ly_y: 400,
      ly_width: 320,
      ly_height: 200,
    });
    await layer(ids.m2, ids.vMain, {
      ly_type: 'video',
      ly_assetid: ids.video,
      ly_x: 320,
      ly_y: 180,
      ly_width: 640,
      ly_height: 360,
      ly_muted: true,
      ly_autoplay: true,
      ly_loop: true,
    });
    await layer(ids.m3, ids.vMain, { ly_type: 'image', ly_assetid: ids.green, ...full });
    // the QR layer names a download form in a style of an event: its link leads through the form to a lead
    const form = await api<Row>('POST', '/forms', { f_title: 'Brochure form', f_name: 'brochure' });
    await api('POST', '/form-elements', { fe_formid: form.id, fe_type: 'text', fe_name: 'email', fe_title: 'E-mail', fe_is_required: true });
    ids.event = String((await api<Row>('POST', '/events', { ev_title: 'Hall 1 Expo', ev_name: 'hall1', ev_access_type: 'open' })).id);
    const style = await api<Row>('POST', '/form-styles', { st_title: 'Hall 1', st_eventid: ids.event, st_form_title: 'Brochures to take home' });
    ids.qr = await layer(ids.m3, ids.vMain, {
      ly_type: 'collectionqr',
      ly_collectionid: ids.collection,
      ly_download_formid: form.id,
      ly_form_styleid: style.id,
      ly_qr_fg: '#1d1d1d',
      ly_qr_bg: '#ffffff',
      ly_x: 820,
      ly_y: 160,
      ly_width: 400,
      ly_height: 400,
    });
    await layer(ids.i1, ids.vInfo, { ly_type: 'image', ly_assetid: ids.blue, ...full });
    // a page of the player's own origin in an iframe: sandboxed without allow-same-origin
    await layer(ids.i1, ids.vInfo, { ly_type: 'iframe', ly_iframe_url: `${origin}/healthz`, ly_x: 40, ly_y: 40, ly_width: 360, ly_height: 120 });
    await layer(ids.s1, ids.vIdle, { ly_type: 'image', ly_assetid: ids.orange, ...full });

    const group = await api<Row>('POST', '/carousel-groups', { cg_title: 'Hall 1', cg_standby_carouselid: ids.idle });
    await api('PUT', `/carousel-groups/${group.id}/items`, { ids: [ids.main, ids.info] });
    code = String((await api<Row>('POST', '/codes', { cc_groupid: group.id, cc_title: 'Entrance' })).cc_code);

    // a second group for the frame measurement: three full-screen pictures, 600 ms each
    const perf = String((await api<Row>('POST', '/carousels', { c_title: 'Perf', c_name: 'perf' })).id);
    const vPerf = await variant(perf, { v_screensaver_timeout_s: null });
    for (const [i, colour] of [ids.red, ids.green, ids.blue].entries())
      await layer(await slide(perf, `P${i}`, { sl_duration_ms: 600 }), vPerf, { ly_type: 'image', ly_assetid: colour, ...full });
    const perfGroup = await api<Row>('POST', '/carousel-groups', { cg_title: 'Perf' });
    await api('PUT', `/carousel-groups/${perfGroup.id}/items`, { ids: [perf] });
    perfCode = String((await api<Row>('POST', '/codes', { cc_groupid: perfGroup.id })).cc_code);
  }, 240_000);

  afterAll(async () => {
    if (Object.keys(figures).length)
      console.log(
        `player figures:\n${Object.entries(figures)
          .map(([k, v]) => `  ${k}: ${v}`)
          .join('\n')}`,
      );
    await live?.context.close();
    await browser?.close();
    await proxy?.close();
    await server?.stop();
  });

  it('cold load: the first slide, letterboxed in the variant that fits; slides advance on their durations; the video plays; the QR code reads as the collection link', async () => {
    live = await openPlayer(`/play/${code}?poll=2&report=3`);
    const { page } = live;
    const first = await waitShown(page, ids.m1, 0);
    figures['first slide on a cold load'] = `${Math.round(first.t)} ms after navigation start`;
    expect(first.t).toBeLessThan(5000);
    expect(first).toMatchObject({ mode: 'group', carouselId: ids.main });
    expect(await page.locator('#stage').getAttribute('data-variant')).toBe('hd');
    await page.waitForTimeout(600); // the fade
    const png = await screenshot(page, 'player-first-slide');
    expect(near(pixel(png, 200, TOP + 200), COLOURS.red)).toBe(true);
    expect(near(pixel(png, 200, 20), hex(BG), 8)).toBe(true); // the letterbox bar in v_bgcolor
    expect(near(pixel(png, 200, VIEW.height - 20), hex(BG), 8)).toBe(true);
    expect(near(pixel(png, 1192 + 32, TOP + 632 + 32), COLOURS.white)).toBe(true); // the "next" button
    expect(await page.locator('.slide.current .nav').count()).toBe(3);

    // m2: the video plays (muted autoplay), from the upload
    const m2 = await waitShown(page, ids.m2, 0, 10_000);
    await page.waitForTimeout(800);
    const video = await page
      .locator('.slide.current video')
      .evaluate((v: HTMLVideoElement) => ({ paused: v.paused, t: v.currentTime, ready: v.readyState, error: v.error?.code ?? null, w: v.videoWidth }));
    expect(video, JSON.stringify(video)).toMatchObject({ paused: false, error: null, w: 320 });
    expect(video.t).toBeGreaterThan(0.2);
    await screenshot(page, 'player-video');

    // m3: the QR code, read off the screen
    const m3 = await waitShown(page, ids.m3, 0, 10_000);
    await page.waitForTimeout(600);
    const qrPng = await screenshot(page, 'player-qr');
    expect(await decodeQr(qrPng)).toEqual([`${origin}/c/${coToken}?l=${ids.qr}`]);
    expect(near(pixel(qrPng, 200, TOP + 200), COLOURS.green)).toBe(true);

    // then the group's second carousel, then round to the first
    const i1 = await waitShown(page, ids.i1, 0, 10_000);
    const again = await waitShown(page, ids.m1, 1, 10_000);
    const gaps = [m2.t - first.t, m3.t - m2.t, i1.t - m3.t, again.t - i1.t];
    figures['slide durations (set 2000/2500/2000/3000 ms)'] = gaps.map((g) => `${Math.round(g)}`).join('/') + ' ms';
    for (const [gap, want] of gaps.map((g, i) => [g, [DURATIONS.m1, DURATIONS.m2, DURATIONS.m3, DURATIONS.i1][i]])) {
      expect(gap).toBeGreaterThanOrEqual(want - 20);
      expect(gap).toBeLessThan(want + 400);
    }
    expect((await shownOf(page)).map((s) => s.slideId)).toEqual([ids.m1, ids.m2, ids.m3, ids.i1, ids.m1]);
  }, 120_000);

  it("the QR's link, opened on a phone, is the collection page behind the layer's download form: sent, a download lead of the style's event", async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, locale: 'en-GB' });
    const page = await phone.newPage();
    page.setDefaultTimeout(20_000);
    // the link exactly as the QR code reads (the first test decoded it from the screen)
    await page.goto(`${origin}/c/${coToken}?l=${ids.qr}`);
    await page.getByRole('heading', { level: 1, name: 'Brochures to take home' }).waitFor();
    await page.getByRole('textbox', { name: /E-mail/ }).fill('quinn.qr@example.com');
    await page.getByRole('button', { name: 'Send and download' }).click();
    await page
      .getByRole('link', { name: /^Download / })
      .first()
      .waitFor();
    await phone.close();
    const lead = await server.withDb((db) => db('leads').where({ ld_source: 'download', ld_email: 'quinn.qr@example.com' }).first());
    expect(lead).toMatchObject({ ld_eventid: ids.event, ld_email: 'quinn.qr@example.com' });
  }, 60_000);

  it('a hotspot opens its carousel at once; without a touch the standby carousel plays after the timeout; a touch brings the group back (and presses nothing)', async () => {
    const { page } = live;
    // The tests before may have left the player idle for most of the screensaver's timeout (or past it, on a slow
    // machine): a touch where nothing is pressed restarts the timeout, and on the standby screen brings the group back.
    const asleep = (await shownOf(page)).at(-1)?.mode === 'standby';
    const touched = (await shownOf(page)).length;
    await page.mouse.click(40, TOP + 40);
    if (asleep) {
      await waitShown(page, ids.m1, touched, 3000);
      await page.waitForTimeout(900); // the player swallows clicks for 800 ms after a wake-up touch
    }
    const before = (await shownOf(page)).length;
    if ((await page.locator('#stage').getAttribute('data-slide')) !== ids.m1) await waitShown(page, ids.m1, before, 15_000);
    const count = (await shownOf(page)).length;
    const tapAt = await page.evaluate(() => performance.now());
    await page.mouse.click(880 + 160, TOP + 400 + 100);
    const info = await waitShown(page, ids.i1, count, 3000);
    expect(info.t - tapAt).toBeLessThan(1000);
    expect(info).toMatchObject({ carouselId: ids.info, mode: 'group' });
    const frame = page.locator('.slide.current iframe');
    expect(await frame.getAttribute('sandbox')).toBe('allow-scripts allow-forms');
    await expect
      .poll(
        async () =>
          (await page
            .frames()
            .find((f) => f.url().endsWith('/healthz'))
            ?.content()) ?? '',
      )
      .toContain('"status":"ok"');
    await page.waitForTimeout(500);
    await screenshot(page, 'player-hotspot-info');

    // no touch since the tap: the standby carousel after SCREENSAVER_S
    const standby = await waitShown(page, ids.s1, count, (SCREENSAVER_S + 10) * 1000);
    expect(standby.mode).toBe('standby');
    figures['screensaver after the last touch (set 15 s)'] = `${((standby.t - tapAt) / 1000).toFixed(2)} s`;
    expect(standby.t - tapAt).toBeGreaterThanOrEqual(SCREENSAVER_S * 1000 - 50);
    expect(standby.t - tapAt).toBeLessThan(SCREENSAVER_S * 1000 + 1500);
    await page.waitForTimeout(600);
    const png = await screenshot(page, 'player-standby');
    expect(near(pixel(png, 200, TOP + 200), COLOURS.orange)).toBe(true);

    // a touch on the standby screen where the hotspot would be: the group's first slide, not the hotspot's carousel
    const woke = (await shownOf(page)).length;
    await page.mouse.click(880 + 160, TOP + 400 + 100);
    const home = await waitShown(page, ids.m1, woke, 3000);
    expect(home.mode).toBe('group');
    await page.waitForTimeout(500);
    expect((await shownOf(page)).slice(woke).map((s) => s.slideId)).toEqual([ids.m1]);

    // the navigation buttons: next, then home
    await page.mouse.click(1192 + 32, TOP + 632 + 32);
    await waitShown(page, ids.m2, woke + 1, 3000);
    await page.mouse.click(108 + 32, TOP + 632 + 32);
    await waitShown(page, ids.m1, woke + 2, 3000);
  }, 120_000);

  it('events reach the plays statistics in batches: every play, the hotspot tap and the QR shows, none twice', async () => {
    const { page } = live;
    // wait for a quiet moment: nothing waiting on the device
    await expect.poll(() => page.evaluate((c) => localStorage.getItem(`ls-player-events:${c}`), code), { timeout: 15_000 }).toBeNull();
    const shown = await shownOf(page);
    const stats = await root.call<{ rows: Row[]; totals: Record<string, number> }>('GET', `${a}/stats/plays?group=slide`);
    expect(stats.status).toBe(200);
    const after = await shownOf(page);
    const bySlide = Object.fromEntries(stats.body.rows.map((r) => [r.key, r]));
    // every slide shown before the quiet moment is counted, and nothing more than was shown
    expect(stats.body.totals.plays).toBeGreaterThanOrEqual(shown.length);
    expect(stats.body.totals.plays).toBeLessThanOrEqual(after.length);
    expect(bySlide[ids.m1]).toMatchObject({ label: 'Welcome', hotspot_taps: 1 });
    expect(Number(bySlide[ids.m3].qr_shows)).toBe(shown.filter((s) => s.slideId === ids.m3).length);
    expect(Number(bySlide[ids.s1].plays)).toBeGreaterThanOrEqual(1);
    figures['events stored after the first run'] = `${stats.body.totals.plays} plays, ${stats.body.totals.hotspot_taps} hotspot tap(s), ${stats.body.totals.qr_shows} QR shows`;
  }, 60_000);

  it('network cut: a reload still plays from the service worker (pictures, video, QR); the events wait and arrive once back online', async () => {
    const { page, context } = live;
    await expect
      .poll(
        () =>
          page.evaluate(() =>
            document
              .getElementById('stage')!
              .dataset.cached?.split('/')
              .every((n, _, all) => n === all[1]),
          ),
        { timeout: 30_000 },
      )
      .toBe(true);
    await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, { timeout: 30_000 });
    const kept = await page.evaluate(async () => {
      const media = await caches.open('ls-player-media');
      return (await media.keys()).length;
    });
    expect(kept).toBe(8); // 4 pictures, 3 buttons, the video (it was uploaded without a poster)
    await proxy.cut();
    await context.setOffline(true);
    const before = (await shownOf(page)).length;
    await page.reload();
    const m1 = await waitShown(page, ids.m1, before, 20_000);
    expect(m1.page).toBeGreaterThan(1);
    await waitShown(page, ids.m2, before, 10_000);
    await page.waitForTimeout(800);
    const video = await page.locator('.slide.current video').evaluate((v: HTMLVideoElement) => ({ paused: v.paused, t: v.currentTime, error: v.error?.code ?? null }));
    expect(video.error).toBeNull();
    expect(video.t).toBeGreaterThan(0.2);
    await waitShown(page, ids.m3, before, 10_000);
    await page.waitForTimeout(600);
    const png = await screenshot(page, 'player-offline');
    expect(await decodeQr(png)).toEqual([`${origin}/c/${coToken}?l=${ids.qr}`]);
    // the events of this offline run wait on the device
    const waiting = await page.evaluate((c) => JSON.parse(localStorage.getItem(`ls-player-events:${c}`) ?? '[]').length, code);
    expect(waiting).toBeGreaterThanOrEqual(3);

    await proxy.restore();
    await context.setOffline(false);
    await expect.poll(() => page.evaluate((c) => localStorage.getItem(`ls-player-events:${c}`), code), { timeout: 20_000 }).toBeNull();
    const shown = await shownOf(page);
    const stats = await root.call<{ totals: Record<string, number> }>('GET', `${a}/stats/plays?group=code`);
    const after = await shownOf(page);
    expect(stats.body.totals.plays).toBeGreaterThanOrEqual(shown.length);
    expect(stats.body.totals.plays).toBeLessThanOrEqual(after.length);
  }, 120_000);

  it('a replaced asset file shows after the poll, at a slide boundary', async () => {
    const { page } = live;
    await page.mouse.click(400, TOP + 100); // a touch: the screensaver stays away
    const etag = await page.locator('#stage').getAttribute('data-etag');
    const replaced = await upload(picture(CANVAS.width, CANVAS.height, COLOURS.purple), 'red.png', ids.red);
    expect(replaced.as_version).toBe(2);
    await expect.poll(() => page.locator('#stage').getAttribute('data-etag'), { timeout: 10_000 }).not.toBe(etag);
    const count = (await shownOf(page)).length;
    await waitShown(page, ids.m1, count, 15_000);
    await page.waitForTimeout(600);
    expect(await page.locator('.slide.current img').first().getAttribute('src')).toContain('v=2');
    const png = await screenshot(page, 'player-replaced');
    expect(near(pixel(png, 200, TOP + 200), COLOURS.purple)).toBe(true);
    expect(live.errors).toEqual([]);
  }, 60_000);

  it('a local media server that answers serves the media (<local>/<as_id>?v=<as_version>); a file it lacks comes from the origin', async () => {
    // a stand-in for `npm run media:sync`'s server: the pictures only (no video), and /health
    const requests: string[] = [];
    const local = http.createServer((req, res) => {
      requests.push(req.url ?? '');
      const u = new URL(req.url ?? '/', 'http://local');
      const file = bytesOf.get(u.pathname.slice(1));
      if (u.pathname === '/health') res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"ok"}');
      else if (file && file.type.startsWith('image/')) res.writeHead(200, { 'Content-Type': file.type, 'Content-Length': file.bytes.length }).end(file.bytes);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', () => resolve()));
    const localUrl = `http://127.0.0.1:${(local.address() as AddressInfo).port}`;
    await api('PUT', '/settings', { ls_local_server_url: `${localUrl}/` });
    const p = await openPlayer(`/play/${code}`);
    try {
      expect((await p.page.request.get(`/play/${code}`)).headers()['content-security-policy']).toContain(`img-src 'self' ${localUrl}`);
      await waitShown(p.page, ids.m1, 0);
      expect(await p.page.locator('#stage').getAttribute('data-media')).toBe('local');
      expect(await p.page.locator('.slide.current img').first().getAttribute('src')).toBe(`${localUrl}/${ids.red}?v=2`);
      await waitShown(p.page, ids.m2, 0, 10_000);
      await p.page.waitForTimeout(800);
      const video = await p.page.locator('.slide.current video').evaluate((v: HTMLVideoElement) => ({ src: v.currentSrc, t: v.currentTime, error: v.error?.code ?? null }));
      expect(video.src).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/storage\//); // the origin's: the local server has no video
      expect(video.src.startsWith(origin)).toBe(true);
      expect(video.t).toBeGreaterThan(0.2);
      expect(requests).toEqual(expect.arrayContaining([`/${ids.red}?v=2`, `/${ids.green}?v=1`, `/${ids.btn_next}?v=1`, `/${ids.video}?v=1`]));
      // from the local server, the origin's media are not copied into the worker's cache
      await p.page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, { timeout: 30_000 });
      await expect.poll(() => p.page.locator('#stage').getAttribute('data-cached')).toBe('0/0');
      expect(p.errors).toEqual([]);
    } finally {
      await p.context.close();
      await api('PUT', '/settings', { ls_local_server_url: null });
      await new Promise((resolve) => local.close(resolve));
    }
  }, 60_000);

  it('50 transitions, traced: dropped frames counted', async () => {
    // the other player stops, so only this one draws
    await live?.context.close();
    const perfPage = await openPlayer(`/play/${perfCode}`);
    const { page } = perfPage;
    try {
      await page.locator('.slide.current').waitFor();
      await page.waitForTimeout(1500);
      // frames the page sees (requestAnimationFrame), alongside Chromium's own trace
      await page.evaluate(() => {
        const w = window as unknown as { __frames: number[] };
        w.__frames = [];
        const tick = (t: number) => {
          w.__frames.push(t);
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
      const start = (await shownOf(page)).length;
      await browser.startTracing(page, {
        categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.frame', 'benchmark', 'cc', 'viz'],
      });
      await expect.poll(async () => (await shownOf(page)).length - start, { timeout: 90_000, interval: 250 }).toBeGreaterThanOrEqual(50);
      const trace = await browser.stopTracing();
      fs.mkdirSync(SCREENSHOTS, { recursive: true });
      // for a look in Perfetto or chrome://tracing (gzipped: some 100 MB of JSON otherwise)
      fs.writeFileSync(path.join(SCREENSHOTS, 'player-transitions-trace.json.gz'), zlib.gzipSync(trace));
      // Chromium's own account of each frame of this page's renderer: presented, dropped, or partial (a frame that
      // left out some of its update). Frames with nothing to update do not count.
      type TraceEvent = { name: string; ph: string; pid: number; args?: { frame_reporter?: { state?: string }; data?: { frames?: { processId: number; url: string }[] } } };
      const parsed = JSON.parse(trace.toString());
      const events: TraceEvent[] = parsed.traceEvents ?? parsed;
      const frame = events.find((e) => e.name === 'TracingStartedInBrowser')?.args?.data?.frames?.find((f) => f.url.includes(perfCode));
      const ours = (e: TraceEvent) => !frame || e.pid === frame.processId;
      const states: Record<string, number> = {};
      for (const e of events) {
        const state = e.name === 'PipelineReporter' && e.ph === 'b' && ours(e) ? e.args?.frame_reporter?.state : undefined;
        if (state) states[state] = (states[state] ?? 0) + 1;
      }
      const dropped = states.STATE_DROPPED ?? 0;
      const partial = states.STATE_PRESENTED_PARTIAL ?? 0;
      const presented = states.STATE_PRESENTED_ALL ?? 0;
      const droppedEvents = events.filter((e) => e.name === 'DroppedFrame' && ours(e)).length;
      const frames: number[] = await page.evaluate(() => (window as unknown as { __frames: number[] }).__frames);
      const deltas = frames.slice(1).map((t, i) => t - frames[i]);
      const sorted = [...deltas].sort((x, y) => x - y);
      const interval = sorted[Math.floor(sorted.length / 2)];
      const missed = deltas.reduce((n, d) => n + Math.max(0, Math.round(d / interval) - 1), 0);
      const transitions = (await shownOf(page)).length - start;
      figures['transitions traced'] = `${transitions} (600 ms slides, 500 ms fades)`;
      const all = presented + partial + dropped;
      figures['trace frames (PipelineReporter)'] =
        `${all} frames with an update: ${presented} presented whole, ${partial} partial, ${dropped} dropped (${((100 * (dropped + partial)) / Math.max(1, all)).toFixed(1)} % not whole); ${droppedEvents} DroppedFrame events`;
      figures['requestAnimationFrame'] =
        `${frames.length} frames, median interval ${interval?.toFixed(1)} ms, ${missed} intervals missed (${((100 * missed) / (frames.length + missed)).toFixed(1)} %), longest gap ${Math.max(...deltas).toFixed(0)} ms`;
      expect(presented).toBeGreaterThan(transitions * 10); // the fades really ran frame by frame
      expect(frames.length).toBeGreaterThan(100);
      expect(perfPage.errors).toEqual([]);
    } finally {
      await perfPage.context.close();
    }
  }, 150_000);

  it('an unknown code: a clear full-screen message in the screen’s language (English, Dutch)', async () => {
    for (const [locale, title] of [
      ['en-GB', 'This player code is not known'],
      ['nl-NL', 'Deze spelercode is onbekend'],
    ]) {
      const p = await openPlayer('/play/AAAAAAAAAA', locale);
      try {
        await p.page.getByRole('heading', { name: title }).waitFor();
        expect(await p.page.locator('#message').getAttribute('data-kind')).toBe('unknown_code');
        await screenshot(p.page, `player-unknown-${locale.slice(0, 2)}`);
        expect(p.errors).toEqual([]);
      } finally {
        await p.context.close();
      }
    }
  }, 60_000);

  it("the editor's preview: the named slide, still, no events or service worker; postMessage from this origin switches slide", async () => {
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: VIEW });
    try {
      // the console's session, in this browser profile
      await context.request.get('/api/1/auth/me');
      const csrf = (await context.cookies()).find((c) => c.name === 'ls.csrf-token')!.value;
      const login = await context.request.post('/api/1/auth/web', {
        data: { u_email: server.adminEmail, u_password: server.adminPassword },
        headers: { 'X-CSRF-Token': decodeURIComponent(csrf) },
      });
      expect(login.status()).toBe(200);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const posts: string[] = [];
      page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()));
      const shown: string[] = [];
      await page.exposeFunction('__shown', (id: string) => shown.push(id));
      await page.addInitScript(() =>
        window.addEventListener('ls-player-slide', (e) => (window as unknown as { __shown: (id: string) => void }).__shown((e as CustomEvent).detail.slideId)),
      );
      await page.goto(`/play/_preview/${a.split('/')[2]}/${ids.main}?slide=${ids.m3}&variant=hd`);
      await expect.poll(() => shown).toEqual([ids.m3]);
      await page.waitForTimeout(DURATIONS.m3 + 1000);
      expect(shown).toEqual([ids.m3]); // still
      const png = await screenshot(page, 'player-preview');
      expect(await decodeQr(png)).toEqual([`${server.baseUrl}/c/${coToken}?l=${ids.qr}`]);
      await page.evaluate((slideId) => window.postMessage({ type: 'leadstage-preview', slideId }, location.origin), ids.m1);
      await expect.poll(() => shown).toEqual([ids.m3, ids.m1]);
      // hotspots are outlined and do nothing here
      await page.mouse.click(880 + 160, TOP + 400 + 100);
      await page.waitForTimeout(500);
      expect(shown).toEqual([ids.m3, ids.m1]);
      await screenshot(page, 'player-preview-hotspot');
      // a message of another origin is ignored (an iframe of about:blank posts with the opaque origin "null")
      await page.evaluate((slideId) => window.dispatchEvent(new MessageEvent('message', { data: { type: 'leadstage-preview', slideId }, origin: 'https://evil.example' })), ids.m2);
      await page.waitForTimeout(300);
      expect(shown).toEqual([ids.m3, ids.m1]);
      // reload after a save: the new title shows through the manifest
      await page.evaluate((slideId) => window.postMessage({ type: 'leadstage-preview', slideId, reload: true }, location.origin), ids.m2);
      await expect.poll(() => shown).toEqual([ids.m3, ids.m1, ids.m2]);
      expect(await page.locator('.slide.current video').evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
      expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
      expect(posts).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
