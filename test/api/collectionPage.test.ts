import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { MISSING, startApp, uid, type Signed, type TestApp } from '../helpers/app.js';
import { accountPath } from '../helpers/console.js';
import { createAsset } from '../helpers/assets.js';
import { made } from '../helpers/leads.js';
import { makeCarousel, makeCollection, makeLayer, makeSlide, makeVariant } from '../helpers/carousels.js';
import { mp4, PDF, PNG } from '../helpers/storage.js';
import { BUILTIN_CONSENT_TEXT } from '../../resources/consent.js';
import { createDownloadToken, DOWNLOAD_TOKEN_TTL_MS } from '../../api/services/downloadTokens.js';

type Row = Record<string, unknown>;

/**
 * A collection's public page API (account-console.md: collections, /c/{co_token}): the assets in order with their
 * URLs, the download gate of the showing layer (form, style, event), layers of other collections and accounts
 * ignored, the download lead (source download, the event of the form style, else the one event of the form), the
 * download token and cookie, the honeypot, the per-address limit.
 */
describeEachDb('collection page', (kind) => {
  let t: TestApp;
  let root: Signed;
  let a: string;
  let b: string;
  let owner: string;
  const ids: Record<string, string> = {};
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    t = await startApp(kind, { registrationLimit: { perIp: 6, windowSeconds: 600 } });
    root = await t.signedIn('root');
    a = (await t.account('Collections A')).a_id;
    b = (await t.account('Collections B')).a_id;
    const ownerUser = await t.user(`owner-${uid()}@example.com`);
    await t.member(a, ownerUser.u_id, 'admin');
    owner = ownerUser.u_id;

    ids.pdf = String((await createAsset(t, root, a, { as_title: 'Price list' }, PDF, 'prices.pdf')).id);
    ids.image = String((await createAsset(t, root, a, { as_title: 'Stand photo' }, PNG, 'stand.png')).id);
    ids.video = String((await createAsset(t, root, a, { as_title: 'Demo clip' }, mp4(4000), 'demo.mp4')).id);
    ids.logo = String((await createAsset(t, root, a, { as_title: 'Logo' }, PNG, 'logo.png')).id);
    const collection = await makeCollection(root, a, [ids.pdf, ids.image, ids.video]);
    ids.collection = String(collection.id);
    token = String(collection.co_token);
    const other = await makeCollection(root, a, [ids.image]);
    ids.other = String(other.id);
    otherToken = String(other.co_token);

    // the download form, an event and the form style that ties them together
    const form = await made(root, a, 'forms', { f_title: 'Download form', f_name: uid() });
    ids.form = String(form.id);
    await made(root, a, 'form-elements', { fe_formid: form.id, fe_type: 'text', fe_name: 'email', fe_title: 'E-mail', fe_is_required: true });
    await made(root, a, 'form-elements', { fe_formid: form.id, fe_type: 'text', fe_name: 'first_name', fe_title: 'First name' });
    await made(root, a, 'form-elements', { fe_formid: form.id, fe_type: 'text', fe_name: 'company', fe_title: 'Company', fe_is_required: true });
    ids.event = String((await made(root, a, 'events', { ev_title: 'Expo', ev_name: uid(), ev_access_type: 'open', ev_ownerid: owner, ev_consent_text: 'Send me Expo news' })).id);
    ids.style = String(
      (
        await made(root, a, 'form-styles', {
          st_title: 'Green',
          st_eventid: ids.event,
          st_form_title: 'Get the brochures',
          st_form_logo_assetid: ids.logo,
          st_custom_css: ':root { --ls-form-accent: #0a7d3b; }',
          st_mail_subject: 'never public',
        })
      ).id,
    );
    // a form no style names: its event comes from the event's forms, while exactly one event uses it
    const lone = await made(root, a, 'forms', { f_title: 'Lone form', f_name: uid() });
    ids.lone = String(lone.id);
    await made(root, a, 'form-elements', { fe_formid: lone.id, fe_type: 'text', fe_name: 'email', fe_title: 'E-mail', fe_is_required: true });

    const carousel = await makeCarousel(root, a);
    const variant = await makeVariant(root, a, carousel.id);
    const slide = await makeSlide(root, a, carousel.id);
    const layer = (extra: Row) => makeLayer(root, a, slide.id, variant.id, extra).then((l) => String(l.id));
    ids.gated = await layer({ ly_type: 'collectionqr', ly_collectionid: ids.collection, ly_download_formid: ids.form, ly_form_styleid: ids.style });
    ids.open = await layer({ ly_type: 'collectionqr', ly_collectionid: ids.collection });
    ids.lonely = await layer({ ly_type: 'collectionqr', ly_collectionid: ids.collection, ly_download_formid: ids.lone });
    ids.otherCollection = await layer({ ly_type: 'collectionqr', ly_collectionid: ids.other, ly_download_formid: ids.form, ly_form_styleid: ids.style });
    ids.image_layer = await layer({ ly_type: 'image', ly_assetid: ids.image, ly_collectionid: ids.collection, ly_download_formid: ids.form });

    // account B: its own collection and a gated layer (ignored on A's collection)
    const bAsset = await createAsset(t, root, b, {}, PNG, 'b.png');
    const bCollection = await makeCollection(root, b, [bAsset.id]);
    const bForm = await made(root, b, 'forms', { f_title: 'B form', f_name: uid() });
    await made(root, b, 'form-elements', { fe_formid: bForm.id, fe_type: 'text', fe_name: 'email', fe_title: 'E-mail', fe_is_required: true });
    const bCarousel = await makeCarousel(root, b);
    const bVariant = await makeVariant(root, b, bCarousel.id);
    const bSlide = await makeSlide(root, b, bCarousel.id);
    ids.bLayer = String((await makeLayer(root, b, bSlide.id, bVariant.id, { ly_type: 'collectionqr', ly_collectionid: bCollection.id, ly_download_formid: bForm.id })).id);
  });
  afterAll(() => t?.close());
  // every request comes from 127.0.0.1: each test starts with the address's budget unused
  beforeEach(async () => {
    await t.db('rate_limits').del();
  });

  const page = (l?: string, client = t.client(), tok = token) => client.get(`/api/1/c/${tok}${l ? `?l=${l}` : ''}`);
  const send = (client: ReturnType<TestApp['client']>, body: Row, tok = token) => client.post(`/api/1/c/${tok}/leads`, body);
  const answers = (extra: Row = {}): Row => ({ email: `Visitor-${uid()}@Example.com`, first_name: 'Vera', company: 'Acme', ...extra });

  it('an unknown, malformed or disabled account token: 404; the page itself too for a malformed token', async () => {
    expect((await page(undefined, t.client(), 'AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
    expect((await page(undefined, t.client(), 'no')).status).toBe(404);
    expect((await page(undefined, t.client(), 'bad%20token%20here!!')).status).toBe(404);
    const disabled = await t.account('Disabled', { a_is_enabled: false });
    const hidden = await makeCollection(root, disabled.a_id, []);
    expect((await page(undefined, t.client(), String(hidden.co_token))).body.code).toBe('not_found');
    expect((await t.client().get('/c/no')).status).toBe(404);
    expect((await t.client().post(`/api/1/c/AAAAAAAAAAAAAAAAAAAAAA/leads`, { answers: {} })).status).toBe(404);
  });

  it('without a layer: the title and the assets in order, each with view and download URLs carrying the version; no form', async () => {
    const res = await page();
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.collection).toEqual({ co_title: expect.stringMatching(/^Collection /) });
    expect(res.body.locked).toBe(false);
    expect(res.body.form).toBeNull();
    expect(res.body.style).toBeNull();
    expect(res.body.stylesheet).toBeNull();
    expect(res.body.consent_text).toBe(BUILTIN_CONSENT_TEXT.en);
    const assets = res.body.assets as Row[];
    expect(assets.map((x) => x.as_title)).toEqual(['Price list', 'Stand photo', 'Demo clip']);
    expect(assets.map((x) => x.kind)).toEqual(['pdf', 'image', 'video']);
    expect(assets[0]).toMatchObject({ as_id: ids.pdf, as_type: 'application/pdf', as_size: PDF.length, as_version: 1 });
    for (const x of assets) {
      expect(x.url).toMatch(/^\/storage\/assets\/[0-9a-f-]+\/\d{4}\/\d{2}\/[0-9a-f-]+\?v=1$/);
      expect(x.download_url).toBe(`${x.url}&download`);
    }
    // nothing of the account: no names, paths to other files, creators
    expect(Object.keys(assets[0]).sort()).toEqual(['as_id', 'as_size', 'as_title', 'as_type', 'as_version', 'download_url', 'kind', 'thumbnail_url', 'url']);
    // the download URL downloads, the view URL shows inline
    const dl = await t.client().get(String(assets[0].download_url));
    expect(dl.status).toBe(200);
    expect(dl.headers['content-disposition']).toMatch(/^attachment/);
    expect((await t.client().get(String(assets[1].url))).headers['content-disposition']).toMatch(/^inline/);
  });

  it('a gated layer: locked, the form with its elements, the style (no CSS, no mail), its logo URL, the stylesheet, the event consent text; no download URLs', async () => {
    const res = await page(ids.gated);
    expect(res.status).toBe(200);
    expect(res.body.locked).toBe(true);
    expect(res.body.can_submit).toBe(true);
    expect(res.body.form.f_id).toBe(ids.form);
    expect(res.body.form.elements.map((e: Row) => e.fe_name)).toEqual(['email', 'first_name', 'company']);
    expect(Object.keys(res.body.form.elements[0]).sort()).toEqual(['fe_id', 'fe_is_required', 'fe_listid', 'fe_name', 'fe_options', 'fe_title', 'fe_type']);
    expect(res.body.style).toMatchObject({ st_id: ids.style, st_form_title: 'Get the brochures', st_form_logo_assetid: ids.logo });
    expect(res.body.style).not.toHaveProperty('st_custom_css');
    expect(JSON.stringify(res.body)).not.toContain('never public');
    expect(res.body.style_assets[ids.logo]).toMatch(/^\/storage\/assets\/.*\?v=1$/);
    expect(res.body.stylesheet).toBe(`/api/1/c/${token}/style.css?l=${ids.gated}`);
    expect(res.body.consent_text).toBe('Send me Expo news');
    expect(res.body.event).toEqual({ ev_title: 'Expo', ev_consent_text: 'Send me Expo news' });
    const [pdf, image, video] = res.body.assets as Row[];
    expect(pdf.url).toBeNull();
    expect(image.url).toMatch(/^\/storage\//);
    expect(video.url).toMatch(/^\/storage\//);
    for (const x of [pdf, image, video]) expect(x.download_url).toBeNull();

    const css = await t.client().get(String(res.body.stylesheet));
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['x-content-type-options']).toBe('nosniff');
    expect(css.text).toBe(':root { --ls-form-accent: #0a7d3b; }');
    expect((await t.client().get(`/api/1/c/${token}/style.css`)).status).toBe(404);
    expect((await t.client().get(`/api/1/c/${token}/style.css?l=${ids.open}`)).status).toBe(404);
  });

  it('a layer of another collection or account, a non-QR layer, a malformed or unknown id: ignored (no form, downloads open)', async () => {
    for (const l of [ids.otherCollection, ids.bLayer, ids.image_layer, 'nope', MISSING, ids.open]) {
      const res = await page(l);
      expect(res.status, l).toBe(200);
      expect(res.body.locked, l).toBe(false);
      expect(res.body.form, l).toBeNull();
      expect(res.body.style, l).toBeNull();
      expect(
        (res.body.assets as Row[]).every((x) => typeof x.download_url === 'string'),
        l,
      ).toBe(true);
    }
    // and their POST has no form to send
    const res = await send(t.client(), { l: ids.bLayer, answers: answers() });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ l: 'error_reference_invalid' });
  });

  it("sending the form: 201 with a download token and cookie; the lead has source download, the style's event, the owner and the consent text; the page unlocks", async () => {
    const visitor = t.client();
    expect((await page(ids.gated, visitor)).body.locked).toBe(true);
    const given = answers({ email: 'Vera.Visitor@Example.com' });
    const res = await send(visitor, { l: ids.gated, answers: given, consent_news: true, website: '' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.id).toBe(res.body.ld_id);
    expect(typeof res.body.download_token).toBe('string');
    expect(Date.parse(res.body.expires_at) - Date.now()).toBeGreaterThan(DOWNLOAD_TOKEN_TTL_MS - 60_000);
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('ls.download='))!;
    expect(cookie).toContain(`Path=/api/1/c/${token}`);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');

    const lead = await t.db('leads').where('ld_id', res.body.id).first();
    expect(lead).toMatchObject({
      ld_accountid: a,
      ld_eventid: ids.event,
      ld_source: 'download',
      ld_email: 'vera.visitor@example.com',
      ld_first_name: 'Vera',
      ld_ownerid: owner,
      ld_consent_news: true,
      ld_consent_text: 'Send me Expo news',
      ld_captured_by: null,
    });
    expect(lead.ld_answers).toEqual({ email: 'Vera.Visitor@Example.com', first_name: 'Vera', company: 'Acme' });

    const unlocked = await page(ids.gated, visitor);
    expect(unlocked.body.locked).toBe(false);
    expect(unlocked.body.form).toBeNull();
    expect((unlocked.body.assets as Row[]).map((x) => x.download_url)).toEqual((unlocked.body.assets as Row[]).map((x) => `${x.url}&download`));
    // the header works as well as the cookie; another collection's page stays as it was for this visitor
    expect((await t.client().get(`/api/1/c/${token}?l=${ids.gated}`, { headers: { 'X-Download-Token': res.body.download_token } })).body.locked).toBe(false);
    expect((await page(undefined, visitor, otherToken)).status).toBe(200);

    // the same address again (any case): that lead, updated, its answers merged
    const again = await send(t.client(), { l: ids.gated, answers: { email: 'VERA.visitor@example.com', company: 'Acme BV' }, consent_news: false });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(res.body.id);
    const updated = await t.db('leads').where('ld_id', res.body.id).first();
    expect(updated.ld_answers).toEqual({ email: 'VERA.visitor@example.com', first_name: 'Vera', company: 'Acme BV' });
    expect(updated.ld_consent_news).toBe(false);
    expect(await t.db('leads').where({ ld_source: 'download', ld_eventid: ids.event }).whereRaw("lower(ld_email) = 'vera.visitor@example.com'").count({ n: '*' }).first()).toEqual({
      n: kind === 'pglite' ? 1 : '1',
    });
  });

  it('a token of another collection, forged, or expired does not unlock', async () => {
    const secret = t.config.sessionSecret;
    const tries = [
      createDownloadToken(secret, ids.other).token,
      createDownloadToken('another-secret-'.padEnd(40, 'y'), ids.collection).token,
      createDownloadToken(secret, ids.collection, Date.now() - DOWNLOAD_TOKEN_TTL_MS - 1000).token,
      `${createDownloadToken(secret, ids.collection).token}x`,
      'garbage',
    ];
    for (const tok of tries) expect((await t.client().get(`/api/1/c/${token}?l=${ids.gated}`, { headers: { 'X-Download-Token': tok } })).body.locked).toBe(true);
    expect((await t.client().get(`/api/1/c/${token}?l=${ids.gated}`, { headers: { 'X-Download-Token': createDownloadToken(secret, ids.collection).token } })).body.locked).toBe(
      false,
    );
  });

  it('missing required answers: 400 lead_incomplete with the fields, nothing stored; without the CSRF header 403', async () => {
    const before = await t.db('leads').where('ld_source', 'download').count({ n: '*' }).first();
    const res = await send(t.client(), { l: ids.gated, answers: { email: 'not-an-email' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('lead_incomplete');
    expect(res.body.fields).toEqual({ email: 'error_email_invalid', company: 'error_required' });
    const nul = await send(t.client(), { l: ids.gated, answers: answers({ company: 'Ac\u0000me' }) });
    expect(nul.status).toBe(400);
    expect(nul.body.fields).toEqual({ answers: 'error_invalid_value' });
    const noCsrf = await t.client().post(`/api/1/c/${token}/leads`, { l: ids.gated, answers: answers() }, { csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.code).toBe('csrf_invalid');
    expect(await t.db('leads').where('ld_source', 'download').count({ n: '*' }).first()).toEqual(before);
  });

  it('the honeypot: the same 201 with a token, nothing stored', async () => {
    const before = await t.db('leads').count({ n: '*' }).first();
    const res = await send(t.client(), { l: ids.gated, answers: answers(), website: 'http://spam.example' });
    expect(res.status).toBe(201);
    expect(typeof res.body.download_token).toBe('string');
    expect(await t.db('leads').where('ld_id', res.body.id).first()).toBeUndefined();
    expect(await t.db('leads').count({ n: '*' }).first()).toEqual(before);
  });

  it("the event: the form style's, else the one event that uses the form; none or two → can_submit false and 409 download_has_no_event", async () => {
    const none = await page(ids.lonely);
    expect(none.body.locked).toBe(true);
    expect(none.body.can_submit).toBe(false);
    expect(none.body.style).toBeNull();
    expect(none.body.consent_text).toBe(BUILTIN_CONSENT_TEXT.en);
    const refused = await send(t.client(), { l: ids.lonely, answers: { email: 'lone@example.com' } });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('download_has_no_event');

    const fair = await made(root, a, 'events', { ev_title: 'Fair', ev_name: uid(), ev_access_type: 'open' });
    await made(root, a, 'event-forms', { ef_eventid: fair.id, ef_formid: ids.lone });
    expect((await page(ids.lonely)).body.can_submit).toBe(true);
    const stored = await send(t.client(), { l: ids.lonely, answers: { email: 'lone@example.com' } });
    expect(stored.status).toBe(201);
    expect(await t.db('leads').where('ld_id', stored.body.id).first()).toMatchObject({ ld_eventid: fair.id, ld_source: 'download', ld_ownerid: null });

    // a second event using it: ambiguous, so none again (Dutch built-in opt-in by the language asked)
    await made(root, a, 'events', { ev_title: 'Other', ev_name: uid(), ev_access_type: 'open', ev_registration_formid: ids.lone });
    const two = await t.client().get(`/api/1/c/${token}?l=${ids.lonely}&lang=nl`);
    expect(two.body.can_submit).toBe(false);
    expect(two.body.consent_text).toBe(BUILTIN_CONSENT_TEXT.nl);
  });

  it('per address: the registration budget per collection, then 429 too_many_attempts with Retry-After', async () => {
    const fresh = await makeCollection(root, a, [ids.image]);
    const carousel = await makeCarousel(root, a);
    const variant = await makeVariant(root, a, carousel.id);
    const slide = await makeSlide(root, a, carousel.id);
    const gated = await makeLayer(root, a, slide.id, variant.id, { ly_type: 'collectionqr', ly_collectionid: fresh.id, ly_download_formid: ids.form, ly_form_styleid: ids.style });
    const visitor = t.client();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await send(visitor, { l: gated.id, answers: answers() }, String(fresh.co_token))).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 429]);
    const blocked = await send(visitor, { l: gated.id, answers: answers() }, String(fresh.co_token));
    expect(blocked.body.code).toBe('too_many_attempts');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // another collection has its own budget
    expect((await send(visitor, { l: ids.gated, answers: answers() })).status).toBe(201);
  });

  it("the public page is served at /c/{token} with the public form page's CSP", async () => {
    const res = await t.client().get(`/c/${token}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toContain("style-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-src 'none'");
  });

  it('a deleted layer, form or style: the page falls back without a 500', async () => {
    const form = await made(root, a, 'forms', { f_title: 'Temp', f_name: uid() });
    await made(root, a, 'form-elements', { fe_formid: form.id, fe_type: 'text', fe_name: 'email', fe_title: 'E-mail' });
    const carousel = await makeCarousel(root, a);
    const variant = await makeVariant(root, a, carousel.id);
    const slide = await makeSlide(root, a, carousel.id);
    const layer = await makeLayer(root, a, slide.id, variant.id, { ly_type: 'collectionqr', ly_collectionid: ids.collection, ly_download_formid: form.id });
    expect((await page(String(layer.id))).body.locked).toBe(true);
    expect((await root.delete(`${accountPath(a, 'forms')}/${form.id}`)).status).toBeLessThan(300);
    expect((await page(String(layer.id))).body.locked).toBe(false);
    expect((await root.delete(`${accountPath(a, 'layers')}/${layer.id}`)).status).toBeLessThan(300);
    expect((await page(String(layer.id))).body.locked).toBe(false);
  });
});
