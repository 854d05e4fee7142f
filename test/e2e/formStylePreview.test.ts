import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureAdminBuilt, startServer, type E2eServer } from './support/server';
import { DESKTOP, HAS_CHROMIUM, launch, newPage, PHONE, shot, SKIP_REASON } from './support/browser';
import { LoginScreen } from './support/pages';
import { ApiClient } from './support/api';

/** A 1×1 PNG: the style's logo. */
const LOGO_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

/**
 * The console's preview of a form style (/preview/form-styles/{a}/{s}): the public form page in the style, its custom
 * CSS applied from …/style.css as a stylesheet (a colour really changes), nothing loaded from another host, no
 * horizontal scroll on a 375 px phone, the form and thanks pages at 375 and 1200 px, and the same page inside the
 * console's sandboxed frame.
 */
describe.skipIf(!HAS_CHROMIUM)('form style preview in the browser', () => {
  let server: E2eServer;
  let browser: Browser;
  let account: { id: string };
  let styled: { id: string };
  let plain: { id: string };
  let survey: { id: string };
  // Another origin the page must never reach: the custom CSS tries to load from it, the page's CSP must stop it.
  let beacon: http.Server;
  const beaconHits: string[] = [];
  let FOREIGN = '';

  beforeAll(async () => {
    beacon = http.createServer((req, res) => {
      beaconHits.push(req.url ?? '');
      res.end();
    });
    await new Promise<void>((resolve) => beacon.listen(0, '127.0.0.1', resolve));
    FOREIGN = `http://127.0.0.1:${(beacon.address() as AddressInfo).port}`;
    ensureAdminBuilt();
    server = await startServer();
    browser = await launch();
    const root = new ApiClient(server.baseUrl);
    await root.login(server.adminEmail, server.adminPassword);
    account = await root.create('/accounts', { a_name: 'Preview Events', a_is_enabled: true });
    const base = `/accounts/${account.id}`;
    const list = await root.create(`${base}/lists`, { l_title: 'Countries', l_name: 'countries' });
    for (const title of ['Belgium', 'Netherlands', 'Luxembourg']) await root.create(`${base}/list-items`, { li_listid: list.id, li_title: title });
    const form = await root.create(`${base}/forms`, { f_title: 'Visitor details', f_name: 'visitors' });
    const el = (fe_type: string, fe_name: string, fe_title: string, extra: Record<string, unknown> = {}) =>
      root.create(`${base}/form-elements`, { fe_formid: form.id, fe_type, fe_name, fe_title, ...extra });
    await el('text', 'first_name', 'First name', { fe_is_required: true });
    await el('text', 'last_name', 'Last name');
    await el('text', 'email', 'E-mail', { fe_is_required: true });
    await el('selectbox', 'country', 'Country', { fe_listid: list.id });
    await el('textarea', 'notes', 'Anything we should know? A rather long question to see that it wraps on a phone without scrolling sideways');
    survey = await root.create(`${base}/forms`, { f_title: 'Booth survey', f_name: 'survey' });
    await root.create(`${base}/form-elements`, { fe_formid: survey.id, fe_type: 'text', fe_name: 'company', fe_title: 'Company' });
    const event = await root.create(`${base}/events`, {
      ev_title: 'Spring Expo',
      ev_name: 'spring',
      ev_access_type: 'open',
      ev_registration_formid: form.id,
      ev_consent_text: 'Yes, send me news about the Spring Expo and future events.',
    });
    const texts = {
      st_eventid: event.id,
      st_form_title: 'Join the Spring Expo',
      st_form_description: '<p>Register for free.<br>Your badge comes by e-mail.</p>',
      st_form_logo_assetid: (await root.createAsset(account.id, { as_title: 'Expo logo', as_name: 'expo-logo' }, LOGO_PNG, 'logo.png')).id,
      st_thanks_title: 'See you at the Expo',
      st_thanks_description: 'Your badge is on its way. Plan your day with the floor map.',
      st_external_url_title: 'Plan your visit',
      st_external_url: 'https://expo.example.com/plan',
    };
    styled = await root.create(`${base}/form-styles`, {
      st_title: 'Expo green',
      ...texts,
      st_custom_css: [
        `@import url(${FOREIGN}/import.css);`,
        '/* </style><script>window.__pwned = 1</script> */',
        `@font-face { font-family: beacon; src: url(${FOREIGN}/font.woff2); }`,
        ':root { --ls-form-accent: #0a7d3b; --ls-page-bg: #e6f4ea; }',
        '.ls-public-title { color: rgb(170, 0, 85); font-family: beacon, sans-serif; }',
        `.ls-public-card { background-image: url(${FOREIGN}/beacon.png); }`,
      ].join('\n'),
    });
    plain = await root.create(`${base}/form-styles`, { st_title: 'Plain', ...texts });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await new Promise((resolve) => beacon?.close(resolve));
  });

  /** A signed-in page at a width; every request and CSP violation is recorded. */
  async function signedIn(viewport: { width: number; height: number }) {
    const opened = await newPage(browser, server.baseUrl, viewport);
    const requests: string[] = [];
    const failed: string[] = [];
    opened.page.on('request', (r) => requests.push(r.url()));
    opened.page.on('requestfailed', (r) => failed.push(`${r.url()} ${r.failure()?.errorText}`));
    await opened.context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __violations: string[] }).__violations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`));
    });
    await new LoginScreen(opened.page).open();
    await new LoginScreen(opened.page).signIn(server.adminEmail, server.adminPassword);
    await opened.page.waitForURL(/\/accounts/);
    return { ...opened, requests, failed };
  }

  const previewPath = (styleId: string, query = '') => `/preview/form-styles/${account.id}/${styleId}${query}`;
  const colourOf = (page: Page, selector: string, property: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), property);
  const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

  it('applies the custom CSS from the stylesheet: the colour changes, nothing leaves the origin, no sideways scroll at 375 px', async () => {
    const { page, context, errors, requests, failed } = await signedIn(PHONE);
    try {
      await page.goto(previewPath(plain.id));
      await page.getByRole('heading', { level: 1, name: 'Join the Spring Expo' }).waitFor();
      const before = await colourOf(page, '.ls-public-title', 'color');
      expect(before).toBe('rgb(27, 32, 48)'); // the page's own text colour

      await page.goto(previewPath(styled.id));
      await page.getByRole('heading', { level: 1, name: 'Join the Spring Expo' }).waitFor();
      await page.waitForFunction(() => getComputedStyle(document.querySelector('.ls-public-title')!).color === 'rgb(170, 0, 85)');
      expect(await colourOf(page, '.ls-public-submit', 'background-color')).toBe('rgb(10, 125, 59)'); // --ls-form-accent
      expect(await colourOf(page, '.ls-public', 'background-color')).toBe('rgb(230, 244, 234)'); // --ls-page-bg
      // the stylesheet is a link to the API; no <style> holds the custom CSS; the "script" in a CSS comment never ran
      expect(await page.locator('link[rel=stylesheet][href*="/style.css"]').getAttribute('href')).toBe(`/api/1/accounts/${account.id}/form-styles/${styled.id}/style.css`);
      expect(await page.evaluate(() => [...document.querySelectorAll('style')].some((s) => (s.textContent ?? '').includes('170, 0, 85')))).toBe(false);
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

      // the page: the style's logo (an asset), description, the form through the renderer, required marks, the opt-in
      // with the event's text
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('img.ls-public-logo');
        return !!img && img.complete && img.naturalWidth === 1;
      });
      expect(await page.getByText('Register for free.').innerText()).toBe('Register for free.\nYour badge comes by e-mail.');
      expect(await page.getByRole('textbox', { name: /First name/ }).getAttribute('aria-required')).toBe('true');
      await page.getByRole('combobox', { name: 'Country' }).waitFor();
      await page.getByRole('checkbox', { name: 'Yes, send me news about the Spring Expo and future events.' }).waitFor();
      expect(await noSideScroll(page)).toBe(true);
      await shot(page, 'form-style-preview-form');

      // nothing reached the foreign host: the page's CSP stopped the @import, the font and the background image
      await page.waitForTimeout(300);
      expect(beaconHits).toEqual([]);
      // (Chromium reports each as a request that failed with "csp" before it was sent)
      const foreign = requests.filter((u) => u.startsWith(FOREIGN));
      expect(foreign.sort()).toEqual([`${FOREIGN}/beacon.png`, `${FOREIGN}/font.woff2`, `${FOREIGN}/import.css`]);
      expect(failed.filter((f) => f.startsWith(FOREIGN)).sort()).toEqual(foreign.map((u) => `${u} csp`));
      const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
      expect(violations.sort()).toEqual([`font-src ${FOREIGN}/font.woff2`, `img-src ${FOREIGN}/beacon.png`, `style-src-elem ${FOREIGN}/import.css`]);

      // keyboard: tab to the first field, fill the form, submit with Enter; the preview goes on to the thanks page
      await page.getByRole('button', { name: 'Register' }).click();
      expect(await page.getByText('Please check the fields marked below.').isVisible()).toBe(true);
      expect(await page.evaluate(() => document.activeElement?.id)).toMatch(/first_name$/);
      await page.keyboard.type('Ada');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Lovelace');
      await page.keyboard.press('Tab');
      await page.keyboard.type('ada@example.com');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'See you at the Expo' }).waitFor();
      expect(await page.getByRole('link', { name: /Plan your visit/ }).getAttribute('href')).toBe('https://expo.example.com/plan');
      expect(await noSideScroll(page)).toBe(true);

      await page.goto(previewPath(styled.id, '?view=thanks'));
      await page.getByRole('heading', { level: 1, name: 'See you at the Expo' }).waitFor();
      await page.waitForFunction(() => getComputedStyle(document.querySelector('.ls-public-title')!).color === 'rgb(170, 0, 85)');
      expect(await noSideScroll(page)).toBe(true);
      await shot(page, 'form-style-preview-thanks');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('at 1200 px: the form page, another form of the account, and the thanks page; in Dutch', async () => {
    const { page, context, errors } = await signedIn({ width: 1200, height: DESKTOP.height });
    try {
      await page.goto(previewPath(styled.id));
      await page.getByRole('heading', { level: 1, name: 'Join the Spring Expo' }).waitFor();
      await page.waitForFunction(() => getComputedStyle(document.querySelector('.ls-public-title')!).color === 'rgb(170, 0, 85)');
      expect(await noSideScroll(page)).toBe(true);
      await shot(page, 'form-style-preview-form');
      await page.goto(previewPath(styled.id, `?form=${survey.id}`));
      await page.getByRole('textbox', { name: 'Company' }).waitFor();
      expect(await page.getByRole('textbox', { name: /First name/ }).count()).toBe(0);
      await page.goto(previewPath(styled.id, '?view=thanks'));
      await page.getByRole('link', { name: /Plan your visit/ }).waitFor();
      await shot(page, 'form-style-preview-thanks');
      await page.goto(previewPath(styled.id, '?lang=nl'));
      await page.getByRole('button', { name: 'Inschrijven' }).waitFor();
      expect(await page.getByText('Velden met * zijn verplicht.').isVisible()).toBe(true);
      await page.getByRole('button', { name: 'English' }).click();
      await page.getByRole('button', { name: 'Register' }).waitFor();
      // a style without custom CSS in the dark: the page follows the system, like the renderer
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.goto(previewPath(plain.id));
      await page.getByRole('heading', { level: 1, name: 'Join the Spring Expo' }).waitFor();
      expect(await colourOf(page, '.ls-public-title', 'color')).toBe('rgb(231, 234, 242)');
      expect(await colourOf(page, '.ls-public-card', 'background-color')).toBe('rgb(20, 26, 38)');
      await shot(page, 'form-style-preview-dark');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("works inside the console's sandboxed frame (the session and the stylesheet reach it), and says so when signed out", async () => {
    const { page, context, errors } = await signedIn(DESKTOP);
    try {
      // the frame as FormStylePreview draws it, on an admin page of the same origin
      await page.evaluate(
        ({ src }) => {
          const frame = document.createElement('iframe');
          frame.src = src;
          frame.title = 'preview';
          frame.setAttribute('sandbox', 'allow-same-origin allow-scripts');
          frame.width = '375';
          frame.height = '700';
          document.body.append(frame);
        },
        { src: previewPath(styled.id, '?view=form') },
      );
      const frame = page.frameLocator('iframe[title=preview]');
      await frame.getByRole('heading', { level: 1, name: 'Join the Spring Expo' }).waitFor();
      expect(await frame.locator('.ls-public-title').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(170, 0, 85)');
      // no form submission in the sandbox, yet the button still checks the answers and shows the thanks page
      await frame.getByRole('textbox', { name: /First name/ }).fill('Ada');
      await frame.getByRole('textbox', { name: /E-mail/ }).fill('ada@example.com');
      await frame.getByRole('button', { name: 'Register' }).click();
      await frame.getByRole('heading', { level: 1, name: 'See you at the Expo' }).waitFor();
      expect(errors).toEqual([]);

      // signed out, the page itself explains; the stylesheet is not served either
      await context.clearCookies();
      await page.goto(previewPath(styled.id));
      await page.getByText('Sign in to the console to see this preview.').waitFor();
      const css = await page.request.get(`/api/1/accounts/${account.id}/form-styles/${styled.id}/style.css`);
      expect(css.status()).toBe(401);
    } finally {
      await context.close();
    }
  });
});
