import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { MISSING, qs, startApp, uid, type Signed, type TestApp } from '../helpers/app.js';
import { deliveredMailsTo, linkIn } from '../helpers/mail.js';
import { insertEvent, insertLead } from '../helpers/leadRows.js';
import { tsxArgs } from '../helpers/tsxProcess.js';

type Row = Record<string, unknown>;
const ROOT = path.resolve(import.meta.dirname, '../..');

/** An EventSource-like reader of a Server-Sent Events stream: the parsed events as they come. */
async function openStream(url: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { Accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const events: { event: string; id?: string; data: Row }[] = [];
  let raw = '';
  const reading = (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        const text = decoder.decode(chunk, { stream: true });
        raw += text;
        buffer += text;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields: Record<string, string> = {};
          for (const line of block.split('\n')) {
            if (!line || line.startsWith(':')) continue;
            const i = line.indexOf(':');
            fields[line.slice(0, i)] = line.slice(i + 1).replace(/^ /, '');
          }
          if (fields.event && fields.data) events.push({ event: fields.event, id: fields.id, data: JSON.parse(fields.data) });
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    res,
    events,
    raw: () => raw,
    async close() {
      controller.abort();
      await reading;
    },
  };
}

describeEachDb('conversations: threads, messages, the visitor link, mails both ways, unread first, live events', (kind) => {
  let t: TestApp;
  let olga: Signed;
  let mia: Signed;
  let bea: Signed;
  let a: string;
  let b: string;
  let eventA: { ev_id: string };
  const accountName = `Harbour & Co ${uid()}`;

  beforeAll(async () => {
    t = await startApp(kind);
    a = (await t.account(accountName)).a_id;
    b = (await t.account(`Dune ${uid()}`)).a_id;
    olga = await t.signedIn('member');
    await t.db('users').where('u_id', olga.userId).update({ u_first_name: 'Olga', u_last_name: 'Owner' });
    await t.member(a, olga.userId, 'superadmin');
    mia = await t.signedIn('member');
    await t.db('users').where('u_id', mia.userId).update({ u_first_name: 'Mia', u_last_name: 'Member' });
    await t.member(a, mia.userId, 'member');
    bea = await t.signedIn('member');
    await t.member(b, bea.userId, 'superadmin');
    eventA = await insertEvent(t.db, a, { ev_title: 'Harbour Expo' });
  });
  afterAll(() => t?.close());

  const path_ = (account = a) => `/api/1/accounts/${account}/conversations`;
  const leadIn = (values: Row = {}) => insertLead(t.db, a, eventA.ev_id, { ld_ownerid: olga.userId, ...values });
  const tokenOf = (link: string) => decodeURIComponent(new URL(link).pathname.split('/').pop()!);
  const emailOf = async (c: Signed) => (await t.db('users').where('u_id', c.userId).first('u_email')).u_email as string;
  const start = async (leadId: string, subject = 'Your visit to our stand') => {
    const res = await olga.post(path_(), { cv_leadid: leadId, cv_subject: subject });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Row & { id: string };
  };
  /** Olga writes; answers the token of the link mailed to the lead. */
  const write = async (conversationId: string, leadEmail: string, body = 'Thanks for visiting!') => {
    const before = (await deliveredMailsTo(t, leadEmail)).length;
    const res = await olga.post(`${path_()}/${conversationId}/messages`, { cm_body: body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const mails = await deliveredMailsTo(t, leadEmail);
    expect(mails.length).toBe(before + 1);
    return { message: res.body as Row, mail: mails[mails.length - 1], token: tokenOf(linkIn(mails[mails.length - 1], '/conversations/')) };
  };

  it('CRUD through the declaration: create with the lead and a subject, get, update the status, list, delete; no token hash answered', async () => {
    const lead = await leadIn({ ld_first_name: 'Sanne' });
    const created = await start(lead.ld_id);
    expect(created).toMatchObject({
      cv_leadid: lead.ld_id,
      cv_subject: 'Your visit to our stand',
      cv_status: 'open',
      cv_last_message_at: null,
      cv_unread: 0,
      ld_first_name: 'Sanne',
    });
    expect(created).not.toHaveProperty('cv_token_hash');
    const got = await mia.get(`${path_()}/${created.id}`);
    expect(got.status).toBe(200);
    expect(got.body.cv_subject).toBe('Your visit to our stand');
    const closed = await mia.put(`${path_()}/${created.id}`, { cv_status: 'closed' });
    expect(closed.status).toBe(200);
    expect(closed.body.cv_status).toBe('closed');
    expect((await mia.put(`${path_()}/${created.id}`, { cv_status: 'archived' })).status).toBe(400);
    const list = await mia.get(`${path_()}?${qs({ filter: { cv_leadid: lead.ld_id } })}`);
    expect(list.body.map((r: Row) => r.id)).toEqual([created.id]);
    expect((await mia.delete(`${path_()}/${created.id}`)).status).toBe(200);
    expect((await mia.get(`${path_()}/${created.id}`)).status).toBe(404);
  });

  it('create: the lead is required; a lead of another account or unknown → 404; another account cannot see the thread (404)', async () => {
    expect((await olga.post(path_(), { cv_subject: 'x' })).status).toBe(400);
    const otherLead = await insertLead(t.db, b, (await insertEvent(t.db, b)).ev_id);
    expect((await olga.post(path_(), { cv_leadid: otherLead.ld_id, cv_subject: 'x' })).status).toBe(404);
    expect((await olga.post(path_(), { cv_leadid: MISSING, cv_subject: 'x' })).status).toBe(404);
    const mine = await start((await leadIn()).ld_id);
    expect((await bea.get(`${path_(b)}/${mine.id}`)).status).toBe(404);
    expect((await bea.get(`${path_(b)}/${mine.id}/messages`)).status).toBe(404);
    expect((await bea.post(`${path_(b)}/${mine.id}/messages`, { cm_body: 'hi' })).status).toBe(404);
    expect((await bea.get(`${path_(a)}/${mine.id}/messages`)).status).toBe(404); // not a member of account A
  });

  it("a member's message: author = caller, mails the lead a link /conversations/{token} (≥ 128 bits, stored hashed); the visitor reads and replies; the owner is mailed", async () => {
    const lead = await leadIn({ ld_first_name: 'Pim', ld_last_name: 'de Vries', ld_email: `pim-${uid()}@example.com` });
    const conversation = await start(lead.ld_id, 'About the demo');
    const { message, mail, token } = await write(conversation.id, lead.ld_email as string, 'Shall we plan a demo?');
    expect(message).toMatchObject({ cm_conversationid: conversation.id, cm_author: olga.userId, cm_body: 'Shall we plan a demo?', from: 'Olga' });
    expect(mail.subject).toBe(`Olga Owner of ${accountName} wrote to you: About the demo`);
    expect(mail.text).toContain('Shall we plan a demo?');
    expect(linkIn(mail, '/conversations/').startsWith(`${t.config.publicUrl}/conversations/`)).toBe(true);
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    const row = await t.db('conversations').where('cv_id', conversation.id).first();
    expect(row.cv_token_hash).toBe(crypto.createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token);

    const visitor = t.client();
    const page = await visitor.get(`/api/1/conversation/${token}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ subject: 'About the demo', account: { a_id: a, a_name: accountName } });
    expect(page.body.messages).toEqual([{ cm_id: message.cm_id, cm_body: 'Shall we plan a demo?', cm_created_at: message.cm_created_at, from: 'Olga' }]);

    const ownerMail = await emailOf(olga);
    const before = (await deliveredMailsTo(t, ownerMail)).length;
    const reply = await visitor.post(`/api/1/conversation/${token}/messages`, { cm_body: 'Yes, Tuesday works for me.' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body).toMatchObject({ cm_body: 'Yes, Tuesday works for me.', from: 'visitor' });
    const owner = await deliveredMailsTo(t, ownerMail);
    expect(owner.length).toBe(before + 1);
    expect(owner[owner.length - 1].subject).toBe('Pim de Vries replied: About the demo');
    expect(owner[owner.length - 1].text).toContain(`/console/${a}/leads/${lead.ld_id}`);

    const thread = await mia.get(`${path_()}/${conversation.id}/messages`);
    expect(thread.body.map((m: Row) => [m.from, m.cm_author, m.cm_body])).toEqual([
      ['Olga', olga.userId, 'Shall we plan a demo?'],
      ['visitor', null, 'Yes, Tuesday works for me.'],
    ]);
    expect((await visitor.get(`/api/1/conversation/${token}`)).body.messages.map((m: Row) => m.from)).toEqual(['Olga', 'visitor']);
  });

  it('an unknown token → 404; the visitor reply needs the CSRF token; a body over 10,000 characters or empty → 400 and nothing stored', async () => {
    const visitor = t.client();
    expect((await visitor.get(`/api/1/conversation/${crypto.randomBytes(32).toString('base64url')}`)).status).toBe(404);
    expect((await visitor.get('/api/1/conversation/short')).status).toBe(404);
    expect((await visitor.post(`/api/1/conversation/${crypto.randomBytes(32).toString('base64url')}/messages`, { cm_body: 'hi' })).status).toBe(404);
    const lead = await leadIn({ ld_email: `csrf-${uid()}@example.com` });
    const conversation = await start(lead.ld_id);
    const { token } = await write(conversation.id, lead.ld_email as string);
    const count = async () => Number((await t.db('conversation_messages').where('cm_conversationid', conversation.id).count({ n: '*' }).first())!.n);
    const n = await count();
    const noCsrf = await visitor.post(`/api/1/conversation/${token}/messages`, { cm_body: 'hi' }, { csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.code).toBe('csrf_invalid');
    const long = await visitor.post(`/api/1/conversation/${token}/messages`, { cm_body: 'x'.repeat(10_001) });
    expect(long.status).toBe(400);
    expect(long.body.fields).toEqual({ cm_body: 'error_too_long' });
    expect((await visitor.post(`/api/1/conversation/${token}/messages`, { cm_body: '   ' })).status).toBe(400);
    expect((await olga.post(`${path_()}/${conversation.id}/messages`, { cm_body: 'y'.repeat(10_001) })).status).toBe(400);
    expect((await olga.post(`${path_()}/${conversation.id}/messages`, { cm_body: 42 })).status).toBe(400);
    expect(await count()).toBe(n);
    expect((await visitor.post(`/api/1/conversation/${token}/messages`, { cm_body: 'z'.repeat(10_000) })).status).toBe(201);
    // A closed conversation takes no visitor reply.
    await olga.put(`${path_()}/${conversation.id}`, { cv_status: 'closed' });
    const closed = await visitor.post(`/api/1/conversation/${token}/messages`, { cm_body: 'hello?' });
    expect(closed.status).toBe(409);
    expect(closed.body.code).toBe('conversation_closed');
  });

  it('a lead in the trash hides its conversations from the list, the get, the messages and the visitor; restoring brings them back', async () => {
    const lead = await leadIn({ ld_email: `trash-${uid()}@example.com` });
    const conversation = await start(lead.ld_id);
    const { token } = await write(conversation.id, lead.ld_email as string);
    expect((await olga.delete(`/api/1/accounts/${a}/leads/${lead.ld_id}`)).status).toBe(200);
    expect((await olga.get(`${path_()}/${conversation.id}`)).status).toBe(404);
    expect((await olga.get(`${path_()}/${conversation.id}/messages`)).status).toBe(404);
    expect((await olga.get(`${path_()}?${qs({ filter: { cv_leadid: lead.ld_id } })}`)).body).toEqual([]);
    expect((await t.client().get(`/api/1/conversation/${token}`)).status).toBe(404);
    expect((await olga.post(`/api/1/accounts/${a}/leads/${lead.ld_id}/restore`)).status).toBe(200);
    expect((await olga.get(`${path_()}/${conversation.id}`)).status).toBe(200);
    expect((await t.client().get(`/api/1/conversation/${token}`)).status).toBe(200);
  });

  it('unread: per member; the list counts them and puts unread threads first; reading the messages marks read', async () => {
    const read = await start((await leadIn()).ld_id, `read ${uid()}`);
    const unreadLead = await leadIn({ ld_email: `unread-${uid()}@example.com` });
    const unread = await start(unreadLead.ld_id, `unread ${uid()}`);
    const { token } = await write(unread.id, unreadLead.ld_email as string);
    const visitor = t.client();
    await visitor.post(`/api/1/conversation/${token}/messages`, { cm_body: 'one' });
    await visitor.post(`/api/1/conversation/${token}/messages`, { cm_body: 'two' });
    // The newest message is in the read thread, so by time alone it would come first.
    await olga.post(`${path_()}/${read.id}/messages`, { cm_body: 'note to self' });
    const list = async (who: Signed) => (await who.get(`${path_()}?${qs({ sort: ['cv_last_message_at', 'DESC'], range: [0, 99] })}`)).body as Row[];
    const olgas = await list(olga);
    expect(olgas[0]).toMatchObject({ id: unread.id, cv_unread: 2 });
    expect(olgas.find((r) => r.id === read.id)).toMatchObject({ cv_unread: 0 });
    // Mia has read nothing: Olga's messages and the visitor's count for her.
    const mias = await list(mia);
    expect(mias.find((r) => r.id === unread.id)).toMatchObject({ cv_unread: 3 });
    expect(mias.find((r) => r.id === read.id)).toMatchObject({ cv_unread: 1 });
    // Reading marks read.
    expect((await olga.get(`${path_()}/${unread.id}/messages`)).status).toBe(200);
    expect((await list(olga)).find((r) => r.id === unread.id)).toMatchObject({ cv_unread: 0 });
    expect((await list(mia)).find((r) => r.id === unread.id)).toMatchObject({ cv_unread: 3 });
  });

  it('Server-Sent Events: the console and the visitor streams each get `event: message` with the message JSON per new message, uncompressed', async () => {
    const lead = await leadIn({ ld_email: `sse-${uid()}@example.com` });
    const conversation = await start(lead.ld_id);
    const { token } = await write(conversation.id, lead.ld_email as string);
    const consoleStream = await openStream(`${t.baseUrl}${path_()}/${conversation.id}/events`, { Cookie: olga.cookieHeader(), 'Accept-Encoding': 'gzip, br' });
    const visitorStream = await openStream(`${t.baseUrl}/api/1/conversation/${token}/events`, { 'Accept-Encoding': 'gzip' });
    expect(consoleStream.res.status).toBe(200);
    expect(consoleStream.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(consoleStream.res.headers.get('content-encoding')).toBeNull();
    expect(visitorStream.res.status).toBe(200);
    try {
      const visitor = t.client();
      await visitor.get(`/api/1/conversation/${token}`);
      const reply = await visitor.post(`/api/1/conversation/${token}/messages`, { cm_body: 'Live from the visitor' });
      await expect.poll(() => consoleStream.events.length, { timeout: 5000 }).toBe(1);
      expect(consoleStream.events[0]).toMatchObject({
        event: 'message',
        id: reply.body.cm_id,
        data: { cm_id: reply.body.cm_id, cm_body: 'Live from the visitor', from: 'visitor', cm_author: null },
      });
      const mine = await olga.post(`${path_()}/${conversation.id}/messages`, { cm_body: 'Live from Olga' });
      await expect.poll(() => visitorStream.events.length, { timeout: 5000 }).toBe(2);
      expect(visitorStream.events[1].data).toEqual({ cm_id: mine.body.cm_id, cm_body: 'Live from Olga', cm_created_at: mine.body.cm_created_at, from: 'Olga' });
      await expect.poll(() => consoleStream.events.length, { timeout: 5000 }).toBe(2);
    } finally {
      await consoleStream.close();
      await visitorStream.close();
    }
    // Another account's member, an unknown token: 404, no stream.
    expect((await bea.get(`${path_(b)}/${conversation.id}/events`)).status).toBe(404);
    expect((await t.client().get(`/api/1/conversation/${crypto.randomBytes(32).toString('base64url')}/events`)).status).toBe(404);
    // A reconnect with Last-Event-ID gets what it missed first.
    const first = (await olga.get(`${path_()}/${conversation.id}/messages`)).body[0] as Row;
    const again = await openStream(`${t.baseUrl}/api/1/conversation/${token}/events`, { 'Last-Event-ID': String(first.cm_id) });
    try {
      await expect.poll(() => again.events.length, { timeout: 5000 }).toBe(2);
      expect(again.events.map((e) => e.data.cm_body)).toEqual(['Live from the visitor', 'Live from Olga']);
    } finally {
      await again.close();
    }
  });

  it('the stream sends heartbeat comments and lets go of its subscription when the client leaves', async () => {
    const { conversationEventsFor } = await import('../../api/services/conversationEvents.js');
    const hub = conversationEventsFor(t.context.db);
    const conversation = await start((await leadIn()).ld_id);
    hub.heartbeatMs = 50;
    const stream = await openStream(`${t.baseUrl}${path_()}/${conversation.id}/events`, { Cookie: olga.cookieHeader() });
    try {
      await expect.poll(() => (stream.raw().match(/: ping/g) ?? []).length, { timeout: 3000 }).toBeGreaterThanOrEqual(2);
      expect(hub.openStreams).toBeGreaterThanOrEqual(1);
    } finally {
      hub.heartbeatMs = 20_000;
      await stream.close();
    }
    await expect.poll(() => hub.openStreams, { timeout: 3000 }).toBe(0);
  });

  // Two processes on one database: PostgreSQL only (PGlite serves one process), so the case exists only there.
  if (kind === 'postgres')
    it("a reply written through ANOTHER server process on the same database arrives on this process's stream (LISTEN/NOTIFY)", async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-conv-'));
      const port = 3400 + Math.floor(Math.random() * 40);
      let child: ChildProcess | undefined;
      let output = '';
      try {
        child = spawn(process.execPath, tsxArgs('api/server.ts'), {
          cwd: ROOT,
          env: {
            ...process.env,
            PORT: String(port),
            PUBLIC_URL: t.config.publicUrl,
            DATA_DIR: dataDir,
            DATABASE_URL: t.url!,
            SESSION_SECRET: t.config.sessionSecret,
            SMTP_URL: '',
            LOG_LEVEL: 'info',
            METRICS_TOKEN: '',
            METRICS_PORT: '',
            LOGIN_LIMIT_PER_IP: '100000',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        child.stdout!.on('data', (d) => (output += d));
        child.stderr!.on('data', (d) => (output += d));
        const other = `http://127.0.0.1:${port}`;
        await expect.poll(() => output.includes('"port":'), { timeout: 90_000, interval: 100 }).toBe(true);

        const lead = await leadIn({ ld_email: `two-${uid()}@example.com` });
        const conversation = await start(lead.ld_id);
        const { token } = await write(conversation.id, lead.ld_email as string);
        const stream = await openStream(`${t.baseUrl}${path_()}/${conversation.id}/events`, { Cookie: olga.cookieHeader() });
        try {
          // The visitor on the other process: its page load hands out the CSRF cookie, then the reply.
          const page = await fetch(`${other}/api/1/conversation/${token}`);
          expect(page.status).toBe(200);
          const csrf = /ls\.csrf-token=([^;]+)/.exec(page.headers.get('set-cookie') ?? '')![1];
          const reply = await fetch(`${other}/api/1/conversation/${token}/messages`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Cookie: `ls.csrf-token=${csrf}`, 'X-CSRF-Token': decodeURIComponent(csrf) },
            body: JSON.stringify({ cm_body: 'Written through the other process' }),
          });
          expect(reply.status, await reply.clone().text()).toBe(201);
          const written = (await reply.json()) as Row;
          await expect.poll(() => stream.events.length, { timeout: 5000 }).toBe(1);
          expect(stream.events[0].data).toMatchObject({ cm_id: written.cm_id, cm_body: 'Written through the other process', from: 'visitor' });
        } finally {
          await stream.close();
        }
        // And the other way: the other process' visitor stream hears a member's message written here.
        const visitorStream = await openStream(`${other}/api/1/conversation/${token}/events`);
        try {
          const mine = await olga.post(`${path_()}/${conversation.id}/messages`, { cm_body: 'Written here' });
          await expect.poll(() => visitorStream.events.length, { timeout: 5000 }).toBe(1);
          expect(visitorStream.events[0].data).toMatchObject({ cm_id: mine.body.cm_id, from: 'Olga' });
        } finally {
          await visitorStream.close();
        }
      } finally {
        if (child && child.exitCode === null) {
          const exited = new Promise((r) => child!.once('exit', r));
          child.kill('SIGTERM');
          await exited;
        }
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }, 120_000);
});
