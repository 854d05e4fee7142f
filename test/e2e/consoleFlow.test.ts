import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { ensureAdminBuilt, linkFromMail, startServer, waitForMail, type E2eServer } from './support/server';
import { DESKTOP, HAS_CHROMIUM, launch, newPage, PHONE, shot, signInByApi, SKIP_REASON } from './support/browser';
import { choose, control, helperText, ListScreen, LoginScreen } from './support/pages';
import { ApiClient } from './support/api';
import { cardPhotoJpeg } from './support/cardPhoto';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

const PASSWORD = 'console-flow-pass-1';

/** The designer's 12 element types: the type's label in the add menu, the title typed, and whether it needs a list. */
const ELEMENTS = [
  { type: 'text', label: 'Text', title: 'Email', list: false },
  { type: 'textarea', label: 'Text area', title: 'Remarks', list: false },
  { type: 'date_selector_days', label: 'Day selector', title: 'Visit day', list: false },
  { type: 'choice_chips_single', label: 'Chips (one choice)', title: 'Region', list: true },
  { type: 'choice_chips_multiple', label: 'Chips (several choices)', title: 'Regions of interest', list: true },
  { type: 'checkbox', label: 'Checkbox', title: 'I agree', list: false },
  { type: 'checkbox_tree', label: 'Checkbox tree', title: 'Markets', list: true },
  { type: 'radio_tree', label: 'Radio tree', title: 'Home country', list: true },
  { type: 'selectbox', label: 'Select box', title: 'Office', list: true },
  { type: 'toggle', label: 'Toggle', title: 'Newsletter', list: false },
  { type: 'slider', label: 'Slider', title: 'Budget', list: false },
  { type: 'picker', label: 'Picker', title: 'Distributor country', list: true },
] as const;

const CSV = 'title,value,parent_value\nEurope,europe,\nNetherlands,nl,europe\nBelgium,be,europe\nAsia,asia,\nJapan,jp,asia\nTokyo,tokyo,jp\n';

/**
 * The account console end to end in Chromium, as a root user: a list imported from a CSV file on its page, a form
 * built in the designer with all 12 element types (the list types on that list), an element dragged with the mouse,
 * the preview, an event with that form as its registration form and on its Forms tab (reordered by mouse and
 * keyboard, one removed), an integration on its Integrations tab; an invitation from the Invites screen, accepted
 * through the outbox link in a fresh browser by a new user, who lands in the console and sees events read-only.
 * Then every console screen at 1280 and 375 px (no sideways scrolling at 375), for a person to look at, the lead
 * screens and statistics with two business cards Nina captured (photo and lead through the API): at 1280 px each
 * loaded at its own address, at 375 px and in Dutch reached inside the running app.
 */
describe.skipIf(!HAS_CHROMIUM)('console flow in the browser', () => {
  let server: E2eServer;
  let browser: Browser;
  let root: ApiClient;
  let accountId = '';
  const ids: Record<string, string> = {};

  const api = async <T = unknown>(path: string) => {
    const res = await root.call<T>('GET', `/accounts/${accountId}${path}`);
    expect(res.status, path).toBe(200);
    return res.body;
  };
  const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  /** The outermost elements that reach past the window's right edge (what makes a page scroll sideways). */
  const widest = (page: Page) =>
    page.evaluate(() => {
      const out: string[] = [];
      const walk = (el: Element) => {
        const r = el.getBoundingClientRect();
        if (r.right > document.documentElement.clientWidth + 1 && r.width > 0 && getComputedStyle(el).position !== 'fixed') {
          out.push(`${el.tagName.toLowerCase()}.${String(el.className).split(' ').slice(0, 2).join('.')} (${Math.round(r.left)}–${Math.round(r.right)})`);
          return;
        }
        for (const c of el.children) walk(c);
      };
      walk(document.body);
      return out.slice(0, 5).join(', ');
    });
  const at = (page: Page, path: string) => page.waitForURL((u) => u.pathname === `/console/${accountId}${path}`);
  /**
   * Moves the page's running app to `path` of the console the way the browser's back and forward buttons do (the
   * history changes, react-router follows its popstate) instead of loading the whole app again (some 1.4 s a screen on
   * a 2-core machine). It passes through the console's access-denied page first, which has none of the screens'
   * contents, so nothing of the screen before can pass for the next one being ready.
   */
  const navigate = async (page: Page, path: string) => {
    const go = (url: string) =>
      page.evaluate((to) => {
        history.pushState(null, '', to);
        dispatchEvent(new PopStateEvent('popstate'));
      }, url);
    await go(`/console/${accountId}/access-denied`);
    await page.locator('#main-content').getByTestId('access-denied').waitFor();
    await go(`/console/${accountId}${path}`);
  };
  const signInAsRoot = async (page: Page) => {
    const login = new LoginScreen(page);
    await login.open();
    await login.signIn(server.adminEmail, server.adminPassword);
    await page.waitForURL('**/accounts/selection');
  };

  beforeAll(async () => {
    ensureAdminBuilt();
    server = await startServer();
    browser = await launch();
    root = new ApiClient(server.baseUrl);
    await root.login(server.adminEmail, server.adminPassword);
    accountId = (await root.create<{ id: string }>('/accounts', { a_name: 'Northwind Expo', a_is_enabled: true })).id;
    // A second form for the event's Forms tab, a form style, an integration and a mail template: so every screen has a record.
    ids.qualification = (await root.create(`/accounts/${accountId}/forms`, { f_title: 'Lead qualification', f_name: 'qualification' })).id;
    ids.style = (await root.create(`/accounts/${accountId}/form-styles`, { st_title: 'Northwind blue', st_form_title: 'Welcome to Northwind Expo' })).id;
    ids.integration = (
      await root.create(`/accounts/${accountId}/integrations`, {
        in_title: 'Badge provider',
        in_name: 'badges',
        in_type: 'badge_scan',
        in_api_url: 'https://badges.invalid/scan',
        in_key: 'key-1',
        in_secret: 'secret-1',
      })
    ).id;
    ids.template = (
      await root.create(`/accounts/${accountId}/mail-templates`, {
        mt_name: 'invite',
        mt_subject: 'Join {{account_name}}',
        mt_html: '<p>Hello {{first_name}}, follow <a href="{{link}}">this link</a>.</p>',
        mt_text: 'Hello {{first_name}}, follow {{link}}',
      })
    ).id;
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('imports a list, designs a form with all 12 element types, and makes an event with it (1280 px)', async () => {
    const { page, context, errors } = await newPage(browser, server.baseUrl, DESKTOP);
    page.setDefaultTimeout(20_000);
    try {
      await signInAsRoot(page);
      await page.goto(`/console/${accountId}`);
      await page.getByTestId('console-account-name').getByText('Northwind Expo').waitFor();

      // A new list opens on its own page, where a CSV file is imported into it.
      await page.getByRole('menuitem', { name: 'Lists' }).click();
      await at(page, '/lists');
      await page.getByTestId('create-button').first().click();
      await at(page, '/lists/new');
      await page.locator('[name=l_title]').fill('Countries');
      await page.locator('[name=l_name]').fill('countries');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL((u) => /\/lists\/[0-9a-f-]{36}$/.test(u.pathname));
      ids.list = page.url().split('/').pop()!;
      await page.getByText('This list has no items yet.').waitFor();
      await page.locator('input[type=file]').setInputFiles({ name: 'countries.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
      await page.getByTestId('list-import-success').waitFor();
      expect(await page.getByTestId('list-import-success').innerText()).toContain('6 items were added to the list.');
      await shot(page, 'flow-list-imported');
      await page.getByRole('button', { name: 'Close' }).click();
      await page
        .getByRole('treeitem', { name: /Netherlands/ })
        .or(page.getByText('Netherlands'))
        .first()
        .waitFor();
      const tree = await api<{ li_title: string; children: { li_title: string }[] }[]>(`/lists/${ids.list}/tree`);
      expect(tree.map((n) => [n.li_title, n.children.map((c) => c.li_title)])).toEqual([
        ['Europe', ['Netherlands', 'Belgium']],
        ['Asia', ['Japan']],
      ]);

      // A new form opens in the designer.
      await page.getByRole('menuitem', { name: 'Forms' }).click();
      await at(page, '/forms');
      await page.getByTestId('create-button').first().click();
      await page.locator('[name=f_title]').fill('Visitor registration');
      await page.locator('[name=f_name]').fill('visitor');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL((u) => /\/forms\/[0-9a-f-]{36}$/.test(u.pathname));
      ids.form = page.url().split('/').pop()!;
      await page.getByText('This form has no elements yet.').first().waitFor();

      // One element of each of the 12 types, the list types on the imported list; each saved.
      const editor = page.locator('.fd-panel--editor');
      for (const element of ELEMENTS) {
        await page.getByRole('button', { name: 'Add element' }).click();
        await page.getByRole('menuitem', { name: element.label, exact: true }).click();
        await page.keyboard.type(element.title);
        if (element.list) {
          await editor.getByRole('combobox', { name: 'List' }).click();
          await page.getByRole('option', { name: /^Countries/ }).click();
        }
        if (element.type === 'date_selector_days') {
          const days = editor.getByRole('group', { name: 'Days to choose from' });
          await days.getByLabel('Date').fill('2026-09-14');
          await days.getByRole('button', { name: 'Add' }).click();
        }
        await editor.getByRole('button', { name: 'Save' }).click();
        await editor.getByText('Saved', { exact: true }).waitFor();
      }
      type Element = { fe_title: string; fe_type: string; fe_listid: string | null; fe_name: string };
      const stored = async () => (await api<{ elements: Element[] }>(`/forms/${ids.form}/graph`)).elements;
      const made = await stored();
      expect(made.map((e) => e.fe_type)).toEqual(ELEMENTS.map((e) => e.type));
      for (const e of made) expect(e.fe_listid, e.fe_title).toBe(ELEMENTS.find((x) => x.type === e.fe_type)!.list ? ids.list : null);
      expect(made[0].fe_name).toBe('email');

      // The picker, last, dragged by its handle with the mouse above "Markets": the API stores the order.
      const rowTitles = () => page.locator('.fd-row .fd-row-title').evaluateAll((nodes) => nodes.map((n) => (n.firstChild?.textContent ?? '').trim()));
      const handle = page.getByRole('button', { name: 'Move Distributor country', exact: true });
      await handle.scrollIntoViewIfNeeded();
      const from = (await handle.boundingBox())!;
      const target = (await page.locator('.fd-row', { hasText: 'Markets' }).boundingBox())!;
      const saved = page.waitForResponse((r) => r.url().endsWith('/form-elements/order') && r.request().method() === 'PUT');
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(from.x + from.width / 2, target.y + target.height * 0.25, { steps: 20 });
      await page.mouse.up();
      expect((await saved).status()).toBe(200);
      const titles = ELEMENTS.map((e) => e.title);
      const order = [...titles.slice(0, 6), 'Distributor country', ...titles.slice(6, 11)];
      await expect.poll(rowTitles).toEqual(order);
      expect((await stored()).map((e) => e.fe_title)).toEqual(order);

      // The preview draws every element in the new order, the list types with the imported items.
      const preview = page.locator('.fd-preview');
      await expect.poll(() => preview.locator('.ls-form > [data-name]').count()).toBe(12);
      const names = await preview.locator('.ls-form > [data-name]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-name')));
      expect(names[6]).toBe('distributor_country');
      await preview.getByRole('radiogroup', { name: 'Region' }).getByText('Europe').waitFor();
      await preview.getByRole('tree', { name: 'Home country' }).waitFor();
      await preview.getByRole('switch', { name: 'Newsletter' }).waitFor();
      await preview.getByRole('slider', { name: 'Budget' }).waitFor();
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await shot(page, 'flow-form-designer');

      // An event with that form as its registration form.
      await page.getByRole('menuitem', { name: 'Events' }).click();
      await at(page, '/events');
      await page.getByTestId('create-button').first().click();
      await page.locator('[name=ev_title]').fill('Northwind Spring Expo');
      await page.locator('[name=ev_name]').fill('spring-expo');
      await choose(page, 'ev_access_type', 'Open');
      await choose(page, 'ev_registration_formid', 'Visitor registration');
      await page.getByRole('button', { name: 'Save' }).click();
      await at(page, '/events');
      const list = new ListScreen(page);
      await list.row('Northwind Spring Expo').click();
      await page.waitForURL((u) => /\/events\/[0-9a-f-]{36}$/.test(u.pathname));
      ids.event = page.url().split('/').pop()!;
      await expect.poll(() => control(page, 'ev_registration_formid').innerText()).toContain('Visitor registration');
      const event = await api<{ ev_registration_formid: string }>(`/events/${ids.event}`);
      expect(event.ev_registration_formid).toBe(ids.form);

      // Its Forms tab: add both forms, the second dragged above the first, then back by keyboard; remove one.
      await page.getByRole('tab', { name: 'Forms' }).click();
      await page.waitForURL((u) => u.searchParams.get('tab') === 'forms');
      await page.getByTestId('event-forms-empty').waitFor();
      const addForm = async (title: string) => {
        await choose(page, 'ef_formid', title);
        await page.getByTestId('event-forms-add').click();
        await page.getByTestId('event-forms-list').getByText(title).waitFor();
      };
      await addForm('Visitor registration');
      await addForm('Lead qualification');
      type EventForm = { ef_formid: string; id: string };
      const eventForms = async () =>
        (
          await api<EventForm[]>(
            `/event-forms?filter=${encodeURIComponent(JSON.stringify({ ef_eventid: ids.event }))}&sort=${encodeURIComponent('["ef_order","ASC"]')}&range=[0,99]`,
          )
        ).map((f) => f.ef_formid);
      expect(await eventForms()).toEqual([ids.form, ids.qualification]);
      const formTitles = () => page.getByTestId('event-form-title').allInnerTexts();
      // a form already on the event is not offered again: with both on it, there is nothing left to add
      await page.getByText('Every form of this account is on this event.').waitFor();
      expect(await page.locator('[name=ef_formid]').count()).toBe(0);

      const drag = async (handleOf: Locator, over: Locator, fraction: number) => {
        const a = (await handleOf.boundingBox())!;
        const b = (await over.boundingBox())!;
        await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
        await page.mouse.down();
        await page.mouse.move(a.x + a.width / 2, b.y + b.height * fraction, { steps: 12 });
        await page.getByTestId('sortable-drop-line').waitFor();
        await page.mouse.up();
      };
      let order$ = page.waitForResponse((r) => r.url().endsWith('/event-forms/order') && r.request().method() === 'PUT');
      await drag(page.getByRole('button', { name: 'Move Lead qualification', exact: true }), page.getByTestId('event-forms-list').locator('li').first(), 0.2);
      expect((await order$).status()).toBe(200);
      await expect.poll(formTitles).toEqual(['Lead qualification', 'Visitor registration']);
      expect(await eventForms()).toEqual([ids.qualification, ids.form]);
      await shot(page, 'flow-event-forms');

      order$ = page.waitForResponse((r) => r.url().endsWith('/event-forms/order') && r.request().method() === 'PUT');
      await page.getByRole('button', { name: 'Move Visitor registration', exact: true }).focus();
      await page.keyboard.press('Space');
      await page.keyboard.press('ArrowUp');
      await expect.poll(() => page.getByTestId('sortable-announcer').innerText()).toContain('Visitor registration: position 1 of 2.');
      await page.keyboard.press('Space');
      expect((await order$).status()).toBe(200);
      await expect.poll(formTitles).toEqual(['Visitor registration', 'Lead qualification']);
      expect(await eventForms()).toEqual([ids.form, ids.qualification]);

      await page.getByRole('button', { name: 'Remove Lead qualification' }).click();
      await page.getByRole('dialog').getByText('Remove the form "Lead qualification" from this event?').waitFor();
      await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
      await expect.poll(formTitles).toEqual(['Visitor registration']);
      expect(await eventForms()).toEqual([ids.form]);

      // Its Integrations tab: the provider with the event's id there, then the id changed.
      await page.getByRole('tab', { name: 'Integrations' }).click();
      await page.getByTestId('event-integrations-empty').waitFor();
      await choose(page, 'ei_integrationid', 'Badge provider');
      await page.locator('[name=ei_external_event_id]').fill('NW-SPRING');
      await page.getByTestId('event-integrations-add').click();
      const row = page.getByTestId('event-integration');
      await row.getByText('Badge provider').waitFor();
      await row.locator('[name=ei_external_event_id]').fill('NW-SPRING-26');
      await row.getByRole('button', { name: 'Save' }).click();
      await page.getByText('The event id at Badge provider is saved.').waitFor();
      const linked = await api<{ ei_integrationid: string; ei_external_event_id: string }[]>(
        `/event-integrations?filter=${encodeURIComponent(JSON.stringify({ ei_eventid: ids.event }))}`,
      );
      expect(linked.map((l) => [l.ei_integrationid, l.ei_external_event_id])).toEqual([[ids.integration, 'NW-SPRING-26']]);
      await shot(page, 'flow-event-integrations');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 240_000);

  it('invites a member by e-mail, who accepts in a fresh browser and sees events read-only', async () => {
    const admin = await newPage(browser, server.baseUrl, DESKTOP);
    try {
      const page = admin.page;
      await signInAsRoot(page);
      // A root user adds an existing user who is not a member yet, with a role.
      await root.create('/users', {
        u_email: 'piet@example.com',
        u_first_name: 'Piet',
        u_last_name: 'Jansen',
        u_password: PASSWORD,
        u_password_confirm: PASSWORD,
        u_is_verified: true,
      });
      await page.goto(`/console/${accountId}/members`);
      await page.getByTestId('list-empty').waitFor();
      await page.getByTestId('create-button').first().click();
      await at(page, '/members/new');
      await choose(page, 'au_userid', /^Piet Jansen · piet@example\.com$/);
      await choose(page, 'au_role', 'Admin');
      await page.getByRole('button', { name: 'Save' }).click();
      await at(page, '/members');
      await new ListScreen(page).row('piet@example.com').waitFor();
      expect((await api<{ u_email: string; au_role: string }[]>('/members')).map((m) => [m.u_email, m.au_role])).toEqual([['piet@example.com', 'admin']]);

      await page.goto(`/console/${accountId}/invites`);
      await page.getByTestId('list-empty').waitFor();
      await page.getByTestId('create-button').first().click();
      await at(page, '/invites/new');
      await page.locator('[name=iv_email]').fill('nina.visser@example.com');
      await page.locator('[name=iv_first_name]').fill('Nina');
      await page.locator('[name=iv_last_name]').fill('Visser');
      await shot(page, 'flow-invite-new');
      await page.getByRole('button', { name: 'Save' }).click();
      await at(page, '/invites');
      const row = new ListScreen(page).row('nina.visser@example.com');
      await row.getByTestId('invite-status').getByText('Pending').waitFor();
      expect(await row.getByRole('button', { name: 'Send the invitation to nina.visser@example.com again' }).count()).toBe(1);
      // The same address again: the contract's 409 under the e-mail.
      await page.getByTestId('create-button').first().click();
      await page.locator('[name=iv_email]').fill('nina.visser@example.com');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => helperText(page, 'iv_email')).not.toBe('');
      await page.getByTestId('cancel').click();
      expect(admin.errors).toEqual([]);
    } finally {
      await admin.context.close();
    }

    // The mail's link, in a browser of its own: a new user chooses names and a password and lands in the console.
    const mail = await waitForMail(server, 'nina.visser@example.com', /\/invite\//);
    const link = linkFromMail(mail, '/invite/');
    expect(link).toBeTruthy();
    const invited = await newPage(browser, server.baseUrl, PHONE);
    try {
      const page = invited.page;
      await page.goto(new URL(link!).pathname);
      await page.getByTestId('invite-ready').waitFor();
      expect(await page.locator('#u_first_name').inputValue()).toBe('Nina');
      await page.locator('#u_password').fill(PASSWORD);
      await page.locator('#u_password_confirm').fill(PASSWORD);
      await page.locator('#u_password_confirm').press('Enter');
      await at(page, '');
      await page.getByTestId('figure-members').waitFor();
      await shot(page, 'flow-member-home');

      // Events read-only: no create button, a row opens nothing, the edit address is closed.
      await page.goto(`/console/${accountId}/events`);
      const list = new ListScreen(page);
      await list.row('Northwind Spring Expo').waitFor();
      expect(await page.getByTestId('create-button').count()).toBe(0);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await shot(page, 'flow-member-events');
      await list.row('Northwind Spring Expo').click();
      await page.waitForTimeout(500);
      expect(new URL(page.url()).pathname).toBe(`/console/${accountId}/events`);
      await page.goto(`/console/${accountId}/events/${ids.event}`);
      await page.getByText('No access').first().waitFor();
      expect(await page.locator('[name=ev_title]').count()).toBe(0);
      expect(invited.errors).toEqual([]);
    } finally {
      await invited.context.close();
    }
    const invites = await api<{ iv_email: string; iv_status: string }[]>('/invites');
    expect(invites.map((i) => [i.iv_email, i.iv_status])).toEqual([['nina.visser@example.com', 'accepted']]);
  }, 180_000);

  it('shows every console screen at 1280 and 375 px without sideways scrolling', async () => {
    const members = await api<{ id: string; u_email: string; au_userid: string }[]>('/members');
    const nina = members.find((m) => m.u_email === 'nina.visser@example.com')!;
    const invite = (await api<{ id: string }[]>('/invites'))[0];
    // A pending invite as well (its edit page has resend and revoke).
    ids.pending = (await root.create(`/accounts/${accountId}/invites`, { iv_email: 'omar@example.com', iv_first_name: 'Omar' })).id;
    // Two business cards Nina captured at the event (photo first, then the lead): the leads list, a lead page with its
    // photo and the transcription queue have something to show, and the statistics of the last 30 days count them.
    const booth = new ApiClient(server.baseUrl);
    await booth.login('nina.visser@example.com', PASSWORD);
    for (const card of [
      { name: 'Grace Hopper', line: 'Compiler Works · Rear admiral', email: 'grace@hopper.example', phone: '+1 555 0100' },
      { name: 'Edsger Dijkstra', line: 'Mathematisch Centrum', email: 'edsger@example.nl', phone: '+31 20 555 0199' },
    ]) {
      const photo = crypto.randomUUID();
      const put = await booth.sendBytes('PUT', `/accounts/${accountId}/lead-files/${photo}`, await cardPhotoJpeg(browser, card), 'image/jpeg');
      expect(put.status, JSON.stringify(put.body)).toBe(201);
      ids.lead = (await booth.create(`/accounts/${accountId}/leads`, { ld_eventid: ids.event, ld_source: 'card', ld_front_fileid: photo, ld_answers: {} })).id;
    }
    const screens: [string, string, string][] = [
      ['home', '', 'figure-members'],
      ['settings', '/settings', 'secret-ls_customer_api_key'],
      ['members', '/members', 'list'],
      ['members-new', '/members/new', 'form'],
      ['member-edit', `/members/${nina.id}`, 'form'],
      ['invites', '/invites', 'list'],
      ['invites-new', '/invites/new', 'form'],
      ['invite-edit-pending', `/invites/${ids.pending}`, 'form'],
      ['invite-edit-accepted', `/invites/${invite.id}`, 'invite-closed'],
      ['events', '/events', 'list'],
      ['events-new', '/events/new', 'form'],
      ['event-edit', `/events/${ids.event}`, 'form'],
      ['event-edit-forms', `/events/${ids.event}?tab=forms`, 'event-forms'],
      ['event-edit-integrations', `/events/${ids.event}?tab=integrations`, 'event-integrations'],
      ['forms', '/forms', 'list'],
      ['forms-new', '/forms/new', 'form'],
      ['form-edit', `/forms/${ids.form}`, 'designer'],
      ['lists', '/lists', 'list'],
      ['lists-new', '/lists/new', 'form'],
      ['list-edit', `/lists/${ids.list}`, 'tree'],
      ['form-styles', '/form-styles', 'list'],
      ['form-styles-new', '/form-styles/new', 'form'],
      ['form-style-edit', `/form-styles/${ids.style}`, 'form'],
      ['integrations', '/integrations', 'list'],
      ['integrations-new', '/integrations/new', 'form'],
      ['integration-edit', `/integrations/${ids.integration}`, 'integration-test-scan'],
      ['mail-templates', '/mail-templates', 'list'],
      ['mail-templates-new', '/mail-templates/new', 'form'],
      ['mail-template-edit', `/mail-templates/${ids.template}`, 'mt-preview-subject'],
      ['leads', '/leads', 'list'],
      ['lead-edit', `/leads/${ids.lead}`, 'lead-photos'],
      ['transcription', '/transcription', 'queue-item'],
      ['statistics', '/statistics', 'stats-table'],
    ];
    const ready = (page: Page, what: string) => {
      switch (what) {
        case 'list':
          return new ListScreen(page).rows().first().waitFor();
        case 'form':
          return page.locator('form .MuiToolbar-root, [data-testid=members-join-by-invite]').first().waitFor();
        case 'designer':
          return page.locator('.fd-preview .ls-form > [data-name]').nth(11).waitFor({ state: 'attached' });
        case 'tree':
          return page.getByText('Europe').first().waitFor();
        default:
          return page.getByTestId(what).first().waitFor();
      }
    };
    for (const viewport of [DESKTOP, PHONE]) {
      const { page, context, errors } = await newPage(browser, server.baseUrl, viewport);
      page.setDefaultTimeout(20_000);
      try {
        await signInByApi(context, server.adminEmail, server.adminPassword);
        if (viewport === DESKTOP) {
          // The owner picker offers the account's members by names and e-mail, and stores the user.
          await page.goto(`/console/${accountId}/events/${ids.event}`);
          await choose(page, 'ev_ownerid', 'Nina Visser · nina.visser@example.com');
          await page.getByRole('button', { name: 'Save' }).click();
          await at(page, '/events');
          expect((await api<{ ev_ownerid: string }>(`/events/${ids.event}`)).ev_ownerid).toBe(nina.au_userid);
        }
        await page.mouse.move(0, viewport.height - 1); // hovering nothing (a hovered card or field would be in the screenshots)
        const wide: string[] = [];
        for (const [i, [name, path, what]] of screens.entries()) {
          // At 1280 px every screen is an address loaded on its own (the app starts there); at 375 px the app starts on
          // the first and moves to the others.
          if (viewport === DESKTOP || i === 0) await page.goto(`/console/${accountId}${path}`);
          else await navigate(page, path);
          await ready(page, what);
          // The width is measured after the screenshot's settling pause (not networkidle: a mail preview's frame may
          // wait on images of the template's own addresses).
          await shot(page, `screen-${name}`);
          if ((await overflow(page)) > 0) wide.push(`${name}: ${await widest(page)}`);
        }
        expect(wide, `screens wider than ${viewport.width} px`).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  }, 300_000);

  it('the hand-written screens in Dutch and the dark theme at 768, 1024 and 1200 px', async () => {
    const pending = ids.pending;
    const screens: [string, string, string][] = [
      ['members', '/members', 'Voornaam'],
      ['invite-edit', `/invites/${pending}`, 'Intrekken'],
      ['event-forms', `/events/${ids.event}?tab=forms`, 'Formulier toevoegen'],
      ['event-integrations', `/events/${ids.event}?tab=integrations`, 'Badgescan-aanbieders'],
      ['form-edit', `/forms/${ids.form}`, 'Element toevoegen'],
      ['list-edit', `/lists/${ids.list}`, 'Europe'],
      ['integration-edit', `/integrations/${ids.integration}`, 'Testscan'],
      ['mail-template-edit', `/mail-templates/${ids.template}`, 'Variabelen'],
      ['leads', '/leads', 'CSV downloaden'],
      ['lead-edit', `/leads/${ids.lead}`, 'Foto’s van het kaartje'],
      ['transcription', '/transcription', 'Over te typen'],
      ['statistics', '/statistics', 'Groeperen per'],
    ];
    for (const viewport of [
      { width: 768, height: 1024 },
      { width: 1024, height: 768 },
      { width: 1200, height: 900 },
    ]) {
      const { page, context, errors } = await newPage(browser, server.baseUrl, viewport);
      page.setDefaultTimeout(20_000);
      try {
        await signInByApi(context, server.adminEmail, server.adminPassword);
        await page.goto(`/console/${accountId}`);
        await page.getByTestId('locale-menu').click();
        await page.getByRole('menuitem', { name: 'Nederlands' }).click();
        await page
          .getByRole('button', { name: /thema|theme/i })
          .first()
          .click();
        await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe('rgb(244, 245, 250)');
        await page.mouse.move(0, viewport.height - 1); // away from the theme button (its tooltip would be in every screenshot)
        const wide: string[] = [];
        for (const [name, path, text] of screens) {
          await navigate(page, path);
          // the text in the screen itself (the menu has some of these words too)
          await page.locator('#main-content').getByText(text, { exact: false }).first().waitFor();
          await shot(page, `screen-nl-dark-${name}`);
          if ((await overflow(page)) > 0) wide.push(`${name}: ${await widest(page)}`);
        }
        expect(wide, `screens wider than ${viewport.width} px`).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  }, 300_000);
});
