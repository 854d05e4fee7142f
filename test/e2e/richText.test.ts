import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ensureAdminBuilt, startServer, type E2eServer } from './support/server';
import { DESKTOP, HAS_CHROMIUM, launch, newPage, shot, SKIP_REASON } from './support/browser';
import { LoginScreen } from './support/pages';
import { ApiClient } from './support/api';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

/**
 * Rich text from end to end in Chromium (jsdom has no layout to type into ProseMirror): an event's description typed
 * in the console's editor and formatted with its toolbar, saved through the API (which keeps the allow-list), and drawn
 * on the event's public registration page.
 */
describe.skipIf(!HAS_CHROMIUM)('rich text in the browser', () => {
  let server: E2eServer;
  let browser: Browser;
  let root: ApiClient;
  let account: { id: string };
  let event: { id: string };

  beforeAll(async () => {
    ensureAdminBuilt();
    server = await startServer();
    browser = await launch();
    root = new ApiClient(server.baseUrl);
    await root.login(server.adminEmail, server.adminPassword);
    account = await root.create('/accounts', { a_name: 'Rich Text Events', a_is_enabled: true });
    event = await root.create(`/accounts/${account.id}/events`, { ev_title: 'Harbour Fair', ev_name: 'harbour', ev_access_type: 'open' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("the event's description: typed, made bold, a heading and a list in the console, stored as HTML, drawn on the registration page", async () => {
    const { page, context, errors } = await newPage(browser, server.baseUrl, DESKTOP);
    try {
      await new LoginScreen(page).open();
      await new LoginScreen(page).signIn(server.adminEmail, server.adminPassword);
      await page.waitForURL(/\/accounts/);
      await page.goto(`/console/${account.id}/events/${event.id}`);
      const field = page.locator('.ra-input-ev_description');
      const editor = field.locator('.ProseMirror');
      await editor.waitFor();
      // A toolbar button hands the focus back to the editor a frame later (tiptap's focus command): keys typed before
      // that go to the button and are lost, so each click waits for the editor to have the focus again.
      const button = (name: string) => ({
        click: async () => {
          await field.getByRole('button', { name, exact: true }).click();
          await expect.poll(() => editor.evaluate((el) => el.contains(document.activeElement))).toBe(true);
        },
      });

      await editor.click();
      await page.keyboard.type('Welcome');
      await button('Heading 2').click();
      await page.keyboard.press('End');
      await page.keyboard.press('Enter');
      await button('Bold').click();
      await page.keyboard.type('Doors open at nine');
      await button('Bold').click();
      await page.keyboard.type(' on the quay.');
      await page.keyboard.press('Enter');
      await button('Bulleted list').click();
      await page.keyboard.type('Free entry');
      await page.keyboard.press('Enter');
      await page.keyboard.type('Coffee');
      await shot(page, 'rich-text-editor');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved').first().waitFor();

      const stored = (await root.call<{ ev_description: string }>('GET', `/accounts/${account.id}/events/${event.id}`)).body.ev_description;
      expect(stored).toBe('<h2>Welcome</h2><p><strong>Doors open at nine</strong> on the quay.</p><ul><li><p>Free entry</p></li><li><p>Coffee</p></li></ul>');

      await page.goto(`/register/${event.id}`);
      const description = page.locator('.ls-public-event-description');
      await description.waitFor();
      expect(await description.locator('h2').innerText()).toBe('Welcome');
      expect(await description.locator('strong').innerText()).toBe('Doors open at nine');
      expect(await description.locator('li').allInnerTexts()).toEqual(['Free entry', 'Coffee']);
      await shot(page, 'rich-text-registration');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
