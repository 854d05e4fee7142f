import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureAdminBuilt, startServer, type E2eServer } from './support/server';
import { DESKTOP, HAS_CHROMIUM, launch, newPage, PHONE, shot, signInByApi, SKIP_REASON } from './support/browser';
import { ApiClient } from './support/api';
import { linkIn, parseEml } from '../helpers/mail';
import { createKnex } from '../../api/db/knex';
import { prepareDatabase, upsertUser } from '../../api/db/bootstrap';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

const PASSWORD = 'conversation-e2e-password';
const SHOTS = '/tmp/shots-conv';
type Row = Record<string, unknown>;

/** Saves /tmp/shots-conv/<name>-<width>.png (and the usual copy under test/e2e/screenshots). */
async function snap(page: Page, name: string) {
  await shot(page, name);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}-${page.viewportSize()?.width ?? 0}.png`), fullPage: true });
}

/**
 * Conversations in Chromium against the real server: Olga starts a thread with a lead and writes; the lead opens the
 * mailed link on a phone and replies; the reply appears on Olga's lead page without a reload, and Olga's answer appears
 * on the visitor's page the same way (Server-Sent Events).
 */
describe.skipIf(!HAS_CHROMIUM)('conversations: live replies between the console and the visitor page', () => {
  let server: E2eServer;
  let browser: Browser;
  let dataDir: string;
  let accountId: string;
  let leadId: string;
  const olga = 'olga@harbour.example.com';
  const leadEmail = 'sanne@example.com';

  const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  /** The newest mail to `to` (mails leave through the job queue: waited for, up to the e2e poll timeout). */
  const lastMailTo = async (to: string, subject?: string) => {
    const dir = path.join(dataDir, 'outbox');
    const newest = () => {
      const file = (fs.existsSync(dir) ? fs.readdirSync(dir) : [])
        .filter((f) => f.endsWith(`-${to}.eml`))
        .sort()
        .pop();
      return file ? parseEml(file, fs.readFileSync(path.join(dir, file), 'utf8')) : undefined;
    };
    await expect.poll(() => (subject ? newest()?.subject : newest()), { message: `a mail to ${to}` }).toEqual(subject ?? expect.anything());
    return newest()!;
  };

  beforeAll(async () => {
    ensureAdminBuilt();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-e2e-conv-'));
    const db = createKnex({ pgliteDir: path.join(dataDir, 'db') });
    try {
      await prepareDatabase(db);
      const [account] = await db('accounts').insert({ a_name: 'Harbour Events' }).returning('a_id');
      accountId = account.a_id;
      const olgaId = (await upsertUser(db, { email: olga, password: PASSWORD, role: 'member', firstName: 'Olga', lastName: 'Owner' })).user.u_id;
      await db('account_users').insert({ au_accountid: accountId, au_userid: olgaId, au_role: 'superadmin' });
      const [event] = await db('events').insert({ ev_accountid: accountId, ev_title: 'Harbour Expo 2026', ev_name: 'harbour-expo', ev_access_type: 'open' }).returning('ev_id');
      const [lead] = await db('leads')
        .insert({ ld_accountid: accountId, ld_eventid: event.ev_id, ld_first_name: 'Sanne', ld_last_name: 'de Boer', ld_email: leadEmail, ld_ownerid: olgaId })
        .returning('ld_id');
      leadId = lead.ld_id;
    } finally {
      await db.destroy();
    }
    server = await startServer({ DATA_DIR: dataDir });
    browser = await launch();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('the visitor replies on a phone and the console shows it without a reload; the console answers and the visitor page shows it', async () => {
    const api = new ApiClient(server.baseUrl);
    await api.login(olga, PASSWORD);
    const created = await api.call<Row>('POST', `/accounts/${accountId}/conversations`, { cv_leadid: leadId, cv_subject: 'Your visit to our stand' });
    expect(created.status).toBe(201);
    const conversationId = String(created.body.id);
    const first = await api.call<Row>('POST', `/accounts/${accountId}/conversations/${conversationId}/messages`, { cm_body: 'Thanks for visiting, Sanne!\nShall we plan a demo?' });
    expect(first.status).toBe(201);
    const link = linkIn(await lastMailTo(leadEmail), '/conversations/');

    const consolePage = await newPage(browser, server.baseUrl, DESKTOP);
    const visitorPage = await newPage(browser, server.baseUrl, PHONE);
    try {
      await signInByApi(consolePage.context, olga, PASSWORD);
      await consolePage.page.goto(`/console/${accountId}/leads/${leadId}`);
      const consoleThread = consolePage.page.getByTestId('console-thread');
      await consoleThread.waitFor({ timeout: 30_000 });
      await expect.poll(() => consoleThread.getByTestId('thread-message').count()).toBe(1);

      const visitor = visitorPage.page;
      await visitor.goto(new URL(link).pathname);
      await visitor.getByTestId('conversation-page').waitFor();
      expect(await visitor.getByRole('heading', { name: 'Your visit to our stand' }).isVisible()).toBe(true);
      expect(await visitor.getByTestId('thread-message').first().innerText()).toContain('Shall we plan a demo?');
      expect(await visitor.getByTestId('thread-message').first().getAttribute('data-from')).toBe('Olga');
      // Signed out: the link is the credential.
      expect(await visitor.evaluate(async () => (await fetch('/api/1/auth/me')).status)).toBe(401);

      // The visitor replies: it appears in the console, which was not reloaded.
      await visitor.getByTestId('reply-body').fill('Yes please, Tuesday works for me.');
      await visitor.getByTestId('reply-send').click();
      await expect.poll(() => visitor.getByTestId('thread-message').count()).toBe(2);
      await expect.poll(() => consoleThread.getByTestId('thread-message').count(), { timeout: 10_000 }).toBe(2);
      expect(await consoleThread.getByTestId('thread-message').nth(1).innerText()).toContain('Yes please, Tuesday works for me.');
      // The owner was mailed.
      expect((await lastMailTo(olga, 'Sanne de Boer replied: Your visit to our stand')).subject).toBe('Sanne de Boer replied: Your visit to our stand');

      // The console answers: it appears on the visitor's page without a reload.
      await consolePage.page.getByTestId('reply-body').fill('Great, I will send an invitation for Tuesday 10:00.');
      await consolePage.page.getByTestId('reply-send').click();
      await expect.poll(() => visitor.getByTestId('thread-message').count(), { timeout: 10_000 }).toBe(3);
      expect(await visitor.getByTestId('thread-message').nth(2).innerText()).toContain('Tuesday 10:00');
      expect(await overflow(visitor)).toBeLessThanOrEqual(0);
      await snap(visitor, 'conversation-visitor');
      await snap(consolePage.page, 'conversation-console-lead');
      expect(visitorPage.errors).toEqual([]);
      expect(consolePage.errors).toEqual([]);
    } finally {
      await consolePage.context.close();
      await visitorPage.context.close();
    }

    // The other sizes: the visitor page at 1280, the console's lead page and list at 375 and 1280.
    const wide = await newPage(browser, server.baseUrl, DESKTOP);
    try {
      await wide.page.goto(new URL(link).pathname);
      await wide.page.getByTestId('conversation-page').waitFor();
      await expect.poll(() => wide.page.getByTestId('thread-message').count()).toBe(3);
      await snap(wide.page, 'conversation-visitor');
    } finally {
      await wide.context.close();
    }
    const phone = await newPage(browser, server.baseUrl, PHONE);
    try {
      await signInByApi(phone.context, olga, PASSWORD);
      await phone.page.goto(`/console/${accountId}/leads/${leadId}`);
      await phone.page.getByTestId('console-thread').waitFor({ timeout: 30_000 });
      await snap(phone.page, 'conversation-console-lead');
      // One more visitor message, through the API as the page would send it: unread for Olga in the list.
      const token = new URL(link).pathname.split('/').pop()!;
      const load = await fetch(`${server.baseUrl}/api/1/conversation/${token}`);
      const csrf = /ls\.csrf-token=([^;]+)/.exec(load.headers.get('set-cookie') ?? '')![1];
      const posted = await fetch(`${server.baseUrl}/api/1/conversation/${token}/messages`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: `ls.csrf-token=${csrf}`, 'X-CSRF-Token': decodeURIComponent(csrf) },
        body: JSON.stringify({ cm_body: 'See you on Tuesday!' }),
      });
      expect(posted.status).toBe(201);
      await phone.page.goto(`/console/${accountId}/conversations`);
      await phone.page.getByTestId('conversation-unread').first().waitFor({ timeout: 30_000 });
      expect(await phone.page.getByTestId('conversation-unread').first().innerText()).toBe('1 unread');
      await snap(phone.page, 'conversation-console-list');
    } finally {
      await phone.context.close();
    }
    const list = await newPage(browser, server.baseUrl, DESKTOP);
    try {
      await signInByApi(list.context, olga, PASSWORD);
      await list.page.goto(`/console/${accountId}/conversations`);
      await list.page.getByTestId('conversation-unread').first().waitFor({ timeout: 30_000 });
      await snap(list.page, 'conversation-console-list');
    } finally {
      await list.context.close();
    }
  });

  it('an unknown link says so', async () => {
    const { context, page } = await newPage(browser, server.baseUrl, PHONE);
    try {
      await page.goto(`/conversations/${'x'.repeat(43)}`);
      await page.getByTestId('conversation-invalid').waitFor();
      expect(await page.getByText('This conversation link is unknown').isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });
});
