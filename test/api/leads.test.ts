import crypto from 'node:crypto';
import fc from 'fast-check';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { MISSING, qs, uid, withGrant, type Signed, type TestApp } from '../helpers/app.js';
import { startConsoleApp } from '../helpers/console.js';
import { answersFor, JPEG, makeLeadEvent, PNG, putLeadFile, type LeadEvent } from '../helpers/leads.js';
import { startStorageApp, storedKeys } from '../helpers/storage.js';
import { BUILTIN_CONSENT_TEXT } from '../../resources/consent.js';
import { LEAD_FILE_MAX_BYTES } from '../../resources/leads.js';

type Row = Record<string, unknown>;

describeEachDb('leads: create and update rules, idempotent creates, filters, rights', (kind) => {
  let t: TestApp;
  let root: Signed;
  let a: string;
  let b: string;
  let memberOfA: Signed; // account role member: account_leads 15 (spec 6)
  let superOfA: Signed; // account role superadmin
  let memberOfB: Signed;
  let ev: LeadEvent;
  let evB: LeadEvent;

  beforeAll(async () => {
    ({ t, root, a, b } = await startConsoleApp(kind, 'Leads'));
    memberOfA = await t.signedIn('member');
    await t.member(a, memberOfA.userId, 'member');
    superOfA = await t.signedIn('member');
    await t.member(a, superOfA.userId, 'superadmin');
    memberOfB = await t.signedIn('member');
    await t.member(b, memberOfB.userId, 'member');
    ev = await makeLeadEvent(root, a, { ev_consent_text: 'Yes, Expo may mail me.' });
    evB = await makeLeadEvent(root, b);
  });
  afterAll(() => t?.close());

  const path = (account = a) => `/api/1/accounts/${account}/leads`;
  const stored = (id: unknown) => t.db('leads').where('ld_id', String(id)).first();
  // The account's leads as the API sees them: not in the trash (a deleted lead waits there until its purge), nor of an
  // event in the trash.
  const count = async (account = a) =>
    Number(
      (await t.db('leads').join('events', 'ev_id', 'ld_eventid').where('ld_accountid', account).whereNull('ld_deleted_at').whereNull('ev_deleted_at').count({ n: '*' }).first())?.n,
    );
  const create = (client: Signed, body: Row, account = a, headers: Record<string, string> = {}) => client.post(path(account), { ld_eventid: ev.event.id, ...body }, { headers });
  const photo = async (client: Signed = memberOfA, account = a) => {
    const id = crypto.randomUUID();
    const res = await putLeadFile(client, account, id, JPEG);
    expect(res.status, res.text).toBe(201);
    return id;
  };

  describe('create', () => {
    it('stores the answers normalised, fills the own fields from them, owner and capturer = the caller, captured now', async () => {
      const before = Date.now();
      const answers = answersFor({ email: '  Ann.Smith@Example.COM ', first_name: ' Ann ', company: ' Acme ', interests: ['hardware', 'software', 'hardware'] });
      const res = await create(memberOfA, { ld_answers: { ...answers, not_a_field: 'dropped' } });
      // A list answer with a repeat is refused (choices are a set), so send it clean and look at the rest.
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual({ interests: 'error_invalid_value' });
      const ok = await create(memberOfA, { ld_answers: { ...answers, interests: ['hardware', 'software'], not_a_field: 'dropped' } });
      expect(ok.status, JSON.stringify(ok.body)).toBe(201);
      expect(ok.body).toMatchObject({
        id: ok.body.ld_id,
        ld_email: 'ann.smith@example.com',
        ld_first_name: 'Ann',
        ld_last_name: 'Smith',
        ld_ownerid: memberOfA.userId,
        ld_captured_by: memberOfA.userId,
        ld_source: 'manual',
        ld_transcription_status: 'none',
        ld_is_valid: true,
        ld_consent_news: false,
        ld_consent_text: null,
        ld_accountid: a,
      });
      expect(ok.body.ld_answers).toEqual({
        email: 'Ann.Smith@Example.COM',
        first_name: 'Ann',
        last_name: 'Smith',
        company: 'Acme',
        interests: ['hardware', 'software'],
        newsletter: true,
        budget: 10,
      });
      const at = Date.parse(ok.body.ld_captured_at);
      expect(at).toBeGreaterThanOrEqual(before - 2000);
      expect(at).toBeLessThanOrEqual(Date.now() + 2000);
    });

    it('missing or wrong answers: 400 lead_incomplete with the fields, nothing stored', async () => {
      const before = await count();
      const res = await create(memberOfA, { ld_answers: { email: 'not-an-email', budget: 12, days: ['2026-01-01'] } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('lead_incomplete');
      expect(res.body.message).toBe('Please complete all mandatory fields');
      expect(res.body.fields).toEqual({ email: 'error_email_invalid', first_name: 'error_required', budget: 'error_invalid_value', days: 'error_invalid_value' });
      const none = await create(memberOfA, {});
      expect(none.status).toBe(400);
      expect(none.body.fields).toEqual({ email: 'error_required', first_name: 'error_required' });
      const notObject = await create(memberOfA, { ld_answers: ['a'] });
      expect(notObject.status).toBe(400);
      expect(await count()).toBe(before);
    });

    it('the answers win over own fields sent beside them; an own field fills a missing answer', async () => {
      const res = await create(memberOfA, { ld_email: 'other@example.com', ld_first_name: 'Bob', ld_answers: answersFor({ email: 'ann@example.com', first_name: 'Ann' }) });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ ld_email: 'ann@example.com', ld_first_name: 'Ann' });
      const filled = await create(memberOfA, { ld_email: 'Cleo@Example.com', ld_first_name: 'Cleo', ld_answers: { last_name: 'Ng' } });
      expect(filled.status, JSON.stringify(filled.body)).toBe(201);
      expect(filled.body).toMatchObject({ ld_email: 'cleo@example.com', ld_first_name: 'Cleo', ld_last_name: 'Ng' });
      expect(filled.body.ld_answers).toEqual({ email: 'cleo@example.com', first_name: 'Cleo', last_name: 'Ng' });
    });

    it('an owner must be a member of the account (400 with the field); a member may be named', async () => {
      const outsider = await t.user(`${uid()}@example.com`);
      const bad = await create(memberOfA, { ld_ownerid: outsider.u_id, ld_answers: answersFor() });
      expect(bad.status).toBe(400);
      expect(bad.body.fields).toEqual({ ld_ownerid: 'error_reference_invalid' });
      const ofB = await create(memberOfA, { ld_ownerid: memberOfB.userId, ld_answers: answersFor() });
      expect(ofB.status).toBe(400);
      const ok = await create(memberOfA, { ld_ownerid: superOfA.userId, ld_answers: answersFor() });
      expect(ok.status).toBe(201);
      expect(ok.body).toMatchObject({ ld_ownerid: superOfA.userId, ld_captured_by: memberOfA.userId });
    });

    it("a device's capture time is kept; a clock plainly wrong gives the server's time (the lead is kept); garbage is refused", async () => {
      const hourAgo = new Date(Date.now() - 3600_000).toISOString();
      const ok = await create(memberOfA, { ld_captured_at: hourAgo, ld_answers: answersFor() });
      expect(ok.status).toBe(201);
      expect(new Date(ok.body.ld_captured_at).toISOString()).toBe(hourAgo);
      const twoMinutesAhead = new Date(Date.now() + 120_000).toISOString();
      const soon = await create(memberOfA, { ld_captured_at: twoMinutesAhead, ld_answers: answersFor() });
      expect(soon.status).toBe(201); // a device clock two minutes ahead: within the drift allowed, kept as sent
      expect(new Date(soon.body.ld_captured_at).toISOString()).toBe(twoMinutesAhead);
      // A device clock an hour or a year ahead, or reset to 1970: an offline queue takes a 400 as final, so the lead
      // is stored with the server's time instead of being refused (and lost).
      for (const [what, wrong] of [
        ['an hour ahead', new Date(Date.now() + 3600_000).toISOString()],
        ['a year ahead', new Date(Date.now() + 366 * 86400_000).toISOString()],
        ['reset to 1970', '1970-01-01T00:00:05.000Z'],
        ['before 2000', '1899-01-01T00:00:00Z'],
      ]) {
        const before = Date.now();
        const res = await create(memberOfA, { ld_captured_at: wrong, ld_answers: answersFor(), ld_client_id: crypto.randomUUID() });
        expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(201);
        const at = Date.parse(res.body.ld_captured_at);
        expect(at, what).toBeGreaterThanOrEqual(before - 1000);
        expect(at, what).toBeLessThanOrEqual(Date.now() + 1000);
        expect(new Date((await stored(res.body.ld_id)).ld_captured_at).getTime(), what).toBe(at);
      }
      const before = await count();
      for (const bad of ['yesterday', '1', '2026-13-01T00:00:00Z', '2026-02-30T10:00:00Z', '+275760-09-13T00:00:00Z']) {
        const res = await create(memberOfA, { ld_captured_at: bad, ld_answers: answersFor() });
        expect(res.status, bad).toBe(400);
        expect(res.body.fields, bad).toEqual({ ld_captured_at: 'error_date_invalid' });
      }
      expect(await count()).toBe(before);
    });

    it("the consent text: the event's when opted in and none sent, the one sent otherwise, none without opt-in", async () => {
      const own = await create(memberOfA, { ld_consent_news: true, ld_answers: answersFor() });
      expect(own.body.ld_consent_text).toBe('Yes, Expo may mail me.');
      const sent = await create(memberOfA, { ld_consent_news: true, ld_consent_text: 'What the app showed', ld_answers: answersFor() });
      expect(sent.body.ld_consent_text).toBe('What the app showed');
      const no = await create(memberOfA, { ld_consent_news: false, ld_answers: answersFor() });
      expect(no.body.ld_consent_text).toBeNull();
      // An event without its own text: the built-in one in the page's language.
      const plain = await makeLeadEvent(root, a);
      const nl = await create(memberOfA, { ld_eventid: plain.event.id, ld_consent_news: true, ld_answers: answersFor() }, a, { 'Accept-Language': 'nl-NL,nl;q=0.9' });
      expect(nl.body.ld_consent_text).toBe(BUILTIN_CONSENT_TEXT.nl);
      const en = await create(memberOfA, { ld_eventid: plain.event.id, ld_consent_news: true, ld_answers: answersFor() });
      expect(en.body.ld_consent_text).toBe(BUILTIN_CONSENT_TEXT.en);
    });

    it('a card lead with a front photo may be incomplete and waits for transcription; other leads may not', async () => {
      const front = await photo();
      const back = await photo();
      const card = await create(memberOfA, { ld_source: 'card', ld_front_fileid: front, ld_back_fileid: back, ld_answers: { company: 'Acme' } });
      expect(card.status, JSON.stringify(card.body)).toBe(201);
      expect(card.body).toMatchObject({ ld_transcription_status: 'pending', ld_front_fileid: front, ld_back_fileid: back, ld_answers: { company: 'Acme' } });
      expect(card.body.ld_front_url).toBe(`/api/1/accounts/${a}/lead-files/${front}`);
      // Even incomplete, what is given must fit its element.
      const wrong = await create(memberOfA, { ld_source: 'card', ld_front_fileid: front, ld_answers: { budget: 7 } });
      expect(wrong.status).toBe(400);
      expect(wrong.body.fields).toEqual({ budget: 'error_invalid_value' });
      const noPhoto = await create(memberOfA, { ld_source: 'card', ld_answers: { company: 'Acme' } });
      expect(noPhoto.status).toBe(400);
      expect(noPhoto.body.code).toBe('lead_incomplete');
      const pendingManual = await create(memberOfA, { ld_transcription_status: 'pending', ld_answers: { company: 'Acme' } });
      expect(pendingManual.status).toBe(400);
      expect(pendingManual.body.fields).toEqual({ ld_transcription_status: 'error_transcription_needs_card' });
      // A device that transcribed the card itself may say so, with complete answers.
      const done = await create(memberOfA, { ld_source: 'card', ld_front_fileid: front, ld_transcription_status: 'done', ld_answers: answersFor() });
      expect(done.status).toBe(201);
      expect(done.body.ld_transcription_status).toBe('done');
    });

    it('card photos must be lead files of the same account (400 with the field)', async () => {
      const theirs = await photo(memberOfB, b);
      for (const value of [theirs, MISSING]) {
        const res = await create(memberOfA, { ld_source: 'card', ld_front_fileid: value, ld_back_fileid: value, ld_answers: {} });
        expect(res.status).toBe(400);
        expect(res.body.fields).toEqual({ ld_front_fileid: 'error_reference_invalid', ld_back_fileid: 'error_reference_invalid' });
      }
    });

    it('an event of another account: 400 with the field, nothing stored', async () => {
      const before = await count();
      const res = await create(memberOfA, { ld_eventid: evB.event.id, ld_answers: answersFor() });
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual({ ld_eventid: 'error_reference_invalid' });
      expect(await count()).toBe(before);
    });
  });

  describe('ld_client_id', () => {
    it('a second create with the same id answers the first lead with 200 and stores nothing new', async () => {
      const clientId = `device-1:${uid()}`;
      const first = await create(memberOfA, { ld_client_id: clientId, ld_answers: answersFor({ first_name: 'First' }) });
      expect(first.status).toBe(201);
      const before = await count();
      // A retry, even with another body (the device's queue resends what it had), answers the first lead.
      const again = await create(memberOfA, { ld_client_id: clientId, ld_answers: answersFor({ first_name: 'Second' }) });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      const incomplete = await create(memberOfA, { ld_client_id: clientId, ld_answers: {} });
      expect(incomplete.status).toBe(200);
      expect(incomplete.body.id).toBe(first.body.id);
      expect(await count()).toBe(before);
      // The same id in another account is another device's lead there.
      const inB = await create(memberOfB, { ld_eventid: evB.event.id, ld_client_id: clientId, ld_answers: answersFor() }, b);
      expect(inB.status).toBe(201);
      expect(inB.body.id).not.toBe(first.body.id);
    });

    it('creates with the same id at once make one lead: one 201, the others 200 with it', async () => {
      const clientId = `race-${uid()}`;
      const before = await count();
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => create(i % 2 ? memberOfA : superOfA, { ld_client_id: clientId, ld_answers: answersFor({ first_name: `Racer${i}` }) })),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 200, 200, 200, 200, 201]);
      expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
      expect(await count()).toBe(before + 1);
      expect(Number((await t.db('leads').where({ ld_accountid: a, ld_client_id: clientId }).count({ n: '*' }).first())?.n)).toBe(1);
    });

    // PostgreSQL only (defined there, not skipped here): PGlite has one connection, so nothing can hold a write open
    // beside a request.
    if (kind === 'postgres')
      it('a create that meets an uncommitted lead with its id waits for it and answers it (the race, made certain)', async () => {
        const clientId = `held-${uid()}`;
        const trx = await t.db.transaction();
        const [held] = await trx('leads')
          .insert({ ld_accountid: a, ld_eventid: ev.event.id, ld_client_id: clientId, ld_first_name: 'Held', ld_ownerid: memberOfA.userId })
          .returning('ld_id');
        const pending = create(memberOfA, { ld_client_id: clientId, ld_answers: answersFor({ first_name: 'Late' }) });
        await new Promise((r) => setTimeout(r, 300)); // the request is now waiting on the held row's index entry
        await trx.commit();
        const res = await pending;
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body).toMatchObject({ id: held.ld_id, ld_first_name: 'Held' });
      });
  });

  describe('update', () => {
    it('re-checks sent answers (400 lead_incomplete), and the own fields follow them', async () => {
      const lead = (await create(memberOfA, { ld_answers: answersFor({ email: 'old@example.com' }) })).body;
      const bad = await memberOfA.put(`${path()}/${lead.id}`, { ld_answers: { email: 'new@example.com' } });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: 'lead_incomplete', fields: { first_name: 'error_required' } });
      expect((await stored(lead.id)).ld_email).toBe('old@example.com');
      const ok = await memberOfA.put(`${path()}/${lead.id}`, { ld_answers: answersFor({ email: 'New@Example.com', first_name: 'Nina', last_name: 'Visser' }) });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(ok.body).toMatchObject({ ld_email: 'new@example.com', ld_first_name: 'Nina', ld_last_name: 'Visser' });
    });

    it('an own field edited alone changes its answer too (and a required one cannot be cleared)', async () => {
      const lead = (await create(memberOfA, { ld_answers: answersFor({ first_name: 'Ann' }) })).body;
      const res = await memberOfA.put(`${path()}/${lead.id}`, { ld_first_name: 'Anna' });
      expect(res.status).toBe(200);
      expect(res.body.ld_first_name).toBe('Anna');
      expect(res.body.ld_answers.first_name).toBe('Anna');
      expect(res.body.ld_answers.company).toBe('Acme'); // the rest stays
      const cleared = await memberOfA.put(`${path()}/${lead.id}`, { ld_first_name: '' });
      expect(cleared.status).toBe(400);
      expect(cleared.body.fields).toEqual({ first_name: 'error_required' });
      // Not about the answers: no check (the forms may have changed since).
      expect((await memberOfA.put(`${path()}/${lead.id}`, { ld_is_valid: false })).body.ld_is_valid).toBe(false);
    });

    it("transcription: pending answers may stay incomplete; 'done' needs complete answers; postponed is fine", async () => {
      const front = await photo();
      const lead = (await create(memberOfA, { ld_source: 'card', ld_front_fileid: front })).body;
      expect(lead.ld_transcription_status).toBe('pending');
      const partial = await memberOfA.put(`${path()}/${lead.id}`, { ld_answers: { company: 'Acme', email: 'half@example.com' } });
      expect(partial.status).toBe(200);
      expect(partial.body).toMatchObject({ ld_email: 'half@example.com', ld_transcription_status: 'pending' });
      const postponed = await memberOfA.put(`${path()}/${lead.id}`, { ld_transcription_status: 'postponed' });
      expect(postponed.body.ld_transcription_status).toBe('postponed');
      const done = await memberOfA.put(`${path()}/${lead.id}`, { ld_transcription_status: 'done' });
      expect(done.status).toBe(400);
      expect(done.body).toMatchObject({ code: 'lead_incomplete', fields: { first_name: 'error_required' } });
      const doneWithAnswers = await memberOfA.put(`${path()}/${lead.id}`, { ld_transcription_status: 'done', ld_answers: answersFor({ email: 'full@example.com' }) });
      expect(doneWithAnswers.status).toBe(200);
      expect(doneWithAnswers.body).toMatchObject({ ld_transcription_status: 'done', ld_email: 'full@example.com' });
      // Back to pending needs the photo, which it has; a lead without one cannot wait for transcription.
      const manual = (await create(memberOfA, { ld_answers: answersFor() })).body;
      const pending = await memberOfA.put(`${path()}/${manual.id}`, { ld_transcription_status: 'pending' });
      expect(pending.status).toBe(400);
      expect(pending.body.fields).toEqual({ ld_transcription_status: 'error_transcription_needs_card' });
    });

    it('an empty value for a field with a default sets the default (never a 500 from a NOT NULL column)', async () => {
      const res = await create(memberOfA, { ld_is_valid: null, ld_consent_news: null, ld_source: '', ld_transcription_status: null, ld_answers: answersFor() });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toMatchObject({ ld_is_valid: true, ld_consent_news: false, ld_source: 'manual', ld_transcription_status: 'none' });
      await memberOfA.put(`${path()}/${res.body.id}`, { ld_is_valid: false });
      const cleared = await memberOfA.put(`${path()}/${res.body.id}`, { ld_is_valid: null, ld_transcription_status: '' });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({ ld_is_valid: true, ld_transcription_status: 'none' });
      expect((await memberOfA.put(`${path()}/${res.body.id}`, { ld_consent_news: 'yes' })).status).toBe(400);
    });

    it('create-only fields are not changed by an update; references are checked', async () => {
      const lead = (await create(memberOfA, { ld_answers: answersFor() })).body;
      const res = await memberOfA.put(`${path()}/${lead.id}`, { ld_source: 'scan', ld_eventid: evB.event.id, ld_client_id: 'x', ld_accountid: b });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ld_source: 'manual', ld_eventid: ev.event.id, ld_client_id: null, ld_accountid: a });
      const owner = await memberOfA.put(`${path()}/${lead.id}`, { ld_ownerid: memberOfB.userId });
      expect(owner.status).toBe(400);
      expect(owner.body.fields).toEqual({ ld_ownerid: 'error_reference_invalid' });
    });
  });

  describe('list filters', () => {
    let fx: LeadEvent;
    const ids: Record<string, string> = {};
    const list = (filter: Row, sort: [string, string] = ['ld_captured_at', 'DESC'], client: Signed = memberOfA) => client.get(`${path()}?${qs({ filter, sort, range: [0, 99] })}`);
    const names = (res: { body: Row[] }) => res.body.map((r) => r.ld_first_name);

    beforeAll(async () => {
      fx = await makeLeadEvent(root, a);
      const front = await photo();
      const rows: [string, Row][] = [
        ['ann', { ld_captured_at: '2026-01-10T08:00:00.000Z', ld_answers: answersFor({ email: 'ann@alpha.example', first_name: 'Annfx', last_name: 'Zed' }) }],
        [
          'bob',
          {
            ld_captured_at: '2026-01-10T23:59:59.000Z',
            ld_source: 'scan',
            ld_badge_code: '1001',
            ld_answers: answersFor({ email: 'bob@beta.example', first_name: 'Bobfx', last_name: 'Young' }),
          },
        ],
        [
          'cat',
          { ld_captured_at: '2026-01-11T00:00:00.000Z', ld_ownerid: superOfA.userId, ld_answers: answersFor({ email: 'cat@gamma.example', first_name: 'Catfx', last_name: 'Xu' }) },
        ],
        ['dan', { ld_captured_at: '2026-01-12T12:00:00.000Z', ld_source: 'card', ld_front_fileid: front, ld_answers: { first_name: 'Danfx', last_name: 'Wong' } }],
      ];
      for (const [key, body] of rows) {
        const res = await create(memberOfA, { ld_eventid: fx.event.id, ...body });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        ids[key] = res.body.id;
      }
      await memberOfA.put(`${path()}/${ids.bob}`, { ld_is_valid: false });
    });

    it('by event, sorted by capture time either way (the default newest first)', async () => {
      const res = await list({ ld_eventid: fx.event.id });
      expect(res.status).toBe(200);
      expect(names(res)).toEqual(['Danfx', 'Catfx', 'Bobfx', 'Annfx']);
      expect(res.headers['content-range']).toBe('leads 0-3/4');
      expect(names(await list({ ld_eventid: fx.event.id }, ['ld_captured_at', 'ASC']))).toEqual(['Annfx', 'Bobfx', 'Catfx', 'Danfx']);
      const plain = await memberOfA.get(`${path()}?${qs({ filter: { ld_eventid: fx.event.id } })}`);
      expect(names(plain)).toEqual(['Danfx', 'Catfx', 'Bobfx', 'Annfx']);
    });

    it('q: a prefix of the e-mail, first or last name, case-insensitive', async () => {
      expect(names(await list({ ld_eventid: fx.event.id, q: 'ANNF' }))).toEqual(['Annfx']);
      expect(names(await list({ ld_eventid: fx.event.id, q: 'bob@b' }))).toEqual(['Bobfx']);
      expect(names(await list({ ld_eventid: fx.event.id, q: 'xu' }))).toEqual(['Catfx']);
      expect(names(await list({ ld_eventid: fx.event.id, q: 'wong danfx' }))).toEqual(['Danfx']);
      expect(names(await list({ ld_eventid: fx.event.id, q: 'fx' }))).toEqual([]); // a prefix, not a substring
    });

    it('by transcription status, owner, source and validity', async () => {
      expect(names(await list({ ld_eventid: fx.event.id, ld_transcription_status: 'pending' }))).toEqual(['Danfx']);
      expect(names(await list({ ld_eventid: fx.event.id, ld_ownerid: superOfA.userId }))).toEqual(['Catfx']);
      expect(names(await list({ ld_eventid: fx.event.id, ld_source: 'scan' }))).toEqual(['Bobfx']);
      expect(names(await list({ ld_eventid: fx.event.id, ld_source: ['scan', 'card'] }))).toEqual(['Danfx', 'Bobfx']);
      expect(names(await list({ ld_eventid: fx.event.id, ld_is_valid: false }))).toEqual(['Bobfx']);
      expect(names(await list({ ld_eventid: fx.event.id, ld_is_valid: 'true' }))).toEqual(['Danfx', 'Catfx', 'Annfx']);
    });

    it('captured_from / captured_to: a date means the whole day (UTC), a time is exact, both inclusive', async () => {
      expect(names(await list({ ld_eventid: fx.event.id, captured_from: '2026-01-10', captured_to: '2026-01-10' }))).toEqual(['Bobfx', 'Annfx']);
      expect(names(await list({ ld_eventid: fx.event.id, captured_from: '2026-01-11' }))).toEqual(['Danfx', 'Catfx']);
      expect(names(await list({ ld_eventid: fx.event.id, captured_to: '2026-01-11' }))).toEqual(['Catfx', 'Bobfx', 'Annfx']);
      expect(names(await list({ ld_eventid: fx.event.id, captured_from: '2026-01-10T08:00:00Z', captured_to: '2026-01-11T00:00:00.000Z' }))).toEqual(['Catfx', 'Bobfx', 'Annfx']);
      expect(names(await list({ ld_eventid: fx.event.id, captured_from: '2026-01-10T08:00:01Z', captured_to: '2026-01-10T23:59:59Z' }))).toEqual(['Bobfx']);
      expect(names(await list({ ld_eventid: fx.event.id, captured_from: '2026-01-11T01:00:00+02:00' }))).toEqual(['Danfx', 'Catfx', 'Bobfx']);
      expect(names(await list({ ld_eventid: fx.event.id, captured_from: '2026-01-13' }))).toEqual([]);
    });

    it('sorts by each of the filter columns and the names', async () => {
      for (const field of ['ld_email', 'ld_first_name', 'ld_last_name', 'ld_eventid', 'ld_transcription_status', 'ld_ownerid', 'ld_source', 'ld_is_valid', 'ld_captured_at']) {
        const res = await list({ ld_eventid: fx.event.id }, [field, 'ASC']);
        expect(res.status, field).toBe(200);
        expect(res.body.length, field).toBe(4);
      }
      expect(names(await list({ ld_eventid: fx.event.id }, ['ld_last_name', 'ASC']))).toEqual(['Danfx', 'Catfx', 'Bobfx', 'Annfx']);
      expect(names(await list({ ld_eventid: fx.event.id }, ['ld_email', 'ASC']))).toEqual(['Annfx', 'Bobfx', 'Catfx', 'Danfx']);
    });

    it('totals: exact up to 10,000 leads; past that the estimate, said so; the last page and a page past the end exact', async () => {
      const many = await makeLeadEvent(root, a);
      const n = 10_050;
      await t.db.raw(
        `insert into leads (ld_accountid, ld_eventid, ld_first_name, ld_source, ld_captured_at)
         select ?, ?, 'Many' || g, case when g <= 50 then 'scan' else 'manual' end, timestamptz '2025-01-01 00:00:00+00' + g * interval '1 minute'
           from generate_series(1, ?) g`,
        [a, String(many.event.id), n],
      );
      await t.db.raw('analyze leads');
      const pageOf = (filter: Row, range: [number, number]) => memberOfA.get(`${path()}?${qs({ filter, sort: ['ld_captured_at', 'DESC'], range })}`);
      const totalOf = (res: { headers: Record<string, string> }) => Number(res.headers['content-range'].split('/')[1]);

      const first = await pageOf({ ld_eventid: many.event.id }, [0, 24]);
      expect(first.status).toBe(200);
      expect(first.body).toHaveLength(25);
      expect(first.headers['x-total-estimated']).toBe('true');
      expect(first.headers['access-control-expose-headers']).toContain('X-Total-Estimated');
      expect(totalOf(first)).toBeGreaterThan(10_000);
      // Few enough to count: exact, and not marked.
      const scans = await pageOf({ ld_eventid: many.event.id, ld_source: 'scan' }, [0, 24]);
      expect(scans.headers['content-range']).toBe('leads 0-24/50');
      expect(scans.headers['x-total-estimated']).toBeUndefined();
      // The last page is exact whatever was estimated.
      const last = await pageOf({ ld_eventid: many.event.id }, [10_025, 10_074]);
      expect(last.body).toHaveLength(25);
      expect(last.headers['content-range']).toBe(`leads 10025-10049/${n}`);
      expect(last.headers['x-total-estimated']).toBeUndefined();
      // A page past the end (an estimate that was too high) is counted exactly.
      const past = await pageOf({ ld_eventid: many.event.id, q: 'many' }, [20_000, 20_024]);
      expect(past.body).toEqual([]);
      expect(past.headers['content-range']).toBe(`leads */${n}`);
      expect((await root.delete(`/api/1/accounts/${a}/events/${many.event.id}`)).status).toBe(200);
    }, 90_000); // 10,050 leads written, each with its history entry (the trigger), before the first page

    it('bad filter values answer 400 invalid_filter', async () => {
      for (const filter of [
        { captured_from: 'yesterday' },
        { captured_to: '2026-02-30' },
        { captured_from: '2026-01-10 08:00' },
        { captured_from: 12 },
        { captured_to: ['2026-01-10'] },
        { captured_from: '0099-01-01' },
        { ld_is_valid: 'maybe' },
        { ld_eventid: 'not-a-uuid' },
        { ld_transcription_status: { a: 1 } },
        { ld_badge_code: '1001' },
        { nope: 1 },
      ]) {
        const res = await list(filter);
        expect(res.status, JSON.stringify(filter)).toBe(400);
        expect(res.body.code, JSON.stringify(filter)).toBe('invalid_filter');
      }
      expect((await list({}, ['ld_answers', 'ASC'])).status).toBe(400);
    });
  });

  describe('generated bodies against a real event and lead', () => {
    it('create, update, bulk and export never answer a 5xx, whatever the fields hold', async () => {
      const lead = (await create(memberOfA, { ld_answers: answersFor() })).body;
      const front = await photo();
      const names = [
        'ld_eventid',
        'ld_email',
        'ld_first_name',
        'ld_last_name',
        'ld_ownerid',
        'ld_answers',
        'ld_front_fileid',
        'ld_back_fileid',
        'ld_is_valid',
        'ld_transcription_status',
        'ld_source',
        'ld_badge_code',
        'ld_consent_news',
        'ld_consent_text',
        'ld_captured_at',
        'ld_client_id',
        'captured_from',
        'captured_to',
        'q',
      ];
      const scalar = fc.oneof(
        fc.constant(null),
        fc.boolean(),
        fc.integer(),
        fc.double(),
        fc.string({ maxLength: 12 }),
        fc.constantFrom(
          String(ev.event.id),
          String(lead.id),
          front,
          MISSING,
          memberOfA.userId,
          'card',
          'pending',
          'done',
          '',
          '2026-01-01',
          '2026-11-20T10:00:00Z',
          '9999-12-31',
          'x@example.com',
        ),
      );
      const answers = fc.dictionary(
        fc.constantFrom('email', 'first_name', 'last_name', 'company', 'interests', 'days', 'newsletter', 'budget', 'other'),
        fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.jsonValue({ maxDepth: 2 })),
      );
      const value = fc.oneof({ arbitrary: scalar, weight: 5 }, answers, fc.array(scalar, { maxLength: 3 }));
      const body = fc.dictionary(fc.constantFrom(...names), value, { maxKeys: 8 });
      await fc.assert(
        fc.asyncProperty(body, answers, fc.boolean(), async (b, ans, withAnswers) => {
          const withEvent = { ld_eventid: ev.event.id, ...b, ...(withAnswers ? { ld_answers: ans } : {}) };
          const calls: [string, Promise<{ status: number; text: string }>][] = [
            ['create', memberOfA.post(path(), withEvent)],
            ['update', memberOfA.put(`${path()}/${lead.id}`, b)],
            ['bulk', memberOfA.post(`${path()}/bulk`, { action: 'update', filter: b, changes: { ld_is_valid: true } })],
            ['bulk changes', memberOfA.post(`${path()}/bulk`, { action: 'update', ids: [lead.id], changes: b })],
            ['list', memberOfA.get(`${path()}?${qs({ filter: b, range: [0, 4] })}`)],
            ['export', memberOfA.get(`${path()}/export.csv?${qs({ filter: b })}`)],
          ];
          for (const [what, call] of calls) {
            const res = await call;
            expect(res.status, `${what} ${JSON.stringify(withEvent)} → ${res.text.slice(0, 200)}`).toBeLessThan(500);
          }
        }),
        { numRuns: 150 },
      );
    }, 240_000);
  });

  describe('tenancy and rights (spec 6)', () => {
    it("another account's lead answers 404 like an unknown one, and stays as it was", async () => {
      const lead = (await create(memberOfB, { ld_eventid: evB.event.id, ld_answers: answersFor() }, b)).body;
      const before = await stored(lead.id);
      for (const client of [memberOfA, root]) {
        expect((await client.get(`${path(a)}/${lead.id}`)).status).toBe(404);
        expect((await client.put(`${path(a)}/${lead.id}`, { ld_first_name: 'X' })).status).toBe(404);
        expect((await client.delete(`${path(a)}/${lead.id}`)).status).toBe(404);
      }
      expect((await memberOfA.get(`${path(b)}/${lead.id}`)).status).toBe(404); // not a member of B
      expect((await memberOfA.get(path(b))).status).toBe(404);
      expect(await stored(lead.id)).toEqual(before);
      const listA = await root.get(`${path(a)}?${qs({ filter: { q: lead.ld_email } })}`);
      expect(listA.body).toEqual([]);
    });

    it('a member and a superadmin of the account read, create, update and delete leads', async () => {
      for (const client of [memberOfA, superOfA]) {
        const res = await create(client, { ld_answers: answersFor() });
        expect(res.status).toBe(201);
        expect((await client.get(`${path()}/${res.body.id}`)).status).toBe(200);
        expect((await client.put(`${path()}/${res.body.id}`, { ld_is_valid: false })).status).toBe(200);
        expect((await client.delete(`${path()}/${res.body.id}`)).status).toBe(200);
        expect((await client.get(`${path()}/${res.body.id}`)).status).toBe(404);
        expect((await client.delete(`${path()}/${res.body.id}/purge`)).status).toBe(200);
        expect(await stored(res.body.id)).toBeUndefined();
      }
    });

    it('without the bits (as ops may set them): 403 and nothing changes; without a session 401; without CSRF 403', async () => {
      const lead = (await create(memberOfA, { ld_answers: answersFor() })).body;
      await withGrant(t, 'member', 'account_leads', 1, async () => {
        const before = await count();
        expect((await create(memberOfA, { ld_answers: answersFor() })).status).toBe(403);
        expect((await memberOfA.put(`${path()}/${lead.id}`, { ld_is_valid: false })).status).toBe(403);
        expect((await memberOfA.delete(`${path()}/${lead.id}`)).status).toBe(403);
        expect((await memberOfA.get(`${path()}/${lead.id}`)).status).toBe(200);
        expect(await count()).toBe(before);
      });
      await withGrant(t, 'member', 'account_leads', 0, async () => {
        expect((await memberOfA.get(path())).status).toBe(403);
      });
      expect((await t.client().get(path())).status).toBe(401);
      expect((await memberOfA.post(path(), { ld_eventid: ev.event.id, ld_answers: answersFor() }, { csrf: false })).status).toBe(403);
      expect((await stored(lead.id)).ld_is_valid).toBe(true);
    });
  });

  describe('GET …/leads/owners: the people behind owner ids', () => {
    it("names the owners of the account's leads, a root user who is no member too; nobody else; bad ids 400; rights", async () => {
      const byRoot = await create(root, { ld_answers: answersFor() });
      expect(byRoot.status, byRoot.text).toBe(201);
      expect((await stored(byRoot.body.id)).ld_ownerid).toBe(root.userId);
      expect((await create(memberOfA, { ld_answers: answersFor() })).status).toBe(201);
      const nobody = await t.signedIn('member'); // owns no lead of A
      const owners = (client: Signed, ids: string[], account = a) => client.get(`${path(account)}/owners?ids=${ids.join(',')}`);

      const res = await owners(memberOfA, [root.userId, memberOfA.userId, nobody.userId]);
      expect(res.status, res.text).toBe(200);
      const users = await t.db('users').whereIn('u_id', [root.userId, memberOfA.userId]).select('u_id', 'u_email');
      const emailOf = (id: string) => users.find((u) => u.u_id === id)!.u_email;
      expect(res.body.map((p: Row) => [p.id, p.u_email]).sort()).toEqual(
        [
          [root.userId, emailOf(root.userId)],
          [memberOfA.userId, emailOf(memberOfA.userId)],
        ].sort(),
      );
      expect(Object.keys(res.body[0]).sort()).toEqual(['id', 'u_email', 'u_first_name', 'u_last_name']);
      // from another account, A's owners are nobody's business
      expect((await owners(memberOfB, [root.userId, memberOfA.userId], b)).body).toEqual([]);
      // bad input: 400 with the field, never a 500
      for (const bad of ['', 'not-a-uuid', Array.from({ length: 101 }, () => crypto.randomUUID()).join(',')]) {
        const refused = await memberOfA.get(`${path()}/owners?ids=${bad}`);
        expect(refused.status, bad).toBe(400);
        expect(refused.body).toMatchObject({ code: 'invalid_query', fields: { ids: 'error_invalid_value' } });
      }
      expect((await memberOfA.get(`${path()}/owners`)).status).toBe(400);
      // rights: the read bit of account_leads, a session
      await withGrant(t, 'member', 'account_leads', 0, async () => {
        expect((await owners(memberOfA, [root.userId])).status).toBe(403);
      });
      expect((await t.client().get(`${path()}/owners?ids=${root.userId}`)).status).toBe(401);
    });
  });

  describe('bulk actions on a whole filter (the generic POST …/leads/bulk)', () => {
    let fx: LeadEvent;
    const bulk = (body: Row, client: Signed = memberOfA, account = a) => client.post(`${path(account)}/bulk`, body);
    const update = (filter: Row, changes: Row, client: Signed = memberOfA) => bulk({ action: 'update', filter, changes }, client);

    beforeAll(async () => {
      fx = await makeLeadEvent(root, a);
      for (let i = 0; i < 30; i++) {
        const res = await create(memberOfA, { ld_eventid: fx.event.id, ld_source: i < 20 ? 'scan' : 'manual', ld_answers: answersFor({ first_name: `Bulk${i}` }) });
        expect(res.status).toBe(201);
      }
    });
    // The event's leads as the API sees them (a deleted lead is in the trash: its row stays until the purge).
    const inEvent = (where: Row = {}) =>
      t
        .db('leads')
        .where({ ld_eventid: fx.event.id, ...where })
        .whereNull('ld_deleted_at')
        .count({ n: '*' })
        .first()
        .then((r) => Number(r?.n));

    it('marks every lead of the filter invalid and valid again, beyond one page, in one update statement with its history', async () => {
      const statements: string[] = [];
      const listener = (q: { sql: string }) => statements.push(q.sql);
      t.db.on('query', listener);
      const res = await update({ ld_eventid: fx.event.id, ld_source: 'scan' }, { ld_is_valid: false });
      t.db.removeListener('query', listener);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ count: 20 });
      expect(await inEvent({ ld_is_valid: false })).toBe(20);
      // Set-wise by filter: one update of every lead the list's query selects, one savepoint; the leads are not read
      // into the server first (no select from leads), no statement per lead.
      const updates = statements.filter((s) => /^update "leads"/i.test(s));
      expect(updates).toHaveLength(1);
      expect(updates[0]).toMatch(/"ld_id" in \(select "ld_id" from \(select "leads"\.\* from "leads"/i);
      expect(statements.filter((s) => /^select/i.test(s) && /from "leads"/i.test(s))).toEqual([]);
      expect(statements.filter((s) => /^savepoint/i.test(s))).toHaveLength(1);
      expect(statements.length).toBeLessThan(12);
      const lead = (
        await t
          .db('leads')
          .where({ ld_eventid: String(fx.event.id), ld_source: 'scan' })
          .first('ld_id')
      ).ld_id;
      const entry = await t.db('history_by_record').where({ h_table: 'leads', h_recordid: lead, h_action: 'update' }).orderBy('h_seq', 'desc').first();
      expect(entry).toMatchObject({ h_userid: memberOfA.userId, h_changes: { ld_is_valid: [true, false] } });
      const valid = await update({ ld_eventid: fx.event.id, q: 'bulk1' }, { ld_is_valid: true });
      expect(valid.body).toEqual({ count: 11 }); // Bulk1, Bulk10..Bulk19
      expect(await inEvent({ ld_is_valid: false })).toBe(9);
      // By ids: the same.
      const ids = (
        await t
          .db('leads')
          .where({ ld_eventid: String(fx.event.id), ld_is_valid: false })
          .select('ld_id')
      ).map((r) => r.ld_id);
      expect((await bulk({ action: 'update', ids, changes: { ld_is_valid: true } })).body).toEqual({ count: 9 });
      expect(await inEvent({ ld_is_valid: false })).toBe(0);
    });

    it('by filter changes only what the list shows: not the leads of an event in the trash, nor another account’s', async () => {
      const hidden = await makeLeadEvent(root, a);
      const kept = await create(memberOfA, { ld_eventid: hidden.event.id, ld_answers: answersFor({ first_name: 'Hidden' }) });
      expect(kept.status).toBe(201);
      const ofB = await create(memberOfB, { ld_eventid: evB.event.id, ld_answers: answersFor({ first_name: 'OtherAccount' }) }, b);
      expect(ofB.status, JSON.stringify(ofB.body)).toBe(201);
      expect((await root.delete(`/api/1/accounts/${a}/events/${hidden.event.id}`)).status).toBe(200);
      const visible = await count();
      const res = await update({}, { ld_rating: 3 });
      expect(res.body).toEqual({ count: visible });
      const rated = async (id: string) => (await t.db('leads').where('ld_id', id).first('ld_rating')).ld_rating;
      expect(await rated(kept.body.ld_id)).toBeNull();
      expect(await rated(ofB.body.ld_id)).toBeNull();
      expect(
        await t
          .db('leads')
          .where({ ld_accountid: a, ld_rating: 3 })
          .count({ n: '*' })
          .first()
          .then((r) => Number(r?.n)),
      ).toBe(visible);
      expect((await root.post(`/api/1/accounts/${a}/events/${hidden.event.id}/restore`)).status).toBe(200);
      await t.db('leads').where('ld_accountid', a).update({ ld_rating: null });
    });

    it('hands leads to another owner only when the owner is a member (like a single update); nothing changes otherwise', async () => {
      const other = await t.signedIn('member');
      await t.member(a, other.userId);
      const handed = await update({ ld_eventid: fx.event.id, ld_source: 'manual' }, { ld_ownerid: other.userId });
      expect(handed.body).toEqual({ count: 10 });
      expect(await inEvent({ ld_ownerid: other.userId })).toBe(10);
      // memberOfB is no member of A: every lead is refused for it, with the reasons a single update gives.
      const single = await memberOfA.put(`${path()}/${(await t.db('leads').where('ld_eventid', String(fx.event.id)).first('ld_id')).ld_id}`, { ld_ownerid: memberOfB.userId });
      expect(single.status).toBe(400);
      const refused = await update({ ld_eventid: fx.event.id }, { ld_ownerid: memberOfB.userId, ld_is_valid: false });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'bulk_refused', refused: 30 });
      expect(refused.body.reasons).toHaveLength(5);
      for (const r of refused.body.reasons) expect(r).toMatchObject({ code: single.body.code, fields: single.body.fields });
      expect(single.body.fields).toEqual({ ld_ownerid: 'error_reference_invalid' });
      expect(await inEvent({ ld_ownerid: other.userId })).toBe(10);
      expect(await inEvent({ ld_is_valid: false })).toBe(0);
      expect((await update({ ld_eventid: fx.event.id }, { ld_ownerid: crypto.randomUUID() })).body.code).toBe('bulk_refused');
      expect((await update({ ld_eventid: fx.event.id, ld_source: 'manual' }, { ld_ownerid: memberOfA.userId })).body).toEqual({ count: 10 });
      expect(await inEvent({ ld_ownerid: memberOfA.userId })).toBe(30);
    });

    it('refuses a bad target, filter, action or change, and fields that are not bulk fields; nothing changes; filter {} is every lead', async () => {
      const before = await t.db('leads').where('ld_eventid', String(fx.event.id)).orderBy('ld_id');
      const one = String(before[0].ld_id);
      const cases: [Row, number, string][] = [
        [{ action: 'update', changes: { ld_is_valid: false } }, 400, 'bulk_target_invalid'],
        [{ action: 'delete', ids: [one], filter: {} }, 400, 'bulk_target_invalid'],
        [{ action: 'update', filter: { nope: 1 }, changes: { ld_is_valid: false } }, 400, 'invalid_filter'],
        [{ action: 'update', filter: { captured_from: 'soon' }, changes: { ld_is_valid: false } }, 400, 'invalid_filter'],
        [{ action: 'delete', filter: { ld_eventid: 'x' } }, 400, 'invalid_filter'],
        [{ action: 'archive', filter: { ld_eventid: fx.event.id } }, 400, 'validation_failed'],
        [{ action: 'invalid', filter: { ld_eventid: fx.event.id } }, 400, 'validation_failed'], // the old route's body
        [{ action: 'update', filter: { ld_eventid: fx.event.id }, changes: { ld_first_name: 'X' } }, 400, 'bulk_field_not_allowed'],
        [{ action: 'update', filter: { ld_eventid: fx.event.id }, changes: { ld_consent_news: true } }, 400, 'bulk_field_not_allowed'],
        [{ action: 'update', filter: { ld_eventid: fx.event.id }, changes: {} }, 400, 'validation_failed'],
        [{ action: 'update', filter: { ld_eventid: fx.event.id }, changes: { ld_is_valid: 'maybe' } }, 400, 'validation_failed'],
        [{ action: 'update', filter: { ld_eventid: fx.event.id }, changes: { ld_ownerid: 'not-a-uuid' } }, 400, 'validation_failed'],
        [{ action: 'update', ids: ['not-a-uuid'], changes: { ld_is_valid: false } }, 400, 'validation_failed'],
        [{ action: 'update', ids: [one, crypto.randomUUID()], changes: { ld_is_valid: false } }, 404, 'not_found'],
      ];
      for (const [body, status, code] of cases) {
        const res = await bulk(body);
        expect(res.status, JSON.stringify(body)).toBe(status);
        expect(res.body.code, JSON.stringify(body)).toBe(code);
      }
      expect(await t.db('leads').where('ld_eventid', String(fx.event.id)).orderBy('ld_id')).toEqual(before);
      // filter {} is every lead of the account (marked valid here, which is harmless for the other tests).
      const all = await update({}, { ld_is_valid: true });
      expect(all.status).toBe(200);
      expect(all.body.count).toBe(await count());
    });

    it('needs update for a change and delete for delete; never touches another account', async () => {
      const leadB = (await create(memberOfB, { ld_eventid: evB.event.id, ld_answers: answersFor({ first_name: 'Bulk0' }) }, b)).body;
      await withGrant(t, 'member', 'account_leads', 7, async () => {
        expect((await bulk({ action: 'delete', filter: { ld_eventid: fx.event.id } })).status).toBe(403);
        expect((await update({ ld_eventid: fx.event.id }, { ld_is_valid: false })).status).toBe(200);
      });
      await withGrant(t, 'member', 'account_leads', 9, async () => {
        expect((await update({ ld_eventid: fx.event.id }, { ld_is_valid: true })).status).toBe(403);
      });
      expect(await inEvent()).toBe(30);
      expect(await inEvent({ ld_is_valid: false })).toBe(30);
      // Another account's lead by id: 404, like a single update, and nothing changes.
      const mixed = await bulk({ action: 'delete', ids: [String((await t.db('leads').where('ld_eventid', String(fx.event.id)).first('ld_id')).ld_id), String(leadB.id)] });
      expect(mixed.status).toBe(404);
      expect(await inEvent()).toBe(30);
      expect((await bulk({ action: 'update', ids: [String(leadB.id)], changes: { ld_is_valid: false } })).status).toBe(404);
      expect((await stored(leadB.id)).ld_is_valid).toBe(true);
      const del = await bulk({ action: 'delete', filter: { q: 'bulk0' } });
      expect(del.body).toEqual({ count: 1 }); // Bulk0 of A only
      expect(await stored(leadB.id)).toBeDefined();
      expect((await bulk({ action: 'delete', filter: { ld_eventid: fx.event.id } }, memberOfB, a)).status).toBe(404);
      const deletions = async () =>
        Number((await t.db('history_by_record').where({ h_table: 'leads', h_action: 'delete', h_userid: superOfA.userId }).count({ n: '*' }).first())?.n);
      const before = await deletions();
      const rest = await bulk({ action: 'delete', filter: { ld_eventid: fx.event.id } }, superOfA);
      expect(rest.body).toEqual({ count: 29 });
      expect(await inEvent()).toBe(0);
      expect((await deletions()) - before).toBe(29); // an entry per lead (moved to the trash), under the caller
      expect((await bulk({ action: 'delete', filter: { ld_eventid: fx.event.id } })).body).toEqual({ count: 0 });
      const trash = await superOfA.get(`${path()}/trash?${qs({ filter: { ld_eventid: fx.event.id }, range: [0, 99] })}`);
      expect(trash.body).toHaveLength(30);
    });
  });

  describe('card photos (lead files)', () => {
    const filePath = (id: string, account = a) => `/api/1/accounts/${account}/lead-files/${id}`;

    it('PUT stores the bytes (201), a retry answers the same record (200), GET serves them privately', async () => {
      const id = crypto.randomUUID();
      const res = await putLeadFile(memberOfA, a, id, JPEG);
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ id, lf_id: id, lf_accountid: a, lf_type: 'image/jpeg', lf_size: JPEG.length, lf_created_by: memberOfA.userId, url: filePath(id) });
      expect(res.body.lf_path).toMatch(new RegExp(`^/lead-files/${a}/\\d{4}/\\d{2}$`));
      const again = await putLeadFile(memberOfA, a, id, PNG, 'image/png');
      expect(again.status).toBe(200);
      expect(again.body).toEqual(res.body);
      expect(Number((await t.db('lead_files').where('lf_id', id).count({ n: '*' }).first())?.n)).toBe(1);

      const got = await memberOfA.get(filePath(id));
      expect(got.status).toBe(200);
      expect(got.headers['content-type']).toBe('image/jpeg');
      expect(got.headers['cache-control']).toMatch(/^private/);
      expect(got.headers['x-content-type-options']).toBe('nosniff');
      expect(Buffer.compare(got.body as Buffer, JPEG)).toBe(0);
      const cached = await memberOfA.get(filePath(id), { headers: { 'If-None-Match': got.headers.etag } });
      expect(cached.status).toBe(304);
      expect(await storedKeys(t)).toContain(`${res.body.lf_path.slice(1)}/${id}`);
      const png = crypto.randomUUID();
      expect((await putLeadFile(memberOfA, a, png, PNG, 'image/png')).status).toBe(201);
      expect((await memberOfA.get(filePath(png))).headers['content-type']).toBe('image/png');
    });

    it('a retried photo of several MB gets its 200 (the body is read before the answer), like a browser sends it', async () => {
      const big = Buffer.concat([JPEG.subarray(0, JPEG.length - 2), Buffer.alloc(6 * 1024 * 1024, 1), Buffer.from([0xff, 0xd9])]);
      const id = crypto.randomUUID();
      const send = () =>
        fetch(`${t.baseUrl}${filePath(id)}`, {
          method: 'PUT',
          body: new Uint8Array(big),
          headers: { 'Content-Type': 'image/jpeg', Cookie: memberOfA.cookieHeader(), 'X-CSRF-Token': memberOfA.csrf ?? '' },
        });
      const first = await send();
      expect(first.status).toBe(201);
      expect((await first.json()).lf_size).toBe(big.length);
      for (let i = 0; i < 3; i++) {
        const again = await send();
        expect(again.status).toBe(200);
        expect((await again.json()).id).toBe(id);
      }
      const refused = await fetch(`${t.baseUrl}${filePath(crypto.randomUUID())}`, {
        method: 'PUT',
        body: new Uint8Array(big),
        headers: { 'Content-Type': 'image/gif', Cookie: memberOfA.cookieHeader(), 'X-CSRF-Token': memberOfA.csrf ?? '' },
      });
      expect(refused.status).toBe(415);
      expect((await refused.json()).code).toBe('file_type_not_allowed');
    });

    it('deleting leads (one, or a filter in bulk) moves them to the trash with their photos; the purge deletes the photos, records and bytes; others stay', async () => {
      const keyOf = async (id: string) => {
        const row = await t.db('lead_files').where('lf_id', id).first('lf_path');
        return `${String(row.lf_path).slice(1)}/${id}`;
      };
      const card = async (name: string) => {
        const front = await photo();
        const back = await photo();
        const res = await create(memberOfA, { ld_source: 'card', ld_front_fileid: front, ld_back_fileid: back, ld_answers: { first_name: name } });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        return { id: String(res.body.id), files: [front, back], keys: [await keyOf(front), await keyOf(back)] };
      };
      const one = await card('Photoone');
      const bulkA = await card('Photobulk');
      const bulkB = await card('Photobulk');
      const kept = await card('Photokept');
      const gone = async (c: { files: string[]; keys: string[] }) => {
        expect(
          await t
            .db('lead_files')
            .whereIn('lf_id', c.files)
            .count({ n: '*' })
            .first()
            .then((r) => Number(r?.n)),
        ).toBe(0);
        const keys = await storedKeys(t);
        for (const k of c.keys) expect(keys).not.toContain(k);
      };
      const kept_ = async (c: { id: string; files: string[]; keys: string[] }) => {
        expect((await memberOfA.get(`${path()}/${c.id}`)).status).toBe(404);
        expect(await t.db('lead_files').whereIn('lf_id', c.files).pluck('lf_id')).toHaveLength(2);
        const keys = await storedKeys(t);
        for (const k of c.keys) expect(keys).toContain(k);
      };
      expect((await memberOfA.delete(`${path()}/${one.id}`)).status).toBe(200);
      await kept_(one);
      expect((await memberOfA.delete(`${path()}/${one.id}/purge`)).status).toBe(200);
      await gone(one);
      const res = await memberOfA.post(`${path()}/bulk`, { action: 'delete', filter: { q: 'photobulk' } });
      expect(res.body).toEqual({ count: 2 });
      await kept_(bulkA);
      await kept_(bulkB);
      for (const c of [bulkA, bulkB]) expect((await memberOfA.delete(`${path()}/${c.id}/purge`)).status).toBe(200);
      await gone(bulkA);
      await gone(bulkB);
      expect(await stored(kept.id)).toBeDefined();
      const keys = await storedKeys(t);
      for (const k of kept.keys) expect(keys).toContain(k);
      expect((await memberOfA.get(filePath(kept.files[0]))).status).toBe(200);
    });

    it('photos no lead names are swept a week after their upload (on a later upload); a photo in use never is', async () => {
      const orphan = await photo();
      const young = await photo();
      const used = await photo();
      expect((await create(memberOfA, { ld_source: 'card', ld_front_fileid: used, ld_answers: {} })).status).toBe(201);
      const longAgo = new Date(Date.now() - 8 * 86400_000);
      await t.db('lead_files').whereIn('lf_id', [orphan, used]).update({ lf_created_at: longAgo });
      const orphanKey = `${String((await t.db('lead_files').where('lf_id', orphan).first('lf_path')).lf_path).slice(1)}/${orphan}`;
      await photo(); // any upload sweeps a batch
      expect(await t.db('lead_files').where('lf_id', orphan).first()).toBeUndefined();
      expect(await storedKeys(t)).not.toContain(orphanKey);
      expect(await t.db('lead_files').where('lf_id', young).first()).toBeDefined();
      expect(await t.db('lead_files').where('lf_id', used).first()).toBeDefined();
    });

    it("another account's id: 404 on PUT and GET, its bytes untouched", async () => {
      const id = await photo(memberOfB, b);
      const put = await putLeadFile(memberOfA, a, id, PNG, 'image/png');
      expect(put.status).toBe(404);
      expect((await memberOfA.get(filePath(id))).status).toBe(404);
      expect((await root.get(filePath(id))).status).toBe(404);
      expect((await t.db('lead_files').where('lf_id', id).first()).lf_accountid).toBe(b);
      expect((await memberOfA.get(filePath(MISSING))).status).toBe(404);
      expect((await memberOfA.get(filePath('not-a-uuid'))).status).toBe(404);
      expect((await putLeadFile(memberOfA, a, 'not-a-uuid', JPEG)).status).toBe(404);
    });

    it('refuses other types (415), bytes that are not the image said (415), empty (400) and too large (413); keeps nothing', async () => {
      const rows = async () => Number((await t.db('lead_files').count({ n: '*' }).first())?.n);
      const before = await rows();
      const keys = await storedKeys(t);
      const cases: [Buffer, string, number, string][] = [
        [Buffer.from('hello'), 'text/plain', 415, 'file_type_not_allowed'],
        [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml', 415, 'file_type_not_allowed'],
        [JPEG, 'application/octet-stream', 415, 'file_type_not_allowed'],
        [PNG, 'image/jpeg', 415, 'file_content_mismatch'],
        [Buffer.from('not really a jpeg at all'), 'image/jpeg', 415, 'file_content_mismatch'],
        [Buffer.alloc(0), 'image/png', 400, 'file_empty'],
        [Buffer.concat([JPEG, Buffer.alloc(LEAD_FILE_MAX_BYTES)]), 'image/jpeg', 413, 'file_too_large'],
      ];
      for (const [body, type, status, code] of cases) {
        const res = await putLeadFile(memberOfA, a, crypto.randomUUID(), body, type);
        expect(res.status, `${type} ${body.length}`).toBe(status);
        expect(res.body.code, `${type} ${body.length}`).toBe(code);
      }
      // No Content-Length (chunked): the size is counted as the bytes arrive.
      const chunked = await chunkedPut(memberOfA, filePath(crypto.randomUUID()), Buffer.concat([JPEG, Buffer.alloc(LEAD_FILE_MAX_BYTES)]));
      expect(chunked.status).toBe(413);
      expect(JSON.parse(chunked.text).code).toBe('file_too_large');
      const gz = await memberOfA.raw('put', filePath(crypto.randomUUID())).set('Content-Type', 'image/jpeg').set('Content-Encoding', 'gzip').send(JPEG);
      expect(gz.status).toBe(415);
      expect(await rows()).toBe(before);
      expect(await storedKeys(t)).toEqual(keys);
    });

    it('needs account_leads create to upload and read to see; a session and the CSRF header', async () => {
      const id = await photo();
      await withGrant(t, 'member', 'account_leads', 1, async () => {
        expect((await putLeadFile(memberOfA, a, crypto.randomUUID(), JPEG)).status).toBe(403);
        expect((await memberOfA.get(filePath(id))).status).toBe(200);
      });
      await withGrant(t, 'member', 'account_leads', 0, async () => {
        expect((await memberOfA.get(filePath(id))).status).toBe(403);
      });
      expect((await t.client().get(filePath(id))).status).toBe(401);
      const noCsrf = await memberOfA.raw('put', filePath(crypto.randomUUID())).set('X-CSRF-Token', '').set('Content-Type', 'image/jpeg').send(JPEG);
      expect(noCsrf.status).toBe(403);
      expect((await memberOfB.get(filePath(id, a))).status).toBe(404);
      // Never served under the public /storage addresses.
      const row = await t.db('lead_files').where('lf_id', id).first();
      expect((await t.client().get(`/storage${row.lf_path}/${id}`)).status).toBe(404);
    });
  });
});

/** A PUT without Content-Length (Transfer-Encoding: chunked), with the client's cookies and CSRF header. */
function chunkedPut(client: Signed, path: string, body: Buffer): Promise<{ status: number; text: string }> {
  const server = (client as unknown as { server: http.Server }).server;
  const port = (server.address() as { port: number }).port;
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'PUT',
        path,
        headers: { 'Content-Type': 'image/jpeg', Cookie: client.cookieHeader(), 'X-CSRF-Token': client.csrf ?? '', 'Transfer-Encoding': 'chunked' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      },
    );
    // The server may close the connection after its answer while the body is still being sent.
    req.on('error', (e) => setTimeout(() => resolve({ status: -1, text: String(e) }), 200));
    for (let i = 0; i < body.length; i += 1 << 20) req.write(body.subarray(i, i + (1 << 20)));
    req.end();
  });
}

describe('card photos on S3-compatible storage', () => {
  it('PUT stores through the S3 driver and GET serves the same bytes', async () => {
    const { t, close } = await startStorageApp('pglite', 's3');
    try {
      const a = (await t.account('Leads S3')).a_id;
      const member = await t.signedIn('member');
      await t.member(a, member.userId, 'member');
      const id = crypto.randomUUID();
      const res = await putLeadFile(member, a, id, PNG, 'image/png');
      expect(res.status, res.text).toBe(201);
      expect(await storedKeys(t)).toEqual([`${res.body.lf_path.slice(1)}/${id}`]);
      const got = await member.get(`/api/1/accounts/${a}/lead-files/${id}`);
      expect(got.status).toBe(200);
      expect(got.headers['content-type']).toBe('image/png');
      expect(Buffer.compare(got.body as Buffer, PNG)).toBe(0);
      expect((await putLeadFile(member, a, id, JPEG)).status).toBe(200);
    } finally {
      await close();
    }
  });
});
