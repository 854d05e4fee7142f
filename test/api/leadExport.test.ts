import http from 'node:http';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { MISSING, qs, queriesOf, uid, withGrant, type Signed, type TestApp } from '../helpers/app.js';
import { startConsoleApp } from '../helpers/console.js';
import { answersFor, made, makeLeadEvent, type LeadEvent } from '../helpers/leads.js';
import { EXPORT_BATCH } from '../../api/console/leadExport.js';

type Row = Record<string, unknown>;

const FIXED = [
  'id',
  'captured at',
  'e-mail',
  'first name',
  'last name',
  'owner e-mail',
  'source',
  'valid',
  'transcription',
  'consent news',
  'badge code',
  'rating',
  'notes',
  'tags',
];
const ELEMENTS = ['email', 'first_name', 'last_name', 'Company name', 'interests', 'days', 'newsletter', 'budget'];

/** The CSV as rows of cells (after checking and removing the BOM). */
function parseCsv(text: string): string[][] {
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const parsed = Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  return parsed.data;
}

/** Rows as objects by header. */
function records(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
}

describeEachDb('lead exports: CSV per event and per filter', (kind) => {
  let t: TestApp;
  let root: Signed;
  let a: string;
  let b: string;
  let memberOfA: Signed;
  let memberOfB: Signed;
  let ev: LeadEvent;
  let memberEmail: string;

  beforeAll(async () => {
    ({ t, root, a, b } = await startConsoleApp(kind, 'Export'));
    memberOfA = await t.signedIn('member');
    await t.member(a, memberOfA.userId, 'member');
    memberEmail = (await t.db('users').where('u_id', memberOfA.userId).first()).u_email;
    memberOfB = await t.signedIn('member');
    await t.member(b, memberOfB.userId, 'member');
    // The registration form's elements come after the booth form's.
    const registration = await made(root, a, 'forms', { f_title: 'Registration', f_name: uid() });
    await made(root, a, 'form-elements', { fe_formid: registration.id, fe_name: 'how_heard', fe_title: 'How did you hear of us', fe_type: 'text', fe_external_name: 'Heard via' });
    await made(root, a, 'form-elements', { fe_formid: registration.id, fe_name: 'email', fe_title: 'E-mail', fe_type: 'text' }); // already a column
    ev = await makeLeadEvent(root, a, { ev_title: 'Expo 2026', ev_registration_formid: registration.id });
  });
  afterAll(() => t?.close());

  const exportPath = (eventId: unknown, account = a) => `/api/1/accounts/${account}/events/${eventId}/leads/export.csv`;
  const lead = async (body: Row, eventId: unknown = ev.event.id) => {
    const res = await memberOfA.post(`/api/1/accounts/${a}/leads`, { ld_eventid: eventId, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Row;
  };

  it('streams UTF-8 with a BOM: the fixed columns, then one per element by external name; list values as titles', async () => {
    const first = await lead({
      ld_source: 'scan',
      ld_badge_code: '1001',
      ld_consent_news: true,
      ld_captured_at: '2026-11-20T09:30:00.000Z',
      ld_answers: answersFor({
        email: 'Zoë.Ærø@example.com',
        first_name: 'Zoë',
        last_name: 'Ærø',
        company: 'Café, "Ünïcode" & Co\nLtd',
        interests: ['software', 'hardware'],
        days: ['2026-11-24', '2026-11-23'],
        newsletter: false,
        budget: 15,
      }),
    });
    const res = await memberOfA.get(exportPath(ev.event.id));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="leads-${ev.event.ev_name}-${new Date().toISOString().slice(0, 10)}.csv"`);
    expect(res.text.startsWith('\ufeffid,captured at,e-mail,')).toBe(true);
    expect(res.text).toContain('\r\n');
    const [header] = parseCsv(res.text);
    expect(header).toEqual([...FIXED, ...ELEMENTS, 'Heard via']);
    const row = records(res.text).find((r) => r.id === first.id)!;
    expect(row).toEqual({
      id: String(first.id),
      'captured at': '2026-11-20T09:30:00.000Z',
      'e-mail': 'zoë.ærø@example.com',
      'first name': 'Zoë',
      'last name': 'Ærø',
      'owner e-mail': memberEmail,
      source: 'scan',
      valid: 'yes',
      transcription: 'none',
      'consent news': 'yes',
      'badge code': '1001',
      rating: '',
      notes: '',
      tags: '',
      email: 'Zoë.Ærø@example.com',
      first_name: 'Zoë',
      last_name: 'Ærø',
      'Company name': 'Café, "Ünïcode" & Co\nLtd',
      interests: 'Software; Hardware',
      days: '2026-11-23; 2026-11-24',
      newsletter: 'no',
      budget: '15',
      'Heard via': '',
    });
    // The bytes are UTF-8, and quoting is RFC 4180.
    expect(Buffer.from(res.text, 'utf8').includes(Buffer.from('Zoë', 'utf8'))).toBe(true);
    expect(res.text).toContain('"Café, ""Ünïcode"" & Co\nLtd"');
  });

  it("a list value whose item is gone shows as the value; an element's default column name is its data name", async () => {
    const l = await lead({ ld_answers: answersFor({ first_name: 'Gone', interests: ['software', 'hardware'] }) });
    const items = await memberOfA.get(`/api/1/accounts/${a}/list-items?${qs({ filter: { li_listid: ev.list.id } })}`);
    const hardware = (items.body as Row[]).find((i) => i.li_value === 'hardware')!;
    expect((await root.delete(`/api/1/accounts/${a}/list-items/${hardware.id}`)).status).toBe(200);
    const row = records((await memberOfA.get(exportPath(ev.event.id))).text).find((r) => r.id === l.id)!;
    expect(row.interests).toBe('Software; hardware');
    await made(root, a, 'list-items', { li_listid: ev.list.id, li_title: 'Hardware', li_value: 'hardware' });
  });

  it('neutralises every cell that starts with = + - @ tab or CR, headers included', async () => {
    const el = await made(root, a, 'form-elements', { fe_formid: ev.form.id, fe_name: 'note', fe_title: 'Note', fe_type: 'textarea', fe_external_name: '=HEADER()' });
    const values = ['=HYPERLINK("http://evil.example","x")', '+31 20 123', '-2+3', '@SUM(A1:A9)', '\tTabbed', '\rReturn', 'plain = fine'];
    const ids: string[] = [];
    for (const [i, note] of values.entries()) {
      if (/^[\t\r]/.test(note)) {
        // The API trims text, so a leading tab or CR can only come from elsewhere (an import, an older client): stored directly.
        const [row] = await t
          .db('leads')
          .insert({ ld_accountid: a, ld_eventid: ev.event.id, ld_first_name: `N${i}`, ld_badge_code: note, ld_answers: { first_name: `N${i}`, note } })
          .returning('ld_id');
        ids.push(String(row.ld_id));
      } else ids.push(String((await lead({ ld_badge_code: note, ld_answers: answersFor({ first_name: `N${i}`, note }) })).id));
    }
    const text = (await memberOfA.get(exportPath(ev.event.id))).text;
    const [header] = parseCsv(text);
    expect(header).toContain("'=HEADER()");
    const rows = records(text);
    for (const [i, note] of values.entries()) {
      const row = rows.find((r) => r.id === ids[i])!;
      const expected = /^[=+\-@\t\r]/.test(note) ? `'${note}` : note;
      expect(row["'=HEADER()"], JSON.stringify(note)).toBe(expected);
      expect(row['badge code'], JSON.stringify(note)).toBe(expected);
    }
    // In the bytes: the quote comes first, inside the CSV quoting.
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(text).toContain(`,'+31 20 123,`);
    expect(text).not.toMatch(/(^|,)[=+\-@]/m);
    await root.delete(`/api/1/accounts/${a}/form-elements/${el.id}`);
  });

  it(`streams ${5000} leads in batches of ${EXPORT_BATCH} along capture time (ties by id), each once, never the whole result at once`, async () => {
    const big = await makeLeadEvent(root, a, { ev_title: 'Big' });
    // 5,000 leads in one statement, many sharing a capture time to the microsecond (the cursor must break ties).
    await t.db.raw(
      `insert into leads (ld_accountid, ld_eventid, ld_email, ld_first_name, ld_last_name, ld_answers, ld_captured_at, ld_source)
       select ?, ?, 'bulk' || g || '@example.com', 'First' || g, 'Last' || g,
              jsonb_build_object('company', 'Co ' || g, 'interests', jsonb_build_array('software')),
              timestamptz '2026-11-23 09:00:00.123456+00' + ((g / 7) * interval '1 microsecond'), 'manual'
         from generate_series(1, 5000) g`,
      [a, String(big.event.id)],
    );
    let res!: Awaited<ReturnType<Signed['get']>>;
    const sql = await queriesOf(t.db, async () => {
      res = await memberOfA.get(exportPath(big.event.id));
    });
    expect(res.status).toBe(200);
    const rows = records(res.text);
    expect(rows).toHaveLength(5000);
    expect(new Set(rows.map((r) => r.id)).size).toBe(5000);
    const stored: Row[] = await t
      .db('leads')
      .where('ld_eventid', String(big.event.id))
      .orderBy([{ column: 'ld_captured_at' }, { column: 'ld_id' }])
      .select('ld_id');
    expect(rows.map((r) => r.id)).toEqual(stored.map((s) => s.ld_id));
    expect(rows.find((r) => r['first name'] === 'First1')).toMatchObject({ 'Company name': 'Co 1', interests: 'Software', 'owner e-mail': '', 'e-mail': 'bulk1@example.com' });
    const reads = sql.filter((s) => /from "leads"/.test(s));
    expect(reads).toHaveLength(Math.ceil(5000 / EXPORT_BATCH));
    for (const s of reads) expect(s).toMatch(/\blimit\b/i);
  });

  it('stops reading batches when the client goes away', async () => {
    const gone = await makeLeadEvent(root, a, { ev_title: 'Gone' });
    await t.db.raw(
      `insert into leads (ld_accountid, ld_eventid, ld_email, ld_first_name, ld_answers, ld_captured_at)
       select ?, ?, 'gone' || g || '@example.com', 'Gone' || g, jsonb_build_object('company', repeat('x', 2000)), timestamptz '2026-01-01 00:00:00+00' + g * interval '1 second'
         from generate_series(1, ?) g`,
      [a, String(gone.event.id), EXPORT_BATCH * 10],
    );
    const sql = await queriesOf(t.db, async () => {
      await new Promise<void>((resolve, reject) => {
        const req = http.get(`${t.baseUrl}${exportPath(gone.event.id)}`, { headers: { Cookie: memberOfA.cookieHeader(), 'Accept-Encoding': 'identity' } }, (res) => {
          expect(res.statusCode).toBe(200);
          res.once('data', () => {
            req.destroy(); // the browser's download is cancelled after its first bytes
            setTimeout(resolve, 500);
          });
        });
        req.on('error', (e) => (String(e).includes('socket hang up') || String(e).includes('aborted') ? undefined : reject(e)));
      });
    });
    const reads = sql.filter((s) => /from "leads"/.test(s)).length;
    expect(reads).toBeGreaterThanOrEqual(1);
    // Of 10 batches (4 MB each): the ones read when the client left, plus what the sockets' buffers took meanwhile.
    expect(reads).toBeLessThan(6);
    await root.delete(`/api/1/accounts/${a}/events/${gone.event.id}`); // its leads go with it
    // 40 MB of leads written to PGlite first: 11–23 s in whole runs at load 7, 30 s (the default) once at load 11.
  }, 90_000);

  it('rights: account_event_leads read (a member has it); another account or event 404; no session 401', async () => {
    expect((await memberOfA.get(exportPath(ev.event.id))).status).toBe(200);
    await withGrant(t, 'member', 'account_event_leads', 0, async () => {
      const res = await memberOfA.get(exportPath(ev.event.id));
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    });
    expect((await memberOfB.get(exportPath(ev.event.id))).status).toBe(404); // not a member of A
    expect((await memberOfB.get(exportPath(ev.event.id, b))).status).toBe(404); // A's event through B
    expect((await root.get(exportPath(MISSING))).status).toBe(404);
    expect((await root.get(exportPath('not-an-id'))).status).toBe(404);
    expect((await t.client().get(exportPath(ev.event.id))).status).toBe(401);
  });

  describe('the same CSV for a console filter: GET /leads/export.csv?filter=…', () => {
    let other: LeadEvent;
    const filterPath = (filter?: unknown, account = a) => `/api/1/accounts/${account}/leads/export.csv${filter === undefined ? '' : `?${qs({ filter })}`}`;

    beforeAll(async () => {
      other = await makeLeadEvent(root, a, { ev_title: 'Other show' });
      await made(root, a, 'form-elements', { fe_formid: other.form.id, fe_name: 'phone', fe_title: 'Phone', fe_type: 'text' });
      await lead({ ld_source: 'scan', ld_answers: answersFor({ first_name: 'Fscan', phone: '+1 555' }) }, other.event.id);
      await lead({ ld_answers: answersFor({ first_name: 'Fmanual' }) }, other.event.id);
    });

    it('every lead the filter shows (not a page), with the event by title and the elements of every event among them', async () => {
      const res = await memberOfA.get(filterPath({ ld_eventid: other.event.id, ld_source: 'scan' }));
      expect(res.status).toBe(200);
      const [header] = parseCsv(res.text);
      expect(header).toEqual([...FIXED, 'event', ...ELEMENTS, 'phone']);
      const rows = records(res.text);
      expect(rows.map((r) => r['first name'])).toEqual(['Fscan']);
      expect(rows[0]).toMatchObject({ event: 'Other show', phone: "'+1 555", source: 'scan' });
      const everything = records((await memberOfA.get(filterPath({}))).text);
      // Every lead the API shows: not one in the trash, nor one of an event in the trash (the "Gone" event above).
      const total = Number(
        (await t.db('leads').join('events', 'ev_id', 'ld_eventid').where('ld_accountid', a).whereNull('ld_deleted_at').whereNull('ev_deleted_at').count({ n: '*' }).first())?.n,
      );
      expect(everything).toHaveLength(total);
      expect(new Set(everything.map((r) => r.event))).toEqual(new Set(['Expo 2026', 'Other show', 'Big']));
      const byName = records((await memberOfA.get(filterPath({ q: 'fscan' }))).text);
      expect(byName.map((r) => r['first name'])).toEqual(['Fscan']);
      const none = await memberOfA.get(filterPath({ captured_from: '2030-01-01' }));
      expect(parseCsv(none.text)).toEqual([[...FIXED, 'event']]);
    });

    it('bad filters answer 400; it needs account_leads read; another account never shows', async () => {
      for (const bad of [{ captured_to: 'later' }, { ld_is_valid: 'maybe' }, { nope: 1 }]) {
        const res = await memberOfA.get(filterPath(bad));
        expect(res.status, JSON.stringify(bad)).toBe(400);
        expect(res.body.code).toBe('invalid_filter');
      }
      expect((await memberOfA.get(`/api/1/accounts/${a}/leads/export.csv?filter=%7Bnot-json`)).status).toBe(400);
      await withGrant(t, 'member', 'account_leads', 0, async () => {
        expect((await memberOfA.get(filterPath({}))).status).toBe(403);
      });
      const inB = records((await memberOfB.get(filterPath({}, b))).text);
      expect(inB).toEqual([]);
      expect((await memberOfB.get(filterPath({}, a))).status).toBe(404);
    });
  });
});
