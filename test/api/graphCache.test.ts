import request from 'supertest';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createKnex } from '../../api/db/knex.js';
import { describeEachDb } from '../helpers/db.js';
import { secondProcess, queriesOf, type Signed, type TestApp } from '../helpers/app.js';
import { accountPath, startConsoleApp } from '../helpers/console.js';
import { answersFor, made, makeLeadEvent, type LeadEvent } from '../helpers/leads.js';

/**
 * The event graphs a process keeps (api/services/graphCache.ts): a lead create reads none of the graph's tables in its
 * transaction once the graph is kept, and any change of the graph (this process's, another process's, SQL by hand)
 * is in the next answer and the next create's checks.
 */
describeEachDb('kept event graphs', (kind) => {
  let t: TestApp;
  let root: Signed;
  let a: string;
  let fx: LeadEvent;
  const leads = () => accountPath(a, 'leads');
  const graphPath = () => `${accountPath(a, 'events')}/${fx.event.id}/graph`;

  beforeAll(async () => {
    ({ t, root, a } = await startConsoleApp(kind, 'Graphs'));
    fx = await makeLeadEvent(root, a);
  });
  afterAll(() => t?.close());

  // The graph's reads (api/models/graphs.ts eventGraph); not the reference check of the lead's event (`select 1`).
  const GRAPH_READ = /^select "events"\.\*|from "(event_forms|forms|form_elements|list_items)"/i;

  it('a create reads the graph once, then takes the kept one', async () => {
    const create = () => root.post(leads(), { ld_eventid: fx.event.id, ld_answers: answersFor() });
    const first = await queriesOf(t.db, async () => expect((await create()).status).toBe(201));
    expect(first.filter((s) => GRAPH_READ.test(s)).length).toBeGreaterThanOrEqual(4);
    // The kept graph is filled after the first create's answer (in the background): wait for a create that reads none.
    await expect.poll(async () => (await queriesOf(t.db, async () => expect((await create()).status).toBe(201))).filter((s) => GRAPH_READ.test(s))).toEqual([]);
  });

  it('a change of the form is in the next graph and the next create’s checks (this process)', async () => {
    expect((await root.get(graphPath())).status).toBe(200);
    await made(root, a, 'form-elements', { fe_formid: fx.form.id, fe_name: 'job', fe_title: 'Job title', fe_type: 'text', fe_is_required: true });
    const graph = await root.get(graphPath());
    expect(graph.body.forms[0].elements.map((e: { fe_name: string }) => e.fe_name)).toContain('job');
    const refused = await root.post(leads(), { ld_eventid: fx.event.id, ld_answers: answersFor() });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('lead_incomplete');
    expect((await root.post(leads(), { ld_eventid: fx.event.id, ld_answers: answersFor({ job: 'Buyer' }) })).status).toBe(201);
    // A change straight in the database (ops, this process's handle) too.
    await t
      .db('form_elements')
      .where({ fe_formid: String(fx.form.id), fe_name: 'job' })
      .update({ fe_is_required: false });
    expect((await root.post(leads(), { ld_eventid: fx.event.id, ld_answers: answersFor() })).status).toBe(201);
    // The event in the trash: no graph, no lead.
    expect((await root.delete(`${accountPath(a, 'events')}/${fx.event.id}`)).status).toBe(200);
    expect((await root.get(graphPath())).status).toBe(404);
    expect((await root.post(leads(), { ld_eventid: fx.event.id, ld_answers: answersFor() })).status).toBe(400);
    expect((await root.post(`${accountPath(a, 'events')}/${fx.event.id}/restore`)).status).toBe(200);
    expect((await root.get(graphPath())).status).toBe(200);
  });

  // Two processes on one database: PostgreSQL only (PGlite serves one process).
  if (kind === 'postgres')
    it('a change made through another process, or by SQL on another connection, reaches this one within a second', async () => {
      const { server: server2, db: db2, close } = await secondProcess(t);
      try {
        const as2 = (method: 'get' | 'post', url: string, body?: unknown) => {
          let req = request(server2)[method](url).set('Cookie', root.cookieHeader());
          if (method === 'post') req = req.set('X-CSRF-Token', root.csrf ?? '').send(body as object);
          return req;
        };
        const names = async () => ((await as2('get', graphPath())).body.forms[0].elements as { fe_name: string }[]).map((e) => e.fe_name);
        // The second process keeps the graph once its listener is up (a create there reads none of it).
        await expect.poll(async () => (await queriesOf(db2, async () => expect((await as2('get', graphPath())).status).toBe(200))).filter((s) => GRAPH_READ.test(s))).toEqual([]);
        // A required element added through the first process ...
        await made(root, a, 'form-elements', { fe_formid: fx.form.id, fe_name: 'phone', fe_title: 'Phone', fe_type: 'text', fe_is_required: true });
        // ... is in the second's graph and its checks within a second.
        await expect.poll(names, { timeout: 1000, interval: 20 }).toContain('phone');
        const refused = await as2('post', leads(), { ld_eventid: fx.event.id, ld_answers: answersFor() });
        expect(refused.status).toBe(400);
        // A change by SQL on another connection (ops) too.
        const ops = createKnex({ databaseUrl: t.url!, log: () => undefined });
        try {
          await ops('form_elements')
            .where({ fe_formid: String(fx.form.id), fe_name: 'phone' })
            .del();
        } finally {
          await ops.destroy();
        }
        await expect.poll(names, { timeout: 1000, interval: 20 }).not.toContain('phone');
        expect((await as2('post', leads(), { ld_eventid: fx.event.id, ld_answers: answersFor() })).status).toBe(201);
      } finally {
        await close();
      }
    });
});
