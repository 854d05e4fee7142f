import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ensureAdminBuilt, linkFromMail, startServer, waitForMail, type E2eServer } from './support/server';
import { HAS_CHROMIUM, launch, newPage, PHONE, shot, SKIP_REASON } from './support/browser';
import { choose, control, helperText, Layout, ListScreen, LoginScreen } from './support/pages';
import { ApiClient } from './support/api';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

/**
 * The entry admin in Chromium against the real server (tsx api/server.ts, PGlite in a temp DATA_DIR): the root
 * user's whole day, then what a superadmin and a member may see. The steps share one browser page and build on
 * each other, like a person working through the screens.
 */
describe.skipIf(!HAS_CHROMIUM)('entry admin in the browser', () => {
  let server: E2eServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let accountId = '';
  let userId = '';
  const stamp = Date.now().toString(36);
  const account = { name: `Acme Events ${stamp}`, domain: `acme-${stamp}.example.com` };
  const user = { first: 'Ada', last: 'Lovelace', email: `ada.${stamp}@example.com`, password: 'analytical-engine-1' };

  beforeAll(async () => {
    ensureAdminBuilt();
    server = await startServer();
    browser = await launch();
    ({ context, page, errors } = await newPage(browser, server.baseUrl));
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
  });

  it('loads the sign-in page within its JavaScript budget and applies the form rules', async () => {
    const scripts: { url: string; bytes: number }[] = [];
    page.on('requestfinished', async (req) => {
      if (req.resourceType() !== 'script') return;
      const sizes = await req.sizes();
      scripts.push({ url: req.url(), bytes: sizes.responseBodySize });
    });
    const login = new LoginScreen(page);
    // `/` without a session goes to the sign-in page.
    await page.goto('/');
    await page.waitForURL('**/login');
    await login.email().waitFor();
    await page.waitForLoadState('networkidle');
    page.removeAllListeners('requestfinished');
    const total = scripts.reduce((n, s) => n + s.bytes, 0);
    // These are the bytes on the wire (the build's .gz copies, zopfli for a first visit's chunks): issue 18 asks 110 KiB.
    expect(total).toBeGreaterThan(50 * 1024);
    expect(total).toBeLessThanOrEqual(110 * 1024);
    expect(scripts.some((s) => /AdminApp|react-admin/.test(s.url))).toBe(false);

    const helper = async (field: string) => (await page.locator(`#${field}-helper-text`).innerText()).replace(/\u200b/g, '').trim();
    // Nothing to say before the user touched anything; submit disabled while the form is invalid.
    expect(await helper('u_email')).toBe('');
    expect(await login.submit().isDisabled()).toBe(true);
    await login.email().fill('not-an-email');
    await login.password().focus(); // blur the e-mail field
    await expect.poll(() => helper('u_email')).toBe('Please enter a valid email');
    await login.password().fill('abc');
    await login.email().focus();
    // Only the first error of the first failing field is shown.
    expect(await helper('u_password')).toBe('');
    await login.email().fill(server.adminEmail);
    await login.password().focus();
    await login.email().focus();
    await expect.poll(() => helper('u_password')).toBe('Invalid password, please use 4 characters.');
    expect(await login.submit().isDisabled()).toBe(true);
    await shot(page, 'login-errors');

    // A wrong password: the failure code's translation above the form.
    await login.password().fill('wrong-password');
    await login.submit().click();
    await expect.poll(() => login.failure().innerText()).toBe('The email and password combination does not match');
    await shot(page, 'login-failed');
  });

  it('signs the root user in and lands on the account selection, with the entry admin', async () => {
    const login = new LoginScreen(page);
    await login.signIn(server.adminEmail, server.adminPassword);
    await page.waitForURL('**/accounts/selection');
    await page.getByTestId('select-entry-admin').waitFor();
    await shot(page, 'selection');
    // Signed in already: /login goes straight back to the selection.
    await page.goto('/login');
    await page.waitForURL('**/accounts/selection');
    await page.getByTestId('select-entry-admin').click();
    await page.waitForURL((u) => u.pathname === '/accounts');
    expect(await new Layout(page).menuItems()).toEqual(['Accounts', 'Users', 'Media', 'Job queue', 'Sign out']);
    // `/` with a session goes to the accounts.
    await page.goto('/');
    await page.waitForURL((u) => u.pathname === '/accounts');
    await page.getByTestId('list-empty').waitFor();
    await shot(page, 'accounts-empty');
  });

  it('creates an account, shows the saved message, and opens it with its (empty) member list', async () => {
    await page.getByTestId('add-account').first().click();
    await page.waitForURL('**/accounts/new');
    // a_name is required: saving an empty name shows the message under the field.
    await page.locator('[name=a_email_domain]').fill('not a domain');
    await page.locator('[name=a_name]').focus();
    await page.locator('[name=a_api_url]').focus();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Please enter a name').waitFor();
    await page.getByText('Please enter a valid e-mail domain, like example.com').waitFor();
    await page.locator('[name=a_name]').fill(account.name);
    await page.locator('[name=a_email_domain]').fill(account.domain);
    await page.locator('[name=a_admin_url]').fill('https://acme.example.com/admin');
    await shot(page, 'account-new');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/accounts\/[0-9a-f-]{36}$/);
    accountId = new URL(page.url()).pathname.split('/').pop()!;
    const toast = new Layout(page).toast();
    await expect.poll(() => toast.innerText()).toContain('Saved');
    expect(await toast.innerText()).toContain(`${account.name} has been saved.`);
    await page.getByTestId('account-members').getByText('No members yet.').waitFor();
    expect(await page.locator('[name=a_name]').inputValue()).toBe(account.name);
  });

  it('copies the account id and shows "Copied" for 2 seconds', async () => {
    const copy = page.getByTestId('copy-button').first();
    expect(await copy.innerText()).toContain('Copy');
    await copy.click();
    await expect.poll(() => copy.innerText()).toContain('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(accountId);
    await page.waitForTimeout(1500);
    expect(await copy.innerText()).toContain('Copied');
    await expect.poll(() => copy.innerText(), { timeout: 2000 }).not.toContain('Copied');
  });

  it('edits the account: saving shows the saved message and returns to the list; search is by name prefix', async () => {
    await page.locator('[name=a_api_url]').fill('https://api.acme.example.com');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((u) => u.pathname === '/accounts');
    await expect.poll(() => new Layout(page).toast().innerText()).toContain('Saved');
    const list = new ListScreen(page);
    await list.row(account.name).waitFor();
    await list.search().fill('Acme Ev');
    await list.row(account.name).waitFor();
    await list.search().fill('cme');
    await page.getByTestId('list-empty').or(page.getByText('No Accounts found')).first().waitFor();
    await list.search().fill('');
    await list.row(account.name).waitFor();
    // a single page: no pager
    expect(await page.locator('.MuiTablePagination-root').count()).toBe(0);
    await shot(page, 'accounts');
  });

  it('creates a user with the password rules, and edits it', async () => {
    // The list asks the server for one page (range), so 100,000 users stay fast.
    const listRequest = page.waitForRequest((r) => r.url().includes('/api/1/users?') && decodeURIComponent(r.url()).includes('range=[0,24]'));
    await page.goto('/users');
    await listRequest;
    await page.getByTestId('add-user').click();
    await page.waitForURL('**/users/new');
    await page.locator('[name=u_first_name]').fill(user.first);
    await page.locator('[name=u_last_name]').fill('Byron');
    await page.locator('[name=u_email]').fill(user.email);
    await page.locator('[name=u_password]').fill(user.password);
    await page.locator('[name=u_password_confirm]').fill('something-else-1');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Passwords do not match').first().waitFor();
    await shot(page, 'user-new-errors');
    await page.locator('[name=u_password_confirm]').fill(user.password);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((u) => u.pathname === '/users');
    const list = new ListScreen(page);
    await list.row(user.email).waitFor();
    expect(await list.row(user.email).innerText()).toContain(`${user.first} Byron`);

    await list.row(user.email).click();
    await page.waitForURL(/\/users\/[0-9a-f-]{36}$/);
    userId = new URL(page.url()).pathname.split('/').pop()!;
    // Editing: the password is optional (root has change_password, so the fields are there).
    await page.getByTestId('password-fields').waitFor();
    await page.locator('[name=u_last_name]').fill(user.last);
    await shot(page, 'user-edit');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((u) => u.pathname === '/users');
    await list.row(`${user.first} ${user.last}`).waitFor();
    await shot(page, 'users');
  });

  it('shows the error toast and the field error for a duplicate e-mail', async () => {
    await page.goto('/users/new');
    await page.locator('[name=u_email]').fill(user.email.toUpperCase());
    await page.locator('[name=u_password]').fill('another-password-1');
    await page.locator('[name=u_password_confirm]').fill('another-password-1');
    await page.getByRole('button', { name: 'Save' }).click();
    const toast = new Layout(page).toast();
    await expect.poll(() => toast.innerText()).toContain('The email address already exists');
    expect(await toast.innerText()).toContain('A user with the same email address already exists');
    expect(await helperText(page, 'u_email')).toContain('The email address already exists');
    await shot(page, 'user-duplicate');
  });

  it('adds the user as a member of the account, then edits the member', async () => {
    await page.goto(`/accounts/${accountId}`);
    await page.getByTestId('account-members').getByRole('link', { name: 'Add member' }).first().click();
    await page.waitForURL(`**/accounts/${accountId}/users/new`);
    // Few unlinked users: a plain select (no search box).
    await choose(page, 'au_userid', new RegExp(user.email.replace(/[.]/g, '\\.')));
    await choose(page, 'au_role', 'Admin');
    await page.locator('[name=au_external_id]').fill('EXT-42');
    await shot(page, 'member-new');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((u) => u.pathname === `/accounts/${accountId}`);
    const members = page.getByTestId('account-members');
    const memberRow = members.locator('tr, li').filter({ hasText: user.email }).first();
    await memberRow.waitFor();
    expect(await memberRow.innerText()).toContain('Admin');
    expect(await memberRow.innerText()).toContain('EXT-42');
    await shot(page, 'account-edit');

    await members.getByText(user.email).click();
    await page.waitForURL(`**/accounts/${accountId}/users/${userId}`);
    expect(await control(page, 'au_userid').locator('[role=combobox]').getAttribute('aria-disabled')).toBe('true');
    await choose(page, 'au_role', 'Member');
    await shot(page, 'member-edit');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((u) => u.pathname === `/accounts/${accountId}`);
    await expect.poll(() => memberRow.innerText()).toMatch(/\bMember\b/);
    expect(await memberRow.innerText()).not.toContain('Admin');
    // Cancel returns to the account too.
    await members.getByText(user.email).click();
    await page.getByTestId('member-cancel').click();
    await page.waitForURL((u) => u.pathname === `/accounts/${accountId}`);
  });

  const csvDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-e2e-csv-'));
  const csv = (name: string, lines: string[]) => {
    const file = path.join(csvDir, name);
    fs.writeFileSync(file, lines.join('\n') + '\n');
    return file;
  };
  const importFile = async (file: string) => {
    await page.getByTestId('import-csv-input').setInputFiles(file);
    await page.getByRole('dialog').waitFor();
  };
  const closeDialog = async () => {
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
  };

  it('imports a CSV with one bad row: one error entry naming first name, last name and e-mail', async () => {
    await page.goto('/users');
    await page.getByTestId('import-csv').waitFor();
    await importFile(csv('one-bad-row.csv', ['email,first name,last name,account', `grace.${stamp}@example.com,Grace,Hopper,`, `not-an-email,Alan,Turing,`]));
    const entries = page.getByRole('dialog').getByTestId('import-error');
    await entries.first().waitFor();
    expect(await entries.count()).toBe(1);
    const text = await entries.first().innerText();
    expect(text).toContain('Invalid email');
    expect(text).toContain('Alan');
    expect(text).toContain('Turing');
    expect(text).toContain('not-an-email');
    await shot(page, 'import-one-error');
    await closeDialog();
    // nothing was imported
    await new ListScreen(page).search().fill(`grace.${stamp}`);
    await page.getByTestId('list-empty').or(page.getByText('No Users found')).first().waitFor();
    await new ListScreen(page).search().fill('');
  });

  it('shows one entry per offending row, each with its own title', async () => {
    await importFile(
      csv('bad-rows.csv', [
        'email,first name,last name,account',
        `${user.email},Ada,Again,`,
        `twin.${stamp}@example.com,Twin,One,`,
        `twin.${stamp}@example.com,Twin,Two,`,
        `nobody.${stamp}@example.com,No,Body,No Such Account ${stamp}`,
      ]),
    );
    const entries = page.getByRole('dialog').getByTestId('import-error');
    await entries.first().waitFor();
    const texts = await entries.allInnerTexts();
    expect(texts).toHaveLength(3);
    expect(texts.find((t) => t.includes('User already exists'))).toContain(user.email);
    expect(texts.find((t) => t.includes('Duplicate in the file'))).toContain('Twin');
    expect(texts.find((t) => t.includes('Unknown account'))).toContain(`nobody.${stamp}@example.com`);
    await shot(page, 'import-errors');
    await closeDialog();
  });

  it('imports a good CSV: the success title and description, then the rows are in the list', async () => {
    await importFile(
      csv('good.csv', [
        'email,first name,last name,account',
        `grace.${stamp}@example.com,Grace,Hopper,${account.name}`,
        `katherine.${stamp}@example.com,Katherine,Johnson,${account.name}`,
      ]),
    );
    const success = page.getByRole('dialog').getByTestId('import-success');
    await success.waitFor();
    expect(await success.innerText()).toContain('Users imported');
    expect(await success.innerText()).toContain('2 rows imported: 2 new users, 2 account memberships.');
    await shot(page, 'import-success');
    await closeDialog();
    const list = new ListScreen(page);
    await list.row(`grace.${stamp}@example.com`).waitFor();
    await list.row(`katherine.${stamp}@example.com`).waitFor();
    // prefix search over first name
    await list.search().fill('Kather');
    await list.row(`katherine.${stamp}@example.com`).waitFor();
    await expect.poll(() => list.rows().count()).toBe(1);
    await list.search().fill('');
  });

  it('deletes an account after a confirmation, back to the list', async () => {
    const root = new ApiClient(server.baseUrl);
    await root.login(server.adminEmail, server.adminPassword);
    const doomed = await root.create<{ id: string }>('/accounts', { a_name: `Doomed ${stamp}` });
    await page.goto(`/accounts/${doomed.id}`);
    await page.locator('[name=a_name]').waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.waitFor();
    await shot(page, 'account-delete-confirm');
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL((u) => u.pathname === '/accounts');
    await new ListScreen(page).row(account.name).waitFor();
    expect(await page.getByText(`Doomed ${stamp}`).count()).toBe(0);
  });

  it('with more than 15 candidates, the member picker searches on the server', async () => {
    const root = new ApiClient(server.baseUrl);
    await root.login(server.adminEmail, server.adminPassword);
    const rows = Array.from({ length: 16 }, (_, i) => `picker${String(i).padStart(2, '0')}.${stamp}@example.com,Pick,Er${i},`);
    const res = await root.call('POST', '/users/import/csv', { csv: ['email,first name,last name,account', ...rows].join('\n') });
    expect(res.status).toBe(200);
    await page.goto(`/accounts/${accountId}/users/new`);
    const search = control(page, 'au_userid').locator('input[type=text], input:not([type])').first();
    await search.waitFor();
    // the picker becomes a search once it knows there are more than 15 candidates (it may render before it knows)
    await expect.poll(() => control(page, 'au_userid').locator('[role=combobox]').getAttribute('aria-autocomplete'), { timeout: 10_000 }).toBe('list');
    const filtered = page.waitForRequest((r) => r.url().includes('/users/unlinked?') && decodeURIComponent(r.url()).includes('"q":"picker07'));
    await search.fill(`picker07`);
    await filtered;
    await page.getByRole('option', { name: new RegExp(`picker07\\.${stamp}`) }).click();
    await shot(page, 'member-picker-search');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((u) => u.pathname === `/accounts/${accountId}`);
    await page.getByTestId('account-members').getByText(`picker07.${stamp}@example.com`).waitFor();
  });

  it('shows the not-found page for an unknown address inside the admin', async () => {
    await page.goto('/no-such-screen');
    await page.getByText('Page not found').first().waitFor();
    await page.getByRole('link', { name: 'Back to start' }).click();
    await page.waitForURL((u) => u.pathname === '/accounts');
  });

  it('previews the sign-up and reset e-mails in a sandboxed frame', async () => {
    await page.goto(`/users/${userId}`);
    await page.getByRole('link', { name: 'Sign-up e-mail' }).click();
    await page.waitForURL(`**/emails/signup/${userId}`);
    const frame = page.getByTestId('email-frame');
    await frame.waitFor();
    expect(await frame.getAttribute('sandbox')).toBe('');
    expect(await page.getByTestId('email-subject').innerText()).not.toBe('');
    await expect.poll(() => page.frameLocator('[data-testid=email-frame]').locator('body').innerText()).toContain(user.first);
    await shot(page, 'email-preview');
    await page.getByRole('tab', { name: 'Reset password' }).click();
    await page.waitForURL(`**/emails/resetpassword/${userId}`);
    await expect.poll(() => page.frameLocator('[data-testid=email-frame]').locator('body').innerText()).toContain(user.first);
  });

  it('confirms the e-mail address through the link from the outbox', async () => {
    const mail = await waitForMail(server, user.email, /users\/verify/);
    const link = linkFromMail(mail, '/users/verify/')!;
    expect(link).toBeTruthy();
    const visitor = await newPage(browser, server.baseUrl);
    try {
      await visitor.page.goto(link);
      await visitor.page.getByTestId('verify-success').waitFor();
      const text = await visitor.page.getByTestId('verify-success').innerText();
      expect(text).toContain('Thank you for confirming your email. You are all set.');
      expect(await visitor.page.locator('a[href^="mailto:"]').count()).toBe(1);
      expect(await visitor.page.getByRole('link', { name: 'Privacy policy' }).count()).toBe(1);
      await shot(visitor.page, 'verify-success');
      await visitor.page.goto(link);
      await visitor.page.getByTestId('verify-already').waitFor();
      await visitor.page.goto('/users/verify/not-a-real-token');
      await visitor.page.getByTestId('verify-failed').waitFor();
      await shot(visitor.page, 'verify-failed');
      expect(visitor.errors).toEqual([]);
    } finally {
      await visitor.context.close();
    }
  });

  it('resets the password through the forgot-password dialog and the link from the outbox', async () => {
    const visitor = await newPage(browser, server.baseUrl);
    const newPassword = 'difference-engine-2';
    try {
      const login = new LoginScreen(visitor.page);
      await login.open();
      await login.email().fill(user.email);
      await visitor.page.getByRole('button', { name: 'Forgot your password?' }).click();
      const dialog = visitor.page.getByRole('dialog');
      await dialog.waitFor();
      expect(await dialog.locator('[name=forgot_email]').inputValue()).toBe(user.email);
      await dialog.getByRole('button', { name: 'Send link' }).click();
      await dialog.getByText('a link to reset the password is on its way').waitFor();
      await shot(visitor.page, 'forgot-password');
      await dialog.getByRole('button', { name: 'Close' }).click();

      const mail = await waitForMail(server, user.email, /users\/resetpassword/);
      const link = linkFromMail(mail, '/users/resetpassword?token=')!;
      await visitor.page.goto(link);
      await visitor.page.locator('#password').fill(newPassword);
      await visitor.page.locator('#password_confirm').fill('not-the-same-123');
      await visitor.page.locator('#password').focus();
      await visitor.page.getByText('Passwords do not match').first().waitFor();
      expect(await visitor.page.locator('button[type=submit]').isDisabled()).toBe(true);
      await shot(visitor.page, 'reset-errors');
      await visitor.page.locator('#password_confirm').fill(newPassword);
      await visitor.page.locator('button[type=submit]').click();
      await visitor.page.getByTestId('reset-success').waitFor();
      await shot(visitor.page, 'reset-success');
      // The link is used up.
      await visitor.page.goto(link);
      await visitor.page.locator('#password').fill(newPassword);
      await visitor.page.locator('#password_confirm').fill(newPassword);
      await visitor.page.locator('button[type=submit]').click();
      await expect.poll(() => visitor.page.getByTestId('reset-failed').innerText()).toContain('invalid or has expired');

      // The new password works; a member without admin memberships sees the no-access message.
      await login.open();
      await login.signIn(user.email, newPassword);
      await visitor.page.waitForURL('**/accounts/selection');
      await visitor.page.getByTestId('no-admin-access').waitFor();
      expect(await visitor.page.getByTestId('no-admin-access').innerText()).toContain('You have no access to the admin.');
      expect(visitor.errors).toEqual([]);
    } finally {
      await visitor.context.close();
    }
  });

  it('switches to Dutch and to the dark theme', async () => {
    await page.goto('/accounts');
    await new ListScreen(page).row(account.name).waitFor();
    await page.getByTestId('locale-menu').click();
    await page.getByRole('menuitem', { name: 'Nederlands' }).click();
    await expect.poll(() => new Layout(page).menuItems()).toEqual(['Accounts', 'Gebruikers', 'Media', 'Takenwachtrij', 'Uitloggen']);
    await page
      .getByRole('button', { name: /thema|theme/i })
      .first()
      .click();
    await page.waitForTimeout(300);
    await shot(page, 'accounts-dark-nl');
    await page
      .getByRole('button', { name: /thema|theme/i })
      .first()
      .click();
    await page.getByTestId('locale-menu').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect.poll(() => new Layout(page).menuItems()).toEqual(['Accounts', 'Users', 'Media', 'Job queue', 'Sign out']);
  });

  it('works on a phone: drawer menu, lists as simple lists, forms in one column', async () => {
    const phone = await newPage(browser, server.baseUrl, PHONE);
    try {
      const login = new LoginScreen(phone.page);
      await login.open();
      await shot(phone.page, 'login');
      await login.signIn(server.adminEmail, server.adminPassword);
      await phone.page.getByTestId('select-entry-admin').click();
      await phone.page.waitForURL((u) => u.pathname === '/accounts');
      await phone.page.getByText(account.name).first().waitFor();
      const overflow = () => phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await shot(phone.page, 'accounts');
      await phone.page.getByRole('button', { name: /open menu/i }).click();
      await phone.page.getByRole('menuitem', { name: 'Users' }).waitFor();
      await shot(phone.page, 'menu');
      await phone.page.getByRole('menuitem', { name: 'Users' }).click();
      await phone.page.waitForURL((u) => u.pathname === '/users');
      await phone.page.getByText(user.email).first().waitFor();
      expect(await overflow()).toBeLessThanOrEqual(0);
      await shot(phone.page, 'users');
      await phone.page.goto(`/accounts/${accountId}`);
      await phone.page.getByTestId('account-members').getByText(user.email).waitFor();
      expect(await overflow()).toBeLessThanOrEqual(0);
      await shot(phone.page, 'account-edit');
      await phone.page.goto(`/users/${userId}`);
      await phone.page.locator('[name=u_email]').waitFor();
      expect(await overflow()).toBeLessThanOrEqual(0);
      await shot(phone.page, 'user-edit');
      await phone.page.goto(`/emails/signup/${userId}`);
      await phone.page.getByTestId('email-frame').waitFor();
      await shot(phone.page, 'email-preview');
      expect(phone.errors).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });

  it('signs out from the menu and then needs to sign in again', async () => {
    await page.goto('/accounts');
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL('**/login');
    await page.goto('/accounts');
    await page.waitForURL('**/login');
    expect(errors).toEqual([]);
  });
});
