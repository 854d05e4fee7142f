import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { qs, type Signed, type TestApp } from '../helpers/app.js';
import { startConsoleApp } from '../helpers/console.js';
import { answersFor, JPEG, makeLeadEvent, putLeadFile, type LeadEvent } from '../helpers/leads.js';
import { LEAD_MEMO_MAX_BYTES } from '../../resources/leads.js';

type Row = Record<string, unknown>;

/** The first bytes of what MediaRecorder writes: a WebM (EBML, DocType webm), an Ogg Opus, an M4A. */
export const WEBM = Buffer.concat([
  Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 1, 0x42, 0xf7, 0x81, 1, 0x42, 0xf2, 0x81, 4, 0x42, 0xf3, 0x81, 8, 0x42, 0x82, 0x84]),
  Buffer.from('webm'),
  Buffer.from([0x42, 0x87, 0x81, 4, 0x42, 0x85, 0x81, 2, 0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
  Buffer.alloc(200, 0),
]);
const OGG = Buffer.concat([
  Buffer.from('OggS\0\x02', 'latin1'),
  Buffer.alloc(20, 0),
  Buffer.from([1, 19]),
  Buffer.from('OpusHead\x01\x01\x38\x01\x80\xbb\0\0\0\0\0', 'latin1'),
  Buffer.alloc(64, 0),
]);
const M4A = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypM4A \0\0\0\0M4A isom', 'latin1'), Buffer.alloc(64, 0)]);

/** platform-and-flows.md section 4: rating, tags, notes and a voice memo on a lead; their filters, bulk and export. */
describeEachDb('lead qualification', (kind) => {
  let t: TestApp;
  let root: Signed;
  let a: string;
  let b: string;
  let member: Signed;
  let memberOfB: Signed;
  let ev: LeadEvent;

  beforeAll(async () => {
    ({ t, root, a, b } = await startConsoleApp(kind, 'Qualify'));
    member = await t.signedIn('member');
    await t.member(a, member.userId, 'member');
    memberOfB = await t.signedIn('member');
    await t.member(b, memberOfB.userId, 'member');
    ev = await makeLeadEvent(root, a, { ev_title: 'Qualify Expo' });
  });
  afterAll(() => t?.close());

  const leadsPath = (account = a) => `/api/1/accounts/${account}/leads`;
  const create = (body: Row, as: Signed = member) => as.post(leadsPath(), { ld_eventid: ev.event.id, ld_answers: answersFor(), ...body });
  const made = async (body: Row): Promise<Row> => {
    const res = await create(body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Row;
  };
  const list = async (filter: Row, as: Signed = member) => {
    const res = await as.get(`${leadsPath()}?${qs({ filter: { ld_eventid: ev.event.id, ...filter }, sort: ['ld_captured_at', 'ASC'], range: [0, 99] })}`);
    return res;
  };

  describe('fields', () => {
    it('stores a rating, tags and notes, and answers them; tags default to none', async () => {
      const lead = await made({ ld_rating: 4, ld_tags: ['hot', 'follow-up'], ld_notes: 'Wants a demo\nnext week' });
      expect(lead).toMatchObject({ ld_rating: 4, ld_tags: ['hot', 'follow-up'], ld_notes: 'Wants a demo\nnext week', ld_memo_fileid: null, ld_memo_url: null });
      const plain = await made({});
      expect(plain).toMatchObject({ ld_rating: null, ld_tags: [], ld_notes: null });
      const changed = await member.put(`${leadsPath()}/${lead.id}`, { ld_rating: 0, ld_tags: [] });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect(changed.body).toMatchObject({ ld_rating: 0, ld_tags: [], ld_notes: 'Wants a demo\nnext week' });
      const cleared = await member.put(`${leadsPath()}/${lead.id}`, { ld_rating: null, ld_tags: null, ld_notes: '' });
      expect(cleared.body).toMatchObject({ ld_rating: null, ld_tags: [], ld_notes: null });
    });

    it.each([
      [{ ld_rating: 6 }, 'ld_rating', 'error_number_too_large'],
      [{ ld_rating: -1 }, 'ld_rating', 'error_number_too_small'],
      [{ ld_rating: 2.5 }, 'ld_rating', 'error_number_invalid'],
      [{ ld_rating: 'five' }, 'ld_rating', 'error_number_invalid'],
      [{ ld_tags: ['Hot'] }, 'ld_tags', 'error_tag_invalid'],
      [{ ld_tags: ['has space'] }, 'ld_tags', 'error_tag_invalid'],
      [{ ld_tags: [7] }, 'ld_tags', 'error_tag_invalid'],
      [{ ld_tags: 'hot' }, 'ld_tags', 'error_invalid_value'],
      [{ ld_tags: ['hot', 'hot'] }, 'ld_tags', 'error_tags_duplicate'],
      [{ ld_tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'ld_tags', 'error_too_many_tags'],
      [{ ld_notes: 'x'.repeat(10_001) }, 'ld_notes', 'error_too_long'],
    ])('refuses a bad value (%#) with 400 on the field, and changes nothing', async (body, field, key) => {
      const before = Number((await t.db('leads').where('ld_accountid', a).count({ n: '*' }).first())?.n);
      const res = await create(body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.fields).toEqual({ [field]: key });
      expect(Number((await t.db('leads').where('ld_accountid', a).count({ n: '*' }).first())?.n)).toBe(before);
      // The same rule on an update, which leaves the lead as it was.
      const lead = await made({ ld_rating: 3, ld_tags: ['kept'] });
      const upd = await member.put(`${leadsPath()}/${lead.id}`, body);
      expect(upd.status).toBe(400);
      expect(upd.body.fields).toEqual({ [field]: key });
      expect((await member.get(`${leadsPath()}/${lead.id}`)).body).toMatchObject({ ld_rating: 3, ld_tags: ['kept'] });
    });

    it('takes exactly 20 tags; the database holds the count too', async () => {
      const twenty = Array.from({ length: 20 }, (_, i) => `tag-${i}`);
      expect((await made({ ld_tags: twenty })).ld_tags).toEqual(twenty);
      const lead = await made({});
      const id = String(lead.id);
      await expect(
        t
          .db('leads')
          .where('ld_id', id)
          .update({ ld_tags: [...twenty, 'one-more'] }),
      ).rejects.toThrow(/leads_tags_check|check constraint/);
      await expect(t.db('leads').where('ld_id', id).update({ ld_rating: 9 })).rejects.toThrow(/leads_rating_check|check constraint/);
    });

    it('history shows the rating, tags and notes as they changed', async () => {
      const lead = await made({ ld_rating: 2, ld_tags: ['warm'] });
      await member.put(`${leadsPath()}/${lead.id}`, { ld_rating: 5, ld_tags: ['warm', 'hot'], ld_notes: 'Call back' });
      const history = await member.get(`${leadsPath()}/${lead.id}/history`);
      expect(history.status).toBe(200);
      const [update, created] = history.body as Row[];
      expect(created).toMatchObject({ h_action: 'create' });
      expect((created.h_changes as Row).ld_rating).toEqual([null, 2]);
      expect((created.h_changes as Row).ld_tags).toEqual([null, ['warm']]);
      expect(update).toMatchObject({ h_action: 'update', h_userid: member.userId });
      expect(update.h_changes).toMatchObject({ ld_rating: [2, 5], ld_tags: [['warm'], ['warm', 'hot']], ld_notes: [null, 'Call back'] });
      // Reverting to the create puts them back.
      const createdEntry = (history.body as Row[]).find((h) => h.h_action === 'create')!;
      const revert = await member.post(`${leadsPath()}/${lead.id}/history/${createdEntry.h_id}/revert`, {});
      expect(revert.status, JSON.stringify(revert.body)).toBe(200);
      expect((await member.get(`${leadsPath()}/${lead.id}`)).body).toMatchObject({ ld_rating: 2, ld_tags: ['warm'], ld_notes: null });
    });
  });

  describe('filters', () => {
    let ids: Record<string, string>;
    beforeAll(async () => {
      ev = await makeLeadEvent(root, a, { ev_title: 'Filter Expo' });
      ids = {};
      for (const [name, rating, tags] of [
        ['none', null, []],
        ['low', 1, ['cold']],
        ['mid', 3, ['warm', 'partner']],
        ['high', 5, ['hot', 'partner']],
        ['top', 4, ['hot']],
      ] as [string, number | null, string[]][])
        ids[name] = String((await made({ ld_rating: rating, ld_tags: tags })).id);
    });
    const names = (rows: Row[]) => rows.map((r) => Object.entries(ids).find(([, id]) => id === r.id)?.[0]).sort();

    it('ld_rating_min (and _max) bound the rating, inclusive; unrated leads are left out', async () => {
      expect(names((await list({ ld_rating_min: 4 })).body)).toEqual(['high', 'top']);
      expect(names((await list({ ld_rating_min: '3' })).body)).toEqual(['high', 'mid', 'top']);
      expect(names((await list({ ld_rating_min: 0 })).body)).toEqual(['high', 'low', 'mid', 'top']);
      expect(names((await list({ ld_rating_min: 2, ld_rating_max: 4 })).body)).toEqual(['mid', 'top']);
      const res = await list({ ld_rating_min: 4 });
      expect(res.headers['content-range']).toMatch(/\/2$/);
    });

    it('ld_tags: leads holding any of the tags; a single tag or a list', async () => {
      expect(names((await list({ ld_tags: ['hot'] })).body)).toEqual(['high', 'top']);
      expect(names((await list({ ld_tags: 'partner' })).body)).toEqual(['high', 'mid']);
      expect(names((await list({ ld_tags: ['cold', 'warm'] })).body)).toEqual(['low', 'mid']);
      expect(names((await list({ ld_tags: ['nobody-has-this'] })).body)).toEqual([]);
      expect(names((await list({ ld_tags: ['hot'], ld_rating_min: 5 })).body)).toEqual(['high']);
      expect(names((await list({ ld_tags: [] })).body)).toEqual(['high', 'low', 'mid', 'none', 'top']);
    });

    it('a bad bound or tag is 400 invalid_filter', async () => {
      for (const filter of [{ ld_rating_min: 'five' }, { ld_rating_max: '' + 'x' }, { ld_rating_min: true }, { ld_tags: [1] }, { ld_tags: { a: 1 } }, { ld_rating: 3 }]) {
        const res = await list(filter);
        expect(res.status, JSON.stringify(filter)).toBe(400);
        expect(res.body.code).toBe('invalid_filter');
      }
    });

    it('bulk update of rating and tags by filter: one transaction, each lead checked; a bad value changes nothing', async () => {
      const bulk = (body: Row) => member.post(`${leadsPath()}/bulk`, body);
      const res = await bulk({ action: 'update', filter: { ld_eventid: ev.event.id, ld_tags: ['partner'] }, changes: { ld_rating: 2, ld_tags: ['partner', 'q4'] } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ count: 2 });
      expect(names((await list({ ld_tags: ['q4'] })).body)).toEqual(['high', 'mid']);
      const high = (await member.get(`${leadsPath()}/${ids.high}`)).body;
      expect(high).toMatchObject({ ld_rating: 2, ld_tags: ['partner', 'q4'] });
      const bad = await bulk({ action: 'update', filter: { ld_eventid: ev.event.id }, changes: { ld_rating: 6 } });
      expect(bad.status).toBe(400);
      expect(bad.body.fields).toMatchObject({ ld_rating: 'error_number_too_large' });
      const badTags = await bulk({ action: 'update', ids: [ids.low], changes: { ld_tags: ['A B'] } });
      expect(badTags.status).toBe(400);
      expect((await member.get(`${leadsPath()}/${ids.low}`)).body).toMatchObject({ ld_rating: 1, ld_tags: ['cold'] });
      // Notes are not a bulk field.
      const notes = await bulk({ action: 'update', ids: [ids.low], changes: { ld_notes: 'x' } });
      expect(notes.status).toBe(400);
      expect(notes.body.code).toBe('bulk_field_not_allowed');
      // Another account's leads are not reached by a filter.
      const other = await memberOfB.post(`${leadsPath(b)}/bulk`, { action: 'update', filter: { ld_tags: ['partner'] }, changes: { ld_rating: 0 } });
      expect(other.body).toEqual({ count: 0 });
    });

    it('the exports: the per-event CSV has rating, notes and tags (joined by ", "); the generic one the list columns', async () => {
      await member.put(`${leadsPath()}/${ids.top}`, { ld_notes: '=HYPERLINK("x")' });
      const res = await member.get(`/api/1/accounts/${a}/events/${ev.event.id}/leads/export.csv`);
      expect(res.status).toBe(200);
      const [header, ...rows] = Papa.parse<string[]>(res.text.slice(1), { skipEmptyLines: true }).data;
      const at = (name: string) => header.indexOf(name);
      expect(header.slice(at('badge code') + 1, at('badge code') + 4)).toEqual(['rating', 'notes', 'tags']);
      const byId = new Map(rows.map((r) => [r[0], r]));
      expect(byId.get(ids.top)![at('rating')]).toBe('4');
      expect(byId.get(ids.top)![at('tags')]).toBe('hot');
      expect(byId.get(ids.top)![at('notes')]).toBe(`'=HYPERLINK("x")`); // a formula neutralised
      expect(byId.get(ids.mid)![at('tags')]).toBe('partner, q4');
      expect(byId.get(ids.none)![at('rating')]).toBe('');
      const filtered = await member.get(`${leadsPath()}/export.csv?${qs({ filter: { ld_eventid: ev.event.id, ld_rating_min: 4 } })}`);
      expect(filtered.status).toBe(200);
      const lines = Papa.parse<string[]>(filtered.text.slice(1), { skipEmptyLines: true }).data;
      expect(
        lines
          .slice(1)
          .map((r) => r[0])
          .sort(),
      ).toEqual([ids.top].sort());
    });
  });

  describe('voice memo', () => {
    const filePath = (id: string, account = a) => `/api/1/accounts/${account}/lead-files/${id}`;

    it.each([
      ['audio/webm;codecs=opus', WEBM, 'audio/webm'],
      ['audio/webm', WEBM, 'audio/webm'],
      ['audio/ogg; codecs=opus', OGG, 'audio/ogg'],
      ['audio/mp4', M4A, 'audio/mp4'],
      ['audio/x-m4a', M4A, 'audio/mp4'],
    ])('accepts %s audio, serves it (with byte ranges) and a lead names it', async (declared, bytes, stored) => {
      const id = crypto.randomUUID();
      const res = await putLeadFile(member, a, id, bytes, declared);
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ lf_type: stored, lf_size: bytes.length });
      const got = await member.get(filePath(id));
      expect(got.status).toBe(200);
      expect(got.headers['content-type']).toBe(stored);
      expect(got.headers['accept-ranges']).toBe('bytes');
      expect(Buffer.from(got.body as Buffer).equals(bytes)).toBe(true);
      const part = await member.get(filePath(id), { headers: { Range: 'bytes=4-9' } });
      expect(part.status).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 4-9/${bytes.length}`);
      expect(Buffer.from(part.body as Buffer).equals(bytes.subarray(4, 10))).toBe(true);
      expect((await member.get(filePath(id), { headers: { Range: `bytes=${bytes.length}-` } })).status).toBe(416);

      const lead = await made({ ld_memo_fileid: id });
      expect(lead).toMatchObject({ ld_memo_fileid: id, ld_memo_url: filePath(id) });
    });

    it.each([
      ['text/plain', Buffer.from('hello'), 415, 'file_type_not_allowed'],
      ['audio/mpeg', Buffer.from('ID3\x03\0\0\0\0\0\0', 'latin1'), 415, 'file_type_not_allowed'],
      ['video/mp4', M4A, 415, 'file_type_not_allowed'],
      ['audio/webm', JPEG, 415, 'file_content_mismatch'],
      ['audio/ogg', WEBM, 415, 'file_content_mismatch'],
      ['audio/webm', Buffer.concat([WEBM, Buffer.alloc(LEAD_MEMO_MAX_BYTES)]), 413, 'file_too_large'],
    ])('refuses %s (%#) and stores nothing', async (type, bytes, status, code) => {
      const id = crypto.randomUUID();
      const res = await putLeadFile(member, a, id, bytes, type);
      expect(res.status).toBe(status);
      expect(res.body.code).toBe(code);
      expect(await t.db('lead_files').where('lf_id', id).first()).toBeUndefined();
    });

    it('a memo must be audio and a card photo an image; another account cannot read it', async () => {
      const photo = crypto.randomUUID();
      const memo = crypto.randomUUID();
      expect((await putLeadFile(member, a, photo, JPEG)).status).toBe(201);
      expect((await putLeadFile(member, a, memo, WEBM, 'audio/webm')).status).toBe(201);
      const wrong = await create({ ld_memo_fileid: photo });
      expect(wrong.status).toBe(400);
      expect(wrong.body.fields).toEqual({ ld_memo_fileid: 'error_file_kind_invalid' });
      const wrongFront = await create({ ld_source: 'card', ld_front_fileid: memo, ld_transcription_status: 'pending', ld_answers: {} });
      expect(wrongFront.status).toBe(400);
      expect(wrongFront.body.fields).toEqual({ ld_front_fileid: 'error_file_kind_invalid' });
      const lead = await made({});
      const set = await member.put(`${leadsPath()}/${lead.id}`, { ld_memo_fileid: memo });
      expect(set.status).toBe(200);
      expect(set.body.ld_memo_url).toBe(filePath(memo));
      expect((await memberOfB.get(filePath(memo, b))).status).toBe(404);
      expect((await memberOfB.get(filePath(memo, a))).status).toBe(404);
    });

    it("a lead's purge takes its memo with it", async () => {
      const memo = crypto.randomUUID();
      expect((await putLeadFile(member, a, memo, OGG, 'audio/ogg')).status).toBe(201);
      const lead = await made({ ld_memo_fileid: memo });
      expect((await member.delete(`${leadsPath()}/${lead.id}`)).status).toBe(200);
      // In the trash the memo stays (a restore brings it back) ...
      expect(await t.db('lead_files').where('lf_id', memo).first()).toBeDefined();
      const purge = await root.delete(`${leadsPath()}/${lead.id}/purge`);
      expect(purge.status, JSON.stringify(purge.body)).toBeLessThan(300);
      // ... the purge removes it.
      expect(await t.db('lead_files').where('lf_id', memo).first()).toBeUndefined();
    });
  });
});
