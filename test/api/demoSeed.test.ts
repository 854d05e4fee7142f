import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { startApp, type Signed, type TestApp, type TestClient } from '../helpers/app.js';
import { isDemoSeed, runSeeds } from '../../api/db/migrationSource.js';
import { storageOf } from '../../api/storage/index.js';
import { objectKey } from '../../api/storage/keys.js';
import { DEMO_ACCOUNT } from '../../seeds/03_console_demo.js';
import { DEMO_BOOTH_EMAIL, DEMO_LEADS, DEMO_OWNER_EMAIL, DEMO_PLAYER_CODE } from '../../seeds/04_showcase_demo.js';
import { DEMO_PASSWORD } from '../../seeds/02_demo.js';
import { decodePng } from '../e2e/support/png.js';
import { FORM_ELEMENT_TYPES } from '../../resources/formElements.js';
import { LEAD_SOURCES } from '../../resources/leads.js';
import { MEETING_STATUSES } from '../../resources/meetings.js';

type Row = Record<string, unknown>;

async function bytesOf(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of stream) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

describeEachDb('npm run db:seed:demo: a console a newcomer can look at', (kind) => {
  let t: TestApp;
  let root: Signed;
  let owner: TestClient;
  let booth: TestClient;
  let a: string;
  let seconds = 0;
  const said: string[] = [];
  beforeAll(async () => {
    t = await startApp(kind);
    const storage = storageOf(t.context);
    const started = Date.now();
    // as `npm run db:seed:demo` runs it: with the server's secret and public address
    const services = { storage, sessionSecret: t.context.config.sessionSecret, publicUrl: t.context.config.publicUrl, say: (line: string) => said.push(line) };
    await runSeeds(t.db, isDemoSeed, services);
    seconds = (Date.now() - started) / 1000;
    await runSeeds(t.db, isDemoSeed, services); // twice: nothing doubles
    root = await t.signedIn('root');
    owner = t.client();
    await owner.login(DEMO_OWNER_EMAIL, DEMO_PASSWORD);
    booth = t.client();
    await booth.login(DEMO_BOOTH_EMAIL, DEMO_PASSWORD);
    a = (await t.db('accounts').where('a_name', DEMO_ACCOUNT).first('a_id')).a_id;
  }, 240_000);
  afterAll(() => t?.close());

  it('two events, the registration form with every element type and its lists, read through the API', async () => {
    const events = await root.get(`/api/1/accounts/${a}/events`);
    expect(events.body.map((e: Row) => e.ev_name).sort()).toEqual(['logistics-week', 'partner-summit', 'retail-forum', 'spring-expo']);
    const spring = events.body.find((e: Row) => e.ev_name === 'spring-expo');
    const graph = await root.get(`/api/1/accounts/${a}/events/${spring.id}/graph`);
    expect(graph.status).toBe(200);
    const types = new Set(graph.body.registration.elements.map((e: Row) => e.fe_type));
    expect([...FORM_ELEMENT_TYPES].every((type) => types.has(type))).toBe(true);
    const tree = graph.body.registration.elements.find((e: Row) => e.fe_type === 'checkbox_tree').items;
    expect(tree.map((n: Row) => n.li_title)).toEqual(['Europe', 'Americas', 'Asia']);
    expect(tree[0].children.length).toBe(5);
    expect(graph.body.forms.map((f: { form: Row }) => f.form.f_name)).toEqual(['registration', 'booth']);
    const integrations = await root.get(`/api/1/accounts/${a}/integrations`);
    expect(integrations.body).toEqual([expect.objectContaining({ in_name: 'fake-badges', in_secret_set: true })]);
    expect(integrations.body[0]).not.toHaveProperty('in_secret');
    const summary = await root.get(`/api/1/accounts/${a}/mail-templates`);
    expect(summary.body.map((m: Row) => m.mt_name)).toEqual(['invite']);
  });

  describe('the day after a trade show', () => {
    it(`seeds in reasonable time, and a second run adds nothing (${DEMO_LEADS} leads, not twice as many)`, async () => {
      expect(seconds).toBeLessThan(60);
      const { n } = (await t.db('leads').where('ld_accountid', a).count({ n: '*' }).first()) as { n: string };
      expect(Number(n)).toBe(DEMO_LEADS);
      expect(await t.db('users').where('u_email', DEMO_OWNER_EMAIL).count({ n: '*' }).first()).toEqual({ n: expect.anything() });
      expect(Number((await t.db('carousel_codes').where('cc_code', DEMO_PLAYER_CODE).count({ n: '*' }).first())!.n)).toBe(1);
    });

    it('leads: every source over the last 30 days, rated, tagged, with notes and memos, cards waiting for transcription', async () => {
      const bySource = await owner.get(`/api/1/accounts/${a}/stats/leads?group=source`);
      expect(bySource.status, JSON.stringify(bySource.body)).toBe(200);
      const counts = Object.fromEntries(bySource.body.rows.map((r: Row) => [r.key, r.count]));
      for (const source of LEAD_SOURCES) expect(counts[source], source).toBeGreaterThan(0);
      const byDay = await owner.get(`/api/1/accounts/${a}/stats/leads?group=day`);
      expect(byDay.body.rows.filter((r: Row) => Number(r.count) > 0).length).toBeGreaterThanOrEqual(9);
      // the statistics' default range (the last 30 days) holds every lead
      expect(byDay.body.rows.reduce((sum: number, r: Row) => sum + Number(r.count), 0)).toBe(DEMO_LEADS);
      const list = await owner.get(`/api/1/accounts/${a}/leads?range=${encodeURIComponent('[0,24]')}`);
      expect(list.status).toBe(200);
      expect(list.body.length).toBe(25);
      const rated = await owner.get(`/api/1/accounts/${a}/leads?${new URLSearchParams({ filter: JSON.stringify({ ld_rating_min: 4 }) })}`);
      expect(rated.status, JSON.stringify(rated.body)).toBe(200);
      expect(rated.body.length).toBeGreaterThan(0);
      expect(rated.body.every((l: Row) => Number(l.ld_rating) >= 4)).toBe(true);
      const tagged = await owner.get(`/api/1/accounts/${a}/leads?${new URLSearchParams({ filter: JSON.stringify({ ld_tags: ['hot'] }) })}`);
      expect(tagged.body.length).toBeGreaterThan(0);
      expect(tagged.body.every((l: Row) => (l.ld_tags as string[]).includes('hot'))).toBe(true);
      const answered = (await t.db('leads').where({ ld_accountid: a, ld_source: 'registration' }).first('ld_answers', 'ld_email'))!;
      expect(answered.ld_answers).toMatchObject({ email: answered.ld_email, first_name: expect.any(String) });
      const notes = (await t.db('leads').where('ld_accountid', a).whereNotNull('ld_notes').count({ n: '*' }).first())!;
      expect(Number(notes.n)).toBeGreaterThan(0);

      const pending = await owner.get(`/api/1/accounts/${a}/leads?${new URLSearchParams({ filter: JSON.stringify({ ld_transcription_status: 'pending' }) })}`);
      expect(pending.body.length).toBeGreaterThan(10);
      const open = await t.db('leads').where('ld_accountid', a).whereIn('ld_transcription_status', ['pending', 'postponed']).select('ld_front_fileid', 'ld_transcription_status');
      expect(open.every((l) => l.ld_front_fileid)).toBe(true); // the queue shows a photo for every card in it
      expect(open.some((l) => l.ld_transcription_status === 'postponed')).toBe(true);
      const card = pending.body[0];
      expect(card).toMatchObject({ ld_source: 'card', ld_first_name: null });
      const photo = await owner.get(`/api/1/accounts/${a}/lead-files/${card.ld_front_fileid}`);
      expect(photo.status).toBe(200);
      expect(photo.headers['content-type']).toMatch(/^image\/png/);
      expect(decodePng(photo.body as Buffer).width).toBe(640);

      const withMemo = (await t.db('leads').where('ld_accountid', a).whereNotNull('ld_memo_fileid').first('ld_memo_fileid'))!;
      const memo = await owner.get(`/api/1/accounts/${a}/lead-files/${withMemo.ld_memo_fileid}`);
      expect(memo.status).toBe(200);
      expect(memo.headers['content-type']).toMatch(/^audio\/webm/);
      const body = memo.body as Buffer;
      expect(body.subarray(0, 4).toString('hex')).toBe('1a45dfa3'); // EBML
      expect(body.includes(Buffer.from('A_PCM/INT/LIT'))).toBe(true);
      expect(body.length).toBeGreaterThan(16_000);
    });

    it('handoffs and meetings in every status', async () => {
      const handoffs = await t.db('handoffs').where('ho_accountid', a).select('ho_status');
      expect(new Set(handoffs.map((h) => h.ho_status))).toEqual(new Set(['pending', 'accepted', 'not_available']));
      const mine = await booth.get('/api/1/handoffs');
      expect(mine.status, JSON.stringify(mine.body)).toBe(200);
      expect(JSON.stringify(mine.body)).toContain('pending');
      const meetings = await owner.get(`/api/1/accounts/${a}/meetings`);
      expect(meetings.status).toBe(200);
      expect(new Set(meetings.body.map((m: Row) => m.mg_status))).toEqual(new Set(MEETING_STATUSES));
      expect(meetings.body.every((m: Row) => m.ld_email)).toBe(true);
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      const byStatus = await owner.get(`/api/1/accounts/${a}/stats/meetings?group=status&to=${tomorrow}`);
      expect(byStatus.body.rows.length).toBe(MEETING_STATUSES.length);
      expect(byStatus.body.rows.every((r: Row) => Number(r.count) > 0)).toBe(true);
    });

    it('conversations: an answered thread and one whose reply the booth member has not read (listed first)', async () => {
      const list = await booth.get(`/api/1/accounts/${a}/conversations`);
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      expect(list.body).toHaveLength(2);
      expect(list.body.map((c: Row) => [c.cv_subject, c.cv_unread])).toEqual([
        ['The demo you asked for', 1],
        ['Your visit to our stand', 0],
      ]);
      const thread = await booth.get(`/api/1/accounts/${a}/conversations/${list.body[1].cv_id}/messages`);
      expect(thread.status).toBe(200);
      expect(thread.body).toHaveLength(3);
    });

    it("the seed prints the visitor's link of the unread thread, and it opens that thread (made with the server's secret)", async () => {
      const lines = said.filter((l) => l.includes('/conversations/'));
      expect(lines).toHaveLength(1); // the second run seeded nothing
      const token = decodeURIComponent(lines[0].split('/conversations/')[1]);
      expect(lines[0].startsWith(`demo conversation, the visitor's side: ${t.context.config.publicUrl}/conversations/`)).toBe(true);
      const visit = await t.client().get(`/api/1/conversation/${encodeURIComponent(token)}`);
      expect(visit.status, JSON.stringify(visit.body)).toBe(200);
      expect(visit.body.subject).toBe('The demo you asked for');
      expect(visit.body.messages.map((m: Row) => m.cm_body)).toEqual(['Would Thursday at 10:00 suit you for the demo?', 'Thursday is fine. Can my colleague join by video?']);
    });

    it('assets: images drawn at seed time, readable through the storage driver, with thumbnails', async () => {
      const assets = await owner.get(`/api/1/accounts/${a}/assets`);
      expect(assets.status).toBe(200);
      expect(assets.body.length).toBeGreaterThanOrEqual(8);
      const storage = storageOf(t.context);
      for (const asset of assets.body as Row[]) {
        expect(asset.as_type).toBe('image/png');
        const row = (await t.db('assets').where('as_id', String(asset.id)).first())!;
        const file = await bytesOf(await storage.read(objectKey(row.as_path, row.as_fileid)));
        expect(file.length).toBe(Number(asset.as_size));
        expect(decodePng(file)).toMatchObject({ width: 1280, height: 720 });
        const thumb = await bytesOf(await storage.read(objectKey(row.as_path, row.as_thumb_fileid)));
        expect(decodePng(thumb)).toMatchObject({ width: 320, height: 180 });
      }
    });

    it('carousels with slides and layers, in a group whose code plays at /play/{code}, and plays in the statistics', async () => {
      const carousels = await owner.get(`/api/1/accounts/${a}/carousels`);
      expect(carousels.body.map((c: Row) => c.c_name).sort()).toEqual(['product-tour', 'welcome-loop']);
      const slides = await t.db('slides').where('sl_accountid', a).count({ n: '*' }).first();
      const layers = await t.db('layers').where('ly_accountid', a).select('ly_type');
      expect(Number(slides!.n)).toBe(8);
      expect(layers.filter((l) => l.ly_type === 'image').length).toBe(8);
      expect(layers.some((l) => l.ly_type === 'collectionqr')).toBe(true);
      const manifest = await t.client().get(`/api/1/play/${DEMO_PLAYER_CODE}`);
      expect(manifest.status).toBe(200);
      const text = JSON.stringify(manifest.body);
      expect(manifest.body.carousel_ids.length).toBe(2);
      expect(Object.values(manifest.body.carousels as Record<string, { slides: Row[] }>).flatMap((c) => c.slides).length).toBe(8);
      expect(Object.keys(manifest.body.assets).length).toBe(8);
      expect(Object.keys(manifest.body.collections).length).toBe(1);
      expect(text).toContain('welcome-hall-5');
      const plays = await owner.get(`/api/1/accounts/${a}/stats/plays?group=carousel`);
      expect(plays.status).toBe(200);
      expect(plays.body.rows.length).toBe(2);
      expect(plays.body.rows.every((r: Row) => Number(r.plays) > 0)).toBe(true);
      const byDay = await owner.get(`/api/1/accounts/${a}/stats/plays?group=day`);
      expect(byDay.body.rows.filter((r: Row) => Number(r.plays) > 0).length).toBeGreaterThanOrEqual(25);
    });

    it("the booth member's capture app lists the active Spring Expo; the owner enters the console", async () => {
      const app = await booth.get('/api/1/app/events');
      expect(app.status).toBe(200);
      expect(app.body.events.map((e: Row) => e.ev_name)).toContain('spring-expo');
      expect(app.body.accounts).toEqual([expect.objectContaining({ a_name: DEMO_ACCOUNT, role: 'member' })]);
      const me = await owner.get('/api/1/auth/me');
      expect(me.status).toBe(200);
      expect(JSON.stringify(me.body)).toContain(DEMO_ACCOUNT);
    });
  });
});
