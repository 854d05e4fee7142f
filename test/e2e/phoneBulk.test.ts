import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './support/api';
import { HAS_CHROMIUM, launch, newPage, PHONE, signInByApi, SKIP_REASON } from './support/browser';
import { choose } from './support/pages';
import { ensureAdminBuilt, startServer, type E2eServer } from './support/server';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

const PASSWORD = 'phone-e2e-password';
const ADMIN = 'ada.admin@phone.example';
const MEMBER = 'rob.rep@phone.example';
const AUTUMN_LEADS = 30; // more than a page (25): "select all 30 matching"
const SPRING_LEADS = 3;
/** Screenshots at 375 px for a person to look at (LS_PHONE_SHOTS, default /tmp/shots-phone). */
const SHOTS = process.env.LS_PHONE_SHOTS || '/tmp/shots-phone';

type Row = Record<string, unknown>;

/**
 * Bulk actions on a phone (issue 16) and the console's top of screen there (issue 18), in Chromium at 375 px: the
 * leads of one event filtered, "Select", "select all 30 matching" in the bar at the foot, and their owner and validity
 * changed in one go; the API holds the change for exactly those 30. The top bar names the account.
 */
describe.skipIf(!HAS_CHROMIUM)('bulk actions on a phone', () => {
  let server: E2eServer;
  let browser: Browser;
  let accountId = '';
  let adaId = '';
  let robId = '';
  const events = { spring: '', autumn: '' };
  let ada: ApiClient;

  const a = (p: string) => `/accounts/${accountId}${p}`;
  const q = (o: unknown) => encodeURIComponent(JSON.stringify(o));
  const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  const snap = async (page: Page, name: string) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.waitForTimeout(300); // ripples, dialogs, toasts settle
    await page.screenshot({ path: path.join(SHOTS, `${name}-${page.viewportSize()?.width ?? 0}.png`) });
  };
  const leadsOf = async (eventId: string): Promise<Row[]> => {
    const res = await ada.call<Row[]>('GET', `${a('/leads')}?filter=${q({ ld_eventid: eventId })}&range=${q([0, 499])}`);
    expect(res.status).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    ensureAdminBuilt();
    [server, browser] = await Promise.all([startServer({}, { postgres: true }), launch()]);
    const root = new ApiClient(server.baseUrl);
    await root.login(server.adminEmail, server.adminPassword);
    const user = async (email: string, first: string, last: string) =>
      (
        await root.create<{ id: string }>('/users', {
          u_email: email,
          u_first_name: first,
          u_last_name: last,
          u_role: 'member',
          u_is_verified: true,
          u_is_enabled: true,
          u_password: PASSWORD,
          u_password_confirm: PASSWORD,
        })
      ).id;
    adaId = await user(ADMIN, 'Ada', 'Admin');
    robId = await user(MEMBER, 'Rob', 'Rep');
    accountId = (await root.create<{ id: string }>('/accounts', { a_name: 'Phone Fairs International', a_is_enabled: true })).id;
    await root.create(a('/users'), { au_userid: adaId, au_role: 'admin' });
    await root.create(a('/users'), { au_userid: robId, au_role: 'member' });
    ada = new ApiClient(server.baseUrl);
    await ada.login(ADMIN, PASSWORD);
    const event = async (title: string, name: string, start: string) =>
      (await ada.create<{ id: string }>(a('/events'), { ev_title: title, ev_name: name, ev_access_type: 'open', ev_start_date: start })).id;
    events.spring = await event('Spring Expo', 'spring-expo', '2026-04-01');
    events.autumn = await event('Autumn Fair', 'autumn-fair', '2026-10-01');
    const lead = (eventId: string, i: number, who: string) =>
      ada.create(a('/leads'), { ld_eventid: eventId, ld_source: 'manual', ld_email: `${who}${i}@visitors.example`, ld_first_name: `${who} ${i}`, ld_answers: {} });
    for (let i = 1; i <= AUTUMN_LEADS; i++) await lead(events.autumn, i, 'autumn');
    for (let i = 1; i <= SPRING_LEADS; i++) await lead(events.spring, i, 'spring');
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('at 375 px: the event filter, "Select", "select all 30 matching", and the owner and validity of exactly those 30 changed', async () => {
    const { page, context, errors } = await newPage(browser, server.baseUrl, PHONE);
    try {
      await signInByApi(context, ADMIN, PASSWORD);
      await page.goto(`/console/${accountId}/leads`);
      await page.getByText('spring3@visitors.example').waitFor();
      // the top bar names the account (ellipsised), not only the switcher's icon
      const label = page.getByTestId('account-switcher-label');
      expect(await label.isVisible()).toBe(true);
      expect(await label.innerText()).toBe('Phone Fairs International');
      expect(await page.getByTestId('account-switcher').getAttribute('aria-label')).toContain('Phone Fairs International');
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await snap(page, 'leads');

      // the event filter, through the filter menu
      await page.getByRole('button', { name: 'Add filter' }).click();
      await page.getByRole('menu').getByText('Event', { exact: true }).click();
      await choose(page, 'ld_eventid', 'Autumn Fair');
      await page.getByText('autumn30@visitors.example').waitFor();
      await expect.poll(() => page.getByText('spring1@visitors.example').count()).toBe(0);

      // select mode: a checkbox per row (a 44 px target at least), the bar at the foot
      const toggle = page.getByTestId('select-mode');
      await toggle.click();
      expect(await toggle.getAttribute('aria-pressed')).toBe('true');
      const bar = page.getByRole('region', { name: 'Actions on the selected rows' });
      await bar.waitFor();
      const boxes = page.getByRole('list', { name: 'Rows to select' }).getByRole('checkbox');
      await expect.poll(() => boxes.count()).toBe(25);
      const target = (await page.getByTestId('phone-select-row').first().locator('.MuiCheckbox-root').boundingBox())!;
      expect(target.width).toBeGreaterThanOrEqual(44);
      expect(target.height).toBeGreaterThanOrEqual(44);
      // a row ticked by a tap on its text
      await page.getByText('autumn30@visitors.example').click();
      expect(await bar.getByRole('status').innerText()).toBe('1 selected');
      await snap(page, 'leads-select');
      // the bar sits at the foot of the screen, within its width
      const barBox = (await bar.boundingBox())!;
      expect(barBox.y + barBox.height).toBeCloseTo(PHONE.height, 0);
      expect(barBox.width).toBeLessThanOrEqual(PHONE.width);
      expect(await overflow(page)).toBeLessThanOrEqual(0);

      await bar.getByRole('button', { name: `Select all ${AUTUMN_LEADS} matching` }).click();
      expect(await bar.getByRole('status').innerText()).toBe(`All ${AUTUMN_LEADS} matching records are selected`);
      await snap(page, 'leads-all-matching');
      // keyboard: the bar's "Change…" reached and pressed without a pointer
      await bar.getByTestId('bulk-update').focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog');
      await dialog.getByText(`Change ${AUTUMN_LEADS} records`).waitFor();
      await dialog.getByText(`This is all ${AUTUMN_LEADS} records the current search and filters match`, { exact: false }).waitFor();
      await dialog.getByRole('combobox', { name: /Owner/ }).click();
      await page.getByRole('option', { name: 'Rob Rep' }).click();
      await choose(page, 'ld_is_valid', 'No');
      await snap(page, 'leads-bulk-dialog');
      await dialog.getByTestId('bulk-update-save').click();
      await page.getByText(`${AUTUMN_LEADS} records changed.`).waitFor();
      await expect.poll(() => bar.getByRole('status').innerText()).toBe('0 selected');
      await snap(page, 'leads-bulk-done');

      // every Autumn lead (not only the 25 shown) is Rob's and invalid; the Spring leads the filter left out are not
      const autumn = await leadsOf(events.autumn);
      expect(autumn).toHaveLength(AUTUMN_LEADS);
      expect(autumn.every((l) => l.ld_ownerid === robId && l.ld_is_valid === false)).toBe(true);
      const spring = await leadsOf(events.spring);
      expect(spring).toHaveLength(SPRING_LEADS);
      expect(spring.every((l) => l.ld_ownerid === adaId && l.ld_is_valid === true)).toBe(true);

      // Done leaves select mode: the plain list again
      await bar.getByTestId('select-mode-done').click();
      await bar.waitFor({ state: 'detached' });
      expect(await page.getByRole('checkbox').count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
