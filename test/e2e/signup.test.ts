import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureAdminBuilt, startServer, type E2eServer } from './support/server';
import { DESKTOP, HAS_CHROMIUM, launch, newPage, PHONE, shot, SKIP_REASON } from './support/browser';
import { ApiClient } from './support/api';
import { linkIn, parseEml } from '../helpers/mail';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

const PASSWORD = 'signed-up-password-1';
const DOMAIN = 'harbour-fresh.example';
/** Screenshots for a human to look at, beside the usual test/e2e/screenshots. */
const SHOTS = '/tmp/shots-signup';

async function look(page: Page, name: string): Promise<void> {
  await shot(page, name);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}-${page.viewportSize()?.width ?? 0}.png`), fullPage: true });
}

/**
 * Self sign-up in Chromium against the real server (platform-and-flows.md section 3): from the capture app's "Create
 * an account" link on a phone, the company-has-no-account and field errors, "activation sent" with resend, the mailed
 * link, back to the capture app, signed in as a member of the domain's account with its event.
 */
describe.skipIf(!HAS_CHROMIUM)('self sign-up in the browser', () => {
  let server: E2eServer;
  let browser: Browser;
  let root: ApiClient;
  let accountId: string;

  const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  const mailsTo = (email: string) =>
    server
      .outbox()
      .filter((m) => m.file.endsWith(`-${email}.eml`))
      .map((m) => parseEml(m.file, m.text));

  beforeAll(async () => {
    ensureAdminBuilt();
    server = await startServer();
    browser = await launch();
    root = new ApiClient(server.baseUrl);
    await root.login(server.adminEmail, server.adminPassword);
    accountId = (await root.create<{ a_id: string }>('/accounts', { a_name: 'Harbour Fresh', a_email_domain: DOMAIN })).a_id;
    await root.create(`/accounts/${accountId}/events`, { ev_title: 'Harbour Expo', ev_name: 'harbour-expo', ev_access_type: 'open', ev_is_enabled: true });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function fillForm(page: Page, email: string, password = PASSWORD, confirm = password) {
    await page.locator('#u_email').fill(email);
    await page.locator('#u_first_name').fill('Fenna');
    await page.locator('#u_last_name').fill('Visser');
    await page.locator('#u_password').fill(password);
    await page.locator('#u_password_confirm').fill(confirm);
  }

  it('on a phone: the capture app link, errors, activation sent with resend, the mailed link, back in the app as a member', async () => {
    const email = `fenna.${Date.now()}@${DOMAIN}`;
    const { context, page, errors } = await newPage(browser, server.baseUrl, PHONE);
    try {
      await page.goto('/app/');
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await look(page, 'signup-capture-signin');
      await page.getByRole('link', { name: 'Create an account' }).click();
      await page.waitForURL((u) => u.pathname === '/signup' && u.searchParams.get('from') === 'app');
      await page.getByRole('heading', { name: 'Create an account' }).waitFor();
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await look(page, 'signup');

      // A password that is too short and a confirmation that differs: shown under each field, nothing sent.
      await fillForm(page, email, 'short', 'different');
      await page.getByRole('button', { name: 'Create account' }).click();
      await expect.poll(() => page.locator('#u_password-helper-text').innerText()).toBe('Invalid password, please use 12 characters.');
      await expect.poll(() => page.locator('#u_password_confirm-helper-text').innerText()).toBe('Passwords do not match');
      expect(mailsTo(email)).toEqual([]);

      // An address of a domain no account has: the 422's message, and no user.
      const stranger = `fenna@nowhere-${Date.now()}.example`;
      await fillForm(page, stranger);
      await page.getByRole('button', { name: 'Create account' }).click();
      const noAccount = page.getByTestId('signup-no-account');
      await noAccount.getByText(`No account for ${stranger.split('@')[1]}`, { exact: true }).waitFor();
      await noAccount.getByText('Your company has no account yet; ask your event manager for an invitation').waitFor();
      await look(page, 'signup-no-account');
      expect(mailsTo(stranger)).toEqual([]);

      // The company's address: activation sent.
      await page.locator('#u_email').fill(email);
      await expect.poll(() => noAccount.count()).toBe(0);
      await page.locator('#u_password').press('Enter');
      const sent = page.getByTestId('signup-sent');
      await sent.getByRole('heading', { name: 'Activation sent' }).waitFor();
      await sent.getByText(email, { exact: true }).waitFor();
      await sent.getByText('Open it to activate your account, then sign in.').waitFor();
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await look(page, 'signup-sent');
      await expect.poll(() => mailsTo(email).length).toBe(1);

      // Resend: the existing resend-activation call, a second mail with a fresh link.
      await sent.getByRole('button', { name: 'Resend the activation link' }).click();
      await sent.getByText('If this address is still waiting for activation, a new link is on its way.').waitFor();
      await expect.poll(() => mailsTo(email).length).toBe(2);
      const mail = mailsTo(email).pop()!;
      expect(mail.subject).toBe('Confirm your e-mail address for Leadstage');
      const link = linkIn(mail, '/users/verify/');

      // Not active yet: the app's sign-in says so.
      await page.goto('/app/');
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').getByText('User account not yet activated').waitFor();

      // The mailed link (in the same phone browser), then on to the capture app.
      await page.goto(new URL(link).pathname);
      await page.getByTestId('verify-success').waitFor();
      await look(page, 'signup-verified');
      await page.getByTestId('verify-open-app').click();
      await page.waitForURL((u) => u.pathname.startsWith('/app'));
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Choose an event' }).waitFor();
      await page.getByRole('link', { name: /Harbour Expo/ }).waitFor();
      const me = await page.evaluate(async () => (await fetch('/api/1/auth/me')).json());
      expect(me.user).toMatchObject({ u_email: email, u_role: 'member', u_is_verified: true, u_first_name: 'Fenna', u_last_name: 'Visser' });
      expect(me.accounts.map((a: { a_id: string; au_role: string }) => [a.a_id, a.au_role])).toEqual([[accountId, 'member']]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('on a desktop: from the console sign-in page, the form and "activation sent" (an existing address answers the same)', async () => {
    const { context, page, errors } = await newPage(browser, server.baseUrl, DESKTOP);
    try {
      await page.goto('/login');
      await page.getByRole('link', { name: 'Create an account' }).click();
      await page.waitForURL((u) => u.pathname === '/signup');
      await page.getByRole('heading', { name: 'Create an account' }).waitFor();
      await look(page, 'signup');
      // The root user's address has a user: the page cannot tell, the user gets "an account exists".
      const existing = `root.twin.${Date.now()}@${DOMAIN}`;
      await root.create('/users', { u_email: existing, u_first_name: 'Twin', u_role: 'member', u_is_verified: true, u_password: PASSWORD, u_password_confirm: PASSWORD });
      await fillForm(page, existing);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByTestId('signup-sent').getByRole('heading', { name: 'Activation sent' }).waitFor();
      await look(page, 'signup-sent');
      await expect.poll(() => mailsTo(existing).map((m) => m.subject)).toContain('You already have a Leadstage account');
      // "Back to sign in" goes to the console's sign-in (not the app: this sign-up did not come from it).
      await page.getByRole('link', { name: 'Back to sign in' }).click();
      await page.waitForURL((u) => u.pathname === '/login');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
