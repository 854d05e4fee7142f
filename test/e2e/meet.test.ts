import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ensureAdminBuilt, startServer, type E2eServer } from './support/server';
import { DESKTOP, HAS_CHROMIUM, launch, newPage, PHONE, shot, SKIP_REASON } from './support/browser';
import { ApiClient } from './support/api';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

/** A day ten days ahead (UTC), so the generated slots are still to come. */
const ahead = new Date(Date.now() + 10 * 86400_000).toISOString().slice(0, 10);

/**
 * The public meeting page /meet/{eventId} in Chromium: slots generated through the API, one booked on a 375 px phone
 * (no sideways scrolling), the thanks, the slot gone from the page once full; screenshots `meet-*` at 1280 and 375 px.
 */
describe.skipIf(!HAS_CHROMIUM)('meeting page in the browser', () => {
  let server: E2eServer;
  let browser: Browser;
  let eventId: string;
  let accountId: string;

  beforeAll(async () => {
    ensureAdminBuilt();
    server = await startServer();
    browser = await launch();
    const root = new ApiClient(server.baseUrl);
    await root.login(server.adminEmail, server.adminPassword);
    accountId = (await root.create('/accounts', { a_name: 'Harbour & Co', a_is_enabled: true })).id;
    eventId = (await root.create(`/accounts/${accountId}/events`, { ev_title: 'Harbour Expo 2030', ev_name: 'harbour-expo', ev_access_type: 'open', ev_is_enabled: true })).id;
    const slots = await root.call('POST', `/accounts/${accountId}/meeting-slots/generate`, {
      ms_eventid: eventId,
      date: ahead,
      from: '09:00',
      to: '11:00',
      minutes: 30,
      gap_minutes: 0,
      ms_location: 'Hall 3, stand 12',
    });
    expect(slots.status).toBe(201);
    // The event's form style: the page wears it like the registration page (its custom CSS sets the accent).
    await root.create(`/accounts/${accountId}/form-styles`, { st_title: 'Harbour style', st_eventid: eventId, st_custom_css: ':root { --ls-form-accent: #aa0055; }' });
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('books a slot on a phone: pick a time, give an e-mail, see the thanks; the slot is then gone', async () => {
    const { context, page, errors } = await newPage(browser, server.baseUrl, PHONE);
    await page.goto(`/meet/${eventId}?lang=en`);
    await page.getByRole('heading', { name: 'Book a meeting' }).waitFor();
    expect(await page.locator('link[rel=stylesheet][data-ls-custom-css]').getAttribute('href')).toBe(`/api/1/register/${eventId}/style.css`);
    await page.waitForFunction(() => getComputedStyle(document.querySelector('.ls-public-submit')!).backgroundColor === 'rgb(170, 0, 85)');
    expect(await page.getByRole('radio').count()).toBe(4);
    expect(await page.getByText('09:00–09:30').count()).toBe(1);
    await shot(page, 'meet-slots');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.getByRole('button', { name: 'Request meeting' }).click();
    await page.getByText('Please pick a time').waitFor();
    await page.getByRole('radio', { name: /09:00–09:30/ }).check();
    await page.getByLabel(/E-mail/).fill('vera@example.com');
    await page.getByLabel('First name').fill('Vera');
    await page.getByLabel('Last name').fill('Visitor');
    await page.getByRole('button', { name: 'Request meeting' }).click();
    await page.getByRole('heading', { name: 'Request sent' }).waitFor();
    await shot(page, 'meet-sent');
    await page.goto(`/meet/${eventId}?lang=nl`);
    await page.getByRole('heading', { name: 'Maak een afspraak' }).waitFor();
    expect(await page.getByRole('radio').count()).toBe(3);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('at 1280 px, in Dutch', async () => {
    const { context, page, errors } = await newPage(browser, server.baseUrl, DESKTOP);
    await page.goto(`/meet/${eventId}?lang=nl`);
    await page.getByRole('heading', { name: 'Maak een afspraak' }).waitFor();
    await page.getByRole('radio', { name: /10:00–10:30/ }).check();
    await shot(page, 'meet-slots-nl');
    expect(errors).toEqual([]);
    await context.close();
  });
});
