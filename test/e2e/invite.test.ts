import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureAdminBuilt, startServer, type E2eServer } from './support/server';
import { DESKTOP, HAS_CHROMIUM, launch, newPage, PHONE, shot, SKIP_REASON } from './support/browser';
import { ApiClient } from './support/api';
import { linkIn, parseEml } from '../helpers/mail';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

const PASSWORD = 'invited-password-1';

/**
 * The invitation page in Chromium against the real server: a new user follows the outbox link on a phone, fills in
 * names and a password by keyboard and lands in the account's console, signed in; an existing user signs in on the
 * page and joins; a spent link says so.
 */
describe.skipIf(!HAS_CHROMIUM)('invitation page in the browser', () => {
  let server: E2eServer;
  let browser: Browser;
  let root: ApiClient;
  let accountId: string;

  /** Invites `email` as root and answers the link of the mail. */
  async function invite(email: string, extra: Record<string, unknown> = {}): Promise<string> {
    await root.create(`/accounts/${accountId}/invites`, { iv_email: email, ...extra });
    const mail = server
      .outbox()
      .filter((m) => m.file.endsWith(`-${email}.eml`))
      .pop();
    expect(mail, `a mail to ${email}`).toBeDefined();
    return linkIn(parseEml(mail!.file, mail!.text));
  }

  const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  const me = (page: Page) => page.evaluate(async () => (await fetch('/api/1/auth/me')).json());

  beforeAll(async () => {
    ensureAdminBuilt();
    server = await startServer();
    browser = await launch();
    root = new ApiClient(server.baseUrl);
    await root.login(server.adminEmail, server.adminPassword);
    accountId = (await root.create<{ a_id: string }>('/accounts', { a_name: 'Harbour Expo' })).a_id;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a new user on a phone: keyboard only, the password rules, then signed in and in the console', async () => {
    const link = await invite('new.member@example.com', { iv_first_name: 'Noor' });
    const { context, page, errors } = await newPage(browser, server.baseUrl, PHONE);
    try {
      await page.goto(new URL(link).pathname);
      await page.getByRole('heading', { name: 'Join Harbour Expo' }).waitFor();
      await page.getByText('new.member@example.com').waitFor();
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      expect(await page.locator('#u_first_name').inputValue()).toBe('Noor');
      await shot(page, 'invite-new-user');

      // First name has the focus; Tab moves through the fields.
      await page.keyboard.press('Tab');
      await page.keyboard.type('Visser');
      await page.keyboard.press('Tab');
      await page.keyboard.type('short');
      await page.keyboard.press('Tab');
      await expect.poll(() => page.locator('#u_password-helper-text').innerText()).toBe('Invalid password, please use 12 characters.');
      await page.keyboard.type('different-password');
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Tab');
      await expect.poll(() => page.locator('#u_password_confirm-helper-text').innerText()).toBe('Passwords do not match');
      await shot(page, 'invite-new-user-errors');
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      await page.waitForURL((u) => u.pathname === `/console/${accountId}`);

      const session = await me(page);
      expect(session.user).toMatchObject({ u_email: 'new.member@example.com', u_first_name: 'Noor', u_last_name: 'Visser' });
      expect(session.accounts.map((a: { a_id: string; au_role: string }) => [a.a_id, a.au_role])).toEqual([[accountId, 'member']]);
      expect(errors).toEqual([]);

      // The link is spent.
      await page.goto(new URL(link).pathname);
      await page.getByTestId('invite-invalid').getByText('Failed to validate the invite').waitFor();
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await shot(page, 'invite-invalid');
    } finally {
      await context.close();
    }
  });

  it('an existing user signs in on the page and joins with the invited role', async () => {
    await root.create('/users', { u_email: 'known@example.com', u_first_name: 'Kim', u_password: PASSWORD, u_password_confirm: PASSWORD, u_is_verified: true });
    const link = await invite('known@example.com', { iv_role: 'admin' });
    const { context, page, errors } = await newPage(browser, server.baseUrl, DESKTOP);
    try {
      await page.goto(new URL(link).pathname);
      await page.getByText('You already have a user with known@example.com. Sign in with it to accept the invitation.').waitFor();
      expect(await page.locator('#u_email').inputValue()).toBe('known@example.com');
      await shot(page, 'invite-existing-user');
      await page.locator('#u_password').fill(PASSWORD);
      await page.keyboard.press('Enter');
      await page.waitForURL((u) => u.pathname === `/console/${accountId}`);
      const session = await me(page);
      expect(session.accounts.map((a: { a_id: string; au_role: string }) => [a.a_id, a.au_role])).toEqual([[accountId, 'admin']]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
