import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import Papa from 'papaparse';
import { ensureAdminBuilt, startServer, type E2eServer } from './support/server';
import { DESKTOP, HAS_CHROMIUM, launch, newPage, PHONE, shot, SKIP_REASON } from './support/browser';
import { ApiClient } from './support/api';
import { LoginScreen } from './support/pages';
import { linkIn, parseEml } from '../helpers/mail';
import { createKnex } from '../../api/db/knex';
import { prepareDatabase, upsertUser } from '../../api/db/bootstrap';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

const PASSWORD = 'handoff-e2e-password';
type Row = Record<string, unknown>;

/**
 * Handoffs and statistics in Chromium against the real server. The leads are written into the server's PGlite
 * database before it starts (capturing leads is another part's work): an account with a superadmin (Olga) and a
 * representative (Rob), two events, a lead to hand over and 240 leads in March 2026 for the statistics.
 * Olga hands the lead to Rob through the API; Rob opens the mailed link on a phone and accepts: the lead is his.
 * Olga's statistics page draws the chart and the table, changes the grouping and downloads the CSV.
 */
describe.skipIf(!HAS_CHROMIUM)('handoff page and statistics page in the browser', () => {
  let server: E2eServer;
  let browser: Browser;
  let dataDir: string;
  let accountId: string;
  let olgaId: string;
  let robId: string;
  const handedLeads: string[] = [];
  const olga = 'olga@harbour.example.com';
  const rob = 'rob@harbour.example.com';

  const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  /** The newest mail to `to` in the server's outbox (its DATA_DIR is ours). */
  const lastMailTo = (to: string) => {
    const dir = path.join(dataDir, 'outbox');
    const file = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(`-${to}.eml`))
      .sort()
      .pop();
    expect(file, `a mail to ${to}`).toBeDefined();
    return parseEml(file!, fs.readFileSync(path.join(dir, file!), 'utf8'));
  };
  const asOlga = async () => {
    const api = new ApiClient(server.baseUrl);
    await api.login(olga, PASSWORD);
    return api;
  };

  beforeAll(async () => {
    ensureAdminBuilt();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-e2e-handoff-'));
    const db = createKnex({ pgliteDir: path.join(dataDir, 'db') });
    try {
      await prepareDatabase(db);
      const [account] = await db('accounts').insert({ a_name: 'Harbour Events' }).returning('a_id');
      accountId = account.a_id;
      olgaId = (await upsertUser(db, { email: olga, password: PASSWORD, role: 'member', firstName: 'Olga', lastName: 'Owner' })).user.u_id;
      robId = (await upsertUser(db, { email: rob, password: PASSWORD, role: 'member', firstName: 'Rob', lastName: 'Rep' })).user.u_id;
      await db('account_users').insert([
        { au_accountid: accountId, au_userid: olgaId, au_role: 'superadmin' },
        { au_accountid: accountId, au_userid: robId, au_role: 'member' },
      ]);
      const [expo, fair] = await db('events')
        .insert([
          { ev_accountid: accountId, ev_title: 'Harbour Expo 2026', ev_name: 'harbour-expo', ev_access_type: 'open', ev_start_date: '2026-03-02', ev_end_date: '2026-03-06' },
          { ev_accountid: accountId, ev_title: 'Dune Fair', ev_name: 'dune-fair', ev_access_type: 'open' },
        ])
        .returning('ev_id');
      // Two leads to hand over, captured on a day of their own (2025-01-15), owned by Olga.
      for (const [first, last] of [
        ['Sanne', 'de Boer'],
        ['Pim', 'Jansen'],
      ]) {
        const [lead] = await db('leads')
          .insert({
            ld_accountid: accountId,
            ld_eventid: expo.ev_id,
            ld_first_name: first,
            ld_last_name: last,
            ld_email: `${first.toLowerCase()}@example.com`,
            ld_ownerid: olgaId,
            ld_captured_at: new Date('2025-01-15T10:00:00Z'),
          })
          .returning('ld_id');
        handedLeads.push(lead.ld_id);
      }
      // March 2026: 8 a day on 1–30 March (the Expo in its week, the Fair otherwise), none on the 31st.
      const sources = ['registration', 'scan', 'card', 'manual'];
      const rows: Row[] = [];
      for (let day = 1; day <= 30; day++)
        for (let i = 0; i < 8; i++)
          rows.push({
            ld_accountid: accountId,
            ld_eventid: day >= 2 && day <= 6 ? expo.ev_id : fair.ev_id,
            ld_source: sources[(day + i) % 4],
            ld_ownerid: i % 2 ? olgaId : robId,
            ld_captured_at: new Date(`2026-03-${String(day).padStart(2, '0')}T${String(8 + i).padStart(2, '0')}:00:00Z`),
          });
      await db('leads').insert(rows);
    } finally {
      await db.destroy();
    }
    server = await startServer({ DATA_DIR: dataDir });
    browser = await launch();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a lead handed off through the API: the mailed link on a phone shows the lead, Accept makes Rob the owner', async () => {
    const api = await asOlga();
    const created = await api.create<Row>(`/accounts/${accountId}/handoffs`, {
      ho_leadid: handedLeads[0],
      ho_to_userid: robId,
      ho_message: 'She wants a quote for 40 screens.\nCall her before Friday.',
    });
    expect(created).toMatchObject({ ho_status: 'pending', ho_created_by: olgaId });
    const mail = lastMailTo(rob);
    expect(mail.subject).toBe('Olga Owner hands a lead over to you: Sanne de Boer');
    const link = linkIn(mail, '/handoffs/');
    expect(link.startsWith(`${server.baseUrl}/handoffs/`)).toBe(true);

    const { context, page, errors } = await newPage(browser, server.baseUrl, PHONE);
    try {
      await page.goto(new URL(link).pathname);
      await page.getByRole('heading', { name: 'A lead for you' }).waitFor();
      expect(await page.getByTestId('handoff-lead-name').innerText()).toBe('Sanne de Boer');
      expect(await page.getByTestId('handoff-lead-email').innerText()).toBe('sanne@example.com');
      expect(await page.getByTestId('handoff-event').innerText()).toContain('Harbour Expo 2026');
      expect(await page.getByTestId('handoff-message').innerText()).toBe('She wants a quote for 40 screens.\nCall her before Friday.');
      expect(await page.getByText('Olga Owner of Harbour Events would like you to follow up on this lead.').isVisible()).toBe(true);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await shot(page, 'handoff-page');
      // Signed out: the link is the credential.
      expect(await page.evaluate(async () => (await fetch('/api/1/auth/me')).status)).toBe(401);
      await page.getByRole('button', { name: 'Accept' }).click();
      const result = page.getByTestId('handoff-result');
      await result.waitFor();
      expect(await result.getAttribute('data-status')).toBe('accepted');
      expect(await result.innerText()).toContain('Sanne de Boer is now yours in Harbour Events.');
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await shot(page, 'handoff-page-accepted');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }

    // The owner changed: Rob owns the one lead of 2025-01-15 that was his to take (statistics by owner, through HTTP).
    const byOwner = await api.call<{ rows: Row[] }>('GET', `/accounts/${accountId}/stats/leads?from=2025-01-15&to=2025-01-15&group=owner`);
    expect(byOwner.body.rows).toEqual([
      { key: olgaId, label: 'Olga Owner', count: 1 },
      { key: robId, label: 'Rob Rep', count: 1 },
    ]);
    const history = await api.call<Row[]>('GET', `/accounts/${accountId}/handoffs?filter=${encodeURIComponent(JSON.stringify({ ho_leadid: handedLeads[0] }))}`);
    expect(history.body.map((h) => h.ho_status)).toEqual(['accepted']);

    // The link again, at 1280 px: the answer, no buttons; answering again through the API is refused.
    const desktop = await newPage(browser, server.baseUrl, DESKTOP);
    try {
      await desktop.page.goto(new URL(link).pathname);
      await desktop.page.getByTestId('handoff-result').waitFor();
      expect(await desktop.page.getByRole('button', { name: 'Accept' }).count()).toBe(0);
      await shot(desktop.page, 'handoff-page-accepted');
      const again = await desktop.page.evaluate(
        async (token) => {
          const csrf = decodeURIComponent(document.cookie.match(/ls\.csrf-token=([^;]+)/)?.[1] ?? '');
          const res = await fetch('/api/1/handoff/accept', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
            body: JSON.stringify({ token, decision: 'not_available' }),
          });
          return { status: res.status, body: await res.json() };
        },
        decodeURIComponent(new URL(link).pathname.split('/').pop()!),
      );
      expect(again).toMatchObject({ status: 400, body: { code: 'handoff_invalid' } });
    } finally {
      await desktop.context.close();
    }
  });

  it('in Dutch, "Niet beschikbaar" keeps Olga the owner; an unknown link says it is invalid', async () => {
    const api = await asOlga();
    await api.create(`/accounts/${accountId}/handoffs`, { ho_leadid: handedLeads[1], ho_to_userid: robId, ho_message: '' });
    const link = linkIn(lastMailTo(rob), '/handoffs/');
    const { context, page, errors } = await newPage(browser, server.baseUrl, PHONE);
    try {
      await page.addInitScript(() => localStorage.setItem('RaStore.locale', JSON.stringify('nl')));
      await page.goto(new URL(link).pathname);
      await page.getByRole('heading', { name: 'Een lead voor jou' }).waitFor();
      await page.getByRole('button', { name: 'Niet beschikbaar' }).click();
      await page.getByText('Je bent niet beschikbaar voor deze lead').waitFor();
      await shot(page, 'handoff-page-nl-not-available');
      await page.goto('/handoffs/this-link-was-never-sent-to-anyone');
      await page.getByTestId('handoff-invalid').waitFor();
      expect(await page.getByTestId('handoff-invalid').innerText()).toContain('Deze overdrachtslink is onbekend of al gebruikt');
      await shot(page, 'handoff-page-nl-invalid');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
    const byOwner = await api.call<{ rows: Row[] }>('GET', `/accounts/${accountId}/stats/leads?from=2025-01-15&to=2025-01-15&group=owner`);
    expect(byOwner.body.rows.find((r) => r.key === olgaId)).toMatchObject({ count: 1 });
  });

  it('the statistics page: the menu item, a line chart by day, bars by event, the table, and the CSV download of what is shown', async () => {
    const api = await asOlga();
    const { context, page, errors } = await newPage(browser, server.baseUrl, DESKTOP);
    try {
      const login = new LoginScreen(page);
      await login.open();
      await login.signIn(olga, PASSWORD);
      // One account she administers: straight into its console.
      await page.waitForURL((u) => u.pathname === `/console/${accountId}`);
      await page.getByRole('menuitem', { name: 'Statistics' }).click();
      await page.waitForURL((u) => u.pathname === `/console/${accountId}/statistics`);
      // The last 30 days (the default) hold no lead of this account.
      await page.getByText('No leads in this period.').waitFor();
      expect(await page.getByRole('button', { name: 'Last 30 days' }).getAttribute('aria-pressed')).toBe('true');

      await page.getByTestId('stats-from').fill('2026-03-01');
      await page.getByTestId('stats-to').fill('2026-03-31');
      // The period lives in the address (replaced, not pushed: no history entry per keystroke).
      await expect.poll(() => new URL(page.url()).search).toBe('?from=2026-03-01&to=2026-03-31');
      await expect.poll(() => page.getByTestId('stats-leads-total').innerText()).toBe('240 leads in this period');
      // By day: 31 rows (the 31st with none), a header and the total; the line drawn as an SVG path. (Polled: with only
      // "from" applied the period runs to today and holds the same 240 leads, so the total alone does not say that the
      // page shows March.)
      const table = page.getByTestId('stats-table').first();
      await expect.poll(() => table.locator('tbody tr').count()).toBe(31);
      expect(await table.locator('tbody tr').first().innerText()).toBe('1 Mar 2026\t8');
      expect(await table.locator('tbody tr').last().innerText()).toBe('31 Mar 2026\t0');
      const chart = page.getByTestId('stats-chart').first();
      expect(await chart.getAttribute('data-chart')).toBe('line');
      await expect.poll(() => chart.locator('svg path[d*="L"]').count()).toBeGreaterThan(0);
      expect((await chart.boundingBox())!.width).toBeGreaterThan(600);
      await page.getByTestId('stats-no-plays').waitFor();
      await shot(page, 'statistics-day');

      // By event: bars, the largest first.
      await page.getByTestId('stats-leads').getByRole('combobox', { name: 'Group by' }).click();
      await page.getByRole('option', { name: 'Event' }).click();
      await expect.poll(() => new URL(page.url()).search).toBe('?from=2026-03-01&to=2026-03-31&group=event');
      await expect.poll(() => table.locator('tbody tr').allInnerTexts()).toEqual(['Dune Fair\t200', 'Harbour Expo 2026\t40']);
      await expect.poll(() => chart.getAttribute('data-chart')).toBe('bar');
      await expect.poll(() => chart.locator('svg rect, svg path[class*="Bar"]').count()).toBeGreaterThanOrEqual(2);
      await shot(page, 'statistics-event');

      // The CSV of what is shown: the same rows as the API's JSON, with a BOM.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('stats-leads-csv').click()]);
      expect(download.suggestedFilename()).toBe('leads-by-event-2026-03-01-2026-03-31.csv');
      const text = fs.readFileSync((await download.path())!, 'utf8');
      expect(text.startsWith('\uFEFFkey,label,count\r\n')).toBe(true);
      const json = await api.call<{ rows: Row[] }>('GET', `/accounts/${accountId}/stats/leads?from=2026-03-01&to=2026-03-31&group=event`);
      const lines = Papa.parse<string[]>(text.slice(1).trim(), { newline: '\r\n' }).data;
      expect(lines.slice(1)).toEqual(json.body.rows.map((r) => [r.key, r.label, String(r.count)]));

      // A phone: the same page fits, the table and the chart below each other.
      await page.setViewportSize(PHONE);
      await page.reload();
      await page.getByTestId('stats-table').first().waitFor();
      await page.waitForTimeout(300);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await shot(page, 'statistics-event');
      // Dark theme, Dutch, by day at 375 px.
      await page.setViewportSize(DESKTOP);
      await page.getByTestId('locale-menu').click();
      await page.getByRole('menuitem', { name: 'Nederlands' }).click();
      await page
        .getByRole('button', { name: /thema|theme/i })
        .first()
        .click();
      await page.goto(`/console/${accountId}/statistics?from=2026-03-01&to=2026-03-31`);
      await page.getByText('Groeperen per').first().waitFor();
      await expect.poll(() => page.getByTestId('stats-chart').first().getAttribute('data-chart')).toBe('line');
      await shot(page, 'statistics-nl-dark');
      await page.setViewportSize(PHONE);
      await page.waitForTimeout(300);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await shot(page, 'statistics-nl-dark');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
