import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureAdminBuilt, startServer, type E2eServer } from './support/server';
import { HAS_CHROMIUM, launch, newPage, PHONE, shot, SKIP_REASON } from './support/browser';
import { choose, helperText, Layout, ListScreen, LoginScreen } from './support/pages';
import { ApiClient } from './support/api';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

/**
 * The account console in Chromium (account-console.md 1): account selection opens an account's console, its menu
 * follows the role in that account, the home page shows the account's figures, the generated event form shows the
 * declaration's errors and creates the event, the switcher moves to another account's console without showing the
 * previous account's records, and an ordinary member sees events read-only. At 1280 and 375 px.
 */
describe.skipIf(!HAS_CHROMIUM)('account console in the browser', () => {
  let server: E2eServer;
  let browser: Browser;
  const password = 'console-test-pass-1';
  const superadmin = 'sam@console.example.com';
  const member = 'mia@console.example.com';
  let acme: { id: string };
  let beta: { id: string };

  beforeAll(async () => {
    ensureAdminBuilt();
    server = await startServer();
    browser = await launch();
    const root = new ApiClient(server.baseUrl);
    await root.login(server.adminEmail, server.adminPassword);
    const user = (email: string, role: string, first: string) =>
      root.create<{ id: string }>('/users', {
        u_email: email,
        u_first_name: first,
        u_last_name: 'Tester',
        u_role: role,
        u_is_verified: true,
        u_is_enabled: true,
        u_password: password,
        u_password_confirm: password,
      });
    const sam = await user(superadmin, 'superadmin', 'Sam');
    const mia = await user(member, 'member', 'Mia');
    // No admin address: selection and switcher open the console here.
    acme = await root.create('/accounts', { a_name: 'Acme Events', a_is_enabled: true });
    beta = await root.create('/accounts', { a_name: 'Beta Fairs', a_is_enabled: true });
    await root.create(`/accounts/${acme.id}/users`, { au_userid: sam.id, au_role: 'superadmin' });
    await root.create(`/accounts/${beta.id}/users`, { au_userid: sam.id, au_role: 'superadmin' });
    await root.create(`/accounts/${acme.id}/users`, { au_userid: mia.id, au_role: 'member' });
    // One event in Beta, made through the API: it must never show in Acme's console.
    await root.create(`/accounts/${beta.id}/events`, { ev_title: 'Beta Harvest Fair', ev_name: 'harvest', ev_access_type: 'open' });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const signIn = async (page: Page, email: string) => {
    await new LoginScreen(page).open();
    await new LoginScreen(page).signIn(email, password);
    await page.waitForURL('**/accounts/selection');
  };

  it('a superadmin opens a console from the account selection, creates an event through the generated form and switches accounts', async () => {
    const { page, context, errors } = await newPage(browser, server.baseUrl);
    try {
      await signIn(page, superadmin);
      // Two admin accounts without an admin address: both open their console.
      await page.getByTestId('select-account').filter({ hasText: 'Acme Events' }).click();
      await page.waitForURL((u) => u.pathname === `/console/${acme.id}`);
      // Home: the account's figures (Sam and Mia are members; nothing active, nothing pending).
      await expect.poll(() => page.getByTestId('figure-members').innerText()).toBe('2');
      expect(await page.getByTestId('figure-active-events').innerText()).toBe('0');
      expect(await page.getByTestId('figure-pending-invites').innerText()).toBe('0');
      expect(await page.getByTestId('console-account-name').innerText()).toBe('Acme Events');
      // The console's own menu: every resource a superadmin reads in this account.
      expect(await new Layout(page).menuItems()).toEqual([
        'Home',
        'Members',
        'Invites',
        'Events',
        'Forms',
        'Lists',
        'Form styles',
        'Integrations',
        'Mail templates',
        'Leads',
        'Meeting slots',
        'Meetings',
        'Conversations',
        'Assets',
        'Collections',
        'Carousels',
        'Carousel groups',
        'Codes',
        'Local settings',
        'Statistics',
        // the API description (app_general export_curl)
        'API',
        'Sign out',
      ]);
      await shot(page, 'console-home');

      await page.getByRole('menuitem', { name: 'Events' }).click();
      await page.waitForURL((u) => u.pathname === `/console/${acme.id}/events`);
      await page.getByTestId('list-empty').waitFor();
      await page.getByTestId('create-button').first().click();
      await page.waitForURL((u) => u.pathname === `/console/${acme.id}/events/new`);

      // Saving without a title and an access type: the declaration's messages under the inputs, nothing stored.
      await page.locator('[name=ev_name]').fill('spring-expo');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => helperText(page, 'ev_title')).toBe('Please enter an event title');
      expect(await helperText(page, 'ev_access_type')).toBe('Please select an event type');
      await shot(page, 'console-event-errors');
      expect(new URL(page.url()).pathname).toBe(`/console/${acme.id}/events/new`);

      // The access code shows only for a restricted event, and is then required (the declaration's rule).
      expect(await page.locator('[name=ev_access_code]').count()).toBe(0);
      await page.locator('[name=ev_title]').fill('Acme Spring Expo');
      await choose(page, 'ev_access_type', 'Restricted');
      await page.locator('[name=ev_access_code]').waitFor();
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => helperText(page, 'ev_access_code')).toBe('Please enter the access code of this restricted event');
      await page.locator('[name=ev_access_code]').fill('SPRING-26');
      await page.locator('[name=ev_end_date]').fill('2026-05-20');
      await page.locator('[name=ev_start_date]').fill('2026-05-22');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => helperText(page, 'ev_end_date')).toBe('The end date cannot be before the start date');
      await page.locator('[name=ev_start_date]').fill('2026-05-18');
      await shot(page, 'console-event-new');
      await page.getByRole('button', { name: 'Save' }).click();

      // Saved: the toast, back on the list, the event in it.
      await page.waitForURL((u) => u.pathname === `/console/${acme.id}/events`);
      expect(await new Layout(page).toast().innerText()).toContain('Acme Spring Expo has been saved.');
      const list = new ListScreen(page);
      await list.row('Acme Spring Expo').waitFor();
      expect(await list.rows().count()).toBe(1);
      expect(await list.row('Acme Spring Expo').innerText()).toContain('Restricted');
      await shot(page, 'console-events');

      // A second event with the same name: the server's 409 under the name field.
      await page.getByTestId('create-button').first().click();
      await page.locator('[name=ev_title]').fill('Copy');
      await page.locator('[name=ev_name]').fill('spring-expo');
      await choose(page, 'ev_access_type', 'Open');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => helperText(page, 'ev_name')).toBe('This name is already in use');
      await page.getByTestId('cancel').click();
      await page.waitForURL((u) => u.pathname === `/console/${acme.id}/events`);

      // Edit: the stored values in the form; save returns to the list.
      await list.row('Acme Spring Expo').click();
      await page.waitForURL((u) => u.pathname.startsWith(`/console/${acme.id}/events/`) && !u.pathname.endsWith('/events'));
      await expect.poll(() => page.locator('[name=ev_access_code]').inputValue()).toBe('SPRING-26');
      await shot(page, 'console-event-edit');

      // The switcher moves to Beta's console: Beta's event, never Acme's.
      await page.getByTestId('account-switcher').click();
      await page.getByRole('menuitem', { name: /Beta Fairs/ }).click();
      await page.waitForURL((u) => u.pathname === `/console/${beta.id}`);
      await page.getByRole('menuitem', { name: 'Events' }).click();
      await list.row('Beta Harvest Fair').waitFor();
      expect(await list.rows().allInnerTexts()).not.toContain(expect.stringContaining('Acme Spring Expo'));
      expect(await page.getByTestId('account-switcher').innerText()).toBe('Beta Fairs');
      // And back: Acme's list is fetched again, without Beta's event.
      await page.getByTestId('account-switcher').click();
      await page.getByRole('menuitem', { name: /Acme Events/ }).click();
      await page.waitForURL((u) => u.pathname === `/console/${acme.id}`);
      await expect.poll(() => page.getByTestId('figure-active-events').innerText()).toBe('0');
      await page.goto(`/console/${acme.id}/settings`);
      await page.locator('[name=ls_instance_name]').waitFor();
      expect(await page.getByTestId('secret-ls_customer_api_key-status').innerText()).toBe('Not set');
      await shot(page, 'console-settings');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a member opens the console from the selection and sees events read-only, on a phone', async () => {
    const { page, context, errors } = await newPage(browser, server.baseUrl, PHONE);
    try {
      await signIn(page, member);
      // No admin account (spec 2), but the console of the account it is a member of.
      await page.getByTestId('no-admin-access').waitFor();
      await shot(page, 'console-member-selection');
      await page.getByTestId('select-console').filter({ hasText: 'Acme Events' }).click();
      await page.waitForURL((u) => u.pathname === `/console/${acme.id}`);
      await page.getByTestId('figure-members').waitFor();
      const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await shot(page, 'console-member-home');
      await page.getByRole('button', { name: /open menu/i }).click();
      // A member reads members, events, forms, lists and integrations (spec 6); no invites, mail templates or settings.
      await expect
        .poll(() => new Layout(page).menuItems())
        .toEqual([
          'Home',
          'Members',
          'Events',
          'Forms',
          'Lists',
          'Integrations',
          'Leads',
          'Meeting slots',
          'Meetings',
          'Conversations',
          'Assets',
          'Collections',
          'Carousels',
          'Carousel groups',
          'Codes',
          'Sign out',
        ]);
      await page.getByRole('menuitem', { name: 'Events' }).click();
      await page.waitForURL((u) => u.pathname === `/console/${acme.id}/events`);
      const list = new ListScreen(page);
      await list.row('Acme Spring Expo').waitFor();
      expect(await page.getByTestId('create-button').count()).toBe(0);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await shot(page, 'console-member-events');
      // Read only: a row does not open the event, and the create and edit addresses are closed.
      await list.row('Acme Spring Expo').click();
      await page.waitForTimeout(500);
      expect(new URL(page.url()).pathname).toBe(`/console/${acme.id}/events`);
      await page.goto(`/console/${acme.id}/events/new`);
      await page.getByText('No access').first().waitFor();
      // Another account's console is closed to it.
      await page.goto(`/console/${beta.id}/events`);
      await page.getByTestId('console-no-access').waitFor();
      await shot(page, 'console-member-other-account');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
