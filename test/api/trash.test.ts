import { afterAll, beforeAll, expect, it } from 'vitest';
import { qs, startApp, type Signed, type TestApp } from '../helpers/app.js';
import { describeEachDb } from '../helpers/db.js';
import { purgeExpiredTrash } from '../../api/crud/trash.js';
import { hooksOf } from '../../api/resources.js';
import { RESOURCES, resourceNamed } from '../../resources/index.js';

/** platform-and-flows.md section 1, trash: a delete moves the record to the trash; restore, purge, and the purge after TRASH_DAYS. */
describeEachDb('trash', (kind) => {
  let t: TestApp;
  let accountId: string;
  let otherId: string;
  const as: Record<'superadmin' | 'member', Signed> = {} as never;
  const path = (rest: string) => `/api/1/accounts/${accountId}/${rest}`;
  let n = 0;
  const newEvent = async (name = `ev${++n}`) => {
    const res = await as.superadmin.post(path('events'), { ev_title: `Event ${name}`, ev_name: name, ev_access_type: 'open' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { ev_id: string; ev_name: string };
  };

  beforeAll(async () => {
    t = await startApp(kind);
    ({ a_id: accountId } = await t.account('Binned'));
    ({ a_id: otherId } = await t.account('Elsewhere'));
    for (const role of ['superadmin', 'member'] as const) {
      as[role] = await t.signedIn('member', `${role}@trash.example.com`);
      await t.member(accountId, as[role].userId, role);
    }
  });
  afterAll(() => t?.close());

  it('every resource the contract names has a trash', () => {
    expect(
      RESOURCES.filter((r) => r.trash)
        .map((r) => r.name)
        .sort(),
    ).toEqual(['assets', 'carousels', 'events', 'forms', 'leads', 'lists', 'mail-templates']);
  });

  it('a delete moves the record to the trash: 404 on get, gone from the list, listed by …/trash; the row is kept', async () => {
    const ev = await newEvent();
    const del = await as.superadmin.delete(path(`events/${ev.ev_id}`));
    expect(del.status).toBe(200);
    expect(del.body.ev_id).toBe(ev.ev_id);
    expect((await as.superadmin.get(path(`events/${ev.ev_id}`))).status).toBe(404);
    expect((await as.superadmin.put(path(`events/${ev.ev_id}`), { ev_title: 'Changed' })).status).toBe(404);
    expect((await as.superadmin.delete(path(`events/${ev.ev_id}`))).status).toBe(404);
    const list = await as.superadmin.get(path(`events?${qs({ filter: {}, range: [0, 99] })}`));
    expect(list.status).toBe(200);
    expect(list.body.map((e: { ev_id: string }) => e.ev_id)).not.toContain(ev.ev_id);
    // Not by its id either.
    expect((await as.superadmin.get(path(`events?${qs({ filter: { id: [ev.ev_id] } })}`))).body).toEqual([]);

    const trash = await as.member.get(path(`events/trash?${qs({ range: [0, 24] })}`));
    expect(trash.status).toBe(200);
    expect(trash.headers['content-range']).toMatch(/^events 0-\d+\/\d+$/);
    const listed = trash.body.find((e: { ev_id: string }) => e.ev_id === ev.ev_id);
    expect(listed).toMatchObject({ id: ev.ev_id, ev_name: ev.ev_name });
    expect(Date.parse(listed.ev_deleted_at)).not.toBeNaN();
    // Filters and search work on the trash as on the list.
    expect((await as.member.get(path(`events/trash?${qs({ filter: { q: ev.ev_name } })}`))).body.map((e: { ev_id: string }) => e.ev_id)).toEqual([ev.ev_id]);

    const row = await t.db('events').where('ev_id', ev.ev_id).first();
    expect(row.ev_deleted_at).not.toBeNull();
    const entry = await t.db('history').where({ h_table: 'events', h_recordid: ev.ev_id }).orderBy('h_seq', 'desc').first();
    expect(entry).toMatchObject({ h_action: 'delete', h_userid: as.superadmin.userId });
  });

  it('the trash lists only trashed records, most recently deleted first, and only the account’s', async () => {
    const a = await newEvent();
    const b = await newEvent();
    const live = await newEvent();
    await as.superadmin.delete(path(`events/${a.ev_id}`));
    await as.superadmin.delete(path(`events/${b.ev_id}`));
    const [elsewhere] = await t
      .db('events')
      .insert({ ev_accountid: otherId, ev_title: 'Theirs', ev_name: 'theirs', ev_access_type: 'open', ev_deleted_at: new Date() })
      .returning('ev_id');
    const ids = (await as.superadmin.get(path('events/trash'))).body.map((e: { ev_id: string }) => e.ev_id);
    expect(ids.indexOf(b.ev_id)).toBeLessThan(ids.indexOf(a.ev_id));
    expect(ids).not.toContain(live.ev_id);
    expect(ids).not.toContain(elsewhere.ev_id);
    // Another account's trashed record: 404 for restore and purge alike.
    expect((await as.superadmin.post(path(`events/${elsewhere.ev_id}/restore`))).status).toBe(404);
    expect((await as.superadmin.delete(path(`events/${elsewhere.ev_id}/purge`))).status).toBe(404);
  });

  it('restore brings the record back as it was; only a record in the trash is restored or purged', async () => {
    const ev = await newEvent();
    expect((await as.superadmin.post(path(`events/${ev.ev_id}/restore`))).status).toBe(404);
    expect((await as.superadmin.delete(path(`events/${ev.ev_id}/purge`))).status).toBe(404);
    await as.superadmin.delete(path(`events/${ev.ev_id}`));
    const back = await as.superadmin.post(path(`events/${ev.ev_id}/restore`));
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toMatchObject({ ev_id: ev.ev_id, ev_name: ev.ev_name, ev_deleted_at: null });
    expect((await as.superadmin.get(path(`events/${ev.ev_id}`))).status).toBe(200);
    expect((await as.superadmin.get(path('events/trash'))).body.map((e: { ev_id: string }) => e.ev_id)).not.toContain(ev.ev_id);
    const actions = (await as.superadmin.get(path(`events/${ev.ev_id}/history`))).body.map((e: { h_action: string }) => e.h_action);
    expect(actions).toEqual(['restore', 'delete', 'create']);
  });

  it('a new record may take the name of a trashed one; restoring the old one then answers 409 name_taken', async () => {
    const old = await newEvent('reused');
    await as.superadmin.delete(path(`events/${old.ev_id}`));
    const replacement = await newEvent('reused');
    const res = await as.superadmin.post(path(`events/${old.ev_id}/restore`));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'name_taken', fields: { ev_name: 'error_name_taken' } });
    expect((await as.superadmin.get(path(`events/${old.ev_id}`))).status).toBe(404);
    // Once the name is free again, the restore goes through.
    await as.superadmin.put(path(`events/${replacement.ev_id}`), { ev_name: 'reused-2' });
    expect((await as.superadmin.post(path(`events/${old.ev_id}/restore`))).status).toBe(200);
  });

  it('purge removes the record for good', async () => {
    const ev = await newEvent();
    await as.superadmin.delete(path(`events/${ev.ev_id}`));
    const res = await as.superadmin.delete(path(`events/${ev.ev_id}/purge`));
    expect(res.status).toBe(200);
    expect(res.body.ev_id).toBe(ev.ev_id);
    expect(await t.db('events').where('ev_id', ev.ev_id).first()).toBeUndefined();
    expect((await as.superadmin.post(path(`events/${ev.ev_id}/restore`))).status).toBe(404);
  });

  it('permissions: the trash needs list, restore and purge the delete permission', async () => {
    const ev = await newEvent();
    // A member reads events but may not delete them (staffAndMembers(15, 1)).
    expect((await as.member.delete(path(`events/${ev.ev_id}`))).status).toBe(403);
    await as.superadmin.delete(path(`events/${ev.ev_id}`));
    expect((await as.member.get(path('events/trash'))).status).toBe(200);
    expect((await as.member.post(path(`events/${ev.ev_id}/restore`))).status).toBe(403);
    expect((await as.member.delete(path(`events/${ev.ev_id}/purge`))).status).toBe(403);
    expect((await t.client().get(path('events/trash'))).status).toBe(401);
    const stranger = await t.signedIn('member', 'stranger@trash.example.com');
    expect((await stranger.get(path('events/trash'))).status).toBe(404);
  });

  it('purges what has been in the trash longer than TRASH_DAYS, and nothing else', async () => {
    const recent = await newEvent();
    const old = await newEvent();
    const live = await newEvent();
    await as.superadmin.delete(path(`events/${recent.ev_id}`));
    await as.superadmin.delete(path(`events/${old.ev_id}`));
    const now = new Date();
    await t
      .db('events')
      .where('ev_id', old.ev_id)
      .update({ ev_deleted_at: new Date(now.getTime() - (t.config.trashDays * 86400_000 + 60_000)) });
    await t
      .db('events')
      .where('ev_id', recent.ev_id)
      .update({ ev_deleted_at: new Date(now.getTime() - (t.config.trashDays * 86400_000 - 60_000)) });
    expect(t.config.trashDays).toBe(30);
    const purged = await purgeExpiredTrash(t.context, RESOURCES, hooksOf, resourceNamed, now);
    expect(purged).toBeGreaterThanOrEqual(1);
    expect(await t.db('events').where('ev_id', old.ev_id).first()).toBeUndefined();
    expect(await t.db('events').where('ev_id', recent.ev_id).first()).toBeDefined();
    expect(await t.db('events').where('ev_id', live.ev_id).first()).toBeDefined();
    // Run again (another process, a minute later): nothing more is due.
    expect(await purgeExpiredTrash(t.context, RESOURCES, hooksOf, resourceNamed, now)).toBe(0);
  });
});
