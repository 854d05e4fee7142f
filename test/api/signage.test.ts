import request from 'supertest';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { secondProcess, MISSING, uid, type Signed, type TestApp } from '../helpers/app.js';
import { accountPath, startConsoleApp } from '../helpers/console.js';
import { createAsset } from '../helpers/assets.js';
import { makeCode, makeGroup, makeLayer, makeSlide, makeVariant, simpleCarousel } from '../helpers/carousels.js';
import { PNG } from '../helpers/storage.js';

type Row = Record<string, unknown>;

const today = () => new Date().toISOString().slice(0, 10);

/**
 * Signage operations (platform-and-flows.md 7): group-schedules (dayparting) and the manifest's timezone and
 * schedules, the player's status report and the code's status fields, and play statistics that keep their titles
 * after the carousel, slide and code are deleted.
 */
describeEachDb('signage operations', (kind) => {
  let t: TestApp;
  let root: Signed;
  let a: string;
  let b: string;
  const ids: Record<string, string> = {};
  let code: string;
  const schedules = () => accountPath(a, 'group-schedules');

  beforeAll(async () => {
    ({ t, root, a, b } = await startConsoleApp(kind, 'Signage'));
    const photo = String((await createAsset(t, root, a, { as_name: 'photo' }, PNG, 'photo.png')).id);
    ids.plain = String((await simpleCarousel(root, a, 1, photo, { c_title: 'Plain' })).carousel.id);
    const morning = await simpleCarousel(root, a, 2, photo, { c_title: 'Breakfast' });
    ids.morning = String(morning.carousel.id);
    ids.night = String((await simpleCarousel(root, a, 1, photo, { c_title: 'Night' })).carousel.id);
    ids.group = String((await makeGroup(root, a, [ids.plain])).id);
    code = String((await makeCode(root, a, ids.group, { cc_title: 'Hall totem' })).cc_code);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('group-schedules: create, list by group, update, delete; days in week order; bad input refused with fields', async () => {
    const created = await root.post(schedules(), { gs_groupid: ids.group, gs_carouselid: ids.morning, gs_days: ['wed', 'mon', 'mon'], gs_from: '07:00', gs_to: '11:30' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ gs_groupid: ids.group, gs_carouselid: ids.morning, gs_days: ['mon', 'wed'], gs_from: '07:00', gs_to: '11:30' });
    ids.s1 = String(created.body.id);
    const night = await root.post(schedules(), { gs_groupid: ids.group, gs_carouselid: ids.night, gs_days: ['fri', 'sat'], gs_from: '22:00', gs_to: '02:00' });
    expect(night.status).toBe(201);
    ids.s2 = String(night.body.id);
    expect(Number(night.body.gs_order)).toBeGreaterThan(Number(created.body.gs_order));

    const list = await root.get(`${schedules()}?filter=${encodeURIComponent(JSON.stringify({ gs_groupid: ids.group }))}&sort=${encodeURIComponent('["gs_order","ASC"]')}`);
    expect(list.status).toBe(200);
    expect((list.body as Row[]).map((r) => r.id)).toEqual([ids.s1, ids.s2]);

    const updated = await root.put(`${schedules()}/${ids.s1}`, { gs_days: ['sun', 'sat'], gs_to: '12:00' });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ gs_days: ['sat', 'sun'], gs_from: '07:00', gs_to: '12:00' });
    // a partial update leaves the days alone
    expect((await root.put(`${schedules()}/${ids.s1}`, { gs_from: '06:30' })).body.gs_days).toEqual(['sat', 'sun']);

    const bad = async (body: Row, fields: Row, path = schedules(), method: 'post' | 'put' = 'post') => {
      const res = await root[method](path, body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.fields).toMatchObject(fields);
    };
    const base = { gs_groupid: ids.group, gs_carouselid: ids.morning, gs_days: ['mon'], gs_from: '07:00', gs_to: '08:00' };
    await bad({ ...base, gs_days: [] }, { gs_days: 'error_days_invalid' });
    await bad({ ...base, gs_days: ['monday'] }, { gs_days: 'error_days_invalid' });
    await bad({ ...base, gs_days: 'mon' }, { gs_days: 'error_days_invalid' });
    await bad({ ...base, gs_days: undefined }, { gs_days: 'error_days_invalid' });
    await bad({ ...base, gs_from: '24:00', gs_to: '7:00' }, { gs_from: 'error_time_invalid', gs_to: 'error_time_invalid' });
    await bad({ ...base, gs_carouselid: undefined }, { gs_carouselid: 'error_required' });
    await bad({ gs_to: 'noon' }, { gs_to: 'error_time_invalid' }, `${schedules()}/${ids.s1}`, 'put');
    await bad({ gs_days: ['xyz'] }, { gs_days: 'error_days_invalid' }, `${schedules()}/${ids.s1}`, 'put');
    // another account's carousel or group is not this account's
    const other = await simpleCarousel(root, b, 1, (await createAsset(t, root, b, {}, PNG, 'b.png')).id);
    expect((await root.post(schedules(), { ...base, gs_carouselid: other.carousel.id })).status).toBe(400);
    expect([400, 404]).toContain((await root.post(schedules(), { ...base, gs_groupid: MISSING })).status);
    // nothing was stored by the refusals
    const after = await root.get(`${schedules()}?filter=${encodeURIComponent(JSON.stringify({ gs_groupid: ids.group }))}`);
    expect(after.body).toHaveLength(2);

    const extra = await root.post(schedules(), { ...base, gs_carouselid: ids.plain });
    expect((await root.delete(`${schedules()}/${extra.body.id}`)).status).toBe(200);
    expect((await root.get(`${schedules()}/${extra.body.id}`)).status).toBe(404);
    // put back what the other tests expect
    await root.put(`${schedules()}/${ids.s1}`, { gs_days: ['mon', 'tue', 'wed', 'thu', 'fri'], gs_from: '07:00', gs_to: '11:30' });
  });

  it('ls_timezone: Europe/Amsterdam by default, any IANA zone, anything else refused', async () => {
    const settings = accountPath(a, 'settings');
    expect((await root.get(settings)).body.ls_timezone).toBe('Europe/Amsterdam');
    const refused = await root.put(settings, { ls_timezone: 'Mars/Olympus' });
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toEqual({ ls_timezone: 'error_timezone_invalid' });
    expect((await root.put(settings, { ls_timezone: 'America/New_York' })).body.ls_timezone).toBe('America/New_York');
  });

  it('the manifest carries the timezone, every schedule of the group and every scheduled carousel with its slides', async () => {
    const res = await t.client().get(`/api/1/play/${code}`);
    expect(res.status).toBe(200);
    expect(res.body.timezone).toBe('America/New_York');
    expect(res.body.carousel_ids).toEqual([ids.plain]);
    expect(res.body.schedules).toEqual([
      { carousel_id: ids.morning, days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '07:00', to: '11:30', order: expect.any(Number) },
      { carousel_id: ids.night, days: ['fri', 'sat'], from: '22:00', to: '02:00', order: expect.any(Number) },
    ]);
    expect(res.body.carousels[ids.morning].slides).toHaveLength(2);
    expect(res.body.carousels[ids.night].slides).toHaveLength(1);

    // a change of a schedule reaches the next poll (the ETag changes)
    const etag = String(res.headers.etag);
    await root.put(`${schedules()}/${ids.s2}`, { gs_to: '03:00' });
    const again = await t.client().get(`/api/1/play/${code}`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(200);
    expect(again.body.schedules[1].to).toBe('03:00');
    // a scheduled carousel in the trash is not played, nor its window sent
    expect((await root.delete(`${accountPath(a, 'carousels')}/${ids.night}`)).status).toBe(200);
    const trashed = await t.client().get(`/api/1/play/${code}`);
    expect(trashed.body.schedules.map((s: Row) => s.carousel_id)).toEqual([ids.morning]);
    expect(trashed.body.carousels[ids.night]).toBeUndefined();
    expect((await root.post(`${accountPath(a, 'carousels')}/${ids.night}/restore`, {})).status).toBe(200);
    expect((await t.client().get(`/api/1/play/${code}`)).body.schedules).toHaveLength(2);
  });

  it('POST /play/{code}/status keeps the report on the code (read-only fields); bad input 400, unknown code 404', async () => {
    const before = await root.get(`${accountPath(a, 'codes')}?filter=${encodeURIComponent(JSON.stringify({ cc_groupid: ids.group }))}`);
    expect(before.body[0]).toMatchObject({ cc_last_seen_at: null, cc_player_version: null });
    const manifest = await t.client().get(`/api/1/play/${code}`);
    const etag = String(manifest.headers.etag);
    const since = new Date(Date.now() - 3600_000).toISOString();
    const res = await t
      .client()
      .post(
        `/api/1/play/${code.toLowerCase()}/status`,
        { version: 'leadstage-player/1.1', width: 1920, height: 1080, online_since: since, last_error: 'video failed' },
        { csrf: false },
      );
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    const stored = (await root.get(`${accountPath(a, 'codes')}?filter=${encodeURIComponent(JSON.stringify({ cc_groupid: ids.group }))}`)).body[0];
    expect(Date.now() - Date.parse(stored.cc_last_seen_at)).toBeLessThan(60_000);
    expect(stored).toMatchObject({ cc_player_version: 'leadstage-player/1.1', cc_last_error: 'video failed' });
    expect(stored.cc_screen).toContain('1920×1080');
    // a status report is not a change of the manifest: the cached one still answers 304
    expect((await t.client().get(`/api/1/play/${code}`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    // the console cannot write them
    const put = await root.put(`${accountPath(a, 'codes')}/${stored.id}`, { cc_title: 'Hall totem', cc_player_version: 'forged', cc_last_seen_at: '2020-01-01T00:00:00Z' });
    expect(put.status).toBe(200);
    expect(put.body.cc_player_version).toBe('leadstage-player/1.1');

    const bad = await t.client().post(`/api/1/play/${code}/status`, { width: 'wide', online_since: 'yesterday', version: 'x'.repeat(200) }, { csrf: false });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toMatchObject({ width: 'error_number_invalid', online_since: 'error_date_invalid', version: 'error_too_long' });
    expect((await t.client().post('/api/1/play/ACDEFGHJKM/status', {}, { csrf: false })).status).toBe(404);
    // a cleared error is cleared
    expect((await t.client().post(`/api/1/play/${code}/status`, { version: 'leadstage-player/1.1', last_error: null }, { csrf: false })).status).toBe(204);
    expect((await root.get(`${accountPath(a, 'codes')}/${stored.id}`)).body.cc_last_error).toBeNull();
  });

  it('status reports are limited per code (PLAY_LIMIT_PER_CODE): then 429 with Retry-After, nothing written', async () => {
    const saved = t.config.playLimit;
    t.config.playLimit = { perCode: 2, windowSeconds: 60 };
    try {
      const other = String((await makeCode(root, a, ids.group, { cc_title: `Limited ${uid()}` })).cc_code);
      const send = (v: string) => t.client().post(`/api/1/play/${other}/status`, { version: v }, { csrf: false });
      expect((await send('1')).status).toBe(204);
      expect((await send('2')).status).toBe(204);
      const refused = await send('3');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      const row = await t.db('carousel_codes').where('cc_code', other).first('cc_player_version');
      expect(row.cc_player_version).toBe('2');
    } finally {
      t.config.playLimit = saved;
    }
  });

  it('play statistics keep the carousel, slide and code titles after they are deleted and purged', async () => {
    const photo = String((await createAsset(t, root, a, { as_name: `p${uid()}` }, PNG, 'p.png')).id);
    const made = await simpleCarousel(root, a, 1, photo, { c_title: 'Gone soon' });
    const carouselId = String(made.carousel.id);
    const slide = (await root.get(`${accountPath(a, 'slides')}?filter=${encodeURIComponent(JSON.stringify({ sl_carouselid: carouselId }))}`)).body[0];
    await root.put(`${accountPath(a, 'slides')}/${slide.id}`, { sl_title: 'Last slide' });
    const group = String((await makeGroup(root, a, [carouselId])).id);
    const c = await makeCode(root, a, group, { cc_title: 'Doomed totem' });
    const at = new Date().toISOString();
    const sent = await t
      .client()
      .post(`/api/1/play/${c.cc_code}/events`, { events: [{ id: uid(), kind: 'play', at, carousel_id: carouselId, slide_id: slide.id }] }, { csrf: false });
    expect(sent.body.stored).toBe(1);

    // renamed after the play: the statistics show the title now while the record is there
    await root.put(`${accountPath(a, 'carousels')}/${carouselId}`, { c_title: 'Renamed' });
    const stats = async (g: string) => (await root.get(`${accountPath(a, 'stats')}/plays?from=${today()}&to=${today()}&group=${g}`)).body.rows as Row[];
    expect((await stats('carousel')).find((r) => r.key === carouselId)?.label).toBe('Renamed');

    // delete and purge the carousel (its slides go with it) and the code
    expect((await root.delete(`${accountPath(a, 'carousels')}/${carouselId}`)).status).toBe(200);
    expect((await root.delete(`${accountPath(a, 'carousels')}/${carouselId}/purge`)).status).toBe(200);
    expect(await t.db('carousels').where('c_id', carouselId).first()).toBeUndefined();
    expect((await root.delete(`${accountPath(a, 'codes')}/${c.id}`)).status).toBe(200);

    expect((await stats('carousel')).find((r) => r.key === carouselId)).toMatchObject({ label: 'Gone soon', plays: 1 });
    expect((await stats('slide')).find((r) => r.key === slide.id)).toMatchObject({ label: 'Last slide', plays: 1 });
    expect((await stats('code')).find((r) => r.key === c.id)).toMatchObject({ label: 'Doomed totem', plays: 1 });
  });

  it('an asset carousels show is not deleted silently: 409 asset_in_use with the places; ?force=1 deletes it', async () => {
    const logo = String((await createAsset(t, root, a, { as_name: `logo${uid()}` }, PNG, 'logo.png')).id);
    const made = await simpleCarousel(root, a, 1, logo, { c_title: 'Uses the logo' });
    const variant = await makeVariant(root, a, made.carousel.id, {
      v_title: 'Portrait',
      v_name: `p${uid()}`,
      v_width: 1080,
      v_height: 1920,
      v_navigation_enabled: true,
      v_next_assetid: logo,
    });
    const slide = await makeSlide(root, a, made.carousel.id, { sl_title: 'Logo slide' });
    await makeLayer(root, a, slide.id, variant.id, { ly_type: 'image', ly_assetid: logo, ly_title: 'Big logo' });

    const places = await root.get(`${accountPath(a, 'assets')}/${logo}/places`);
    expect(places.status).toBe(200);
    const refused = await root.delete(`${accountPath(a, 'assets')}/${logo}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('asset_in_use');
    expect(refused.body.places).toEqual(places.body.places);
    expect(refused.body.places).toHaveLength(3);
    expect(refused.body.places).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ carousel_title: 'Uses the logo', slide_title: 'Logo slide', layer_title: 'Big logo', variant_title: 'Portrait', button: null }),
        expect.objectContaining({ carousel_title: 'Uses the logo', variant_title: 'Portrait', button: 'next', slide_id: null }),
      ]),
    );
    // nothing changed: the asset and its layers are there
    expect((await root.get(`${accountPath(a, 'assets')}/${logo}`)).status).toBe(200);
    expect((await t.db('layers').where('ly_assetid', logo)).length).toBe(2);

    // an asset nobody uses goes at once
    const spare = String((await createAsset(t, root, a, { as_name: `spare${uid()}` }, PNG, 'spare.png')).id);
    expect((await root.get(`${accountPath(a, 'assets')}/${spare}/places`)).body.places).toEqual([]);
    expect((await root.delete(`${accountPath(a, 'assets')}/${spare}`)).status).toBe(200);

    // force: deleted (to the trash) after the console showed the places
    const forced = await root.delete(`${accountPath(a, 'assets')}/${logo}?force=1`);
    expect(forced.status).toBe(200);
    expect((await root.get(`${accountPath(a, 'assets')}/${logo}`)).status).toBe(404);
    expect((await root.get(`${accountPath(a, 'assets')}/${MISSING}/places`)).status).toBe(404);
  });

  // Two processes on one database: PostgreSQL only (PGlite serves one process), so the case exists only there.
  if (kind === 'postgres')
    it('a change in one process reaches a player polling another at once (manifest cache, LISTEN/NOTIFY)', async () => {
      const { server: server2, db: db2, close } = await secondProcess(t);
      try {
        const poll = (etag?: string) =>
          request(server2)
            .get(`/api/1/play/${code}`)
            .set(etag ? { 'If-None-Match': etag } : {});
        const first = await poll();
        expect(first.status).toBe(200);
        const etag = String(first.headers.etag);
        // the second process's listener is up and its copy cached: polls answer 304 without building again
        await expect.poll(async () => (await poll(etag)).status).toBe(304);
        const before = await db2('carousel_codes').count('* as n').first(); // the handle works
        expect(Number(before?.n)).toBeGreaterThan(0);
        // a change through the first process (a schedule's time) ...
        expect((await root.put(`${schedules()}/${ids.s1}`, { gs_to: '11:45' })).status).toBe(200);
        // ... is in the second process's next answer
        await expect.poll(async () => (await poll(etag)).status, { timeout: 1000, interval: 20 }).toBe(200);
        expect((await poll()).body.schedules[0].to).toBe('11:45');
        // a status report is no change of the manifest: no notification, the second process keeps answering 304
        const etag2 = String((await poll()).headers.etag);
        await expect.poll(async () => (await poll(etag2)).status).toBe(304);
        expect((await t.client().post(`/api/1/play/${code}/status`, { version: 'x' }, { csrf: false })).status).toBe(204);
        await new Promise((r) => setTimeout(r, 200));
        expect((await poll(etag2)).status).toBe(304);
        // a change straight in the database (ops) also reaches it
        await t.db('carousels').where('c_id', ids.plain).update({ c_title: 'Plain renamed' });
        await expect.poll(async () => (await poll(etag2)).status, { timeout: 1000, interval: 20 }).toBe(200);
      } finally {
        await close();
      }
    });
});
