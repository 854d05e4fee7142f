import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import knexFactory, { type Knex } from 'knex';
import type { Browser, Page } from 'playwright-core';
import { ensureAdminBuilt, startServer, type E2eServer } from './support/server';
import { HAS_CHROMIUM, launch, newPage, PHONE, shot, SKIP_REASON } from './support/browser';
import { ApiClient } from './support/api';
import { parseEml, type ParsedMail } from '../helpers/mail';
import { createKnex } from '../../api/db/knex';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

type Row = Record<string, unknown>;
const day = (offset: number) => new Date(Date.now() + offset * 86400_000).toISOString().slice(0, 10);
const WIDE = { width: 1200, height: 900 };

/**
 * The public registration page /register/{eventId} in Chromium against the real server: a form with every element type
 * filled in and sent at 375 px (the lead in the database, the confirmation mail in the outbox), the server's field
 * errors under a field at 1200 px, the closed, restricted (access code) and no-form events, Dutch by the browser's
 * language, no sideways scroll on a phone. The database is PGlite (read after the server stopped), or PostgreSQL when
 * TEST_DATABASE_URL is set (a database of its own).
 */
describe.skipIf(!HAS_CHROMIUM)('registration page in the browser', () => {
  let server: E2eServer;
  let browser: Browser;
  let root: ApiClient;
  let base: string;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-e2e-register-'));
  let pgName: string | undefined;
  let pgAdmin: Knex | undefined;
  let pgUrl: string | undefined;
  const ids: Record<string, string> = {};
  const CONSENT = 'Yes, send me news about the Autumn Expo and future events.';

  beforeAll(async () => {
    ensureAdminBuilt();
    if (process.env.TEST_DATABASE_URL) {
      const url = new URL(process.env.TEST_DATABASE_URL);
      pgName = `ls_e2e_${crypto.randomBytes(5).toString('hex')}`;
      pgAdmin = knexFactory({ client: 'pg', connection: url.toString(), pool: { min: 0, max: 1 } });
      await pgAdmin.raw(`create database ${pgName}`);
      url.pathname = `/${pgName}`;
      pgUrl = url.toString();
    }
    // DATA_DIR of our own, so the PGlite database and the outbox outlive the server for the checks at the end
    server = await startServer({ DATA_DIR: dataDir, ...(pgUrl ? { DATABASE_URL: pgUrl } : {}) });
    browser = await launch();
    root = new ApiClient(server.baseUrl);
    await root.login(server.adminEmail, server.adminPassword);
    const account = await root.create('/accounts', { a_name: 'Register Events', a_is_enabled: true });
    base = `/accounts/${account.id}`;
    const list = async (l_title: string, l_name: string, items: [string, string?][]) => {
      const l = await root.create(`${base}/lists`, { l_title, l_name });
      const byTitle: Record<string, string> = {};
      for (const [title, parent] of items)
        byTitle[title] = (await root.create(`${base}/list-items`, { li_listid: l.id, li_title: title, li_parentid: parent ? byTitle[parent] : null })).id;
      return l.id;
    };
    const colours = await list('Colours', 'colours', [['Red'], ['Green'], ['Blue']]);
    const interests = await list('Interests', 'interests', [['Software'], ['CRM', 'Software'], ['ERP', 'Software'], ['Hardware'], ['Printers', 'Hardware']]);
    const countries = await list('Countries', 'countries', [['Belgium'], ['Netherlands'], ['Luxembourg']]);
    const cities = await list('Cities', 'cities', [['Amsterdam'], ['Brussels'], ['Zürich']]);
    const form = await root.create(`${base}/forms`, { f_title: 'Visitor details', f_name: 'visitors' });
    ids.form = form.id;
    const el = async (fe_type: string, fe_name: string, fe_title: string, extra: Row = {}) => {
      ids[`el_${fe_name}`] = (await root.create(`${base}/form-elements`, { fe_formid: form.id, fe_type, fe_name, fe_title, ...extra })).id;
    };
    await el('text', 'email', 'E-mail', { fe_is_required: true });
    await el('text', 'first_name', 'First name', { fe_is_required: true });
    await el('text', 'last_name', 'Last name');
    await el('textarea', 'notes', 'Anything we should know? A long question that must wrap on a phone without any sideways scrolling', { fe_options: { max_length: 300 } });
    await el('date_selector_days', 'days', 'Days you attend', { fe_options: { days: [day(30), day(31), day(32)], disabled: [day(31)] } });
    await el('choice_chips_single', 'colour', 'Favourite colour', { fe_listid: colours, fe_is_required: true });
    await el('choice_chips_multiple', 'colours', 'Colours you like', { fe_listid: colours });
    await el('checkbox', 'terms', 'I accept the terms', { fe_is_required: true });
    await el('checkbox_tree', 'interests', 'Interests', { fe_listid: interests });
    await el('radio_tree', 'main_interest', 'Main interest', { fe_listid: interests });
    await el('selectbox', 'country', 'Country', { fe_listid: countries });
    await el('toggle', 'newsletter', 'Send me the printed programme', { fe_options: { default: true } });
    await el('slider', 'budget', 'Budget', { fe_options: { min: 0, max: 50, step: 5 } });
    await el('picker', 'city', 'City', { fe_listid: cities });

    const event = (body: Row) => root.create(`${base}/events`, { ev_name: crypto.randomBytes(4).toString('hex').replace(/^\d/, 'e'), ev_registration_formid: form.id, ...body });
    ids.open = (
      await event({
        ev_title: 'Autumn Expo',
        ev_access_type: 'open',
        ev_start_date: day(30),
        ev_end_date: day(32),
        ev_consent_text: CONSENT,
        // rich text as the console's editor sends it, with what the API removes
        ev_description:
          '<p onclick="window.__pwned = 1">Doors open at <strong>nine</strong>. <a href="https://expo.example.com/plan">Floor plan</a></p><script>window.__pwned = 2</script>',
      })
    ).id;
    const style = {
      st_form_title: 'Join the Autumn Expo',
      st_form_description: '<p>Free entry for trade visitors.<br>Your badge comes by e-mail.</p>',
      st_thanks_title: 'See you at the Autumn Expo',
      st_thanks_description: 'Your registration is in. Plan your day with the floor map.',
      st_external_url_title: 'Plan your visit',
      st_external_url: 'https://expo.example.com/plan',
      st_custom_css: ':root { --ls-form-accent: #0a7d3b; --ls-page-bg: #e6f4ea; }\n.ls-public-title { color: rgb(10, 90, 45); }',
      st_mail_subject: 'Welcome to the Autumn Expo, {{first_name}}',
    };
    await root.create(`${base}/form-styles`, { st_title: 'Autumn green', st_eventid: ids.open, ...style });
    ids.closed = (await event({ ev_title: 'Spring Fair', ev_access_type: 'closed' })).id;
    await root.create(`${base}/form-styles`, { st_title: 'Spring', st_eventid: ids.closed, st_form_title: 'Spring Fair registration' });
    ids.restricted = (await event({ ev_title: 'Partner Day', ev_access_type: 'restricted', ev_access_code: 'PARTNER-42' })).id;
    ids.noForm = (await event({ ev_title: 'Planning Meeting', ev_access_type: 'open', ev_registration_formid: null })).id;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop().catch(() => undefined);
    if (pgAdmin) {
      await pgAdmin.raw(`drop database if exists ${pgName} with (force)`);
      await pgAdmin.destroy();
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
  const field = (page: Page, name: string) => page.locator(`.ls-public-form [data-name="${name}"]`);

  function outbox(): ParsedMail[] {
    const dir = path.join(dataDir, 'outbox');
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.eml'))
      .sort()
      .map((f) => parseEml(f, fs.readFileSync(path.join(dir, f), 'utf8')));
  }
  async function mailTo(to: string): Promise<ParsedMail> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const mail = outbox().find((m) => m.file.toLowerCase().endsWith(`-${to.toLowerCase()}.eml`));
      if (mail) return mail;
      if (Date.now() > deadline) throw new Error(`no mail to ${to}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Answers every element of the form on the page (the required ones, and every other type too). */
  async function fillEveryType(page: Page, email: string) {
    await page.getByRole('textbox', { name: /^E-mail/ }).fill(email);
    await page.getByRole('textbox', { name: /^First name/ }).fill('Rosa');
    await page.getByRole('textbox', { name: /^Last name/ }).fill('Registrant');
    await page.getByRole('textbox', { name: /^Anything we should know/ }).fill('Vegetarian lunch, please.');
    await page.locator(`[data-date="${day(30)}"]`).click();
    await page.locator(`[data-date="${day(32)}"]`).click();
    await field(page, 'colour').getByRole('radio', { name: 'Green' }).click();
    await field(page, 'colours').getByRole('checkbox', { name: 'Red' }).check();
    await field(page, 'colours').getByRole('checkbox', { name: 'Blue' }).check();
    await page.getByRole('checkbox', { name: /^I accept the terms/ }).check();
    await field(page, 'interests').getByRole('treeitem', { name: 'Software' }).click();
    await field(page, 'main_interest').getByRole('treeitem', { name: 'Hardware' }).click();
    await field(page, 'country').locator('select').selectOption({ label: 'Netherlands' });
    await page.getByRole('switch', { name: /Send me the printed programme/ }).click(); // on by default: now off
    await page.getByRole('slider', { name: /^Budget/ }).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await field(page, 'city').getByRole('button').click();
    await page.getByRole('dialog', { name: 'City' }).getByRole('option', { name: 'Brussels' }).click();
    await page.getByRole('checkbox', { name: CONSENT }).check();
  }

  it('at 375 px: every element type in the style, errors for missing answers, a registration, the thanks page and the mail', async () => {
    const { page, context, errors } = await newPage(browser, server.baseUrl, PHONE);
    const violations: string[] = [];
    page.on('console', (m) => m.type() === 'error' && /Content Security Policy/i.test(m.text()) && violations.push(m.text()));
    try {
      await page.goto(`/register/${ids.open}`);
      await page.getByRole('heading', { level: 1, name: 'Join the Autumn Expo' }).waitFor();
      // the style: its description, its custom CSS as a stylesheet from the public route, the colour really applied
      expect(await page.getByText('Free entry for trade visitors.').innerText()).toBe('Free entry for trade visitors.\nYour badge comes by e-mail.');
      // the event's description below it, rich text as stored: bold, a link to a new tab, no handler, nothing run
      const description = page.locator('.ls-public-event-description');
      expect(await description.innerText()).toBe('Doors open at nine. Floor plan');
      expect(await description.locator('strong').innerText()).toBe('nine');
      expect(await description.getByRole('link', { name: 'Floor plan' }).evaluate((a) => [a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')])).toEqual([
        'https://expo.example.com/plan',
        '_blank',
        'noopener noreferrer',
      ]);
      expect(await description.evaluate((d) => d.innerHTML)).not.toContain('onclick');
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await page.locator('link[rel=stylesheet][data-ls-custom-css]').getAttribute('href')).toBe(`/api/1/register/${ids.open}/style.css`);
      await page.waitForFunction(() => getComputedStyle(document.querySelector('.ls-public-title')!).color === 'rgb(10, 90, 45)');
      expect(await page.locator('.ls-public-submit').evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(10, 125, 59)');
      // every element type is drawn, required ones marked
      expect(await page.locator('.ls-public-form .ls-form > [data-name]').evaluateAll((n) => n.map((e) => e.getAttribute('data-name')))).toEqual([
        'email',
        'first_name',
        'last_name',
        'notes',
        'days',
        'colour',
        'colours',
        'terms',
        'interests',
        'main_interest',
        'country',
        'newsletter',
        'budget',
        'city',
      ]);
      expect(await page.getByRole('textbox', { name: /^E-mail/ }).getAttribute('aria-required')).toBe('true');
      // Announced by its label alone: the mark's "required" (a tooltip) joined to it read "E-mailrequired".
      expect(await page.getByRole('textbox', { name: 'E-mail', exact: true }).count()).toBe(1);
      await page.getByText('Fields marked * are required.').waitFor();
      await page.getByRole('checkbox', { name: CONSENT }).waitFor();
      expect(await noSideScroll(page)).toBe(true);
      await shot(page, 'register-form');

      // a submit with nothing filled in: the errors under the fields, the first one focused, nothing sent
      await page.getByRole('button', { name: 'Register' }).click();
      await page.getByText('Please check the fields marked below.').waitFor();
      expect(await field(page, 'email').getByText('This field is required').count()).toBe(1);
      expect(await field(page, 'colour').getByText('This field is required').count()).toBe(1);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('email');
      expect(await noSideScroll(page)).toBe(true);
      await shot(page, 'register-errors');

      await fillEveryType(page, 'Rosa.Registrant@Example.com');
      await page.getByRole('button', { name: 'Register' }).click();
      await page.getByRole('heading', { level: 1, name: 'See you at the Autumn Expo' }).waitFor();
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('See you at the Autumn Expo');
      const link = page.getByRole('link', { name: /Plan your visit/ });
      expect(await link.getAttribute('href')).toBe('https://expo.example.com/plan');
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await noSideScroll(page)).toBe(true);
      await shot(page, 'register-thanks');

      const mail = await mailTo('rosa.registrant@example.com');
      expect(mail.subject).toBe('Welcome to the Autumn Expo, Rosa'); // the style's subject, the built-in body
      expect(mail.text).toContain('Thank you for registering for Autumn Expo');
      expect(errors).toEqual([]);
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("at 1200 px: the server's field errors (lead_incomplete) under the field, then the registration goes through", async () => {
    const { page, context, errors } = await newPage(browser, server.baseUrl, WIDE);
    try {
      await page.goto(`/register/${ids.open}`);
      await page.getByRole('heading', { level: 1, name: 'Join the Autumn Expo' }).waitFor();
      await page.getByRole('textbox', { name: /^E-mail/ }).fill('wide@example.com');
      await page.getByRole('textbox', { name: /^First name/ }).fill('Wim');
      await field(page, 'colour').getByRole('radio', { name: 'Red' }).click();
      await page.getByRole('checkbox', { name: /^I accept the terms/ }).check();
      // the organiser makes the last name required while the visitor is on the page: only the server knows
      const changed = await root.call('PUT', `${base}/form-elements/${ids.el_last_name}`, { fe_is_required: true });
      expect(changed.status).toBe(200);
      await page.getByRole('button', { name: 'Register' }).click();
      await page.getByText('Please complete all mandatory fields').waitFor();
      expect(await field(page, 'last_name').getByText('This field is required').count()).toBe(1);
      await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.id ?? '')).toMatch(/last_name/);
      expect(await noSideScroll(page)).toBe(true);
      await shot(page, 'register-server-errors');

      await page.getByRole('textbox', { name: /^Last name/ }).fill('Wide');
      await page.getByRole('button', { name: 'Register' }).click();
      await page.getByRole('heading', { level: 1, name: 'See you at the Autumn Expo' }).waitFor();
      await shot(page, 'register-thanks');
      await mailTo('wide@example.com');
      expect(errors).toEqual([]);
    } finally {
      await root.call('PUT', `${base}/form-elements/${ids.el_last_name}`, { fe_is_required: false });
      await context.close();
    }
  });

  it('a closed event says so in its style, with no form; an event without a form says the manager must create one', async () => {
    for (const viewport of [PHONE, WIDE]) {
      const { page, context, errors } = await newPage(browser, server.baseUrl, viewport);
      try {
        await page.goto(`/register/${ids.closed}`);
        await page.getByRole('heading', { level: 1, name: 'Spring Fair registration' }).waitFor();
        await page.getByText('Registration for this event is closed.').waitFor();
        expect(await page.locator('.ls-public-form').count()).toBe(0);
        expect(await page.getByRole('button', { name: 'Register' }).count()).toBe(0);
        expect(await noSideScroll(page)).toBe(true);
        await shot(page, 'register-closed');

        await page.goto(`/register/${ids.noForm}`);
        await page.getByRole('heading', { level: 1, name: 'Planning Meeting' }).waitFor();
        await page.getByText('The event manager needs to create a details form').waitFor();
        expect(await page.getByRole('button', { name: 'Register' }).count()).toBe(0);
        await shot(page, 'register-no-form');

        await page.goto('/register/6f1c1f9e-3b0c-4c4e-9a55-0d7d8c1b2a3f');
        await page.getByText('This page does not exist.').waitFor();
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });

  it('a restricted event asks for the access code first: a wrong one is refused under the field, the right one opens the form', async () => {
    const { page, context, errors } = await newPage(browser, server.baseUrl, PHONE);
    try {
      await page.goto(`/register/${ids.restricted}`);
      await page.getByRole('heading', { level: 1, name: 'Partner Day' }).waitFor();
      const code = page.getByRole('textbox', { name: 'Access code' });
      await code.waitFor();
      expect(await page.locator('.ls-public-form [data-name]').count()).toBe(0); // no form before the code
      expect(await noSideScroll(page)).toBe(true);
      await shot(page, 'register-access-code');

      await code.fill('guess');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('alert').filter({ hasText: 'The access code is not correct' }).waitFor();
      expect(await code.getAttribute('aria-invalid')).toBe('true');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('ls-public-access-code');
      await shot(page, 'register-access-code-wrong');

      await code.fill('partner-42');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('textbox', { name: /^E-mail/ }).waitFor();
      await page.getByRole('textbox', { name: /^E-mail/ }).fill('partner@example.com');
      await page.getByRole('textbox', { name: /^First name/ }).fill('Pia');
      await field(page, 'colour').getByRole('radio', { name: 'Blue' }).click();
      await page.getByRole('checkbox', { name: /^I accept the terms/ }).check();
      await page.getByRole('button', { name: 'Register' }).click();
      await page.getByRole('heading', { level: 1, name: 'Thank you!' }).waitFor();
      const mail = await mailTo('partner@example.com');
      expect(mail.subject).toBe('Your registration for Partner Day');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
    // at 1200 px in Dutch (the browser's language)
    const opened = await browser.newContext({ baseURL: server.baseUrl, viewport: WIDE, locale: 'nl-NL', colorScheme: 'light' });
    try {
      const page = await opened.newPage();
      await page.goto(`/register/${ids.restricted}`);
      await page.getByRole('textbox', { name: 'Toegangscode' }).fill('fout');
      await page.getByRole('button', { name: 'Verder' }).click();
      await page.getByText('De toegangscode klopt niet').waitFor();
      await shot(page, 'register-access-code-nl');
    } finally {
      await opened.close();
    }
  });

  it('the leads are in the database as the pages sent them', async () => {
    await server.stop(); // PGlite serves one process: read it once the server is gone
    const db = pgUrl ? knexFactory({ client: 'pg', connection: pgUrl, pool: { min: 0, max: 1 } }) : createKnex({ pgliteDir: path.join(dataDir, 'db') });
    try {
      const leads: Row[] = await db('leads').orderBy('ld_created_at');
      expect(leads.map((l) => [l.ld_eventid, l.ld_email])).toEqual([
        [ids.open, 'rosa.registrant@example.com'],
        [ids.open, 'wide@example.com'],
        [ids.restricted, 'partner@example.com'],
      ]);
      const rosa = leads[0];
      expect(rosa).toMatchObject({ ld_source: 'registration', ld_first_name: 'Rosa', ld_last_name: 'Registrant', ld_consent_news: true, ld_consent_text: CONSENT });
      expect(rosa.ld_answers).toEqual({
        email: 'Rosa.Registrant@Example.com',
        first_name: 'Rosa',
        last_name: 'Registrant',
        notes: 'Vegetarian lunch, please.',
        days: [day(30), day(32)],
        colour: 'green',
        colours: ['red', 'blue'],
        terms: true,
        interests: expect.arrayContaining(['software', 'crm', 'erp']),
        main_interest: 'hardware',
        country: 'netherlands',
        newsletter: false,
        budget: 10,
        city: 'brussels',
      });
      expect(leads[1]).toMatchObject({ ld_last_name: 'Wide', ld_consent_news: false });
      expect(leads[2]).toMatchObject({ ld_first_name: 'Pia', ld_consent_news: false });
    } finally {
      await db.destroy();
    }
  });
});
