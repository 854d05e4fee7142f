import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { queriesOf, uid, type Signed, type TestApp } from '../helpers/app.js';
import { accountPath, startConsoleApp } from '../helpers/console.js';
import { createAsset } from '../helpers/assets.js';
import { makeCarousel, makeCode, makeCollection, makeGroup, makeLayer, makeSlide, makeVariant, simpleCarousel } from '../helpers/carousels.js';
import { PNG, mp4 } from '../helpers/storage.js';
import { warmManifests } from '../../api/services/player.js';

type Row = Record<string, unknown>;

const today = () => new Date().toISOString().slice(0, 10);

/**
 * The player's API (account-console.md: Player; api/routes/play.ts, api/services/player.ts) and the sync manifest
 * (api/console/sync.ts): the manifest of a code (group, carousels in order, standby, a carousel only a hotspot opens,
 * variants, slides in order, layers per variant, assets with versioned URLs, collections with their /c/ links, the
 * local server), its ETag and 304, a write changing it, a fixed number of queries whatever the group's size, a code
 * of another account's group unknown; events stored once per id, wrong clocks stored as now, counted by /stats/plays;
 * the sync manifest by code (the group's assets) and by session (every asset), another account's code refused.
 */
describeEachDb('player API', (kind) => {
  let t: TestApp;
  let root: Signed;
  let a: string;
  let b: string;
  const ids: Record<string, string> = {};
  let code: string;
  let bCode: string;
  let bGroup: string;
  let token: string;

  beforeAll(async () => {
    ({ t, root, a, b } = await startConsoleApp(kind, 'Player'));
    ids.photo = String((await createAsset(t, root, a, { as_name: 'photo' }, PNG, 'photo.png')).id);
    ids.clip = String((await createAsset(t, root, a, { as_name: 'clip' }, mp4(2000), 'clip.mp4')).id);
    ids.next = String((await createAsset(t, root, a, { as_name: 'next' }, PNG, 'next.png')).id);
    ids.standbyImage = String((await createAsset(t, root, a, { as_name: 'standby' }, PNG, 'standby.png')).id);
    ids.detail = String((await createAsset(t, root, a, { as_name: 'detail' }, PNG, 'detail.png')).id);
    ids.unused = String((await createAsset(t, root, a, { as_name: 'unused' }, PNG, 'unused.png')).id);
    const collection = await makeCollection(root, a, [ids.photo]);
    ids.collection = String(collection.id);
    token = String(collection.co_token);

    // the hotspot's target: in no group, only reachable by the hotspot
    const detail = await simpleCarousel(root, a, 1, ids.detail, { c_title: 'Detail' });
    ids.detailCarousel = String(detail.carousel.id);

    const lobby = await makeCarousel(root, a, { c_title: 'Lobby' });
    ids.lobby = String(lobby.id);
    const landscape = await makeVariant(root, a, lobby.id, { v_name: 'landscape', v_width: 1920, v_height: 1080, v_navigation_enabled: true, v_next_assetid: ids.next });
    const portrait = await makeVariant(root, a, lobby.id, { v_name: 'portrait', v_width: 1080, v_height: 1920 });
    ids.landscape = String(landscape.id);
    ids.portrait = String(portrait.id);
    const s1 = await makeSlide(root, a, lobby.id, { sl_title: 'Welcome', sl_duration_ms: 5000 });
    const s2 = await makeSlide(root, a, lobby.id, { sl_title: 'Demo' });
    ids.s1 = String(s1.id);
    ids.s2 = String(s2.id);
    ids.l1 = String((await makeLayer(root, a, s1.id, landscape.id, { ly_type: 'image', ly_assetid: ids.photo })).id);
    ids.l2 = String(
      (await makeLayer(root, a, s1.id, landscape.id, { ly_type: 'hotspot', ly_hotspot_carouselid: ids.detailCarousel, ly_x: 10, ly_y: 10, ly_width: 100, ly_height: 100 })).id,
    );
    ids.l3 = String((await makeLayer(root, a, s1.id, portrait.id, { ly_type: 'collectionqr', ly_collectionid: ids.collection, ly_qr_fg: '#000000', ly_qr_bg: '#ffffff' })).id);
    ids.l4 = String((await makeLayer(root, a, s2.id, landscape.id, { ly_type: 'video', ly_assetid: ids.clip, ly_loop: true })).id);

    const second = await simpleCarousel(root, a, 2, ids.photo, { c_title: 'Second' });
    ids.second = String(second.carousel.id);
    const standby = await simpleCarousel(root, a, 1, ids.standbyImage, { c_title: 'Standby' });
    ids.standby = String(standby.carousel.id);
    const group = await makeGroup(root, a, [ids.second, ids.lobby], ids.standby);
    ids.group = String(group.id);
    code = String((await makeCode(root, a, group.id)).cc_code);
    expect((await root.put(accountPath(a, 'settings'), { ls_local_server_url: 'http://192.168.1.20:8090' })).status).toBe(200);

    // account B: a group and code of its own
    const bCarousel = await simpleCarousel(root, b, 1, (await createAsset(t, root, b, {}, PNG, 'b.png')).id);
    bGroup = String((await makeGroup(root, b, [bCarousel.carousel.id])).id);
    bCode = String((await makeCode(root, b, bGroup)).cc_code);
  });
  afterAll(() => t?.close());

  const manifest = (c = code, headers: Record<string, string> = {}) => t.client().get(`/api/1/play/${c}`, { headers });

  it('the manifest: group, carousels in order, standby, the hotspot-only carousel, variants, slides and layers, versioned asset URLs, collections, local server', async () => {
    const res = await manifest(code.toLowerCase());
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['set-cookie']).toBeUndefined(); // no session, no CSRF cookie
    const m = res.body;
    expect(m).toMatchObject({
      code,
      account_id: a,
      group: { cg_id: ids.group },
      carousel_ids: [ids.second, ids.lobby],
      standby_carouselid: ids.standby,
      local_server_url: 'http://192.168.1.20:8090',
    });
    expect(Object.keys(m.carousels).sort()).toEqual([ids.second, ids.lobby, ids.standby, ids.detailCarousel].sort());
    expect(m.carousel_ids).not.toContain(ids.detailCarousel);

    const lobby = m.carousels[ids.lobby];
    expect(lobby.c_title).toBe('Lobby');
    expect(lobby.variants.map((v: Row) => v.v_name)).toEqual(['portrait', 'landscape']); // by width, then height
    expect(lobby.variants.find((v: Row) => v.v_name === 'landscape')).toMatchObject({
      v_width: 1920,
      v_height: 1080,
      v_navigation_enabled: true,
      v_next_assetid: ids.next,
      v_default_duration_ms: 8000,
    });
    expect(lobby.slides.map((s: Row) => s.sl_title)).toEqual(['Welcome', 'Demo']);
    expect(lobby.slides[0].sl_duration_ms).toBe(5000);
    expect(lobby.slides[0].layers[ids.landscape].map((l: Row) => l.ly_id)).toEqual([ids.l1, ids.l2]);
    expect(lobby.slides[0].layers[ids.landscape][1]).toMatchObject({ ly_type: 'hotspot', ly_hotspot_carouselid: ids.detailCarousel });
    expect(lobby.slides[0].layers[ids.portrait]).toEqual([
      expect.objectContaining({ ly_id: ids.l3, ly_type: 'collectionqr', ly_collectionid: ids.collection, ly_qr_fg: '#000000' }),
    ]);
    expect(lobby.slides[1].layers[ids.landscape][0]).toMatchObject({ ly_type: 'video', ly_assetid: ids.clip, ly_loop: true, ly_muted: true });

    expect(Object.keys(m.assets).sort()).toEqual([ids.photo, ids.clip, ids.next, ids.standbyImage, ids.detail].sort());
    for (const asset of Object.values(m.assets) as Row[]) expect(asset.url).toMatch(/^\/storage\/assets\/[0-9a-f-]+\/\d{4}\/\d{2}\/[0-9a-f-]+\?v=1$/);
    expect(m.assets[ids.clip]).toMatchObject({ as_type: 'video/mp4', kind: 'video', as_size: 2000, as_version: 1 });
    expect(m.assets[ids.clip].as_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(m.collections[ids.collection]).toEqual({ co_id: ids.collection, co_title: expect.any(String), url: `/c/${token}` });
    // the asset's bytes are where the URL says
    const bytes = await t.client().get(m.assets[ids.photo].url);
    expect(bytes.status).toBe(200);
    expect(bytes.headers['content-type']).toBe('image/png');
    expect(Number(bytes.headers['content-length'])).toBe(PNG.length);
  });

  it('ETag and If-None-Match: 304; a write to what the manifest is made of changes the ETag', async () => {
    const first = await manifest();
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    const again = await manifest(code, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.text ?? '').toBe('');
    expect((await manifest(code, { 'If-None-Match': `W/${etag}` })).status).toBe(304);
    expect((await manifest(code, { 'If-None-Match': `"other", ${etag}` })).status).toBe(304);

    expect((await root.put(`${accountPath(a, 'slides')}/${ids.s2}`, { sl_title: 'Demo (new)' })).status).toBe(200);
    const changed = await manifest(code, { 'If-None-Match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.body.carousels[ids.lobby].slides[1].sl_title).toBe('Demo (new)');
    // and the group's order
    expect((await root.put(`${accountPath(a, 'carousel-groups')}/${ids.group}/items`, { ids: [ids.lobby, ids.second] })).status).toBe(200);
    const reordered = await manifest(code, { 'If-None-Match': String(changed.headers.etag) });
    expect(reordered.status).toBe(200);
    expect(reordered.body.carousel_ids).toEqual([ids.lobby, ids.second]);
  });

  it('compressed once per manifest: brotli when the player accepts it, else gzip, else plain JSON; the same document', async () => {
    const raw = (acceptEncoding?: string) =>
      new Promise<{ encoding?: string; vary?: string; body: Buffer }>((resolve, reject) => {
        http
          .get(`${t.baseUrl}/api/1/play/${code}`, { headers: acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {} }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ encoding: res.headers['content-encoding'], vary: String(res.headers.vary), body: Buffer.concat(chunks) }));
          })
          .on('error', reject);
      });
    const plain = await raw();
    expect(plain.encoding).toBeUndefined();
    const doc = JSON.parse(plain.body.toString('utf8'));
    expect(doc.code).toBe(code);
    const br = await raw('gzip, deflate, br');
    expect(br.encoding).toBe('br');
    expect(br.vary).toMatch(/Accept-Encoding/i);
    expect(JSON.parse(zlib.brotliDecompressSync(br.body).toString('utf8'))).toEqual(doc);
    const gz = await raw('gzip');
    expect(gz.encoding).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.body).toString('utf8'))).toEqual(doc);
  });

  it('built from a fixed number of queries whatever the size of the group; served from memory until a write', async () => {
    // a write empties the cache: the next request builds, the one after is served from memory
    await root.put(`${accountPath(a, 'slides')}/${ids.s1}`, { sl_subtitle: 'x' });
    const small = await queriesOf(t.db, () => manifest());
    const big = await makeCarousel(root, a, { c_title: 'Big' });
    const variant = await makeVariant(root, a, big.id);
    for (let i = 0; i < 6; i++) {
      const slide = await makeSlide(root, a, big.id);
      await makeLayer(root, a, slide.id, variant.id, { ly_type: 'image', ly_assetid: ids.unused });
      await makeLayer(root, a, slide.id, variant.id, { ly_type: 'collectionqr', ly_collectionid: ids.collection });
    }
    await root.put(`${accountPath(a, 'carousel-groups')}/${ids.group}/items`, { ids: [ids.lobby, ids.second, big.id] });
    const large = await queriesOf(t.db, () => manifest());
    expect(large.length).toBe(small.length);
    // the code with its group; items, settings and schedules; per hotspot step 4 (carousels, variants, slides, layers: 2 steps
    // here); assets and collections
    expect(small.length).toBe(4 + 4 * 2 + 2);
    // (on PostgreSQL the write's own NOTIFY, which reaches every process, may still arrive and empty it once more)
    await expect.poll(async () => (await queriesOf(t.db, () => manifest())).length, { timeout: 3000, interval: 50 }).toBe(0);
    await root.put(`${accountPath(a, 'carousel-groups')}/${ids.group}/items`, { ids: [ids.lobby, ids.second] });
  });

  it("unknown, malformed, deleted, and a code pointing at another account's group: 404 code_not_found", async () => {
    for (const c of ['ACDEFGHJKM', 'nope!', 'A'.repeat(40)]) {
      const res = await manifest(c);
      expect(res.status, c).toBe(404);
      expect(res.body.code).toBe('code_not_found');
    }
    // a row the console would never make (its reference check refuses it): account A's code on B's group
    const [row] = await t.db('carousel_codes').insert({ cc_accountid: a, cc_groupid: bGroup, cc_code: 'ACDEFGHJKMNP' }).returning('cc_id');
    expect((await manifest('ACDEFGHJKMNP')).body.code).toBe('code_not_found');
    await t.db('carousel_codes').where('cc_id', row.cc_id).del();
    // B's code shows B's group only
    const other = await manifest(bCode);
    expect(other.body.account_id).toBe(b);
    expect(JSON.stringify(other.body)).not.toContain(ids.lobby);
  });

  it('events: stored, a batch sent twice counts once, wrong clocks stored as the time received, bad input 400', async () => {
    const now = Date.now();
    const batch = {
      events: [
        { id: 'e1', kind: 'play', at: new Date(now - 60_000).toISOString(), carousel_id: ids.lobby, slide_id: ids.s1 },
        { id: 'e2', kind: 'play', at: new Date(now - 30_000).toISOString(), carousel_id: ids.lobby, slide_id: ids.s2 },
        { id: 'e3', kind: 'hotspot', at: new Date(now - 20_000).toISOString(), carousel_id: ids.lobby, slide_id: ids.s1 },
        { id: 'e4', kind: 'qr', at: new Date(now + 86400_000).toISOString(), carousel_id: ids.lobby, slide_id: ids.s1 },
        { id: 'e5', kind: 'play', at: '2020-01-01T00:00:00Z', carousel_id: ids.second, slide_id: null },
      ],
    };
    // no session, no CSRF: the code is the credential
    const first = await t.client().post(`/api/1/play/${code}/events`, batch, { csrf: false });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({ stored: 5 });
    expect((await t.client().post(`/api/1/play/${code}/events`, batch, { csrf: false })).body).toEqual({ stored: 0 });
    const partly = { events: [...batch.events.slice(0, 2), { id: 'e6', kind: 'play', at: new Date().toISOString(), carousel_id: ids.second }] };
    expect((await t.client().post(`/api/1/play/${code}/events`, partly, { csrf: false })).body).toEqual({ stored: 1 });

    const rows = await t.db('play_events').where('pe_accountid', a).orderBy('pe_client_id');
    expect(rows.map((r) => r.pe_client_id)).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'e6']);
    const at = (id: string) => new Date(rows.find((r) => r.pe_client_id === id).pe_at).getTime();
    expect(Math.abs(at('e1') - (now - 60_000))).toBeLessThan(1000);
    for (const skewed of ['e4', 'e5']) expect(Math.abs(at(skewed) - now)).toBeLessThan(60_000);
    expect(rows[0]).toMatchObject({ pe_kind: 'play', pe_carouselid: ids.lobby, pe_slideid: ids.s1 });

    // the same event id from another code is another event
    expect((await t.client().post(`/api/1/play/${bCode}/events`, { events: [{ id: 'e1', kind: 'play', at: new Date().toISOString() }] }, { csrf: false })).body).toEqual({
      stored: 1,
    });

    const bad = await t.client().post(`/api/1/play/${code}/events`, { events: [{ id: 'x', kind: 'dance', at: 'yesterday' }] }, { csrf: false });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toMatchObject({ 'events.0.kind': 'error_invalid_value', 'events.0.at': 'error_date_invalid' });
    expect((await t.client().post(`/api/1/play/${code}/events`, { events: [] }, { csrf: false })).status).toBe(400);
    expect((await t.client().post('/api/1/play/ACDEFGHJKM/events', batch, { csrf: false })).body.code).toBe('code_not_found');
  });

  it('/stats/plays counts them by day, carousel, slide and code', async () => {
    const stats = async (group: string) => {
      const res = await root.get(`${accountPath(a, 'stats')}/plays?from=${today()}&to=${today()}&group=${group}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { rows: Row[]; totals: Row };
    };
    // e1, e2, e3, e4 (moved to now), e5 (moved to now), e6: all today
    const byDay = await stats('day');
    expect(byDay.rows).toEqual([{ key: today(), label: today(), plays: 4, hotspot_taps: 1, qr_shows: 1 }]);
    const byCarousel = await stats('carousel');
    expect(byCarousel.rows).toEqual([
      { key: ids.lobby, label: 'Lobby', plays: 2, hotspot_taps: 1, qr_shows: 1 },
      { key: ids.second, label: 'Second', plays: 2, hotspot_taps: 0, qr_shows: 0 },
    ]);
    const bySlide = await stats('slide');
    expect(bySlide.rows.find((r) => r.key === ids.s1)).toMatchObject({ plays: 1, hotspot_taps: 1, qr_shows: 1 });
    expect(bySlide.rows.find((r) => r.key === null)).toMatchObject({ plays: 2 });
    const byCode = await stats('code');
    expect(byCode.rows).toEqual([{ key: expect.any(String), label: expect.stringMatching(/^Totem /), plays: 4, hotspot_taps: 1, qr_shows: 1 }]);
    expect(byCode.totals).toEqual({ plays: 4, hotspot_taps: 1, qr_shows: 1 });
  });

  it("the sync manifest: with a code the group's assets, with a session every asset; ETag and 304; another account's code refused", async () => {
    const sync = (account: string, headers: Record<string, string> = {}, client = t.client()) => client.get(`/api/1/accounts/${account}/sync/manifest`, { headers });
    const byCode = await sync(a, { 'X-Player-Code': code });
    expect(byCode.status).toBe(200);
    const names = (res: { body: { assets: Row[] } }) => res.body.assets.map((x) => x.as_name);
    expect(names(byCode)).toEqual(['clip', 'detail', 'next', 'photo', 'standby']);
    expect(Object.keys(byCode.body.assets[0]).sort()).toEqual(['as_id', 'as_name', 'as_sha256', 'as_size', 'as_title', 'as_type', 'as_version', 'url']);
    expect(byCode.body.assets[0].url).toMatch(/\?v=1$/);
    expect((await sync(a, { 'X-Player-Code': code, 'If-None-Match': String(byCode.headers.etag) })).status).toBe(304);
    expect((await t.client().get(`/api/1/accounts/${a}/sync/manifest?code=${code.toLowerCase()}`)).body.assets).toHaveLength(5);

    const bySession = await sync(a, {}, root);
    expect(names(bySession)).toEqual(['clip', 'detail', 'next', 'photo', 'standby', 'unused']);

    for (const [account, c] of [
      [a, bCode],
      [b, code],
      ['not-a-uuid', code],
      [a, 'ACDEFGHJKM'],
    ]) {
      const refused = await sync(account, { 'X-Player-Code': c });
      expect(refused.status, `${account} ${c}`).toBe(404);
      expect(refused.body.code).toBe('code_not_found');
    }
    // no code and no session
    expect((await sync(a)).status).toBe(401);
    // a member may read assets (account_assets read) too
    const member = await t.signedIn('member');
    await t.member(a, member.userId);
    expect(names(await sync(a, {}, member))).toHaveLength(6);
    expect((await sync(b, {}, member)).status).toBe(404);
  });
  it('play events are limited per code across its screens (PLAY_LIMIT_PER_CODE): then 429 with Retry-After, nothing stored', async () => {
    const saved = t.config.playLimit;
    t.config.playLimit = { perCode: 2, windowSeconds: 60 };
    try {
      await t
        .db('rate_limits')
        .whereIn('rl_key', [`play:${bCode}`, `play:${code}`])
        .del();
      const post = (id: string) => t.client().post(`/api/1/play/${bCode}/events`, { events: [{ id, kind: 'play', at: new Date().toISOString() }] }, { csrf: false });
      expect((await post(`limit-${uid()}`)).status).toBe(200);
      expect((await post(`limit-${uid()}`)).status).toBe(200);
      const before = await t.db('play_events').count({ n: '*' }).first();
      const refused = await post(`limit-${uid()}`);
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('too_many_requests');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(await t.db('play_events').count({ n: '*' }).first()).toEqual(before);
      // another code has its own budget; the manifest poll is not counted
      expect(
        (await t.client().post(`/api/1/play/${code}/events`, { events: [{ id: `limit-${uid()}`, kind: 'play', at: new Date().toISOString() }] }, { csrf: false })).status,
      ).toBe(200);
      expect((await t.client().get(`/api/1/play/${bCode}`)).status).toBe(200);
    } finally {
      t.config.playLimit = saved;
      await t
        .db('rate_limits')
        .whereIn('rl_key', [`play:${bCode}`, `play:${code}`])
        .del();
    }
  });

  it('at start, the manifests of the codes whose players reported lately are built (warmManifests), the others are not', async () => {
    const quiet = String((await makeCode(root, a, ids.group)).cc_code);
    await t.db('carousel_codes').where('cc_code', code).update({ cc_last_seen_at: t.db.fn.now() });
    await t
      .db('carousel_codes')
      .where('cc_code', quiet)
      .update({ cc_last_seen_at: t.db.raw("now() - interval '1 hour'") });
    // a write empties every manifest kept (its NOTIFY, on PostgreSQL, arrives within the pause)
    await root.put(`${accountPath(a, 'slides')}/${ids.s1}`, { sl_subtitle: `warm ${uid()}` });
    await new Promise((r) => setTimeout(r, 300));
    let built = 0;
    const warming = await queriesOf(t.db, async () => {
      built = await warmManifests(t.db);
    });
    expect(built).toBeGreaterThanOrEqual(1);
    // the recent code's manifest was built by the warm-up (its code read, its group's part) and is served from memory
    expect(warming.some((sql) => /from "carousel_codes".*"cc_code" = /.test(sql))).toBe(true);
    expect(await queriesOf(t.db, async () => expect((await manifest()).status).toBe(200))).toEqual([]);
    // the one not seen for an hour was not built: its code is read on its first poll (its group's part is shared)
    const first = await queriesOf(t.db, async () => expect((await manifest(quiet)).status).toBe(200));
    expect(first.length).toBeGreaterThan(0);
  });
});
