import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ensureAdminBuilt, startServer, type E2eServer } from './support/server';
import { HAS_CHROMIUM, launch, newPage, shot, SKIP_REASON } from './support/browser';
import { Layout, ListScreen, LoginScreen } from './support/pages';
import { ApiClient } from './support/api';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

/**
 * Spec 6 in the browser: a superadmin and a member see only what the permission table allows (menu items, add
 * buttons, clickable rows, member screens, the users screen), and the account selection follows the memberships.
 */
describe.skipIf(!HAS_CHROMIUM)('entry admin permissions in the browser', () => {
  let server: E2eServer;
  let browser: Browser;
  const password = 'permission-test-1';
  const superadmin = 'super@perm.example.com';
  const member = 'member@perm.example.com';
  let acme: { id: string };
  let beta: { id: string };

  beforeAll(async () => {
    ensureAdminBuilt();
    server = await startServer();
    browser = await launch();
    const root = new ApiClient(server.baseUrl);
    await root.login(server.adminEmail, server.adminPassword);
    const user = (email: string, role: string) =>
      root.create<{ id: string }>('/users', {
        u_email: email,
        u_first_name: role === 'member' ? 'Mia' : 'Sam',
        u_last_name: role === 'member' ? 'Member' : 'Super',
        u_role: role,
        u_is_verified: true,
        u_is_enabled: true,
        u_password: password,
        u_password_confirm: password,
      });
    const sam = await user(superadmin, 'superadmin');
    const mia = await user(member, 'member');
    acme = await root.create('/accounts', { a_name: 'Acme', a_is_enabled: true });
    // Beta's admin address is this server's account list, so the single-account redirect can be followed.
    beta = await root.create('/accounts', { a_name: 'Beta', a_is_enabled: true, a_admin_url: `${server.baseUrl}/accounts?from=beta` });
    await root.create(`/accounts/${beta.id}/users`, { au_userid: sam.id, au_role: 'superadmin' });
    await root.create(`/accounts/${acme.id}/users`, { au_userid: mia.id, au_role: 'member' });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a superadmin with one admin account goes straight to its admin address; sees accounts but not users, members or media', async () => {
    const { page, context, errors } = await newPage(browser, server.baseUrl);
    try {
      await new LoginScreen(page).open();
      await new LoginScreen(page).signIn(superadmin, password);
      // Exactly one account where the membership role is root or superadmin: the browser goes to its admin address.
      await page.waitForURL((u) => u.pathname === '/accounts' && u.search === '?from=beta');
      const layout = new Layout(page);
      expect(await layout.menuItems()).toEqual(['Accounts', 'Sign out']);
      const list = new ListScreen(page);
      await list.row('Beta').waitFor();
      expect(await list.rows().count()).toBe(2); // staff see every account
      expect(await page.getByTestId('add-account').count()).toBe(1); // entry_accounts create
      await shot(page, 'superadmin-accounts');
      await list.row('Acme').click();
      await page.waitForURL(`**/accounts/${acme.id}`);
      await page.locator('[name=a_name]').waitFor();
      // No entry_account_users: no member list, and the member screens are closed.
      expect(await page.getByTestId('account-members').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(1);
      await page.goto(`/accounts/${acme.id}/users/new`);
      await page.getByText('No access').first().waitFor();
      await page.goto('/users');
      await page.getByText('No access').first().waitFor();
      await shot(page, 'superadmin-users-denied');
      await page.goto('/media');
      await page.getByText('No access').first().waitFor();
      // The switcher offers the account, not the entry admin (that is root's).
      await page.getByTestId('account-switcher').click();
      expect(await page.getByRole('menuitem', { name: /Beta/ }).count()).toBe(1);
      expect(await page.getByRole('menuitem', { name: /Entry admin/ }).count()).toBe(0);
      await page.keyboard.press('Escape');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a member gets the no-admin-access message, and a read-only account list', async () => {
    const { page, context, errors } = await newPage(browser, server.baseUrl);
    try {
      await new LoginScreen(page).open();
      await new LoginScreen(page).signIn(member, password);
      await page.waitForURL('**/accounts/selection');
      await page.getByTestId('no-admin-access').waitFor();
      expect(await page.getByTestId('no-admin-access').innerText()).toContain('No access');
      await shot(page, 'member-selection');

      await page.goto('/accounts');
      const list = new ListScreen(page);
      await list.row('Acme').waitFor();
      expect(await list.rows().count()).toBe(1); // only the accounts it belongs to
      expect(await new Layout(page).menuItems()).toEqual(['Accounts', 'Sign out']);
      expect(await page.getByTestId('add-account').count()).toBe(0);
      // Read only: a row does not open the account.
      await list.row('Acme').click();
      await page.waitForTimeout(500);
      expect(new URL(page.url()).pathname).toBe('/accounts');
      await shot(page, 'member-accounts');
      await page.goto(`/accounts/${acme.id}`);
      await page.getByText('No access').first().waitFor();
      await page.goto('/users/new');
      await page.getByText('No access').first().waitFor();

      // The logout button of the selection page ends the session.
      await page.goto('/accounts/selection');
      await page.getByTestId('selection-logout').click();
      await page.waitForURL('**/login');
      await page.goto('/users');
      await page.waitForURL('**/login');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
