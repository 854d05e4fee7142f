import request from 'supertest';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { createKnex } from '../../api/db/knex.js';
import { knownTrashed, MAX_TRASHED_IDS, trashParentsOf, deletedAtOf } from '../../api/models/scope.js';
import { RESOURCES } from '../../resources/registry.js';
import { events } from '../../resources/events.js';
import { leads as leadsDecl } from '../../resources/leads.js';
import { describeEachDb } from '../helpers/db.js';
import { secondProcess, queriesOf, uid, type Signed, type TestApp } from '../helpers/app.js';
import { accountPath, startConsoleApp } from '../helpers/console.js';
import { made } from '../helpers/leads.js';

/**
 * The parents in the trash a process keeps per account (api/models/scope.ts knownTrashed): a list of children leaves
 * them out by their ids (or not at all when the account has none) instead of looking every row's parent up, and
 * whatever puts a parent in the trash or takes it out (the API, SQL by hand, another process, a registration bringing
 * a lead back) is in the next answer.
 */
describeEachDb('kept trashed parents', (kind) => {
  let t: TestApp;
  let root: Signed;
  let a: string;
  const ev: string[] = [];
  const byEvent = new Map<string, string[]>();
  const leadsPath = () => `${accountPath(a, 'leads')}?range=${encodeURIComponent('[0,99]')}`;

  beforeAll(async () => {
    ({ t, root, a } = await startConsoleApp(kind, 'Trashed parents'));
    for (let i = 0; i < 2; i++) {
      const e = await made(root, a, 'events', { ev_title: `Expo ${i}`, ev_name: uid(), ev_access_type: 'open' });
      ev.push(String(e.id));
      const ids = (await t
        .db('leads')
        .insert([1, 2, 3].map((k) => ({ ld_accountid: a, ld_eventid: e.id, ld_email: `l${i}-${k}@example.com`, ld_source: 'manual' })))
        .returning('ld_id')) as { ld_id: string }[];
      byEvent.set(String(e.id), ids.map((r) => r.ld_id).sort());
    }
  });
  afterAll(() => t?.close());

  const listed = async (client = root) => ((await client.get(leadsPath())).body as { id: string }[]).map((r) => r.id).sort();
  const leadsOf = (...events: string[]) => events.flatMap((e) => byEvent.get(e)!).sort();
  /** The SQL of one list page's rows (not its count). */
  const pageSql = async (db: Knex, get: () => Promise<unknown>) => (await queriesOf(db, get)).filter((s) => /from "leads"/.test(s) && /limit/i.test(s) && !/count\(/i.test(s));
  const trash = (id: string) => root.delete(`${accountPath(a, 'events')}/${id}`);
  const restore = (id: string) => root.post(`${accountPath(a, 'events')}/${id}/restore`);

  it('once known, a list with none of the account’s events in the trash does not look events up', async () => {
    await expect.poll(async () => (await pageSql(t.db, () => listed())).join('\n')).not.toMatch(/"events"/);
    expect(knownTrashed(t.db, events, a)).toEqual([]);
    expect(await listed()).toEqual(leadsOf(...ev));
  });

  it('an event put in the trash through the API is left out of the next page, then by its id', async () => {
    expect((await trash(ev[0])).status).toBe(200);
    expect(await listed()).toEqual(leadsOf(ev[1]));
    await expect.poll(async () => (await pageSql(t.db, () => listed())).join('\n')).toMatch(/"leads"\."ld_eventid" not in \(\$\d+\)/);
    expect((await pageSql(t.db, () => listed())).join('\n')).not.toMatch(/"events"/);
    expect(knownTrashed(t.db, events, a)).toEqual([ev[0]]);
    expect(await listed()).toEqual(leadsOf(ev[1]));
    // Restored: in the next page again.
    expect((await restore(ev[0])).status).toBe(200);
    expect(await listed()).toEqual(leadsOf(...ev));
  });

  it('SQL by hand on this process’s handle (ops) counts at the next page', async () => {
    await expect.poll(() => knownTrashed(t.db, events, a)).toEqual([]);
    await t.db('events').where('ev_id', ev[1]).update({ ev_deleted_at: t.db.fn.now() });
    expect(await listed()).toEqual(leadsOf(ev[0]));
    await expect.poll(() => knownTrashed(t.db, events, a)).toEqual([ev[1]]);
    await t.db.raw('update events set ev_deleted_at = null where ev_id = ?', [ev[1]]);
    expect(await listed()).toEqual(leadsOf(...ev));
    await expect.poll(() => knownTrashed(t.db, events, a)).toEqual([]);
    // A write to events or leads that sets no trash column keeps what is known (a lead's change is no event's delete).
    await t.db('events').where('ev_id', ev[1]).update({ ev_title: 'Renamed' });
    await t.db('leads').where('ld_eventid', ev[1]).whereNull('ld_deleted_at').update({ ld_is_valid: false });
    expect(knownTrashed(t.db, events, a)).toEqual([]);
  });

  it('a lead brought back by an upsert (a registration’s) is known at once', async () => {
    const [lead] = (await t
      .db('leads')
      .insert({ ld_accountid: a, ld_eventid: ev[0], ld_email: 'back@example.com', ld_source: 'registration', ld_deleted_at: t.db.fn.now() })
      .returning('ld_id')) as { ld_id: string }[];
    knownTrashed(t.db, leadsDecl, a);
    await expect.poll(() => knownTrashed(t.db, leadsDecl, a)).toEqual([lead.ld_id]);
    await t.db.raw(
      `insert into leads (ld_accountid, ld_eventid, ld_email, ld_source) values (?, ?, 'back@example.com', 'registration')
       on conflict (ld_eventid, lower(ld_email)) where ld_source = 'registration' and ld_email is not null do update set ld_deleted_at = null`,
      [a, ev[0]],
    );
    expect(knownTrashed(t.db, leadsDecl, a)).toBeUndefined();
    await expect.poll(() => knownTrashed(t.db, leadsDecl, a)).toEqual([]);
    await t.db('leads').where('ld_id', lead.ld_id).del();
  });

  it(`with more than ${MAX_TRASHED_IDS} in the trash, a list looks the parents up`, async () => {
    const many = (await t
      .db('events')
      .insert(Array.from({ length: MAX_TRASHED_IDS }, (_, i) => ({ ev_accountid: a, ev_title: `Old ${i}`, ev_name: uid(), ev_access_type: 'open' })))
      .returning('ev_id')) as { ev_id: string }[];
    await t
      .db('events')
      .whereIn('ev_id', [...many.map((r) => r.ev_id), ev[0]])
      .update({ ev_deleted_at: t.db.fn.now() });
    await expect.poll(() => knownTrashed(t.db, events, a)).toBeNull();
    const sql = (await pageSql(t.db, () => listed())).join('\n');
    expect(sql).toMatch(/not exists \(select 1 from "events"/);
    expect(await listed()).toEqual(leadsOf(ev[1]));
    await t
      .db('events')
      .whereIn(
        'ev_id',
        many.map((r) => r.ev_id),
      )
      .del();
    await t.db('events').where('ev_id', ev[0]).update({ ev_deleted_at: null });
    expect(await listed()).toEqual(leadsOf(...ev));
  });

  if (kind === 'postgres') {
    it('every parent in the registry whose trash hides others has its trigger (any process hears a delete or restore)', async () => {
      const parents = new Map(RESOURCES.flatMap((d) => trashParentsOf(d).map(({ parent }) => [parent.table, deletedAtOf(parent)] as const)));
      expect(parents.size).toBeGreaterThan(0);
      for (const [table, column] of parents) {
        const { rows } = await t.db.raw(`select pg_get_triggerdef(oid) as def from pg_trigger where tgrelid = ?::regclass and tgname = ?`, [table, `${table}_trash_changed`]);
        expect(
          rows.map((r: { def: string }) => r.def),
          table,
        ).toEqual([expect.stringContaining(`AFTER UPDATE OF ${column} ON public.${table} FOR EACH STATEMENT`)]);
      }
    });

    it('a delete, a restore and SQL by hand made elsewhere reach a second process within a second', async () => {
      const { server: server2, db: db2, close } = await secondProcess(t);
      const ops = createKnex({ databaseUrl: t.url!, log: () => undefined });
      try {
        const listed2 = async () => ((await request(server2).get(leadsPath()).set('Cookie', root.cookieHeader())).body as { id: string }[]).map((r) => r.id).sort();
        // The second process knows the account has no event in the trash.
        await expect.poll(async () => (await pageSql(db2, listed2)).join('\n')).not.toMatch(/"events"/);
        expect((await trash(ev[1])).status).toBe(200);
        await expect.poll(listed2, { timeout: 1000, interval: 20 }).toEqual(leadsOf(ev[0]));
        expect((await restore(ev[1])).status).toBe(200);
        await expect.poll(listed2, { timeout: 1000, interval: 20 }).toEqual(leadsOf(...ev));
        await expect.poll(() => knownTrashed(db2, events, a)).toEqual([]);
        await ops('events').where('ev_id', ev[0]).update({ ev_deleted_at: ops.fn.now() });
        await expect.poll(listed2, { timeout: 1000, interval: 20 }).toEqual(leadsOf(ev[1]));
        await ops('events').where('ev_id', ev[0]).update({ ev_deleted_at: null });
        await expect.poll(listed2, { timeout: 1000, interval: 20 }).toEqual(leadsOf(...ev));
        // An upsert that brings a lead back (ON CONFLICT DO UPDATE SET ld_deleted_at) fires the trigger too.
        const [lead] = (await ops('leads')
          .insert({ ld_accountid: a, ld_eventid: ev[0], ld_email: 'again@example.com', ld_source: 'registration', ld_deleted_at: ops.fn.now() })
          .returning('ld_id')) as { ld_id: string }[];
        knownTrashed(db2, leadsDecl, a);
        await expect.poll(() => knownTrashed(db2, leadsDecl, a)).toEqual([lead.ld_id]);
        await ops.raw(
          `insert into leads (ld_accountid, ld_eventid, ld_email, ld_source) values (?, ?, 'again@example.com', 'registration')
           on conflict (ld_eventid, lower(ld_email)) where ld_source = 'registration' and ld_email is not null do update set ld_deleted_at = null`,
          [a, ev[0]],
        );
        await expect.poll(() => knownTrashed(db2, leadsDecl, a) ?? 'unknown', { timeout: 1000, interval: 20 }).toEqual([]);
      } finally {
        await ops.destroy();
        await close();
      }
    });
  }
});
