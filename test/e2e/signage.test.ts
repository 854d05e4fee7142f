import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './support/api';
import { DESKTOP, HAS_CHROMIUM, launch, newPage, PHONE, signInByApi, SKIP_REASON } from './support/browser';
import { ensureAdminBuilt, startServer, type E2eServer } from './support/server';
import { startTcpProxy, type TcpProxy } from '../helpers/tcpProxy';
import { encodePng } from '../../admin/vite.app.config';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

/**
 * Signage operations in Chromium (platform-and-flows.md 7, issue 18): a carousel scheduled for the evening plays in
 * its window and gives way to the group's list when the window closes (the page's clock faked with page.clock); the
 * player's status reports make the codes list say online, offline since when, or never seen; the schedules editor on
 * the group's screen; and a medium that played from the local media server replays with that server and the origin
 * both down (the service worker's copy of what played). Screenshots: /tmp/shots-signage/*.png at 1280 and 375 px.
 */
const SHOTS = process.env.SIGNAGE_SHOTS ?? '/tmp/shots-signage';
const VIEW = { width: 1280, height: 720 };
type Row = Record<string, unknown>;

function flat(w: number, h: number, [r, g, b]: [number, number, number]): Buffer {
  const px = new Uint8Array(w * h * 4);
  for (let i = 0; i < w * h; i++) px.set([r, g, b, 255], i * 4);
  return encodePng(w, h, px);
}

async function snap(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SHOTS, `${name}-${page.viewportSize()?.width ?? 0}.png`), fullPage: true });
}

describe.skipIf(!HAS_CHROMIUM)('signage operations (dayparting, display status, offline replay)', () => {
  let server: E2eServer;
  let browser: Browser;
  let proxy: TcpProxy;
  let origin: string;
  let root: ApiClient;
  let accountId: string;
  const ids: Record<string, string> = {};
  const bytesOf = new Map<string, Buffer>();
  let code: string;

  const api = async <T = Row>(method: string, p: string, body?: unknown): Promise<T> => {
    const res = await root.call<T>(method, `/accounts/${accountId}${p}`, body);
    if (res.status >= 300) throw new Error(`${method} ${p} -> ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  async function carousel(title: string, colour: [number, number, number]): Promise<string> {
    const bytes = flat(VIEW.width, VIEW.height, colour);
    const file = await root.uploadAssetFile(accountId, bytes, `${title.toLowerCase()}.png`);
    const asset = await api<Row>('POST', '/assets', { as_title: title, as_name: title.toLowerCase(), ...file });
    bytesOf.set(String(asset.id), bytes);
    ids[`asset_${title.toLowerCase()}`] = String(asset.id);
    const c = await api<Row>('POST', '/carousels', { c_title: title, c_name: title.toLowerCase() });
    const v = await api<Row>('POST', '/variants', { v_carouselid: c.id, v_title: 'HD', v_name: 'hd', v_width: VIEW.width, v_height: VIEW.height, v_default_duration_ms: 1500 });
    const s = await api<Row>('POST', '/slides', { sl_carouselid: c.id, sl_title: `${title} slide`, sl_duration_ms: 1500 });
    await api('POST', '/layers', { ly_slideid: s.id, ly_variantid: v.id, ly_type: 'image', ly_assetid: asset.id, ly_x: 0, ly_y: 0, ly_width: VIEW.width, ly_height: VIEW.height });
    return String(c.id);
  }

  beforeAll(async () => {
    ensureAdminBuilt();
    [server, browser] = await Promise.all([startServer(), launch()]);
    proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(server.baseUrl).port) });
    origin = `http://127.0.0.1:${proxy.port}`;
    root = new ApiClient(server.baseUrl);
    await root.login(server.adminEmail, server.adminPassword);
    accountId = String((await root.create('/accounts', { a_name: 'Signage Expo', a_is_enabled: true })).id);
    ids.day = await carousel('Day', [214, 40, 40]);
    ids.evening = await carousel('Evening', [42, 157, 143]);
    ids.group = String((await api<Row>('POST', '/carousel-groups', { cg_title: 'Lobby screens' })).id);
    await api('PUT', `/carousel-groups/${ids.group}/items`, { ids: [ids.day] });
    // the evening carousel from 20:00 to 06:00 the next morning, every day (Europe/Amsterdam, the default zone)
    await api('POST', '/group-schedules', {
      gs_groupid: ids.group,
      gs_carouselid: ids.evening,
      gs_days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      gs_from: '20:00',
      gs_to: '06:00',
    });
    const c = await api<Row>('POST', '/codes', { cc_groupid: ids.group, cc_title: 'Entrance totem' });
    code = String(c.cc_code);
    ids.code = String(c.id);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
    await server?.stop();
  });

  const playerPage = async (context: BrowserContext) => {
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    return { page, errors };
  };
  const playing = (page: Page) => page.locator('#stage').getAttribute('data-carousel');

  it('a scheduled carousel plays in its window; when the window closes the group list takes over; the status is reported', async () => {
    const context = await browser.newContext({ baseURL: origin, viewport: VIEW });
    try {
      const { page, errors } = await playerPage(context);
      // Wednesday 2 December 2026, 21:30 in Amsterdam: inside the evening window
      await page.clock.install({ time: new Date('2026-12-02T21:30:00+01:00') });
      await page.goto(`/play/${code}`);
      await expect.poll(() => playing(page), { timeout: 20_000 }).toBe(ids.evening);
      // a little more than 8.5 hours later: the window closed at 06:00, the minute check hands over to the list
      await page.clock.fastForward('08:31:00');
      await expect.poll(() => playing(page), { timeout: 20_000 }).toBe(ids.day);
      // and the next evening the window opens again
      await page.clock.fastForward('14:00:00');
      await expect.poll(() => playing(page), { timeout: 20_000 }).toBe(ids.evening);
      // the player reported its status (version, screen)
      await expect.poll(async () => (await api<Row>('GET', `/codes/${ids.code}`)).cc_player_version, { timeout: 20_000 }).toBe('leadstage-player/1.1');
      const status = await api<Row>('GET', `/codes/${ids.code}`);
      expect(String(status.cc_screen)).toMatch(/^\d+×\d+/);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('the codes list says online, offline since when, or never seen', async () => {
    await api('POST', '/codes', { cc_groupid: ids.group, cc_title: 'Spare totem (never switched on)' });
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page, errors } = await newPage(browser, server.baseUrl, viewport);
      try {
        await signInByApi(context, server.adminEmail, server.adminPassword);
        await page.goto(`/console/${accountId}/codes`);
        await expect.poll(() => page.locator('[data-testid="code-status"]').count()).toBe(2);
        const statuses = await page.locator('[data-testid="code-status"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-status')));
        expect(statuses.sort()).toEqual(['never', 'online']);
        await expect.poll(() => page.getByText('Online', { exact: true }).count()).toBe(1);
        await snap(page, 'codes-list');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
    // ten minutes later, without a report since: offline since the last report
    const { context, page } = await newPage(browser, server.baseUrl, DESKTOP);
    try {
      await signInByApi(context, server.adminEmail, server.adminPassword);
      await page.clock.install({ time: new Date(Date.now() + 10 * 60_000) });
      await page.goto(`/console/${accountId}/codes`);
      await expect.poll(() => page.locator('[data-testid="code-status"][data-status="offline"]').count()).toBe(1);
      await expect(page.getByText(/^Offline since /).count()).resolves.toBe(1);
      await snap(page, 'codes-list-offline');
    } finally {
      await context.close();
    }
  }, 120_000);

  it("the schedules editor on the group's screen: add with day chips and times, edit, delete", async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page, errors } = await newPage(browser, server.baseUrl, viewport);
      try {
        await signInByApi(context, server.adminEmail, server.adminPassword);
        await page.goto(`/console/${accountId}/carousel-groups/${ids.group}`);
        await expect.poll(() => page.locator('[data-testid="group-schedule"]').count()).toBeGreaterThan(0);
        await expect(page.locator('[data-testid="group-schedule-when"]').first().textContent()).resolves.toContain('Every day · 20:00–06:00 (until the next day)');
        await page.locator('[data-testid="group-schedule"]').first().scrollIntoViewIfNeeded();
        await snap(page, 'schedules');
        if (viewport === PHONE) break;
        await page.getByTestId('group-schedule-add').click();
        await page.getByTestId('schedule-carousel').locator('..').click();
        await page.getByRole('option', { name: 'Day' }).click();
        // weekdays are chosen to start with; Saturday on, Monday off
        await page.getByTestId('schedule-day-sat').click();
        await page.getByTestId('schedule-day-mon').click();
        await page.getByTestId('schedule-from').fill('07:30');
        await page.getByTestId('schedule-to').fill('10:00');
        await snap(page, 'schedule-dialog');
        await page.getByTestId('schedule-save').click();
        await expect.poll(() => page.locator('[data-testid="group-schedule"]').count()).toBe(2);
        const stored = await api<Row[]>('GET', `/group-schedules?filter=${encodeURIComponent(JSON.stringify({ gs_groupid: ids.group }))}`);
        const added = stored.find((s) => s.gs_carouselid === ids.day)!;
        expect(added).toMatchObject({ gs_days: ['tue', 'wed', 'thu', 'fri', 'sat'], gs_from: '07:30', gs_to: '10:00' });
        // a bad time is refused with the field's message, nothing stored
        await page.getByTestId('group-schedule-edit').nth(1).click();
        await page.getByTestId('schedule-day-tue').click();
        await page.getByTestId('schedule-day-wed').click();
        await page.getByTestId('schedule-day-thu').click();
        await page.getByTestId('schedule-day-fri').click();
        await page.getByTestId('schedule-day-sat').click();
        await page.getByTestId('schedule-save').click();
        await expect(page.getByText('Please choose at least one day').count()).resolves.toBe(1);
        await page.getByTestId('schedule-day-sun').click();
        await page.getByTestId('schedule-save').click();
        await expect.poll(async () => (await api<Row>('GET', `/group-schedules/${added.id}`)).gs_days).toEqual(['sun']);
        await page.getByTestId('group-schedule-delete').nth(1).click();
        await expect.poll(() => page.locator('[data-testid="group-schedule"]').count()).toBe(1);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  }, 120_000);

  it('a medium that played from the local media server replays with that server and the origin both down', async () => {
    const served: string[] = [];
    const local = http.createServer((req, res) => {
      served.push(req.url ?? '');
      const u = new URL(req.url ?? '/', 'http://local');
      const bytes = bytesOf.get(u.pathname.slice(1));
      if (u.pathname === '/health') res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"ok"}');
      else if (bytes) res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': bytes.length, 'Access-Control-Allow-Origin': '*' }).end(bytes);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', () => resolve()));
    const localUrl = `http://127.0.0.1:${(local.address() as AddressInfo).port}`;
    await api('PUT', '/settings', { ls_local_server_url: `${localUrl}/` });
    // outside the evening window: the day carousel, its red picture
    await api('DELETE', `/group-schedules/${(await api<Row[]>('GET', `/group-schedules?filter=${encodeURIComponent(JSON.stringify({ gs_groupid: ids.group }))}`))[0].id}`);
    const context = await browser.newContext({ baseURL: origin, viewport: VIEW });
    try {
      const { page } = await playerPage(context);
      await page.goto(`/play/${code}`);
      await expect.poll(() => playing(page)).toBe(ids.day);
      expect(await page.locator('#stage').getAttribute('data-media')).toBe('local');
      await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, { timeout: 30_000 });
      expect(served.some((u) => u.startsWith(`/${ids.asset_day}?v=1`))).toBe(true);
      // the worker keeps no copy of the media list when they come from the local server ...
      await expect.poll(() => page.locator('#stage').getAttribute('data-cached')).toBe('0/0');
      // ... but a copy of what played, from the origin
      const originUrl = `${origin}/storage/`;
      await expect
        .poll(() => page.evaluate(async () => (await (await caches.open('ls-player-played')).keys()).map((r) => r.url)), { timeout: 30_000 })
        .toEqual([expect.stringContaining(originUrl)]);

      // both sources down: the local server stops, the origin is cut; a reload still shows the picture
      await new Promise((resolve) => local.close(resolve));
      local.closeAllConnections();
      await proxy.cut();
      await page.reload();
      await expect.poll(() => playing(page), { timeout: 30_000 }).toBe(ids.day);
      await expect
        .poll(
          () =>
            page.evaluate(() => {
              const img = document.querySelector('.slide.current img') as HTMLImageElement | null;
              return img && img.complete && img.naturalWidth > 0 ? img.currentSrc : null;
            }),
          { timeout: 20_000 },
        )
        .toMatch(/\/storage\//);
      fs.mkdirSync(SHOTS, { recursive: true });
      const png = await page.screenshot({ path: path.join(SHOTS, 'player-offline-replay-1280.png') });
      expect(png.length).toBeGreaterThan(0);
    } finally {
      await proxy.restore();
      await context.close();
      await api('PUT', '/settings', { ls_local_server_url: null });
    }
  }, 120_000);
});
