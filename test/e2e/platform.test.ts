import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import Papa from 'papaparse';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './support/api';
import { DESKTOP, HAS_CHROMIUM, launch, newPage, PHONE, SCREENSHOTS, signInByApi, SKIP_REASON } from './support/browser';
import { choose } from './support/pages';
import { ensureAdminBuilt, startServer, type E2eServer } from './support/server';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

const run = promisify(execFile);
const PASSWORD = 'platform-e2e-pass';
const ADMIN = 'ada.admin@platform.example';
const MEMBER = 'rob.rep@platform.example';
const AUTUMN_LEADS = 30; // more than a page (25): "select all 30 matching"
const SPRING_LEADS = 3;

type Row = Record<string, unknown>;

/**
 * What every declared resource got in issue 16 (platform-and-flows.md 1 and 2), in Chromium against the real server:
 * a deleted event restored from its list's trash (its leads come back with it); a change reverted from the event's
 * history; the owner of every lead an event filter matches changed through "select all 30 matching" and that filter
 * exported as CSV; a view of the events list saved, shared and applied by another member; an API token made on the
 * profile page (its secret shown once), a list's "Copy as cURL" run with it by curl, then the token revoked; the
 * developer page rendering the OpenAPI document. Each checks the API's state after the click. Screenshots at 1280 and
 * 375 px (test/e2e/screenshots/platform-*).
 */
describe.skipIf(!HAS_CHROMIUM)('the platform capabilities in the console', () => {
  let server: E2eServer;
  let browser: Browser;
  let accountId = '';
  let adaId = '';
  let robId = '';
  const ids = { spring: '', summer: '', autumn: '' };
  const autumnLeads: string[] = [];
  const springLeads: string[] = [];
  let ada: ApiClient;
  let rob: ApiClient;

  const consoleAt = (p: string) => `/console/${accountId}${p}`;
  const a = (p: string) => `/accounts/${accountId}${p}`;
  const q = (o: unknown) => encodeURIComponent(JSON.stringify(o));
  const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  /** Texts that are still translation keys (an untranslated label shows its key). */
  const untranslated = async (page: Page) => (await page.locator('body').innerText()).match(/\b(?:ls|ra|resources)\.[a-z_]+\.[a-z_.]+/g) ?? [];

  /** test/e2e/screenshots/platform-<name>-<width>.png (git-ignored); `full` false: the viewport only (a long page). */
  const snap = async (page: Page, name: string, full = true) => {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await page.waitForTimeout(300); // ripples, menus, toasts settle
    const width = page.viewportSize()?.width ?? 0;
    await page.screenshot({ path: path.join(SCREENSHOTS, `platform-${name}-${width}.png`), fullPage: full });
  };

  /**
   * The same page at 375 px. react-admin keeps the menu open when the window narrows, as a drawer over the page: a
   * phone opened at that size starts with it closed, so it is closed first (the desktop's menu then shows icons only).
   */
  const toPhone = async (page: Page) => {
    if (await page.locator('.RaMenu-open').count()) {
      await page.evaluate(() => window.scrollTo(0, 0)); // the app bar (and its menu button) slides away on scrolling down
      await page.getByRole('button', { name: 'Close menu' }).click();
      await page.locator('.RaMenu-closed').waitFor({ state: 'attached' });
      await page.mouse.move(DESKTOP.width / 2, DESKTOP.height - 5); // no "Open menu" tooltip in the picture
    }
    await page.setViewportSize(PHONE);
    await page.waitForTimeout(300);
    expect(await page.locator('.RaSidebar-modal').isVisible()).toBe(false);
  };

  const open = async (email: string, viewport = DESKTOP) => {
    const opened = await newPage(browser, server.baseUrl, viewport);
    await signInByApi(opened.context, email, PASSWORD);
    return opened;
  };

  const list = async <T = Row>(client: ApiClient, p: string, filter: Row = {}): Promise<T[]> => {
    const res = await client.call<T[]>('GET', `${a(p)}?filter=${q(filter)}&range=${q([0, 499])}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
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
    accountId = (await root.create<{ id: string }>('/accounts', { a_name: 'Platform Fairs', a_is_enabled: true })).id;
    await root.create(a('/users'), { au_userid: adaId, au_role: 'admin' });
    await root.create(a('/users'), { au_userid: robId, au_role: 'member' });

    ada = new ApiClient(server.baseUrl);
    await ada.login(ADMIN, PASSWORD);
    rob = new ApiClient(server.baseUrl);
    await rob.login(MEMBER, PASSWORD);
    const event = async (title: string, name: string, start: string) =>
      (await ada.create<{ id: string }>(a('/events'), { ev_title: title, ev_name: name, ev_access_type: 'open', ev_start_date: start })).id;
    ids.spring = await event('Spring Expo', 'spring-expo', '2026-04-01');
    ids.summer = await event('Summer Summit', 'summer-summit', '2026-07-01');
    ids.autumn = await event('Autumn Fair', 'autumn-fair', '2026-10-01');
    const lead = async (eventId: string, i: number, who: string) =>
      (
        await ada.create<{ id: string }>(a('/leads'), {
          ld_eventid: eventId,
          ld_source: 'manual',
          ld_email: `${who}${i}@visitors.example`,
          ld_first_name: `${who} ${i}`,
          ld_answers: {},
        })
      ).id;
    for (let i = 1; i <= AUTUMN_LEADS; i++) autumnLeads.push(await lead(ids.autumn, i, 'autumn'));
    for (let i = 1; i <= SPRING_LEADS; i++) springLeads.push(await lead(ids.spring, i, 'spring'));
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a deleted event goes to the trash with its leads, and "Restore" in the trash brings both back', async () => {
    const { page, context, errors } = await open(ADMIN);
    try {
      await page.goto(consoleAt(`/events/${ids.spring}`));
      await expect.poll(() => page.locator('[name=ev_title]').inputValue()).toBe('Spring Expo');
      await page.getByRole('button', { name: 'Delete' }).click();
      const confirm = page.getByRole('dialog');
      // the confirmation says where the record goes
      await confirm.getByText('It goes to the trash, from where it can be restored until it is deleted for good.').waitFor();
      await confirm.getByRole('button', { name: 'Confirm' }).click();
      await page.waitForURL((u) => u.pathname === consoleAt('/events'));
      expect((await ada.call('GET', a(`/events/${ids.spring}`))).status).toBe(404);
      expect((await list(ada, '/events')).map((e) => e.id)).not.toContain(ids.spring);
      expect(await list(ada, '/leads', { ld_eventid: ids.spring })).toHaveLength(0); // its leads went with it

      await page.getByTestId('trash-button').click();
      await page.waitForURL((u) => u.pathname === consoleAt('/events/trash'));
      const row = page.getByTestId('trash-row').filter({ hasText: 'Spring Expo' });
      await row.waitFor();
      expect(await page.getByTestId('trash-row').count()).toBe(1);
      expect(await untranslated(page)).toEqual([]);
      await snap(page, 'trash');
      await toPhone(page);
      await row.getByTestId('trash-restore').waitFor();
      await snap(page, 'trash');
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      // both actions in sight on a phone
      for (const id of ['trash-restore', 'trash-purge']) {
        const box = (await row.getByTestId(id).boundingBox())!;
        expect(box.x + box.width, id).toBeLessThanOrEqual(PHONE.width);
      }
      await page.setViewportSize(DESKTOP);

      await row.getByTestId('trash-restore').click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('Restore “Spring Expo”?').waitFor();
      await dialog.getByText('The record comes back as it was, with everything that belongs to it.').waitFor();
      await dialog.getByRole('button', { name: 'Restore' }).click();
      await page.getByText('“Spring Expo” was restored.').waitFor();
      await page.getByTestId('trash-empty').waitFor();

      expect((await ada.call('GET', a(`/events/${ids.spring}`))).status).toBe(200);
      expect((await list(ada, '/events')).map((e) => e.id)).toContain(ids.spring);
      expect((await list(ada, '/leads', { ld_eventid: ids.spring })).map((l) => l.id).sort()).toEqual([...springLeads].sort());
      expect((await list(ada, '/events/trash')).length).toBe(0);
      // and the list shows it again
      await page.getByTestId('trash-back').click();
      await page.locator('.RaDataTable-table tbody tr').filter({ hasText: 'Spring Expo' }).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("an event's history shows the change; reverting to the first entry puts the title back and is itself recorded", async () => {
    const { page, context, errors } = await open(ADMIN);
    try {
      await page.goto(consoleAt(`/events/${ids.summer}`));
      const title = page.locator('[name=ev_title]');
      await expect.poll(() => title.inputValue()).toBe('Summer Summit');
      await title.fill('Summer Summit (moved)');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL((u) => u.pathname === consoleAt('/events'));
      await expect.poll(async () => ((await ada.call<Row>('GET', a(`/events/${ids.summer}`))).body as Row).ev_title).toBe('Summer Summit (moved)');

      await page.goto(consoleAt(`/events/${ids.summer}`));
      await expect.poll(() => title.inputValue()).toBe('Summer Summit (moved)');
      const panel = page.getByTestId('history-panel');
      await panel.getByText('History').click();
      const entries = panel.getByTestId('history-entry');
      await expect.poll(() => entries.count()).toBe(2);
      const newest = await entries.first().innerText();
      expect(newest).toContain('Changed');
      expect(newest).toContain('Ada Admin');
      expect(newest).toMatch(/Title\s*Summer Summit → Summer Summit \(moved\)/);
      expect(await entries.nth(1).innerText()).toContain('Created');
      // the newest entry is how the record is now: nothing to revert to there
      expect(await entries.first().getByTestId('history-revert').count()).toBe(0);
      expect(await untranslated(page)).toEqual([]);
      await panel.scrollIntoViewIfNeeded();
      await snap(page, 'history');
      await toPhone(page);
      await entries.nth(1).getByTestId('history-revert').scrollIntoViewIfNeeded();
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await snap(page, 'history');
      await page.setViewportSize(DESKTOP);

      await entries.nth(1).getByTestId('history-revert').click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('Revert the record?').waitFor();
      await dialog.getByRole('button', { name: 'Revert to this' }).click();
      await page.getByText('The record was reverted').waitFor();
      // the API: the title is back, and the revert is the newest entry
      await expect.poll(async () => ((await ada.call<Row>('GET', a(`/events/${ids.summer}`))).body as Row).ev_title).toBe('Summer Summit');
      const history = (await ada.call<{ h_action: string; h_changes: Record<string, [unknown, unknown]> }[]>('GET', a(`/events/${ids.summer}/history`))).body;
      expect(history).toHaveLength(3);
      expect(history[0]).toMatchObject({ h_action: 'update', h_changes: { ev_title: ['Summer Summit (moved)', 'Summer Summit'] } });
      // the screen follows: the form and the timeline
      await expect.poll(() => title.inputValue()).toBe('Summer Summit');
      await expect.poll(() => entries.count()).toBe(3);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('"select all 30 matching" on an event filter changes the owner of every lead it matches, and Export downloads exactly those', async () => {
    const { page, context, errors } = await open(ADMIN);
    try {
      await page.goto(consoleAt('/leads'));
      const rows = page.locator('.RaDataTable-table tbody tr');
      await expect.poll(() => rows.count()).toBe(25);
      // the event filter, through the filter menu
      await page.getByRole('button', { name: 'Add filter' }).click();
      await page.getByRole('menu').getByText('Event', { exact: true }).click();
      await choose(page, 'ld_eventid', 'Autumn Fair');
      await expect.poll(() => page.getByText(`1-25 of ${AUTUMN_LEADS}`).count()).toBeGreaterThan(0);
      expect(await rows.filter({ hasText: 'spring' }).count()).toBe(0);

      // the whole page ticked: the bar offers every lead the filter matches
      await page.locator('.RaDataTable-table thead input[type=checkbox]').check();
      const selectAll = page.getByTestId('select-all-matching');
      await expect.poll(() => selectAll.innerText()).toMatch(new RegExp(`Select all ${AUTUMN_LEADS} matching`, 'i'));
      expect(await untranslated(page)).toEqual([]);
      await snap(page, 'bulk-bar');
      // the bar's buttons side by side in sight, none over another
      const boxes = await Promise.all(['select-all-matching', 'bulk-update', 'bulk-delete'].map(async (id) => (await page.getByTestId(id).boundingBox())!));
      for (const box of boxes) expect(box.x + box.width).toBeLessThanOrEqual(DESKTOP.width);
      expect(boxes[0].x + boxes[0].width).toBeLessThanOrEqual(boxes[1].x);
      expect(boxes[1].x + boxes[1].width).toBeLessThanOrEqual(boxes[2].x);
      // (a phone shows the list as a plain list without checkboxes: no bulk bar there; the filtered list for the record)
      await toPhone(page);
      await page.getByText('autumn30@visitors.example').waitFor();
      await snap(page, 'leads-filtered');
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await page.setViewportSize(DESKTOP);
      await selectAll.click();
      await expect.poll(() => page.getByTestId('all-matching-selected').innerText()).toBe(`All ${AUTUMN_LEADS} matching records are selected`);

      await page.getByTestId('bulk-update').click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(`Change ${AUTUMN_LEADS} records`).waitFor();
      await dialog.getByText(`This is all ${AUTUMN_LEADS} records the current search and filters match`, { exact: false }).waitFor();
      await dialog.getByRole('combobox', { name: /Owner/ }).click();
      await page.getByRole('option', { name: 'Rob Rep' }).click();
      await dialog.getByTestId('bulk-update-save').click();
      await page.getByText(`${AUTUMN_LEADS} records changed.`).waitFor();

      // every Autumn lead (not only the 25 shown) is Rob's now; the Spring leads the filter left out are not
      const autumn = await list(ada, '/leads', { ld_eventid: ids.autumn });
      expect(autumn).toHaveLength(AUTUMN_LEADS);
      expect(autumn.every((l) => l.ld_ownerid === robId)).toBe(true);
      const spring = await list(ada, '/leads', { ld_eventid: ids.spring });
      expect(spring).toHaveLength(SPRING_LEADS); // (back from the trash in the first test)
      expect(spring.every((l) => l.ld_ownerid === adaId)).toBe(true);
      // written in each lead's history like a single change
      const history = (await ada.call<{ h_action: string; h_changes: Row }[]>('GET', a(`/leads/${autumnLeads[AUTUMN_LEADS - 1]}/history`))).body;
      expect(history[0]).toMatchObject({ h_action: 'update', h_changes: { ld_ownerid: [adaId, robId] } });

      // Export with the same filter: a CSV of exactly those 30, each owned by Rob
      await expect.poll(() => page.getByTestId('leads-export').isEnabled()).toBe(true);
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('leads-export').click()]);
      expect(download.suggestedFilename()).toMatch(/\.csv$/);
      const text = fs.readFileSync((await download.path())!, 'utf8');
      const [header, ...lines] = Papa.parse<string[]>(text.replace(/^\ufeff/, '').trim(), { newline: '\r\n' }).data;
      const col = (name: string) => {
        const i = header.indexOf(name);
        expect(i, `column ${name} in ${header.join(', ')}`).toBeGreaterThanOrEqual(0);
        return i;
      };
      expect(lines).toHaveLength(AUTUMN_LEADS);
      expect(lines.map((l) => l[col('id')]).sort()).toEqual([...autumnLeads].sort());
      expect(new Set(lines.map((l) => l[col('owner e-mail')]))).toEqual(new Set([MEMBER]));
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a view of the events list (sort and columns) is saved, shared, and applied by another member', async () => {
    type View = { id: string; vw_title: string; vw_shared: boolean; vw_sort: [string, string]; vw_columns: string[] | null; vw_ownerid: string };
    const views = async (client: ApiClient) => (await client.call<View[]>('GET', a(`/views?filter=${q({ vw_resource: 'events' })}`))).body;
    const { page, context, errors } = await open(ADMIN);
    try {
      await page.goto(consoleAt('/events'));
      const headers = page.locator('.RaDataTable-table thead th');
      await page.locator('.RaDataTable-table tbody tr').first().waitFor();
      // the column chooser: "Name" hidden
      await page.getByTestId('columns-button').click();
      const chooser = page.locator('.MuiPopover-paper').last();
      await chooser.getByText('Name', { exact: true }).waitFor();
      expect(await untranslated(page)).toEqual([]);
      await snap(page, 'columns');
      await chooser.getByText('Name', { exact: true }).click();
      await page.keyboard.press('Escape');
      await expect.poll(async () => (await headers.allInnerTexts()).map((t) => t.trim())).not.toContain('Name');
      // sorted by title
      await headers.filter({ hasText: 'Title' }).locator('span[role=button], .MuiTableSortLabel-root').first().click();
      await page.waitForURL((u) => decodeURIComponent(u.search).includes('ev_title'));

      await page.getByTestId('views-button').click();
      await page.getByRole('menu').getByText('No saved views of this list yet').waitFor();
      await snap(page, 'views-menu');
      await page.getByTestId('view-save-new').click();
      await page.getByTestId('view-title').fill('By title, no names');
      await page.getByTestId('view-dialog-save').click();
      await page.getByText('View saved').waitFor();
      const saved = (await views(ada)).find((v) => v.vw_title === 'By title, no names')!;
      expect(saved).toMatchObject({ vw_shared: false, vw_ownerid: adaId, vw_sort: ['ev_title', 'ASC'] });
      expect(saved.vw_columns).toEqual(expect.arrayContaining(['ev_title']));
      expect(saved.vw_columns).not.toContain('ev_name');
      expect((await views(rob)).map((v) => v.id)).not.toContain(saved.id); // not shared yet

      // shared from the menu (the view saved is the one applied)
      await expect.poll(() => page.getByTestId('views-button').innerText()).toMatch(/By title, no names/i);
      await page.getByTestId('views-button').click();
      await snap(page, 'views-menu-own');
      await page.getByTestId('view-share').click();
      await page.getByText('View shared with the account').waitFor();
      expect((await views(rob)).find((v) => v.id === saved.id)).toMatchObject({ vw_shared: true });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }

    // Rob, a member: the shared view is in his menu, "shared with you", and applying it sorts and hides like Ada's
    const member = await open(MEMBER);
    try {
      const { page } = member;
      await page.goto(consoleAt('/events'));
      const headers = page.locator('.RaDataTable-table thead th');
      await page.locator('.RaDataTable-table tbody tr').first().waitFor();
      expect((await headers.allInnerTexts()).map((t) => t.trim())).toContain('Name');
      await page.getByTestId('views-button').click();
      const item = page.getByTestId('view-item').filter({ hasText: 'By title, no names' });
      await item.waitFor();
      expect(await item.innerText()).toContain('Shared with you');
      // not his: no share, rename or delete
      expect(await page.getByTestId('view-share').count()).toBe(0);
      await item.click();
      await expect.poll(async () => (await headers.allInnerTexts()).map((t) => t.trim())).not.toContain('Name');
      const titles = (await list(rob, '/events')).map((e) => String(e.ev_title)).sort();
      expect(titles.length).toBeGreaterThanOrEqual(2);
      await expect.poll(() => page.locator('.RaDataTable-table tbody tr td.column-ev_title').allInnerTexts()).toEqual(titles);
      await toPhone(page);
      await page.getByTestId('views-button').click();
      await page.getByTestId('view-item').first().waitFor();
      await snap(page, 'views-menu');
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await page.keyboard.press('Escape');
      expect(member.errors).toEqual([]);
    } finally {
      await member.context.close();
    }
  });

  it('a token made on the profile page (shown once) runs the list\'s "Copy as cURL" with curl; revoked, the same command is refused', async () => {
    const { page, context, errors } = await open(ADMIN);
    try {
      await page.goto('/profile');
      const tokens = page.getByTestId('api-tokens');
      await tokens.getByTestId('api-tokens-empty').waitFor();
      await tokens.getByRole('button', { name: 'New token' }).click();
      const create = page.getByRole('dialog');
      await create.getByLabel('Name').fill('Nightly export');
      // the role offered first is the least one; the caller's own (admin) is the most
      expect(await create.getByRole('combobox', { name: 'Role' }).innerText()).toBe('Member');
      await create.getByRole('combobox', { name: 'Role' }).click();
      await page.getByRole('option', { name: 'Admin', exact: true }).click();
      await snap(page, 'token-new');
      await create.getByRole('button', { name: 'Create token' }).click();
      const secretInput = page.getByTestId('api-token-secret');
      await secretInput.waitFor();
      const secret = await secretInput.inputValue();
      expect(secret.length).toBeGreaterThanOrEqual(20);
      await page.getByText('Copy the token now and keep it somewhere safe: you will not see it again.').waitFor();
      expect(await untranslated(page)).toEqual([]);
      await snap(page, 'token-secret');
      await page.getByRole('button', { name: 'Done' }).click();
      const row = tokens.getByTestId('api-token-row').filter({ hasText: 'Nightly export' });
      await row.waitFor();
      expect(await row.innerText()).toContain('Platform Fairs');
      expect(await row.innerText()).toContain('Never');
      // shown once: neither the page nor the API has it any more
      expect(await page.content()).not.toContain(secret);
      const stored = (await ada.call<Row[]>('GET', '/auth/tokens')).body;
      expect(stored).toHaveLength(1);
      expect(JSON.stringify(stored)).not.toContain(secret);
      expect(stored[0]).toMatchObject({ tk_title: 'Nightly export', tk_accountid: accountId, tk_role: 'admin' });
      await snap(page, 'tokens');
      await toPhone(page);
      await row.waitFor();
      await snap(page, 'tokens');
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await page.setViewportSize(DESKTOP);

      // "Copy as cURL" on the leads list of one event, sorted by e-mail
      await page.goto(consoleAt(`/leads?filter=${q({ ld_eventid: ids.autumn })}&sort=ld_email&order=ASC`));
      await expect.poll(() => page.getByText(`1-25 of ${AUTUMN_LEADS}`).count()).toBeGreaterThan(0);
      await page.getByTestId('copy-curl').click();
      await page.getByText('cURL command copied. It reads your API token from $LEADSTAGE_TOKEN.').waitFor();
      const command = await page.evaluate(() => navigator.clipboard.readText());
      expect(command).toMatch(/^curl -H "Authorization: Bearer \$LEADSTAGE_TOKEN" '/);
      expect(command).toContain(`${server.baseUrl}/api/1/accounts/${accountId}/leads?`);
      // run as a user would paste it into a shell: the token from the environment, no cookie, no CSRF header
      const curl = async () => JSON.parse((await run('sh', ['-c', `${command} --silent`], { env: { ...process.env, LEADSTAGE_TOKEN: secret } })).stdout) as unknown;
      const answer = (await curl()) as Row[];
      const url = new URL(command.match(/'([^']+)'/)![1]);
      const expected = (await ada.call<Row[]>('GET', `${url.pathname.replace(/^\/api\/1/, '')}${url.search}`)).body;
      expect(answer).toEqual(expected);
      expect(answer).toHaveLength(25);
      expect(answer.every((l) => l.ld_eventid === ids.autumn)).toBe(true);
      const emails = answer.map((l) => String(l.ld_email));
      expect(emails).toEqual([...emails].sort());
      // the API saw the token's use
      expect((await ada.call<Row[]>('GET', '/auth/tokens')).body[0].tk_last_used_at).toBeTruthy();

      // revoked on the profile page (confirmed): the same command is refused
      await page.goto('/profile');
      await tokens.getByRole('button', { name: 'Revoke Nightly export' }).click();
      const revoke = page.getByRole('dialog');
      await revoke.getByText('Revoke the token "Nightly export"?').waitFor();
      await revoke.getByText('Scripts that use it stop working at once. This cannot be undone.').waitFor();
      await revoke.getByRole('button', { name: 'Revoke' }).click();
      await tokens.getByTestId('api-tokens-empty').waitFor();
      expect((await ada.call<Row[]>('GET', '/auth/tokens')).body).toEqual([]);
      expect(await curl()).toMatchObject({ code: 'token_invalid' });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the developer page renders every call of the OpenAPI document, searchable, with this account in the paths', async () => {
    const doc = (await ada.call<{ openapi: string; paths: Record<string, Record<string, unknown>> }>('GET', '/openapi.json')).body;
    expect(doc.openapi).toMatch(/^3\.1/);
    const operations = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)).length, 0);
    expect(operations).toBeGreaterThan(50);
    const { page, context, errors } = await open(ADMIN);
    try {
      await page.goto(consoleAt('/developer'));
      await page.getByRole('heading', { name: 'API', level: 1 }).waitFor();
      const search = page.getByTestId('developer-search');
      await search.waitFor();
      await page.getByText(`${operations} calls`, { exact: true }).waitFor();
      expect(await untranslated(page)).toEqual([]);
      await snap(page, 'developer', false);

      await search.fill('leads bulk');
      await expect.poll(() => page.locator('.MuiAccordionSummary-root').count()).toBe(1);
      const summary = page.locator('.MuiAccordionSummary-root').first();
      expect(await summary.innerText()).toContain(`/accounts/${accountId}/leads/bulk`);
      expect(await summary.innerText()).toContain('POST');
      await summary.click();
      await page.getByRole('table', { name: 'Body' }).waitFor();
      const body = await page.getByRole('table', { name: 'Body' }).innerText();
      for (const field of ['action', 'ids', 'filter', 'changes']) expect(body).toContain(field);
      await snap(page, 'developer-call');
      await toPhone(page);
      await snap(page, 'developer-call');
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await search.fill('');
      await page.getByText(`${operations} calls`, { exact: true }).waitFor();
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await snap(page, 'developer', false);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
