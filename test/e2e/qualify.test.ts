import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './support/api';
import { DESKTOP, HAS_CHROMIUM, launch, newPage, PHONE, shot, SKIP_REASON } from './support/browser';
import { LoginScreen } from './support/pages';
import { ensureAdminBuilt, startServer, type E2eServer } from './support/server';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

const PASSWORD = 'qualify-e2e-pass';
const ADMIN = 'ada.admin@qualify.example';
const BOOTH = 'bo.booth@qualify.example';
/** Screenshots for a person to look at (also test/e2e/screenshots/ like the others). */
const SHOTS = '/tmp/shots-qualify';

type Row = Record<string, unknown>;

/**
 * Lead qualification (platform-and-flows.md section 4) in Chromium against the real server, with Chromium's fake
 * microphone (--use-fake-device-for-media-stream: a beep) granted without asking: a booth member opens a lead in the
 * capture app at phone size, rates it (a star tap, then the arrow keys), tags it (chips), writes a note and records a
 * voice memo (MediaRecorder: the timer runs, stop, the recording plays back), goes offline and saves — the change waits
 * in the device's queue — and back online the memo's bytes and the lead's fields arrive (read in the database). An admin
 * then finds the lead in the console by the rating and tags filters, sees the stars and chips, and plays the memo on
 * the lead's page. Screenshots at 1280 and 375 px.
 */
describe.skipIf(!HAS_CHROMIUM)('qualify a lead: rating, tags, notes and a voice memo', () => {
  let server: E2eServer;
  let browser: Browser;
  let accountId = '';
  let leadId = '';

  const save = async (page: Page, name: string) => {
    await shot(page, name);
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/${name}-${page.viewportSize()?.width}.png`, fullPage: true });
  };
  const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  /** Plays an <audio> and answers how far it got (seconds). */
  const played = (page: Page, selector: string) =>
    page.evaluate(async (sel) => {
      const audio = document.querySelector<HTMLAudioElement>(sel)!;
      audio.muted = true;
      await audio.play();
      await new Promise((r) => setTimeout(r, 1200));
      audio.pause();
      return { at: audio.currentTime, error: audio.error?.code ?? null };
    }, selector);

  beforeAll(async () => {
    ensureAdminBuilt();
    [server, browser] = await Promise.all([startServer({}, { postgres: true }), launch({ fakeMedia: true })]);
    const root = new ApiClient(server.baseUrl);
    await root.login(server.adminEmail, server.adminPassword);
    const user = async (email: string, first: string) =>
      (
        await root.create<{ id: string }>('/users', {
          u_email: email,
          u_first_name: first,
          u_last_name: 'Tester',
          u_role: 'member',
          u_is_verified: true,
          u_is_enabled: true,
          u_password: PASSWORD,
          u_password_confirm: PASSWORD,
        })
      ).id;
    const adminId = await user(ADMIN, 'Ada');
    const boothId = await user(BOOTH, 'Bo');
    accountId = (await root.create<{ id: string }>('/accounts', { a_name: 'Qualify Events', a_is_enabled: true })).id;
    const a = `/accounts/${accountId}`;
    await root.create(`${a}/users`, { au_userid: adminId, au_role: 'admin' });
    await root.create(`${a}/users`, { au_userid: boothId, au_role: 'member' });
    const eventId = (await root.create<{ id: string }>(`${a}/events`, { ev_title: 'Qualify Expo', ev_name: 'qualify-expo', ev_access_type: 'open', ev_is_enabled: true })).id;
    const form = await root.create<{ id: string }>(`${a}/forms`, { f_title: 'Contact', f_name: 'contact' });
    await root.create(`${a}/form-elements`, { fe_formid: form.id, fe_title: 'E-mail', fe_name: 'email', fe_type: 'text', fe_is_required: true });
    await root.create(`${a}/form-elements`, { fe_formid: form.id, fe_title: 'First name', fe_name: 'first_name', fe_type: 'text' });
    await root.create(`${a}/event-forms`, { ef_eventid: eventId, ef_formid: form.id });
    const booth = new ApiClient(server.baseUrl);
    await booth.login(BOOTH, PASSWORD);
    leadId = (await booth.create<{ id: string }>(`${a}/leads`, { ld_eventid: eventId, ld_answers: { email: 'grace@hopper.example', first_name: 'Grace' } })).id;
    // Another lead, neither rated nor tagged: the console's filters leave it out.
    await booth.create(`${a}/leads`, { ld_eventid: eventId, ld_answers: { email: 'alan@turing.example', first_name: 'Alan' } });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('the capture app: rate, tag, note, record a memo and play it back; saved offline, it arrives when online', async () => {
    const { page, context, errors } = await newPage(browser, server.baseUrl, PHONE);
    try {
      await page.goto('/app/');
      await page.getByRole('textbox', { name: /^E-mail/ }).fill(BOOTH);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Choose an event' }).waitFor();
      await page.goto(`/app/leads/${accountId}/${leadId}`);
      const panel = page.getByTestId('qualify');
      await panel.waitFor();

      // Rating: a tap on the third star, then the keyboard (arrow right: four).
      await panel.getByRole('radio', { name: '3 of 5' }).check();
      await panel.getByRole('radio', { name: '3 of 5' }).press('ArrowRight');
      expect(await panel.getByRole('radio', { name: '4 of 5' }).isChecked()).toBe(true);
      await panel.getByText('4 of 5', { exact: true }).waitFor();

      // Tags: Enter adds, a comma too; what is typed becomes an identifier.
      const tags = panel.getByLabel('Tags');
      await tags.fill('Hot');
      await tags.press('Enter');
      await tags.fill('Follow up,');
      await panel.locator('.cap-tag', { hasText: 'follow-up' }).waitFor();
      await tags.fill('demo');
      await tags.press('Enter');
      await panel.getByRole('button', { name: 'Remove demo' }).click();
      expect(await panel.locator('.cap-tag').allTextContents()).toEqual(['hot', 'follow-up']);
      await panel.getByLabel('Notes').fill('Wants a demo in March');

      // The memo: the timer runs while recording; stopped, it plays back here.
      await panel.getByRole('button', { name: 'Record a memo' }).click();
      const timer = panel.getByTestId('memo-timer');
      await timer.waitFor();
      await expect.poll(() => timer.textContent(), { timeout: 10_000 }).toMatch(/^0:0[2-9] \/ 2:00$/);
      await save(page, 'qualify-capture-recording');
      await panel.getByRole('button', { name: 'Stop' }).click();
      await panel.getByTestId('memo-audio').waitFor();
      const local = await played(page, '[data-testid="memo-audio"]');
      expect(local.error).toBeNull();
      expect(local.at).toBeGreaterThan(0.3);
      await panel.getByText('Not saved yet').waitFor();

      // Offline: the save waits on the device.
      await context.setOffline(true);
      await page.getByText('Offline', { exact: true }).waitFor();
      await panel.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('status').getByText('Saved on this device; it is sent when the network is back').waitFor();
      await expect.poll(() => page.getByTestId('unsent-count').textContent()).toBe('1');
      expect(await panel.getByText('Not saved yet').count()).toBe(0);
      const before = await server.withDb((db) => db('leads').where('ld_id', leadId).first());
      expect(before).toMatchObject({ ld_rating: null, ld_tags: [], ld_memo_fileid: null });
      await save(page, 'qualify-capture-lead');
      expect(await overflow(page)).toBeLessThanOrEqual(0);

      // Online again: the memo's bytes, then the lead's fields.
      await context.setOffline(false);
      await expect.poll(() => page.getByTestId('unsent-count').textContent(), { timeout: 30_000 }).toBe('0');
      const row = (await server.withDb((db) => db('leads').where('ld_id', leadId).first())) as Row;
      expect(row).toMatchObject({ ld_rating: 4, ld_tags: ['hot', 'follow-up'], ld_notes: 'Wants a demo in March' });
      expect(row.ld_memo_fileid).toMatch(/^[0-9a-f-]{36}$/);
      const file = (await server.withDb((db) => db('lead_files').where('lf_id', String(row.ld_memo_fileid)).first())) as Row;
      expect(file.lf_type).toBe('audio/webm');
      expect(Number(file.lf_size)).toBeGreaterThan(1000);

      // A wider screen: the same page.
      await page.setViewportSize(DESKTOP);
      await page.reload();
      await panel.getByTestId('memo-audio').waitFor();
      await save(page, 'qualify-capture-lead');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the console: the rating and tags filters find the lead; its page shows them and plays the memo', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { page, context, errors } = await newPage(browser, server.baseUrl, viewport);
      try {
        const login = new LoginScreen(page);
        await login.open();
        await login.signIn(ADMIN, PASSWORD);
        await page.waitForURL((u) => !u.pathname.startsWith('/login'));
        const filter = encodeURIComponent(JSON.stringify({ ld_rating_min: 4, ld_tags: ['follow-up', 'nobody'] }));
        await page.goto(`/console/${accountId}/leads?filter=${filter}`);
        await page.getByText('grace@hopper.example').first().waitFor();
        expect(await page.getByText('alan@turing.example').count()).toBe(0);
        if (viewport === DESKTOP) {
          await page.getByLabel('4 of 5').first().waitFor();
          await page.getByTestId('tags-ld_tags').first().getByText('follow-up').waitFor();
        }
        await save(page, 'qualify-console-list');

        await page.goto(`/console/${accountId}/leads/${leadId}`);
        const memo = page.getByTestId('lead-memo-audio');
        await memo.waitFor();
        const tagsBox = page.getByTestId('tags-input-ld_tags').locator('xpath=ancestor::div[contains(@class,"MuiAutocomplete-root")]');
        await tagsBox.getByText('hot').waitFor();
        await tagsBox.getByText('follow-up').waitFor();
        expect(await page.locator('input[name="ld_rating"]').inputValue()).toBe('4');
        expect(await page.locator('textarea[name="ld_notes"]').inputValue()).toBe('Wants a demo in March');
        const heard = await played(page, '[data-testid="lead-memo-audio"]');
        expect(heard.error).toBeNull();
        expect(heard.at).toBeGreaterThan(0.3);
        await save(page, 'qualify-console-lead');
        expect(await overflow(page)).toBeLessThanOrEqual(0);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});
