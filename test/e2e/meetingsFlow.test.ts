import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureAdminBuilt, startServer, type E2eServer } from './support/server';
import { DESKTOP, HAS_CHROMIUM, launch, newPage, PHONE, shot, SKIP_REASON } from './support/browser';
import { ApiClient } from './support/api';
import { LoginScreen } from './support/pages';
import { linkIn, parseEml } from '../helpers/mail';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

type Row = Record<string, unknown>;
/** A day ten days ahead (UTC), so the generated slots are still to come. */
const ahead = new Date(Date.now() + 10 * 86400_000).toISOString().slice(0, 10);

/**
 * The meetings' screens end to end in Chromium: a visitor books on a 375 px /meet page; the host opens the mailed
 * /meetings/{token} link, accepts, and sees the meeting as accepted in the event's day grid in the console (the
 * meeting's dialog, the generate dialog); then books a slot for a lead from the capture app's lead page.
 * Screenshots meeting-host-*, meeting-grid-*, meeting-dialog-*, meeting-generate-*, capture-meeting-* at 375 and 1280 px.
 */
describe.skipIf(!HAS_CHROMIUM)('meetings flow in the browser', () => {
  let server: E2eServer;
  let browser: Browser;
  let root: ApiClient;
  let accountId: string;
  let eventId: string;
  let rootId: string;

  const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  /** The newest mail to `to` in the server's outbox whose subject has `subject` (mails leave through the job queue: waited for). */
  const lastMailTo = async (to: string, subject = '') => {
    const newest = () => {
      const files = server.outbox().filter((m) => m.file.endsWith(`-${to}.eml`));
      const last = files[files.length - 1];
      return last ? parseEml(path.basename(last.file), last.text) : undefined;
    };
    await expect.poll(() => newest()?.subject ?? null, { message: `a mail to ${to}` }).toContain(subject);
    return newest()!;
  };

  beforeAll(async () => {
    ensureAdminBuilt();
    server = await startServer();
    browser = await launch();
    root = new ApiClient(server.baseUrl);
    await root.login(server.adminEmail, server.adminPassword);
    rootId = ((await root.call<Row>('GET', '/auth/me')).body.u_id ?? ((await root.call<Row>('GET', '/auth/me')).body.user as Row)?.u_id) as string;
    expect(rootId).toBeTruthy();
    accountId = (await root.create('/accounts', { a_name: 'Harbour & Co', a_is_enabled: true })).id;
    await root.create(`/accounts/${accountId}/members`, { au_userid: rootId, au_role: 'superadmin' });
    eventId = (await root.create(`/accounts/${accountId}/events`, { ev_title: 'Harbour Expo 2030', ev_name: 'harbour-expo', ev_access_type: 'open', ev_is_enabled: true })).id;
    const slots = await root.call('POST', `/accounts/${accountId}/meeting-slots/generate`, {
      ms_eventid: eventId,
      date: ahead,
      from: '09:00',
      to: '11:00',
      minutes: 30,
      ms_location: 'Hall 3, stand 12',
      ms_hostid: rootId,
    });
    expect(slots.status).toBe(201);
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('book on a phone, accept from the mailed link, see it accepted in the day grid', async () => {
    const phone = await newPage(browser, server.baseUrl, PHONE);
    try {
      const { page, errors } = phone;
      await page.goto(`/meet/${eventId}?lang=en`);
      await page.getByRole('heading', { name: 'Book a meeting' }).waitFor();
      await page.getByRole('radio', { name: /09:00–09:30/ }).check();
      await page.getByLabel(/E-mail/).fill('vera@example.com');
      await page.getByLabel('First name').fill('Vera');
      await page.getByLabel('Last name').fill('Visitor');
      await page.getByLabel(/Message/).fill('About the new range');
      await page.getByRole('button', { name: 'Request meeting' }).click();
      await page.getByRole('heading', { name: 'Request sent' }).waitFor();
      expect(await overflow(page)).toBeLessThanOrEqual(0);

      // The host's mail: the link to /meetings/{token}, opened signed out on the phone.
      const link = linkIn(await lastMailTo(server.adminEmail, 'Meeting request'), '/meetings/');
      expect(link.startsWith(`${server.baseUrl}/meetings/`)).toBe(true);
      await page.goto(new URL(link).pathname);
      await page.getByRole('heading', { name: 'A visitor asks for a meeting' }).waitFor();
      expect(await page.getByTestId('meeting-when').innerText()).toContain('09:00 – 09:30');
      expect(await page.getByTestId('meeting-when').innerText()).toContain('Europe/Amsterdam');
      expect(await page.getByTestId('meeting-where').innerText()).toBe('Hall 3, stand 12');
      expect(await page.getByTestId('meeting-visitor').innerText()).toContain('Vera Visitor');
      expect(await page.getByTestId('meeting-message').innerText()).toBe('About the new range');
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await shot(page, 'meeting-host');
      await page.getByRole('button', { name: 'Accept' }).click();
      const result = page.getByTestId('meeting-result');
      await result.waitFor();
      expect(await result.getAttribute('data-status')).toBe('accepted');
      expect(await result.innerText()).toContain('Vera Visitor gets a confirmation with a calendar invitation.');
      await shot(page, 'meeting-host-accepted');
      // The same link at 1280 px: the answer, no buttons.
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.reload();
      await page.getByTestId('meeting-result').waitFor();
      expect(await page.getByRole('button', { name: 'Accept' }).count()).toBe(0);
      await shot(page, 'meeting-host-accepted');
      await page.setViewportSize({ width: 375, height: 812 });
      // The visitor got the confirmation with the invitation.
      expect((await lastMailTo('vera@example.com', 'confirmed')).subject).toContain('confirmed');
      // The link again: used, so the result without buttons; an unknown link says so.
      await page.goto('/meetings/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
      await page.getByTestId('meeting-invalid').getByText('This meeting link is unknown or has already been used').waitFor();
      await shot(page, 'meeting-host-invalid');
      expect(errors).toEqual([]);
    } finally {
      await phone.context.close();
    }

    const desktop = await newPage(browser, server.baseUrl, DESKTOP);
    try {
      const { page, errors } = desktop;
      const login = new LoginScreen(page);
      await login.open();
      await login.signIn(server.adminEmail, server.adminPassword);
      await page.waitForURL(/\/accounts/);
      await page.goto(`/console/${accountId}/events/${eventId}?tab=meetings&day=${ahead}`);
      const grid = page.getByTestId('meeting-grid');
      await grid.waitFor();
      const slots = grid.getByTestId('meeting-slot');
      await slots.first().waitFor();
      expect(await slots.count()).toBe(4);
      const accepted = grid.locator('[data-testid=meeting-slot][data-state=accepted]');
      expect(await accepted.count()).toBe(1);
      expect(await accepted.getAttribute('data-start')).toBe('09:00');
      expect(await accepted.innerText()).toContain('Vera Visitor');
      expect(await grid.locator('[data-testid=meeting-slot][data-state=free]').count()).toBe(3);
      await shot(page, 'meeting-grid');
      // By keyboard: the meeting is a button; Enter opens its dialog with the moves an accepted meeting allows.
      await accepted.getByTestId('meeting-chip').focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Vera Visitor' });
      await dialog.waitFor();
      expect(await dialog.getByTestId('meeting-dialog-status').innerText()).toBe('Accepted');
      for (const name of ['Cancel meeting', 'Held', 'No-show']) expect(await dialog.getByRole('button', { name }).count()).toBe(1);
      await shot(page, 'meeting-dialog');
      await dialog.getByRole('button', { name: 'Held' }).click();
      await dialog.waitFor({ state: 'detached' });
      await grid.locator('[data-testid=meeting-chip][data-status=done]').waitFor();
      const stored = await root.call<Row[]>('GET', `/accounts/${accountId}/meetings?filter=${encodeURIComponent(JSON.stringify({ mg_eventid: eventId }))}`);
      expect(stored.body.map((m) => m.mg_status)).toEqual(['done']);

      // Generate another day from the grid: the dialog, then the new day's slots.
      await page.getByRole('button', { name: 'Generate slots' }).click();
      const gen = page.getByRole('dialog', { name: 'Generate a day of slots' });
      await gen.waitFor();
      const next = new Date(Date.parse(`${ahead}T00:00:00Z`) + 86400_000).toISOString().slice(0, 10);
      await gen.locator('input[name=date]').fill(next);
      await gen.locator('input[name=from]').fill('13:00');
      await gen.locator('input[name=to]').fill('12:00');
      await gen.getByRole('button', { name: 'Generate' }).click();
      await gen.getByText('The end time must be after the start time').waitFor();
      await gen.locator('input[name=to]').fill('15:00');
      await gen.locator('input[name=minutes]').fill('20');
      await gen.locator('input[name=gap_minutes]').fill('10');
      await shot(page, 'meeting-generate');
      await gen.getByRole('button', { name: 'Generate' }).click();
      await gen.waitFor({ state: 'detached' });
      await page.waitForURL(new RegExp(`day=${next}`));
      await page.locator('[data-testid=meeting-slot][data-start="14:30"]').waitFor();
      expect(await page.getByTestId('meeting-slot').count()).toBe(4);
      expect(await page.locator('[data-testid=meeting-slot][data-state=free]').count()).toBe(4);
      expect(errors).toEqual([]);
    } finally {
      await desktop.context.close();
    }

    // The grid on a phone: scrolls inside its box, not the page.
    const small = await newPage(browser, server.baseUrl, PHONE);
    try {
      const login = new LoginScreen(small.page);
      await login.open();
      await login.signIn(server.adminEmail, server.adminPassword);
      await small.page.waitForURL(/\/accounts/);
      await small.page.goto(`/console/${accountId}/events/${eventId}?tab=meetings&day=${ahead}`);
      await small.page.getByTestId('meeting-slot').first().waitFor();
      await shot(small.page, 'meeting-grid');
      await small.page.getByTestId('meeting-chip').first().click();
      await small.page.getByRole('dialog').waitFor();
      await shot(small.page, 'meeting-dialog');
      await small.page.keyboard.press('Escape');
      await small.page.getByRole('button', { name: 'Generate slots' }).click();
      await small.page.getByRole('dialog', { name: 'Generate a day of slots' }).waitFor();
      await shot(small.page, 'meeting-generate');
    } finally {
      await small.context.close();
    }
  });

  it('books a free slot for a lead from the capture app; the lead page shows the meeting', async () => {
    const lead = await root.create<Row & { id: string }>(`/accounts/${accountId}/leads`, {
      ld_eventid: eventId,
      ld_first_name: 'Piet',
      ld_last_name: 'Prospect',
      ld_email: 'piet@example.com',
      ld_ownerid: rootId,
    });
    const { page, context, errors } = await newPage(browser, server.baseUrl, PHONE);
    try {
      await page.goto('/app/');
      // The app asks who is signed in first; filled before its answer, the form is drawn again empty.
      await page.waitForLoadState('networkidle');
      await page.getByRole('textbox', { name: /^E-mail/ }).fill(server.adminEmail);
      await page.getByLabel('Password').fill(server.adminPassword);
      const signedIn = page.waitForResponse((r) => r.url().endsWith('/api/1/auth/web') && r.request().method() === 'POST');
      await page.getByRole('button', { name: 'Sign in' }).click();
      expect((await signedIn).status()).toBe(200);
      await page.waitForLoadState('networkidle');
      await page.goto(`/app/leads/${accountId}/${lead.id}`);
      await page.getByRole('heading', { name: 'Piet Prospect' }).waitFor();
      const box = page.getByTestId('lead-meetings');
      await box.getByRole('button', { name: 'Book a meeting' }).click();
      const slots = box.getByTestId('app-slot');
      await slots.first().waitFor();
      // Both generated days; Vera's 09:00 holds no place once held (done), so every slot is offered.
      expect(await slots.count()).toBe(4 + 4);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await shot(page, 'capture-meeting-slots');
      await slots.filter({ hasText: '09:30' }).first().click();
      const booked = box.getByTestId('lead-meeting');
      await booked.waitFor();
      expect(await booked.getAttribute('data-status')).toBe('accepted');
      expect(await booked.innerText()).toContain('09:30');
      await shot(page, 'capture-meeting-booked');
      await page.setViewportSize({ width: 1280, height: 800 });
      await box.getByRole('button', { name: 'Book a meeting' }).click();
      await slots.first().waitFor();
      await shot(page, 'capture-meeting-slots');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
    const stored = await root.call<Row[]>('GET', `/accounts/${accountId}/meetings?filter=${encodeURIComponent(JSON.stringify({ mg_leadid: lead.id }))}`);
    expect(stored.body).toHaveLength(1);
    expect(stored.body[0]).toMatchObject({ mg_status: 'accepted', mg_eventid: eventId, ld_first_name: 'Piet' });
    // The visitor got the invitation.
    expect((await lastMailTo('piet@example.com', 'confirmed')).subject).toContain('confirmed');
  });
});
