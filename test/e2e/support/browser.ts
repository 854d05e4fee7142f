import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ROOT } from './server';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const HAS_CHROMIUM = fs.existsSync(CHROMIUM);
export const SKIP_REASON = `end-to-end browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`;

export const SCREENSHOTS = path.join(ROOT, 'test', 'e2e', 'screenshots');

export const DESKTOP = { width: 1280, height: 860 };
export const PHONE = { width: 375, height: 740 };

export interface LaunchOptions {
  /** A .y4m or .mjpeg file Chromium shows as the camera (getUserMedia granted without asking). */
  fakeCamera?: string;
  /** Chromium's own fake camera and microphone (a test pattern and a beep), granted without asking: for recording. */
  fakeMedia?: boolean;
}

export async function launch(options: LaunchOptions = {}): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const camera = options.fakeCamera
    ? ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${options.fakeCamera}`]
    : options.fakeMedia
      ? ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', '--autoplay-policy=no-user-gesture-required']
      : [];
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', ...camera],
  });
}

/** A fresh browser profile (own cookies and storage) at a viewport size; page errors fail loudly in the log. */
export async function newPage(browser: Browser, baseURL: string, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ baseURL, viewport, locale: 'en-GB', colorScheme: 'light' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

/**
 * Signs a browser profile in through the API, leaving the cookies the sign-in screen would: for tests about what comes
 * after it (the screen itself has tests of its own).
 */
export async function signInByApi(context: BrowserContext, email: string, password: string): Promise<void> {
  await context.request.get('/api/1/auth/me');
  const csrf = (await context.cookies()).find((c) => c.name === 'ls.csrf-token');
  if (!csrf) throw new Error('no CSRF cookie from /api/1/auth/me');
  const res = await context.request.post('/api/1/auth/web', { data: { u_email: email, u_password: password }, headers: { 'X-CSRF-Token': decodeURIComponent(csrf.value) } });
  if (res.status() !== 200) throw new Error(`sign-in of ${email} -> ${res.status()} ${await res.text()}`);
}

/** Saves test/e2e/screenshots/<name>-<width>.png (git-ignored) for a human to look at. */
export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.waitForTimeout(250); // let transitions (ripples, drawers, toasts) settle
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
}
