import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './support/api';
import { DESKTOP, HAS_CHROMIUM, launch, newPage, PHONE, shot, SKIP_REASON } from './support/browser';
import { LoginScreen } from './support/pages';
import { cardPhotoJpeg } from './support/cardPhoto';
import { ensureAdminBuilt, startServer, type E2eServer } from './support/server';
import { linkIn, parseEml } from '../helpers/mail';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

const PASSWORD = 'transcribe-e2e-pass';
const ADMIN = 'ada.admin@harbour.example';
const BOOTH = 'bo.booth@harbour.example';
const REP = 'rob.rep@harbour.example';

type Row = Record<string, unknown>;
const GRACE_CARD = { name: 'Grace Hopper', line: 'Compiler Works · Rear admiral', email: 'grace@hopper.example', phone: '+1 555 0100' };

/**
 * A business card from the booth to the console in Chromium, all through the real server: a booth member uploads a
 * card photo (PUT /lead-files/{id}, a JPEG drawn by the browser) and its card lead (POST /leads: pending
 * transcription). An admin of the account opens the transcription queue (/console/{a}/transcription): the photo beside
 * the event's forms; "Done" with a required answer missing shows the error under that field; filled in, "Done" stores
 * the answers and the status done (read in the database). The lead page shows the answers read-only and the photo in
 * its zoom dialog, and "Hand off" sends a handoff whose mail lands in the outbox. The leads list's "Download CSV"
 * downloads the lead as CSV with a BOM. Screenshots of the list, the lead page and the queue at 1280 and 375 px.
 */
describe.skipIf(!HAS_CHROMIUM)('transcription of a card in the console', () => {
  let server: E2eServer;
  let browser: Browser;
  let accountId = '';
  let eventId = '';
  let leadId = '';
  let frontId = '';
  let adminId = '';
  let boothId = '';
  let repId = '';
  let otherLeadId = '';

  const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  const consoleAt = (path: string) => `/console/${accountId}${path}`;
  const signIn = async (page: Page) => {
    const login = new LoginScreen(page);
    await login.open();
    await login.signIn(ADMIN, PASSWORD);
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
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
    adminId = await user(ADMIN, 'Ada', 'Admin');
    boothId = await user(BOOTH, 'Bo', 'Booth');
    repId = await user(REP, 'Rob', 'Rep');
    accountId = (await root.create<{ id: string }>('/accounts', { a_name: 'Harbour Events', a_is_enabled: true })).id;
    const a = `/accounts/${accountId}`;
    await root.create(`${a}/users`, { au_userid: adminId, au_role: 'admin' });
    await root.create(`${a}/users`, { au_userid: boothId, au_role: 'member' });
    await root.create(`${a}/users`, { au_userid: repId, au_role: 'member' });
    eventId = (await root.create<{ id: string }>(`${a}/events`, { ev_title: 'Harbour Expo', ev_name: 'harbour-expo', ev_access_type: 'open' })).id;
    const contact = await root.create<{ id: string }>(`${a}/forms`, { f_title: 'Contact', f_name: 'contact' });
    const followUp = await root.create<{ id: string }>(`${a}/forms`, { f_title: 'Follow-up', f_name: 'follow_up' });
    const el = (formId: string, body: Row) => root.create(`${a}/form-elements`, { fe_formid: formId, ...body });
    await el(contact.id, { fe_title: 'E-mail', fe_name: 'email', fe_type: 'text', fe_is_required: true, fe_external_name: 'Email address' });
    await el(contact.id, { fe_title: 'First name', fe_name: 'first_name', fe_type: 'text', fe_is_required: true });
    await el(contact.id, { fe_title: 'Last name', fe_name: 'last_name', fe_type: 'text' });
    await el(contact.id, { fe_title: 'Company', fe_name: 'company', fe_type: 'text' });
    await el(followUp.id, { fe_title: 'Call me back', fe_name: 'call_back', fe_type: 'toggle' });
    await el(followUp.id, { fe_title: 'Notes', fe_name: 'notes', fe_type: 'textarea' });
    await root.create(`${a}/event-forms`, { ef_eventid: eventId, ef_formid: contact.id });
    await root.create(`${a}/event-forms`, { ef_eventid: eventId, ef_formid: followUp.id });

    // The booth member's device: the photo first (its own id), then the card lead naming it.
    const booth = new ApiClient(server.baseUrl);
    await booth.login(BOOTH, PASSWORD);
    frontId = crypto.randomUUID();
    const put = await booth.sendBytes<Row>('PUT', `${a}/lead-files/${frontId}`, await cardPhotoJpeg(browser, GRACE_CARD), 'image/jpeg');
    expect(put.status, JSON.stringify(put.body)).toBe(201);
    const lead = await booth.create<Row>(`${a}/leads`, { ld_eventid: eventId, ld_source: 'card', ld_front_fileid: frontId, ld_answers: {}, ld_client_id: crypto.randomUUID() });
    expect(lead).toMatchObject({ ld_transcription_status: 'pending', ld_captured_by: boothId });
    leadId = String(lead.id);
    // Another lead of the event, typed in at the booth, so the list has more than one row.
    otherLeadId = String(
      (
        await booth.create<Row>(`${a}/leads`, {
          ld_eventid: eventId,
          ld_source: 'manual',
          ld_answers: { email: 'linus@example.org', first_name: 'Linus', company: '=HYPERLINK("x")' },
        })
      ).id,
    );
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('the queue: the photo beside the forms; Done with a required answer missing shows the error under it; filled in, Done stores it', async () => {
    const { page, context, errors } = await newPage(browser, server.baseUrl, DESKTOP);
    try {
      await signIn(page);
      // the card's page: no name yet, so it is titled by its source and time, never a raw timestamp; "Transcribe" opens
      // the queue at this card
      await page.goto(consoleAt(`/leads/${leadId}`));
      await expect.poll(() => page.locator('#react-admin-title').innerText(), { timeout: 15_000 }).toMatch(/^Business card · \w{3} \d{1,2}, \d{4}/);
      await page.getByRole('link', { name: 'Transcribe' }).click();
      await page.waitForURL((u) => u.pathname === consoleAt('/transcription') && u.searchParams.get('lead') === leadId);
      const item = page.getByTestId('queue-item');
      await item.waitFor();
      expect(await item.getAttribute('data-lead')).toBe(leadId);
      await page.getByText('Card 1 of 1').waitFor();
      // who captured it, at which event
      await expect.poll(() => page.getByTestId('queue-captured').innerText(), { timeout: 15_000 }).toMatch(/^Harbour Expo · .+ · captured by Bo Booth/);
      // the photo, loaded from the lead-files route, and the event's forms beside it
      const photo = item.locator('img[alt="Card front"]');
      await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 15_000 }).toBe(1000);
      const email = page.locator('#queue-email');
      await email.waitFor();
      // the event's forms in order, each under its title
      expect(await item.getByTestId('queue-form').getByRole('heading').allInnerTexts()).toEqual(['Contact', 'Follow-up']);
      const inForm = (i: number) =>
        item
          .getByTestId('queue-form')
          .nth(i)
          .locator('[data-name]')
          .evaluateAll((els) => els.map((e) => e.getAttribute('data-name')));
      expect(await inForm(0)).toEqual(['email', 'first_name', 'last_name', 'company']);
      expect(await inForm(1)).toEqual(['call_back', 'notes']);
      const photoBox = (await photo.boundingBox())!;
      const formBox = (await email.boundingBox())!;
      expect(photoBox.x + photoBox.width).toBeLessThanOrEqual(formBox.x); // side by side at 1280
      expect(photoBox.y).toBeLessThan(formBox.y + formBox.height);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await shot(page, 'transcription-queue');

      // Done with the first name missing: the server's lead_incomplete, shown under that field
      await email.fill('grace@hopper.example');
      await page.locator('#queue-last_name').fill('Hopper');
      await page.locator('#queue-company').fill('Compiler Works');
      await page.getByRole('button', { name: 'Done' }).click();
      const firstNameError = page.locator('#queue-first_name-error');
      await firstNameError.waitFor();
      expect(await firstNameError.innerText()).toBe('This field is required');
      expect(await page.locator('#queue-first_name').getAttribute('aria-describedby')).toContain('queue-first_name-error');
      expect(await page.locator('#queue-email-error').count()).toBe(0);
      await shot(page, 'transcription-queue-error');

      // filled in: Done (by its key), and the queue is empty
      await page.locator('#queue-first_name').fill('Grace');
      await expect.poll(() => page.locator('#queue-first_name-error').count()).toBe(0);
      await page.locator('#queue-notes').fill('Wants a quote for 40 screens');
      await page.keyboard.press('Control+Enter');
      await page.getByText('Transcribed. On to the next card.').waitFor();
      await page.getByTestId('queue-empty').waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }

    await server.withDb(async (db) => {
      const lead = await db('leads').where({ ld_id: leadId }).first();
      expect(lead).toMatchObject({
        ld_transcription_status: 'done',
        ld_email: 'grace@hopper.example',
        ld_first_name: 'Grace',
        ld_last_name: 'Hopper',
        ld_source: 'card',
        ld_front_fileid: frontId,
        ld_captured_by: boothId,
        ld_ownerid: boothId,
      });
      expect(lead.ld_answers).toEqual({
        email: 'grace@hopper.example',
        first_name: 'Grace',
        last_name: 'Hopper',
        company: 'Compiler Works',
        call_back: false,
        notes: 'Wants a quote for 40 screens',
      });
    });
  });

  it('the lead page: the answers read-only, the photo in its zoom dialog, and "Hand off" mails the representative', async () => {
    const { page, context, errors } = await newPage(browser, server.baseUrl, DESKTOP);
    try {
      await signIn(page);
      await page.goto(consoleAt(`/leads/${leadId}`));
      const answers = page.getByTestId('lead-answers');
      await answers.locator('.ls-form--readonly').first().waitFor();
      expect(await page.locator('#react-admin-title').innerText()).toBe('Grace Hopper · grace@hopper.example');
      // drawn by the renderer, read-only: labels and values, no inputs
      const shown = async (name: string) => (await answers.locator(`[data-name="${name}"] dd`).innerText()).trim();
      expect(await shown('email')).toBe('grace@hopper.example');
      expect(await shown('first_name')).toBe('Grace');
      expect(await shown('company')).toBe('Compiler Works');
      expect(await shown('notes')).toBe('Wants a quote for 40 screens');
      expect(await answers.locator('input, textarea, select').count()).toBe(0);
      expect(await answers.getByTestId('lead-answers-form').getByRole('heading').allInnerTexts()).toEqual(['Contact', 'Follow-up']);
      expect(await shown('call_back')).toBe('No');
      // no transcription offered any more: it is done
      expect(await page.getByRole('link', { name: 'Transcribe' }).count()).toBe(0);
      const photo = page.getByTestId('lead-photos').locator('img[alt="Card front"]');
      await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 15_000 }).toBe(1000);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await shot(page, 'lead-page');

      // the zoom dialog: the photo large; + zooms in (the image grows), Escape closes it
      await page.getByRole('button', { name: 'Open Card front large' }).click();
      const dialog = page.getByRole('dialog', { name: 'Card front' });
      await dialog.waitFor();
      const large = dialog.locator('img[alt="Card front"]');
      await expect.poll(() => large.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 15_000 }).toBe(1000);
      const before = (await large.boundingBox())!.width;
      await dialog.locator('.MuiDialogContent-root').focus();
      await page.keyboard.press('+');
      await page.keyboard.press('+');
      await expect.poll(async () => (await large.boundingBox())!.width).toBeCloseTo(before * 1.5, 0);
      expect(await dialog.getByRole('slider', { name: 'Zoom' }).getAttribute('aria-valuenow')).toBe('1.5');
      await shot(page, 'lead-page-photo');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      // Hand off to Rob: the dialog, the representative found on the server, a message
      await page.getByTestId('handoff-open').click();
      const handoff = page.getByTestId('handoff-dialog');
      await handoff.getByRole('dialog').waitFor();
      await page.getByTestId('handoff-to').fill('rob');
      await page.getByRole('option', { name: `Rob Rep · ${REP}` }).click();
      await page.getByTestId('handoff-message').fill('She wants a quote for 40 screens.');
      await page.getByTestId('handoff-send').click();
      await page.getByText(`The lead was handed to Rob Rep · ${REP}; they got an e-mail.`).waitFor();
      await handoff.getByRole('dialog').waitFor({ state: 'detached' });
      // the lead's handoff history shows it, pending
      await page.getByTestId('handoff-history').getByText('Rob Rep').waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }

    const mails = server
      .outbox()
      .filter((m) => m.file.toLowerCase().endsWith(`-${REP}.eml`))
      .map((m) => parseEml(m.file, m.text));
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('Ada Admin hands a lead over to you: Grace Hopper');
    expect(mails[0].text).toContain('She wants a quote for 40 screens.');
    expect(linkIn(mails[0], '/handoffs/').startsWith(`${server.baseUrl}/handoffs/`)).toBe(true);
    await server.withDb(async (db) => {
      const rows: Row[] = await db('handoffs').where({ ho_leadid: leadId }).select('*');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        ho_accountid: accountId,
        ho_to_userid: repId,
        ho_created_by: adminId,
        ho_status: 'pending',
        ho_message: 'She wants a quote for 40 screens.',
      });
    });
  });

  it('the leads list: both leads, and "Download CSV" downloads them with a BOM, the card lead with its answers', async () => {
    const { page, context, errors } = await newPage(browser, server.baseUrl, DESKTOP);
    try {
      await signIn(page);
      await page.goto(consoleAt('/leads'));
      const rows = page.locator('.RaDataTable-table tbody tr');
      await rows.first().waitFor();
      await expect.poll(() => rows.count()).toBe(2);
      await rows.filter({ hasText: 'grace@hopper.example' }).waitFor();
      await rows.filter({ hasText: 'linus@example.org' }).waitFor();
      // the columns fit at 1280 with the menu open: the capture time (the sort) and the last column in sight, the owner by name
      const captured = page.locator('.RaDataTable-table thead th', { hasText: 'Captured' });
      for (const th of [captured, page.locator('.RaDataTable-table thead th').last()]) {
        const box = (await th.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(1280);
      }
      expect(await rows.first().locator('td').nth(5).innerText()).toBe('Bo Booth'); // after the checkbox column
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await shot(page, 'leads-list');

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('leads-export').click()]);
      expect(download.suggestedFilename()).toMatch(/\.csv$/);
      const text = fs.readFileSync((await download.path())!, 'utf8');
      expect(text.charCodeAt(0)).toBe(0xfeff); // the BOM, so spreadsheet programs read UTF-8
      const [header, ...lines] = Papa.parse<string[]>(text.slice(1).trim(), { newline: '\r\n' }).data;
      const col = (name: string) => {
        const i = header.indexOf(name);
        expect(i, `column ${name} in ${header.join(', ')}`).toBeGreaterThanOrEqual(0);
        return i;
      };
      expect(lines).toHaveLength(2);
      const grace = lines.find((l) => l[col('id')] === leadId)!;
      expect(grace).toBeDefined();
      expect(grace[col('e-mail')]).toBe('grace@hopper.example');
      expect(grace[col('first name')]).toBe('Grace');
      expect(grace[col('transcription')]).toBe('done');
      expect(grace[col('source')]).toBe('card');
      expect(grace[col('Email address')]).toBe('grace@hopper.example'); // the element's external name heads its column
      expect(grace[col('company')]).toBe('Compiler Works');
      // the form's element "notes" heads its own column after the lead's fixed ones (which now include the lead's notes)
      expect(grace[header.lastIndexOf('notes')]).toBe('Wants a quote for 40 screens');
      expect(header.indexOf('notes')).toBeLessThan(header.lastIndexOf('notes'));
      const linus = lines.find((l) => l[col('id')] === otherLeadId)!;
      expect(linus[col('company')]).toBe(`'=HYPERLINK("x")`); // neutralised for spreadsheet programs

      // The generic bulk bar: Linus ticked, marked invalid through POST /leads/bulk, then valid again.
      const api = new ApiClient(server.baseUrl);
      await api.login(ADMIN, PASSWORD);
      const validOf = async () => ((await api.call('GET', `/accounts/${accountId}/leads/${otherLeadId}`)).body as { ld_is_valid: boolean }).ld_is_valid;
      const changeLinus = async (option: 'Yes' | 'No') => {
        await rows.filter({ hasText: 'linus@example.org' }).locator('.select-item input').check();
        await page.getByTestId('bulk-update').click();
        const dialog = page.getByRole('dialog');
        await expect.poll(() => dialog.getByText('Change 1 record').count()).toBe(1);
        await dialog.getByRole('combobox', { name: /Valid/ }).click();
        await page.getByRole('option', { name: option }).click();
        await dialog.getByTestId('bulk-update-save').click();
        await page.getByText('1 record changed.').waitFor();
      };
      await changeLinus('No');
      await expect.poll(validOf).toBe(false);
      await rows.filter({ hasText: 'linus@example.org' }).locator('.select-item input').check();
      await page.getByTestId('bulk-delete').waitFor(); // the bar over the rows, in sight
      await shot(page, 'leads-bulk');
      await rows.filter({ hasText: 'linus@example.org' }).locator('.select-item input').uncheck();
      await changeLinus('Yes');
      await expect.poll(validOf).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('screenshots at 375 px: the list, the lead page and the queue fit a phone', async () => {
    // a card waiting again, so the queue has something to show
    const admin = new ApiClient(server.baseUrl);
    await admin.login(ADMIN, PASSWORD);
    const again = await admin.call('PUT', `/accounts/${accountId}/leads/${leadId}`, { ld_transcription_status: 'postponed' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const { page, context, errors } = await newPage(browser, server.baseUrl, PHONE);
    try {
      await signIn(page);
      await page.goto(consoleAt('/leads'));
      await page.getByText('grace@hopper.example').first().waitFor();
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      // the toolbar's buttons wrap onto a second row instead of running off the left edge
      for (const id of ['leads-transcribe', 'leads-export']) {
        const box = (await page.getByTestId(id).boundingBox())!;
        expect(box.x, id).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, id).toBeLessThanOrEqual(PHONE.width);
      }
      await shot(page, 'leads-list');

      await page.goto(consoleAt(`/leads/${leadId}`));
      await page.getByTestId('lead-answers').locator('.ls-form--readonly').first().waitFor();
      await expect
        .poll(
          () =>
            page
              .getByTestId('lead-photos')
              .locator('img')
              .first()
              .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
          { timeout: 15_000 },
        )
        .toBe(1000);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await shot(page, 'lead-page');

      await page.goto(consoleAt('/transcription'));
      await page.getByTestId('queue-item').waitFor();
      await page.getByText('Card 1 of 1 · Postponed').waitFor();
      // a postponed card keeps its answers
      expect(await page.locator('#queue-first_name').inputValue()).toBe('Grace');
      await expect
        .poll(
          () =>
            page
              .getByTestId('queue-item')
              .locator('img')
              .first()
              .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
          { timeout: 15_000 },
        )
        .toBe(1000);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await shot(page, 'transcription-queue');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
