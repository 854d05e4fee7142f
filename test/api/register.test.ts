import { afterAll, beforeAll, expect, it } from 'vitest';
import request from 'supertest';
import { describeEachDb } from '../helpers/db.js';
import { MISSING, queriesOf, uid, type Signed, type TestApp } from '../helpers/app.js';
import { accountPath, startConsoleApp } from '../helpers/console.js';
import { deliveredMailsTo, withFailingMailer } from '../helpers/mail.js';
import { createAsset } from '../helpers/assets.js';
import { PNG } from '../helpers/storage.js';
import { createApp } from '../../api/app.js';
import { BUILTIN_CONSENT_TEXT } from '../../resources/consent.js';
import { safeUrl } from '../../api/log.js';

type Row = Record<string, unknown>;

const day = (offset: number) => new Date(Date.now() + offset * 86400_000).toISOString().slice(0, 10);

/**
 * The public registration API (account-console.md section 4): GET /api/1/register/{eventId} per state, POST with every
 * code of the contract, the honeypot, the per-address limit, the upsert by e-mail, the consent text and the
 * confirmation mail (form style, the account's template, the built-in one; a failing relay keeps the lead).
 */
describeEachDb('public registration', (kind) => {
  let t: TestApp;
  let root: Signed;
  let a: string;
  let owner: string;
  let form: string;
  let list: string;
  const elementIds: Record<string, string> = {};

  const api = (path: string) => `${accountPath(a, path.split('/')[0])}${path.slice(path.split('/')[0].length)}`;
  async function create(path: string, body: Row): Promise<Row> {
    const res = await root.post(api(path), body);
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(201);
    return res.body;
  }

  beforeAll(async () => {
    ({ t, root, a } = await startConsoleApp(kind, 'Register'));
    const ownerUser = await t.user(`owner-${uid()}@example.com`, 'member', { u_first_name: 'Olga', u_last_name: 'Owner' });
    await t.member(a, ownerUser.u_id, 'admin');
    owner = ownerUser.u_id;
    list = String((await create('lists', { l_title: 'Colours', l_name: 'colours' })).id);
    const red = await create('list-items', { li_listid: list, li_title: 'Red' });
    await create('list-items', { li_listid: list, li_title: 'Dark red', li_parentid: red.id });
    await create('list-items', { li_listid: list, li_title: 'Blue' });
    form = String((await create('forms', { f_title: 'Registration', f_name: 'registration' })).id);
    const el = async (fe_type: string, fe_name: string, extra: Row = {}) => {
      const row = await create('form-elements', { fe_formid: form, fe_type, fe_name, fe_title: fe_name.replace(/_/g, ' '), ...extra });
      elementIds[fe_name] = String(row.id);
    };
    await el('text', 'email', { fe_is_required: true });
    await el('text', 'first_name', { fe_is_required: true });
    await el('text', 'last_name');
    await el('textarea', 'notes', { fe_options: { max_length: 200 } });
    await el('date_selector_days', 'days', { fe_options: { days: ['2026-12-01', '2026-12-02'], disabled: ['2026-12-02'] } });
    await el('choice_chips_single', 'colour', { fe_listid: list });
    await el('choice_chips_multiple', 'colours', { fe_listid: list });
    await el('checkbox', 'terms', { fe_is_required: true });
    await el('checkbox_tree', 'tree', { fe_listid: list });
    await el('radio_tree', 'one_of_tree', { fe_listid: list });
    await el('selectbox', 'select', { fe_listid: list });
    await el('toggle', 'follow_up', { fe_options: { default: true } });
    await el('slider', 'budget', { fe_options: { min: 0, max: 50, step: 5 } });
    await el('picker', 'pick', { fe_listid: list });
  });
  afterAll(() => t?.close());

  const answers = (email: string, extra: Row = {}): Row => ({
    email,
    first_name: 'Rita',
    last_name: 'Registrant',
    notes: '  Vegetarian lunch  ',
    days: ['2026-12-01'],
    colour: 'red',
    colours: ['red', 'blue'],
    terms: true,
    tree: ['red', 'dark_red'],
    one_of_tree: 'dark_red',
    select: 'blue',
    follow_up: false,
    budget: 25,
    pick: 'blue',
    ...extra,
  });

  async function event(extra: Row = {}): Promise<string> {
    const row = await create('events', { ev_title: `Expo ${uid()}`, ev_name: uid(), ev_access_type: 'open', ev_registration_formid: form, ev_ownerid: owner, ...extra });
    return String(row.id);
  }
  const visitor = () => t.client();
  const get = (id: string, query = '') => visitor().get(`/api/1/register/${id}${query}`);
  const post = (id: string, body: Row, client = visitor()) => client.post(`/api/1/register/${id}`, body);
  const leadsOf = (eventId: string): Promise<Row[]> => t.db('leads').where('ld_eventid', eventId).orderBy('ld_created_at');

  it('GET of an open event: the event, the form with its elements and list trees, the style, the consent text', async () => {
    const id = await event({
      ev_start_date: day(10),
      ev_end_date: day(12),
      ev_consent_text: 'Yes, send me the Expo news.',
      ev_description: '<p onclick="alert(1)">Hall 5, <strong>9–17 h</strong>.</p><script>alert(1)</script>',
    });
    const style = await create('form-styles', {
      st_title: 'Internal style name',
      st_eventid: id,
      st_form_title: 'Join the Expo',
      st_form_description: '<p>Free <em>entry</em>.</p><img src="x" onerror="alert(1)">',
      st_thanks_title: 'See you there',
      st_external_url_title: 'Floor plan',
      st_external_url: 'https://expo.example.com/plan',
      st_custom_css: ':root { --ls-form-accent: #aa0055; }',
      st_mail_subject: 'Secret subject',
      st_mail_html: '<p>secret</p>',
    });
    const res = await get(id);
    expect(res.status).toBe(200);
    expect(res.body.state).toBe('open');
    expect(res.body.event).toEqual({
      id,
      ev_id: id,
      ev_title: expect.stringMatching(/^Expo /),
      ev_start_date: day(10),
      ev_end_date: day(12),
      ev_access_type: 'open',
      ev_consent_text: 'Yes, send me the Expo news.',
      ev_description: '<p>Hall 5, <strong>9–17 h</strong>.</p>',
    });
    expect(res.body.consent_text).toBe('Yes, send me the Expo news.');
    expect(res.body.form.f_id).toBe(form);
    const elements = res.body.form.elements as Row[];
    expect(elements.map((e) => e.fe_name)).toEqual([
      'email',
      'first_name',
      'last_name',
      'notes',
      'days',
      'colour',
      'colours',
      'terms',
      'tree',
      'one_of_tree',
      'select',
      'follow_up',
      'budget',
      'pick',
    ]);
    expect(Object.keys(elements[0]).sort()).toEqual(['fe_id', 'fe_is_required', 'fe_listid', 'fe_name', 'fe_options', 'fe_title', 'fe_type']);
    const tree = elements.find((e) => e.fe_name === 'tree')!.items as Row[];
    expect(tree.map((n) => n.li_value)).toEqual(['red', 'blue']);
    expect((tree[0].children as Row[]).map((n) => n.li_value)).toEqual(['dark_red']);
    // the style's public fields only: no custom CSS (a stylesheet), no mail, no internal title, no account
    expect(res.body.style).toMatchObject({
      st_id: style.id,
      st_form_title: 'Join the Expo',
      st_form_description: '<p>Free <em>entry</em>.</p>',
      st_external_url: 'https://expo.example.com/plan',
    });
    for (const hidden of ['st_custom_css', 'st_mail_subject', 'st_mail_html', 'st_title', 'st_accountid']) expect(res.body.style).not.toHaveProperty(hidden);
    expect(JSON.stringify(res.body)).not.toContain(a); // nothing names the account
    expect(res.headers['cache-control']).toBe('no-store');

    const css = await visitor().get(`/api/1/register/${id}/style.css`);
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['x-content-type-options']).toBe('nosniff');
    expect(css.text).toBe(':root { --ls-form-accent: #aa0055; }');
  });

  it("GET: the style's logos and fonts as URLs of their assets (style_assets), the current version's", async () => {
    const id = await event();
    const logo = await createAsset(t, root, a, { as_title: 'Expo logo', as_name: `logo${uid()}` }, PNG, 'logo.png');
    await create('form-styles', { st_title: 'With a logo', st_eventid: id, st_form_logo_assetid: logo.id, st_thanks_logo_assetid: logo.id });
    const res = await get(id);
    expect(res.body.style).toMatchObject({ st_form_logo_assetid: logo.id, st_thanks_logo_assetid: logo.id });
    expect(res.body.style_assets).toEqual({ [String(logo.id)]: logo.url });
    const served = await visitor().get(String(logo.url));
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    // without a style, or a style without assets: none
    expect((await get(await event())).body.style_assets).toEqual({});
  });

  it('GET without a style or own consent text: style null, the built-in text in the asked or the browser language', async () => {
    const id = await event();
    const en = await get(id);
    expect(en.body.style).toBeNull();
    expect(en.body.event.ev_consent_text).toBeNull();
    expect(en.body.consent_text).toBe(BUILTIN_CONSENT_TEXT.en);
    expect((await visitor().get(`/api/1/register/${id}`, { headers: { 'Accept-Language': 'nl-NL,nl;q=0.9,en;q=0.5' } })).body.consent_text).toBe(BUILTIN_CONSENT_TEXT.nl);
    expect((await get(id, '?lang=nl')).body.consent_text).toBe(BUILTIN_CONSENT_TEXT.nl);
    expect((await visitor().get(`/api/1/register/${id}/style.css`)).status).toBe(404);
  });

  it('an unknown, malformed or upper-case id: 404 (upper case is the same id)', async () => {
    for (const id of [MISSING, 'not-an-id', '..%2F..']) {
      for (const res of [await get(id), await post(id, { answers: answers('x@example.com') }), await visitor().get(`/api/1/register/${id}/style.css`)]) {
        expect(res.status, id).toBe(404);
        expect(res.body.code).toBe('not_found');
      }
    }
    const id = await event();
    expect((await get(id.toUpperCase())).body.state).toBe('open');
  });

  it('closed: disabled, access type closed, end date passed, account disabled; before the start date it is open', async () => {
    const cases: [Row, string][] = [
      [{ ev_is_enabled: false }, 'closed'],
      [{ ev_access_type: 'closed' }, 'closed'],
      [{ ev_start_date: day(-10), ev_end_date: day(-1) }, 'closed'],
      [{ ev_start_date: day(-1), ev_end_date: day(0) }, 'open'],
      [{ ev_start_date: day(30), ev_end_date: day(31) }, 'open'],
      [{ ev_end_date: day(5) }, 'open'],
    ];
    for (const [extra, state] of cases) {
      const id = await event(extra);
      const res = await get(id);
      expect(res.body.state, JSON.stringify(extra)).toBe(state);
      if (state === 'closed') {
        expect(res.body.form, JSON.stringify(extra)).toBeNull();
        const refused = await post(id, { answers: answers(`closed-${uid()}@example.com`) });
        expect(refused.status).toBe(403);
        expect(refused.body).toMatchObject({ code: 'event_closed', message: 'Registration for this event is closed' });
        expect(await leadsOf(id)).toHaveLength(0);
      }
    }
    const other = (await t.account(`Disabled ${uid()}`, { a_is_enabled: false })).a_id;
    const [ev] = await t.db('events').insert({ ev_accountid: other, ev_title: 'Gone', ev_name: uid(), ev_access_type: 'open' }).returning('ev_id');
    expect((await get(ev.ev_id)).body.state).toBe('closed');
    expect((await post(ev.ev_id, { answers: {} })).body.code).toBe('event_closed');
  });

  it('no_form: no registration form, or one without elements → the state, and 409 event_has_no_form', async () => {
    const empty = await create('forms', { f_title: 'Empty', f_name: uid() });
    for (const id of [
      await event({ ev_registration_formid: null }),
      await event({ ev_registration_formid: empty.id }),
      await event({ ev_access_type: 'restricted', ev_access_code: 'ABC', ev_registration_formid: null }),
    ]) {
      const res = await get(id);
      expect(res.body.state).toBe('no_form');
      expect(res.body.form).toBeNull();
      const refused = await post(id, { answers: answers(`nf-${uid()}@example.com`), access_code: 'ABC' });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'event_has_no_form', message: 'The event manager needs to create a details form' });
      expect(await leadsOf(id)).toHaveLength(0);
    }
  });

  it('restricted: no form without the right code; a wrong code is 403 and leaks nothing; the right one (any case) sends it', async () => {
    const id = await event({ ev_access_type: 'restricted', ev_access_code: 'Partner-2026' });
    const first = await get(id);
    expect(first.status).toBe(200);
    expect(first.body.state).toBe('restricted');
    expect(first.body.form).toBeNull();
    expect(first.body.event).not.toHaveProperty('ev_access_code');
    expect(JSON.stringify(first.body)).not.toContain('Partner-2026');
    expect(JSON.stringify(first.body)).not.toContain(elementIds.email);

    const wrong = await get(id, '?access_code=partner');
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ code: 'access_code_invalid', message: 'The access code is not correct' });

    const right = await get(id, `?access_code=${encodeURIComponent('  PARTNER-2026 ')}`);
    expect(right.status).toBe(200);
    expect(right.body.state).toBe('restricted');
    expect((right.body.form.elements as Row[]).length).toBe(14);

    for (const code of [undefined, '', 'nope', 12345, { code: 'Partner-2026' }]) {
      const refused = await post(id, { answers: answers(`r-${uid()}@example.com`), access_code: code });
      expect(refused.status, String(code)).toBe(403);
      expect(refused.body.code).toBe('access_code_invalid');
    }
    expect(await leadsOf(id)).toHaveLength(0);
    const ok = await post(id, { answers: answers('restricted@example.com'), access_code: 'partner-2026' });
    expect(ok.status).toBe(201);
    expect((await leadsOf(id)).map((l) => l.ld_email)).toEqual(['restricted@example.com']);
    // the code never reaches the request log
    expect(safeUrl(`/api/1/register/${id}?access_code=Partner-2026&lang=nl`)).toBe(`/api/1/register/${id}?access_code=[redacted]&lang=nl`);
  });

  it('POST stores the lead: source registration, own fields, answers normalised, consent and its text, owner, captured now', async () => {
    const id = await event({ ev_consent_text: 'Yes, Expo news please.' });
    const before = Date.now();
    const res = await post(id, { answers: answers('Rita.Registrant@Example.com'), consent_news: true, website: '' });
    expect(res.status).toBe(201);
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.ld_id).toBe(res.body.id);
    const [lead] = await leadsOf(id);
    expect(lead).toMatchObject({
      ld_id: res.body.id,
      ld_accountid: a,
      ld_source: 'registration',
      ld_email: 'rita.registrant@example.com',
      ld_first_name: 'Rita',
      ld_last_name: 'Registrant',
      ld_ownerid: owner,
      ld_captured_by: null,
      ld_consent_news: true,
      ld_consent_text: 'Yes, Expo news please.',
      ld_transcription_status: 'none',
      ld_is_valid: true,
    });
    expect(lead.ld_answers).toEqual({ ...answers('Rita.Registrant@Example.com'), email: 'Rita.Registrant@Example.com', notes: 'Vegetarian lunch' });
    expect(new Date(lead.ld_captured_at as string).getTime()).toBeGreaterThanOrEqual(before - 5000);

    // without an opt-in: false, and the built-in text the page showed (its language) is what is stored
    const nl = await post(id, { answers: answers(`nl-${uid()}@example.com`), lang: 'nl' });
    expect(nl.status).toBe(201);
    const own = (await t.db('leads').where('ld_id', nl.body.id).first())!;
    expect(own.ld_consent_news).toBe(false);
    expect(own.ld_consent_text).toBe('Yes, Expo news please.');
    const plain = await event();
    const dutch = await post(plain, { answers: answers(`nl-${uid()}@example.com`), consent_news: true, lang: 'nl' });
    expect((await t.db('leads').where('ld_id', dutch.body.id).first())!.ld_consent_text).toBe(BUILTIN_CONSENT_TEXT.nl);
    const browser = await visitor().post(
      `/api/1/register/${plain}`,
      { answers: answers(`al-${uid()}@example.com`), consent_news: 'yes' },
      { headers: { 'Accept-Language': 'nl-BE' } },
    );
    const byHeader = (await t.db('leads').where('ld_id', browser.body.id).first())!;
    expect(byHeader.ld_consent_text).toBe(BUILTIN_CONSENT_TEXT.nl);
    expect(byHeader.ld_consent_news).toBe(false); // only true is a yes
  });

  it('the owner is none when the event has none or its owner left the account', async () => {
    const none = await event({ ev_ownerid: null });
    const res = await post(none, { answers: answers(`o-${uid()}@example.com`) });
    expect((await t.db('leads').where('ld_id', res.body.id).first())!.ld_ownerid).toBeNull();
    const leaver = await t.user(`leaver-${uid()}@example.com`);
    await t.member(a, leaver.u_id, 'member');
    const id = await event({ ev_ownerid: leaver.u_id });
    await t.db('account_users').where({ au_accountid: a, au_userid: leaver.u_id }).del();
    const after = await post(id, { answers: answers(`o-${uid()}@example.com`) });
    expect(after.status).toBe(201);
    expect((await t.db('leads').where('ld_id', after.body.id).first())!.ld_ownerid).toBeNull();
  });

  it('missing or wrong answers: 400 lead_incomplete with the fields, nothing stored', async () => {
    const id = await event();
    const res = await post(id, { answers: { ...answers('not-an-email'), first_name: ' ', terms: false, colour: 'green', budget: 7 } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'lead_incomplete',
      message: 'Please complete all mandatory fields',
      fields: { email: 'error_email_invalid', first_name: 'error_required', terms: 'error_required', colour: 'error_invalid_value', budget: 'error_invalid_value' },
    });
    for (const body of [{}, { answers: null }, { answers: [] }, { answers: 'x' }]) {
      const bad = await post(id, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.code).toBe('lead_incomplete');
    }
    expect(await leadsOf(id)).toHaveLength(0);
  });

  it('the honeypot: a filled `website` answers 201 with an id like any other, stores nothing and sends no mail', async () => {
    const id = await event();
    const to = `bot-${uid()}@example.com`;
    const res = await post(id, { answers: answers(to), website: 'https://spam.example.com' });
    expect(res.status).toBe(201);
    expect(res.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Object.keys(res.body).sort()).toEqual(['id', 'ld_id']);
    expect(await leadsOf(id)).toHaveLength(0);
    expect(await t.db('leads').where('ld_id', res.body.id).first()).toBeUndefined();
    expect(await deliveredMailsTo(t, to)).toHaveLength(0);
    // the other checks still come first: a robot's incomplete answers are refused like anyone's
    expect((await post(id, { answers: {}, website: 'x' })).status).toBe(400);
  });

  it('a second registration with the same e-mail (any case) updates that lead: 201 with the same id', async () => {
    const id = await event();
    const first = await post(id, { answers: answers('Same.Person@example.com', { first_name: 'Sam' }), consent_news: true });
    const second = await post(id, { answers: answers('same.person@EXAMPLE.com', { first_name: 'Samuel', notes: 'second' }), consent_news: false });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    const leads = await leadsOf(id);
    expect(leads).toHaveLength(1);
    expect(leads[0]).toMatchObject({ ld_email: 'same.person@example.com', ld_first_name: 'Samuel', ld_consent_news: false });
    expect((leads[0].ld_answers as Row).notes).toBe('second');
    expect(new Date(leads[0].ld_updated_at as string).getTime()).toBeGreaterThanOrEqual(new Date(leads[0].ld_created_at as string).getTime());
    // another event, or another address: a lead of its own
    const other = await event();
    const elsewhere = await post(other, { answers: answers('same.person@example.com') });
    expect(elsewhere.body.id).not.toBe(first.body.id);
    expect((await post(id, { answers: answers('someone.else@example.com') })).body.id).not.toBe(first.body.id);
    expect(await leadsOf(id)).toHaveLength(2);
    // a lead of another source with the address is left alone
    await t.db('leads').insert({ ld_accountid: a, ld_eventid: other, ld_email: 'scan@example.com', ld_source: 'scan' });
    const reg = await post(other, { answers: answers('scan@example.com') });
    expect(reg.status).toBe(201);
    expect((await t.db('leads').where({ ld_eventid: other, ld_email: 'scan@example.com' })).map((l) => l.ld_source).sort()).toEqual(['registration', 'scan']);
  });

  it('the same e-mail registering many times at once: one lead, every answer 201 with its id (race-safe upsert)', async () => {
    const id = await event();
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => post(id, { answers: answers(i % 2 ? 'Race@example.com' : 'race@example.com', { notes: `try ${i}` }) })));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    const leads = await leadsOf(id);
    expect(leads).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.id))).toEqual(new Set([leads[0].ld_id]));
  });

  it('per-address limit: 20 registrations per event in the window, then 429 too_many_attempts; other events unaffected; shared by processes', async () => {
    expect(t.config.registrationLimit).toEqual({ perIp: 20, windowSeconds: 600 });
    const id = await event();
    // a second app process on the same database: the counter is in PostgreSQL, not in either process
    const { app: second } = createApp({ db: t.db, config: t.config, log: () => undefined });
    const secondClient = async (body: Row) => {
      const c = request.agent(second);
      const page = await c.get('/api/1/auth/me');
      const csrf = decodeURIComponent(/ls\.csrf-token=([^;]+)/.exec(String(page.headers['set-cookie']))![1]);
      return c.post(`/api/1/register/${id}`).set('X-CSRF-Token', csrf).send(body);
    };
    for (let i = 0; i < 20; i++) {
      const res = i % 2 ? await secondClient({ answers: answers(`limit-${i}@example.com`) }) : await post(id, { answers: answers(`limit-${i}@example.com`) });
      expect(res.status, `registration ${i + 1}`).toBe(201);
    }
    for (const res of [await post(id, { answers: answers('limit-21@example.com') }), await secondClient({ answers: answers('limit-22@example.com') })]) {
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ code: 'too_many_attempts', message: 'Too many attempts, please wait a few minutes and try again' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(500);
    }
    expect(await leadsOf(id)).toHaveLength(20);
    expect((await post(await event(), { answers: answers('limit-other@example.com') })).status).toBe(201);
    const row = await t.db('rate_limits').where('rl_key', `register:${id}:127.0.0.1`).first();
    expect(Number(row.rl_points)).toBe(22);
  });

  it('access-code checks have the same budget per address and event, so codes cannot be guessed in bulk', async () => {
    const id = await event({ ev_access_type: 'restricted', ev_access_code: 'SECRET' });
    for (let i = 0; i < 20; i++) expect((await get(id, `?access_code=guess${i}`)).status).toBe(403);
    const blocked = await get(id, '?access_code=SECRET');
    expect(blocked.status).toBe(429);
    expect(blocked.body).not.toHaveProperty('form');
    expect((await get(id)).body.state).toBe('restricted'); // the page itself still loads
  });

  it('the confirmation mail: the built-in one, else the account template, else the style mail; {{variables}} escaped', async () => {
    const id = await event({ ev_title: 'Winter <Expo>', ev_start_date: day(40), ev_end_date: day(41) });
    const builtin = `builtin-${uid()}@example.com`;
    expect((await post(id, { answers: answers(builtin, { first_name: 'Bea' }) })).status).toBe(201);
    const [b] = await deliveredMailsTo(t, builtin);
    expect(b.subject).toBe('Your registration for Winter <Expo>');
    expect(b.html).toContain('Hello Bea,');
    expect(b.html).toContain('Winter &lt;Expo&gt;');
    expect(b.text).toContain(builtin);

    const template = await create('mail-templates', {
      mt_name: 'registration',
      mt_subject: 'Account: you are in for {{event_title}}',
      mt_html: '<p>Dear {{first_name}} {{last_name}}, see you on {{event_start_date}}.</p>',
      mt_from_name: 'Expo Team',
    });
    const viaTemplate = `tpl-${uid()}@example.com`;
    await post(id, { answers: answers(viaTemplate, { first_name: 'Tom' }) });
    const [m] = await deliveredMailsTo(t, viaTemplate);
    expect(m.subject).toBe('Account: you are in for Winter <Expo>');
    expect(m.html).toContain(`Dear Tom Registrant, see you on ${day(40)}.`);
    expect(m.from).toContain('Expo Team');

    const style = await create('form-styles', {
      st_title: 'Winter',
      st_eventid: id,
      st_mail_subject: 'Style: welcome {{first_name}}',
      st_mail_html: '<h1>{{event_title}}</h1><p>Style body for {{email}}</p>',
    });
    const viaStyle = `style-${uid()}@example.com`;
    await post(id, { answers: answers(viaStyle, { first_name: '<b>Zoe</b>' }) });
    const [s] = await deliveredMailsTo(t, viaStyle);
    expect(s.subject).toBe('Style: welcome <b>Zoe</b>');
    expect(s.html).toContain('<h1>Winter &lt;Expo&gt;</h1>');
    expect(s.html).toContain(`Style body for ${viaStyle}`);
    expect(s.text).toContain(`Style body for ${viaStyle}`);

    // a style with only a subject keeps the template's body
    await root.put(api(`form-styles/${style.id}`), { st_mail_html: null });
    const subjectOnly = `subj-${uid()}@example.com`;
    await post(id, { answers: answers(subjectOnly, { first_name: 'Uma' }) });
    const [u] = await deliveredMailsTo(t, subjectOnly);
    expect(u.subject).toBe('Style: welcome Uma');
    expect(u.html).toContain('Dear Uma Registrant');
    await root.delete(api(`mail-templates/${template.id}`));
  });

  it('a relay that is down: the registration is kept (201, the lead stored), its mail retried on the queue until sent', async () => {
    const id = await event();
    const to = `down-${uid()}@example.com`;
    const logged: string[] = [];
    const log = t.context.log;
    t.context.log = (msg) => logged.push(msg);
    try {
      await withFailingMailer(t, async () => {
        const res = await post(id, { answers: answers(to) });
        expect(res.status).toBe(201);
        const lead = await t.db('leads').where('ld_id', res.body.id).first();
        expect(lead.ld_email).toBe(to);
        // the worker's attempt fails: logged (the job, not the address), and the mail waits for its retry
        expect(await deliveredMailsTo(t, to)).toHaveLength(0);
      });
    } finally {
      t.context.log = log;
    }
    expect(logged.some((m) => m.includes('mail.send') && m.includes('failed (attempt 1)') && !m.includes(to))).toBe(true);
    expect((await t.context.jobs.counts()).byName['mail.send'].waiting).toBe(1);
    // the relay is back: the retry (after 1-2 s in tests) delivers it
    await expect.poll(async () => (await deliveredMailsTo(t, to)).length, { timeout: 10_000, interval: 250 }).toBe(1);
    expect((await t.context.jobs.counts()).byName['mail.send'].waiting).toBe(0);
  });

  it('a registration is two statements: the event, style, form, lists and template with the rate-limit hit, then the upsert', async () => {
    const id = await event();
    const c = visitor();
    await c.get(`/api/1/register/${id}`); // the page's cookie
    // (the confirmation's job goes in through the queue's own use of the pool, api/jobs/db.ts: knex does not see it)
    const seen = await queriesOf(t.db, async () => expect((await post(id, { answers: answers(`q-${uid()}@example.com`) }, c)).status).toBe(201));
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatch(/insert into rate_limits[\s\S]*from events e/);
    expect(seen[1]).toMatch(/^\s*insert into leads/);
    // the page's GET is one
    expect(await queriesOf(t.db, () => c.get(`/api/1/register/${id}`))).toHaveLength(1);
  });

  it('a form without an email element: a lead per registration, no mail', async () => {
    const noEmail = await create('forms', { f_title: 'Names only', f_name: uid() });
    await create('form-elements', { fe_formid: noEmail.id, fe_type: 'text', fe_name: 'first_name', fe_title: 'First name', fe_is_required: true });
    const id = await event({ ev_registration_formid: noEmail.id });
    const one = await post(id, { answers: { first_name: 'Ann' } });
    const two = await post(id, { answers: { first_name: 'Ann' } });
    expect([one.status, two.status]).toEqual([201, 201]);
    expect(one.body.id).not.toBe(two.body.id);
    expect((await leadsOf(id)).map((l) => [l.ld_first_name, l.ld_email])).toEqual([
      ['Ann', null],
      ['Ann', null],
    ]);
  });

  it('a write without the CSRF header of the page cookie is refused with 403 csrf_invalid, nothing stored', async () => {
    const id = await event();
    const c = visitor();
    await c.get(`/api/1/register/${id}`); // the page's cookie
    const res = await c.post(`/api/1/register/${id}`, { answers: answers('csrf@example.com') }, { csrf: false });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('csrf_invalid');
    const forged = await c.post(`/api/1/register/${id}`, { answers: answers('csrf@example.com') }, { csrf: false, headers: { 'X-CSRF-Token': 'forged' } });
    expect(forged.status).toBe(403);
    expect(await leadsOf(id)).toHaveLength(0);
  });

  it('the page /register/{eventId} is the public form page with its strict CSP; a malformed id is a 404 page', async () => {
    const id = await event();
    const page = await visitor().get(`/register/${id}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers['set-cookie']?.toString()).toMatch(/ls\.csrf-token=/);
    const bad = await visitor().get('/register/not-an-id');
    expect(bad.status).toBe(404);
    expect(String(bad.headers['content-security-policy'])).toContain("style-src 'self'");
  });
});
