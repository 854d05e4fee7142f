import crypto from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { MISSING, qs, startApp, uid, withGrant, type Signed, type TestApp, type TestClient } from '../helpers/app.js';
import { linkIn, mailsTo, withFailingMailer } from '../helpers/mail.js';
import { insertEvent, insertLead } from '../helpers/leadRows.js';

type Row = Record<string, unknown>;

describeEachDb('handoffs: create and mail, the public page and its answer, the lead history, my handoffs', (kind) => {
  let t: TestApp;
  let root: Signed;
  /** Account A: a superadmin (Olga), a member (Mia), the representative (Rob). Account B: Rob too, and Bea. */
  let olga: Signed;
  let mia: Signed;
  let rob: Signed;
  let bea: Signed;
  let a: string;
  let b: string;
  let eventA: { ev_id: string; ev_title: string };
  let eventB: { ev_id: string; ev_title: string };
  const accountNameA = `Harbour & Co ${uid()}`;
  const accountNameB = `Dune Expo ${uid()}`;

  const named = async (client: Signed, first: string, last: string) => {
    await t.db('users').where('u_id', client.userId).update({ u_first_name: first, u_last_name: last });
    return client;
  };
  const emailOf = async (client: Signed) => (await t.db('users').where('u_id', client.userId).first('u_email')).u_email as string;

  beforeAll(async () => {
    t = await startApp(kind);
    root = await t.signedIn('root');
    a = (await t.account(accountNameA)).a_id;
    b = (await t.account(accountNameB)).a_id;
    olga = await named(await t.signedIn('member'), 'Olga', 'Owner');
    await t.member(a, olga.userId, 'superadmin');
    mia = await named(await t.signedIn('member'), 'Mia', 'Member');
    await t.member(a, mia.userId, 'member');
    rob = await named(await t.signedIn('member'), 'Rob', 'Rep');
    await t.member(a, rob.userId, 'member');
    await t.member(b, rob.userId, 'member');
    bea = await named(await t.signedIn('member'), 'Bea', 'Boss');
    await t.member(b, bea.userId, 'superadmin');
    eventA = await insertEvent(t.db, a, { ev_title: 'Harbour Expo 2026' });
    eventB = await insertEvent(t.db, b, { ev_title: 'Dune Fair' });
  });
  afterAll(() => t?.close());

  const path = (account = a) => `/api/1/accounts/${account}/handoffs`;
  const leadIn = (account = a, values: Row = {}) => insertLead(t.db, account, account === a ? eventA.ev_id : eventB.ev_id, { ld_ownerid: olga.userId, ...values });
  const ownerOf = async (leadId: string) => (await t.db('leads').where('ld_id', leadId).first('ld_ownerid')).ld_ownerid;
  const countHandoffs = async () => Number((await t.db('handoffs').count({ n: '*' }).first())!.n);
  const tokenOf = (link: string) => decodeURIComponent(new URL(link).pathname.split('/').pop()!);
  /** Hands `leadId` to `to` as `by` (201 expected) and answers the record and the token of the mailed link. */
  const handOff = async (leadId: string, to: Signed, by: TestClient = olga, message = 'Please call her this week', account = a) => {
    const toEmail = await emailOf(to);
    const before = mailsTo(t, toEmail).length;
    const res = await by.post(path(account), { ho_leadid: leadId, ho_to_userid: to.userId, ho_message: message });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const mails = mailsTo(t, toEmail);
    expect(mails.length).toBe(before + 1);
    const mail = mails[mails.length - 1];
    return { record: res.body as Row & { id: string }, mail, token: tokenOf(linkIn(mail, '/handoffs/')) };
  };
  const accept = (client: TestClient, token: string, decision = 'accepted') => client.post('/api/1/handoff/accept', { token, decision });

  it('create stores a pending handoff by the caller and mails the representative a link to /handoffs/{token}, stored hashed', async () => {
    const lead = await leadIn(a, { ld_first_name: 'Sanne', ld_last_name: "O'Brien <3", ld_email: 'sanne@example.com' });
    const { record, mail, token } = await handOff(lead.ld_id, rob);
    expect(record).toMatchObject({
      ho_leadid: lead.ld_id,
      ho_to_userid: rob.userId,
      ho_created_by: olga.userId,
      ho_status: 'pending',
      ho_message: 'Please call her this week',
      ho_accountid: a,
      ho_decided_at: null,
      ld_first_name: 'Sanne',
      to_first_name: 'Rob',
      sender_first_name: 'Olga',
    });
    expect(record.id).toBe(record.ho_id);
    expect(record).not.toHaveProperty('ho_token_hash');

    expect(mail.subject).toBe(`Olga Owner hands a lead over to you: Sanne O'Brien <3`);
    expect(mail.text).toContain('Hello Rob,');
    expect(mail.text).toContain(`Olga Owner of ${accountNameA} would like you to follow up on a lead from Harbour Expo 2026`);
    expect(mail.text).toContain('sanne@example.com');
    expect(mail.text).toContain('Please call her this week');
    expect(mail.html).toContain('O&#39;Brien &lt;3');
    expect(mail.html).toContain(`${t.config.publicUrl}/handoffs/`);
    expect(linkIn(mail, '/handoffs/').startsWith(`${t.config.publicUrl}/handoffs/`)).toBe(true);
    expect(Buffer.from(token, 'base64url').length).toBe(32);
    const row = await t.db('handoffs').where('ho_id', record.id).first();
    expect(row.ho_token_hash).toBe(crypto.createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token);
    // The owner does not change until the representative accepts.
    expect(await ownerOf(lead.ld_id)).toBe(olga.userId);
  });

  it("the link's page data: the lead's names and e-mail, the event, who offers it, the message and the status, for anyone holding the link", async () => {
    const lead = await leadIn(a, { ld_first_name: 'Pim', ld_last_name: 'de Vries', ld_email: 'pim@example.com' });
    const { token } = await handOff(lead.ld_id, rob, mia, 'He wants a demo');
    const visitor = t.client();
    const res = await visitor.get(`/api/1/handoff/${encodeURIComponent(token)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ho_status: 'pending',
      ho_message: 'He wants a demo',
      ld_first_name: 'Pim',
      ld_last_name: 'de Vries',
      ld_email: 'pim@example.com',
      ev_title: 'Harbour Expo 2026',
      account: { a_id: a, a_name: accountNameA },
      from: { u_first_name: 'Mia', u_last_name: 'Member' },
      to: { u_first_name: 'Rob', u_last_name: 'Rep' },
    });
    expect(res.body).not.toHaveProperty('ho_token_hash');
    // No session was opened for the visitor.
    expect((await visitor.get('/api/1/auth/me')).status).toBe(401);
  });

  it('accept: the representative becomes the owner, once; the link then shows the answer and a second use is handoff_invalid', async () => {
    const lead = await leadIn(a);
    const { record, token } = await handOff(lead.ld_id, rob);
    // Not signed in: the mailed link is the credential.
    const visitor = t.client();
    const res = await accept(visitor, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ ho_status: 'accepted', ld_first_name: 'Sam' });
    expect(res.body.ho_decided_at).toBeTruthy();
    expect(await ownerOf(lead.ld_id)).toBe(rob.userId);
    const stored = await t.db('handoffs').where('ho_id', record.id).first();
    expect(stored.ho_status).toBe('accepted');
    expect(stored.ho_decided_at).not.toBeNull();

    const again = await accept(t.client(), token);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'handoff_invalid', fields: { token: 'error_handoff_invalid' } });
    const otherAnswer = await accept(t.client(), token, 'not_available');
    expect(otherAnswer.body.code).toBe('handoff_invalid');
    expect((await t.db('handoffs').where('ho_id', record.id).first()).ho_status).toBe('accepted');
    expect(await ownerOf(lead.ld_id)).toBe(rob.userId);
    const page = await t.client().get(`/api/1/handoff/${encodeURIComponent(token)}`);
    expect(page.status).toBe(200);
    expect(page.body.ho_status).toBe('accepted');
  });

  it('not available: the status is stored, the owner stays', async () => {
    const lead = await leadIn(a);
    const { record, token } = await handOff(lead.ld_id, rob);
    const res = await accept(rob, token, 'not_available');
    expect(res.status).toBe(200);
    expect(res.body.ho_status).toBe('not_available');
    expect(await ownerOf(lead.ld_id)).toBe(olga.userId);
    expect((await t.db('handoffs').where('ho_id', record.id).first()).ho_status).toBe('not_available');
    expect((await accept(rob, token)).body.code).toBe('handoff_invalid');
    expect(await ownerOf(lead.ld_id)).toBe(olga.userId);
  });

  it('two answers at once: exactly one counts', async () => {
    const lead = await leadIn(a);
    const { token } = await handOff(lead.ld_id, rob);
    const [first, second] = await Promise.all([accept(t.client(), token, 'accepted'), accept(t.client(), token, 'not_available')]);
    expect([first.status, second.status].sort()).toEqual([200, 400]);
    const winner = first.status === 200 ? first : second;
    expect(await ownerOf(lead.ld_id)).toBe(winner.body.ho_status === 'accepted' ? rob.userId : olga.userId);
  });

  it('unknown, malformed or missing tokens and bad decisions are refused; accept needs the CSRF header', async () => {
    const visitor = t.client();
    for (const token of ['x'.repeat(43), 'short', encodeURIComponent('a/b'), 'y'.repeat(300)]) {
      const res = await visitor.get(`/api/1/handoff/${token}`);
      expect(res.status, token).toBe(400);
      expect(res.body.code).toBe('handoff_invalid');
    }
    expect((await accept(visitor, 'x'.repeat(43))).body).toMatchObject({ code: 'handoff_invalid' });
    expect((await visitor.post('/api/1/handoff/accept', { decision: 'accepted' })).status).toBe(400);
    const lead = await leadIn(a);
    const { token } = await handOff(lead.ld_id, rob);
    const bad = await visitor.post('/api/1/handoff/accept', { token, decision: 'maybe' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'validation_failed', fields: { decision: 'error_handoff_decision_invalid' } });
    const noCsrf = await visitor.post('/api/1/handoff/accept', { token, decision: 'accepted' }, { csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.code).toBe('csrf_invalid');
    expect(await ownerOf(lead.ld_id)).toBe(olga.userId);
    expect((await t.db('handoffs').where('ho_leadid', lead.ld_id).first()).ho_status).toBe('pending');
  });

  it('the representative who left the account can no longer accept', async () => {
    const leaver = await named(await t.signedIn('member'), 'Lee', 'Leaver');
    await t.member(a, leaver.userId, 'member');
    const lead = await leadIn(a);
    const { token } = await handOff(lead.ld_id, leaver);
    await t.db('account_users').where({ au_accountid: a, au_userid: leaver.userId }).del();
    const res = await accept(t.client(), token);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('handoff_invalid');
    expect(await ownerOf(lead.ld_id)).toBe(olga.userId);
    expect((await t.db('handoffs').where('ho_leadid', lead.ld_id).first()).ho_status).toBe('pending');
  });

  it('mail failure: 502 handoff_notification_failed with the spec text, and nothing stored', async () => {
    const lead = await leadIn(a);
    const before = await countHandoffs();
    const mailsBefore = mailsTo(t, await emailOf(rob)).length;
    await withFailingMailer(t, async () => {
      const res = await olga.post(path(), { ho_leadid: lead.ld_id, ho_to_userid: rob.userId, ho_message: 'x' });
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ code: 'handoff_notification_failed', message: 'We failed to deliver the notification to the representative' });
    });
    expect(await countHandoffs()).toBe(before);
    expect(await t.db('handoffs').where('ho_leadid', lead.ld_id)).toEqual([]);
    expect(mailsTo(t, await emailOf(rob)).length).toBe(mailsBefore);
    expect(await ownerOf(lead.ld_id)).toBe(olga.userId);
  });

  it("the account's own handoff template is used when it has one", async () => {
    await t
      .db('mail_templates')
      .insert({ mt_accountid: a, mt_name: 'handoff', mt_subject: 'Lead for {{first_name}}: {{lead_first_name}}', mt_text: 'Go to {{link}} ({{event_title}})' });
    try {
      const lead = await leadIn(a, { ld_first_name: 'Tess' });
      const { mail, token } = await handOff(lead.ld_id, rob);
      expect(mail.subject).toBe('Lead for Rob: Tess');
      expect(mail.text).toBe(`Go to ${t.config.publicUrl}/handoffs/${token} (Harbour Expo 2026)`);
    } finally {
      await t.db('mail_templates').where({ mt_accountid: a, mt_name: 'handoff' }).del();
    }
  });

  it('a lead of another account answers 404; a representative who is not a member 400 on ho_to_userid; nothing stored', async () => {
    const before = await countHandoffs();
    const foreignLead = await leadIn(b);
    const foreign = await olga.post(path(), { ho_leadid: foreignLead.ld_id, ho_to_userid: rob.userId });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('not_found');
    const unknownLead = await olga.post(path(), { ho_leadid: MISSING, ho_to_userid: rob.userId });
    expect(unknownLead.status).toBe(404);
    const lead = await leadIn(a);
    for (const to of [bea.userId, MISSING]) {
      const res = await olga.post(path(), { ho_leadid: lead.ld_id, ho_to_userid: to });
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual({ ho_to_userid: 'error_reference_invalid' });
    }
    const missing = await olga.post(path(), {});
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.fields).sort()).toEqual(['ho_leadid', 'ho_to_userid']);
    const tooLong = await olga.post(path(), { ho_leadid: lead.ld_id, ho_to_userid: rob.userId, ho_message: 'x'.repeat(2001) });
    expect(tooLong.body.fields).toEqual({ ho_message: 'error_too_long' });
    // Through account B, account A's lead does not exist either.
    expect((await bea.post(path(b), { ho_leadid: lead.ld_id, ho_to_userid: rob.userId })).status).toBe(404);
    expect(await countHandoffs()).toBe(before);
    expect(mailsTo(t, await emailOf(bea))).toEqual([]);
  });

  it('rights: members and superadmins hand off and read; nobody deletes; the status is not written by a client; outsiders get 404', async () => {
    const lead = await leadIn(a);
    const { record } = await handOff(lead.ld_id, rob, mia);
    const { record: bySuper } = await handOff(lead.ld_id, mia, olga);
    const { record: byRoot } = await handOff(lead.ld_id, rob, root);
    expect(byRoot.ho_created_by).toBe(root.userId);
    for (const reader of [mia, olga, root]) expect((await reader.get(`${path()}/${record.id}`)).status).toBe(200);
    for (const client of [root, olga, mia]) {
      const del = await client.delete(`${path()}/${bySuper.id}`);
      expect(del.status).toBe(403);
    }
    expect(await t.db('handoffs').where('ho_id', bySuper.id).first()).toBeTruthy();
    const put = await olga.put(`${path()}/${record.id}`, { ho_status: 'accepted', ho_to_userid: olga.userId, ho_leadid: MISSING });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ ho_status: 'pending', ho_to_userid: rob.userId, ho_leadid: lead.ld_id });
    expect(await ownerOf(lead.ld_id)).toBe(olga.userId);

    // Bea (account B only) and a platform superadmin who is no member see nothing of account A.
    const staff = await t.signedIn('superadmin');
    for (const outsider of [bea, staff]) {
      expect((await outsider.get(path())).status).toBe(404);
      expect((await outsider.get(`${path()}/${record.id}`)).status).toBe(404);
      expect((await outsider.post(path(), { ho_leadid: lead.ld_id, ho_to_userid: rob.userId })).status).toBe(404);
    }
    expect((await t.client().get(path())).status).toBe(401);
    expect((await olga.post(path(), { ho_leadid: lead.ld_id, ho_to_userid: rob.userId }, { csrf: false })).status).toBe(403);
    // Without the create bit (as ops might set it): 403 and nothing stored.
    const before = await countHandoffs();
    await withGrant(t, 'member', 'account_handoffs', 1, async () => {
      const res = await mia.post(path(), { ho_leadid: lead.ld_id, ho_to_userid: rob.userId });
      expect(res.status).toBe(403);
      expect((await mia.get(path())).status).toBe(200);
    });
    expect(await countHandoffs()).toBe(before);
  });

  it("a lead's handoff history: filter by ho_leadid, newest first, with names and status", async () => {
    const lead = await leadIn(a, { ld_first_name: 'Hilde' });
    const other = await leadIn(a);
    const first = await handOff(lead.ld_id, rob, olga, 'first');
    await accept(t.client(), first.token, 'not_available');
    const second = await handOff(lead.ld_id, mia, olga, 'second');
    await handOff(other.ld_id, rob, olga, 'other lead');
    const res = await mia.get(`${path()}?${qs({ filter: { ho_leadid: lead.ld_id }, sort: ['ho_created_at', 'DESC'], range: [0, 24] })}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-range']).toBe('handoffs 0-1/2');
    expect(res.body.map((r: Row) => [r.id, r.ho_status, r.ho_message, r.to_first_name, r.sender_last_name, r.ld_first_name])).toEqual([
      [second.record.id, 'pending', 'second', 'Mia', 'Owner', 'Hilde'],
      [first.record.id, 'not_available', 'first', 'Rob', 'Owner', 'Hilde'],
    ]);
    const pending = await mia.get(`${path()}?${qs({ filter: { ho_leadid: lead.ld_id, ho_status: 'pending' } })}`);
    expect(pending.body.map((r: Row) => r.id)).toEqual([second.record.id]);
    // Another account's lead id filters to nothing.
    const viaB = await bea.get(`${path(b)}?${qs({ filter: { ho_leadid: lead.ld_id } })}`);
    expect(viaB.body).toEqual([]);
  });

  it('GET /handoffs: my handoffs across accounts, sent and received, with the list conventions; only accounts I am in', async () => {
    const person = await named(await t.signedIn('member'), 'Pat', 'Both');
    await t.member(a, person.userId, 'member');
    await t.member(b, person.userId, 'member');
    const inA = await leadIn(a, { ld_first_name: 'Anna', ld_last_name: 'Aalders' });
    const inB = await leadIn(b, { ld_first_name: 'Bram', ld_last_name: 'Bakker' });
    const sentB = await leadIn(b, { ld_first_name: 'Cees', ld_last_name: 'Claes', ld_ownerid: person.userId });
    const received1 = await handOff(inA.ld_id, person, olga, 'from A');
    const received2 = await handOff(inB.ld_id, person, bea, 'from B', b);
    const sent = await handOff(sentB.ld_id, rob, person, 'to Rob', b);
    await accept(t.client(), received1.token);
    await handOff(inA.ld_id, rob, olga, 'not mine'); // neither sent nor received by Pat

    const all = await person.get('/api/1/handoffs');
    expect(all.status).toBe(200);
    const byId = (rows: Row[]) => Object.fromEntries(rows.map((r) => [r.id, r]));
    const mine = byId(all.body);
    expect(Object.keys(mine).sort()).toEqual([received1.record.id, received2.record.id, sent.record.id].sort());
    expect(mine[received1.record.id]).toMatchObject({
      direction: 'received',
      a_name: accountNameA,
      ld_first_name: 'Anna',
      ev_title: 'Harbour Expo 2026',
      ho_status: 'accepted',
      sender_first_name: 'Olga',
    });
    expect(mine[received2.record.id]).toMatchObject({
      direction: 'received',
      a_name: accountNameB,
      ld_last_name: 'Bakker',
      ev_title: 'Dune Fair',
      ho_status: 'pending',
      ho_accountid: b,
    });
    expect(mine[sent.record.id]).toMatchObject({ direction: 'sent', a_name: accountNameB, to_first_name: 'Rob', ho_message: 'to Rob' });
    for (const r of all.body) expect(r).not.toHaveProperty('ho_token_hash');

    const page = await person.get(`/api/1/handoffs?${qs({ sort: ['ho_created_at', 'ASC'], range: [0, 1] })}`);
    expect(page.headers['content-range']).toBe('handoffs 0-1/3');
    expect(page.body.map((r: Row) => r.id)).toEqual([received1.record.id, received2.record.id]);
    const searched = await person.get(`/api/1/handoffs?${qs({ filter: { q: 'bak' } })}`);
    expect(searched.body.map((r: Row) => r.id)).toEqual([received2.record.id]);
    const sentOnly = await person.get(`/api/1/handoffs?${qs({ filter: { direction: 'sent' } })}`);
    expect(sentOnly.body.map((r: Row) => r.id)).toEqual([sent.record.id]);
    const inAccountB = await person.get(`/api/1/handoffs?${qs({ filter: { ho_accountid: b, ho_status: 'pending' } })}`);
    expect(inAccountB.body.map((r: Row) => r.id).sort()).toEqual([received2.record.id, sent.record.id].sort());
    expect((await person.get(`/api/1/handoffs?${qs({ filter: { ho_token_hash: 'x' } })}`)).status).toBe(400);
    expect((await person.get(`/api/1/handoffs?${qs({ sort: ['ho_token_hash', 'ASC'] })}`)).status).toBe(400);

    // Rob sees what he received in A and what Pat sent him in B, nothing of Pat's own.
    const robs = byId((await rob.get('/api/1/handoffs')).body);
    expect(robs[sent.record.id]).toMatchObject({ direction: 'received' });
    expect(robs[received1.record.id]).toBeUndefined();

    // Pat leaves account B: its handoffs leave the list.
    await t.db('account_users').where({ au_accountid: b, au_userid: person.userId }).del();
    expect((await person.get('/api/1/handoffs')).body.map((r: Row) => r.id)).toEqual([received1.record.id]);

    expect((await t.client().get('/api/1/handoffs')).status).toBe(401);
    await withGrant(t, 'member', 'entry_handoffs', 0, async () => {
      expect((await person.get('/api/1/handoffs')).status).toBe(403);
    });
  });
});
