import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ensureAdminBuilt, startServer, type E2eServer } from './support/server';
import { DESKTOP, HAS_CHROMIUM, launch, newPage, PHONE, shot, signInByApi, SKIP_REASON } from './support/browser';
import { ApiClient } from './support/api';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

/**
 * The job queue as an operator sees it, on the real server: a relay that refuses every connection (SMTP_URL to a closed
 * port) and no retries (JOBS_RETRY_LIMIT=0), so a registration's confirmation mail ends failed. The entry admin's Job
 * queue page (root users, in the menu) shows it, and /metrics (METRICS_TOKEN) counts it; screenshots at 1280 and 375 px.
 */
describe.skipIf(!HAS_CHROMIUM)('the job queue page in the browser', () => {
  let server: E2eServer;
  let browser: Browser;
  const token = 'e2e-jobs-metrics-token-0123';

  beforeAll(async () => {
    ensureAdminBuilt();
    server = await startServer({ SMTP_URL: 'smtp://127.0.0.1:9', JOBS_RETRY_LIMIT: '0', METRICS_TOKEN: token });
    browser = await launch();
    const root = new ApiClient(server.baseUrl);
    await root.login(server.adminEmail, server.adminPassword);
    const account = await root.create('/accounts', { a_name: 'Queue Expo', a_is_enabled: true });
    const base = `/accounts/${account.id}`;
    const form = await root.create(`${base}/forms`, { f_title: 'Visitors', f_name: 'visitors' });
    await root.create(`${base}/form-elements`, { fe_formid: form.id, fe_type: 'text', fe_name: 'email', fe_title: 'E-mail', fe_is_required: true });
    const event = await root.create(`${base}/events`, { ev_title: 'Queue Day', ev_name: 'queue-day', ev_access_type: 'open', ev_registration_formid: form.id });
    const visitor = new ApiClient(server.baseUrl);
    const res = await visitor.call('POST', `/register/${event.id}`, { answers: { email: 'visitor@queue.example.com' } });
    expect(res.status).toBe(201);
    // the worker tries the relay (refused) and, with no retries, leaves the mail failed
    const metrics = async () => (await fetch(`${server.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${token}` } })).text();
    for (const deadline = Date.now() + 20_000; !(await metrics()).includes('jobs_failed{name="mail.send"} 1');) {
      if (Date.now() > deadline) throw new Error(`the mail did not fail:\n${await metrics()}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`at ${viewport.width} px: a root user opens Job queue from the menu and sees the failed mail`, async () => {
      const { context, page, errors } = await newPage(browser, server.baseUrl, viewport);
      try {
        await signInByApi(context, server.adminEmail, server.adminPassword);
        await page.goto('/accounts');
        if (viewport === PHONE)
          await page
            .getByRole('button', { name: /open menu|menu/i })
            .first()
            .click();
        await page.getByRole('menuitem', { name: 'Job queue' }).click();
        await page.waitForURL((u) => u.pathname === '/jobs');
        await expect.poll(() => page.getByTestId('jobs-failed').textContent()).toBe('1');
        expect(await page.getByTestId('jobs-waiting').textContent()).toBe('0');
        const row = page.getByRole('row', { name: /mail\.send/ });
        expect(await row.getByRole('cell').allTextContents()).toEqual(['mail.send', '0', '1']);
        expect(
          await page
            .getByRole('row', { name: /trash\.purge/ })
            .getByRole('cell')
            .allTextContents(),
        ).toEqual(['trash.purge', '0', '0']);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
        await shot(page, 'jobs');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
