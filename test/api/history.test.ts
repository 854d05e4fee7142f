import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApp, type Signed, type TestApp } from '../helpers/app.js';
import { describeEachDb } from '../helpers/db.js';
import { RESOURCES } from '../../resources/index.js';

/** platform-and-flows.md section 1, history: who changed what and when, per record, with revert; secrets never shown. */
describeEachDb('history of records', (kind) => {
  let t: TestApp;
  let accountId: string;
  const as: Record<'root' | 'superadmin' | 'member', Signed> = {} as never;
  const path = (rest: string) => `/api/1/accounts/${accountId}/${rest}`;
  type Entry = { h_id: string; h_at: string; h_userid: string | null; h_user_label: string; h_action: string; h_changes: Record<string, [unknown, unknown]> };

  beforeAll(async () => {
    t = await startApp(kind);
    ({ a_id: accountId } = await t.account('Historic'));
    as.root = await t.signedIn('root');
    for (const role of ['superadmin', 'member'] as const) {
      as[role] = await t.signedIn('member', `${role}@history.example.com`);
      await t.member(accountId, as[role].userId, role);
    }
    await t.db('users').where('u_id', as.superadmin.userId).update({ u_first_name: 'Sam', u_last_name: 'Super' });
  });
  afterAll(() => t?.close());

  it('records create, update and delete with who, when and what changed, newest first', async () => {
    const created = await as.superadmin.post(path('events'), { ev_title: 'Expo', ev_name: 'expo', ev_access_type: 'open' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.ev_id;
    expect((await as.superadmin.put(path(`events/${id}`), { ev_title: 'Expo 2027', ev_start_date: '2027-03-01' })).status).toBe(200);
    // Saving what is already stored is no change and no entry.
    expect((await as.superadmin.put(path(`events/${id}`), { ev_title: 'Expo 2027' })).status).toBe(200);

    const res = await as.member.get(path(`events/${id}/history`));
    expect(res.status).toBe(200);
    const entries = res.body as Entry[];
    expect(entries.map((e) => e.h_action)).toEqual(['update', 'create']);
    expect(entries[0]).toMatchObject({
      h_userid: as.superadmin.userId,
      h_user_label: 'Sam Super <superadmin@history.example.com>',
      h_changes: { ev_title: ['Expo', 'Expo 2027'], ev_start_date: [null, '2027-03-01'] },
    });
    expect(Object.keys(entries[0])).toEqual(['h_id', 'h_at', 'h_userid', 'h_user_label', 'h_action', 'h_changes']);
    expect(entries[1].h_changes).toMatchObject({ ev_title: [null, 'Expo'], ev_name: [null, 'expo'], ev_access_type: [null, 'open'] });
    expect(entries[1].h_changes).not.toHaveProperty('ev_id');
    expect(entries[1].h_changes).not.toHaveProperty('ev_accountid');
    expect(entries[1].h_changes).not.toHaveProperty('ev_created_at');
    expect(Date.parse(entries[0].h_at)).toBeGreaterThanOrEqual(Date.parse(entries[1].h_at));

    // Events have a trash: the delete is recorded as the marker set, the purge as the row gone.
    expect((await as.superadmin.delete(path(`events/${id}`))).status).toBe(200);
    const trashed = await t.db('history_by_record').where({ h_table: 'events', h_recordid: id }).orderBy('h_seq', 'desc').first();
    expect(trashed).toMatchObject({ h_action: 'delete', h_userid: as.superadmin.userId, h_accountid: accountId });
    expect(trashed.h_changes.ev_deleted_at[0]).toBeNull();
    expect(Date.parse(trashed.h_changes.ev_deleted_at[1])).not.toBeNaN();
    expect((await as.superadmin.delete(path(`events/${id}/purge`))).status).toBe(200);
    const gone = await t.db('history_by_record').where({ h_table: 'events', h_recordid: id }).orderBy('h_seq', 'desc').first();
    expect(gone).toMatchObject({ h_action: 'delete', h_userid: as.superadmin.userId, h_accountid: accountId });
    expect(gone.h_changes.ev_title).toEqual(['Expo 2027', null]);
  });

  it('a change made outside the API (an import, SQL by hand) has its entry all the same, by "system"', async () => {
    const [row] = await t.db('events').insert({ ev_accountid: accountId, ev_title: 'Imported', ev_name: 'imported', ev_access_type: 'open' }).returning('ev_id');
    await t.db('events').where('ev_id', row.ev_id).update({ ev_title: 'Imported, renamed' });
    const entries = (await as.root.get(path(`events/${row.ev_id}/history`))).body as Entry[];
    expect(entries.map((e) => [e.h_action, e.h_user_label, e.h_userid])).toEqual([
      ['update', 'system', null],
      ['create', 'system', null],
    ]);
  });

  it('secrets appear only as "set" and "cleared", in the table too', async () => {
    const created = await as.superadmin.post(path('integrations'), { in_title: 'Scanner', in_name: 'scanner', in_api_url: 'https://scan.example.com', in_secret: 's3cr3t-value' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.in_id;
    expect((await as.superadmin.put(path(`integrations/${id}`), { in_secret: 'another-s3cr3t' })).status).toBe(200);
    const cleared = await as.superadmin.put(path(`integrations/${id}`), { in_secret: '' });
    expect(cleared.body).toMatchObject({ in_secret_set: false });
    const entries = (await as.superadmin.get(path(`integrations/${id}/history`))).body as Entry[];
    expect(entries.map((e) => e.h_changes.in_secret)).toEqual([
      ['set', 'cleared'],
      ['set', 'set'],
      [null, 'set'],
    ]);
    const stored = await t.db('history_by_record').where({ h_table: 'integrations', h_recordid: id });
    expect(JSON.stringify(stored)).not.toContain('s3cr3t');

    // A user's password: the entry admin's users have a history too.
    const user = await as.root.post('/api/1/users', {
      u_email: 'pw@history.example.com',
      u_first_name: 'Pat',
      u_last_name: 'W',
      u_role: 'member',
      u_password: 'Secret-pass-123',
      u_password_confirm: 'Secret-pass-123',
    });
    expect(user.status, JSON.stringify(user.body)).toBe(201);
    const userEntries = (await as.root.get(`/api/1/users/${user.body.u_id}/history`)).body as Entry[];
    expect(userEntries[0].h_changes.u_password).toEqual([null, 'set']);
    expect(JSON.stringify(await t.db('history').where({ h_table: 'users' }))).not.toMatch(/\$argon|\$2[aby]\$|scrypt/);
  });

  it('revert puts the fields back as they were after that entry: a normal update, itself in the history', async () => {
    const created = await as.superadmin.post(path('events'), { ev_title: 'First', ev_name: 'revertable', ev_access_type: 'open' });
    const id = created.body.ev_id;
    await as.superadmin.put(path(`events/${id}`), { ev_title: 'Second', ev_external_id: 'X-1' });
    await as.superadmin.put(path(`events/${id}`), { ev_title: 'Third' });
    const entries = (await as.superadmin.get(path(`events/${id}/history`))).body as Entry[];
    const createEntry = entries[entries.length - 1];

    // Permission update: a member reads events, never writes them.
    expect((await as.member.post(path(`events/${id}/history/${createEntry.h_id}/revert`))).status).toBe(403);
    const reverted = await as.superadmin.post(path(`events/${id}/history/${createEntry.h_id}/revert`));
    expect(reverted.status, JSON.stringify(reverted.body)).toBe(200);
    expect(reverted.body).toMatchObject({ ev_title: 'First', ev_external_id: null, ev_name: 'revertable' });
    const after = (await as.superadmin.get(path(`events/${id}/history`))).body as Entry[];
    expect(after[0]).toMatchObject({ h_action: 'update', h_changes: { ev_title: ['Third', 'First'], ev_external_id: ['X-1', null] } });

    // Back to "Second", the state after the middle entry.
    const second = after.find((e) => e.h_changes.ev_title?.[1] === 'Second')!;
    expect((await as.superadmin.post(path(`events/${id}/history/${second.h_id}/revert`))).body).toMatchObject({ ev_title: 'Second', ev_external_id: 'X-1' });
  });

  it('records a bulk change alike share one stored entry; each record’s timeline shows it and reverts to it', async () => {
    const ev = await as.superadmin.post(path('events'), { ev_title: 'Bulk', ev_name: 'bulk-history', ev_access_type: 'open' });
    const eventId = ev.body.ev_id as string;
    const names = ['Ada', 'Bo', 'Cy', 'Di', 'Ed'];
    const ids: string[] = [];
    for (const first of names) {
      const res = await as.superadmin.post(path('leads'), { ld_eventid: eventId, ld_first_name: first, ld_email: `${first.toLowerCase()}@bulk.example` });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids.push(res.body.ld_id);
    }
    // Four of five were valid; the bulk makes all five invalid: four go true → false alike, the fifth does not change.
    await t.db('leads').where('ld_id', ids[4]).update({ ld_is_valid: false });
    const [{ seq: from }] = (await t.db('history').max({ seq: 'h_seq' })) as { seq: string }[];
    const bulk = await as.superadmin.post(path('leads/bulk'), { action: 'update', filter: { ld_eventid: eventId }, changes: { ld_is_valid: false } });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    const stored = await t.db('history').where('h_seq', '>', from).select('h_recordid', 'h_recordids', 'h_changes', 'h_userid');
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ h_recordid: null, h_changes: { ld_is_valid: [true, false] }, h_userid: as.superadmin.userId });
    expect([...stored[0].h_recordids].sort()).toEqual(ids.slice(0, 4).sort());
    // One row per record in history_by_record.
    expect((await t.db('history_by_record').where('h_seq', '>', from).pluck('h_recordid')).sort()).toEqual(ids.slice(0, 4).sort());

    for (const id of ids.slice(0, 4)) {
      const entries = (await as.member.get(path(`leads/${id}/history`))).body as Entry[];
      expect(entries.map((e) => e.h_action)).toEqual(['update', 'create']);
      expect(entries[0].h_changes).toEqual({ ld_is_valid: [true, false] });
    }
    expect(((await as.member.get(path(`leads/${ids[4]}/history`))).body as Entry[]).map((e) => e.h_action)).toEqual(['update', 'create']);

    // A later change of one record alone is its own entry; reverting the second lead to the shared entry leaves the others.
    expect((await as.superadmin.put(path(`leads/${ids[1]}`), { ld_first_name: 'Bob' })).status).toBe(200);
    const [latest, shared] = (await as.superadmin.get(path(`leads/${ids[1]}/history`))).body as Entry[];
    expect(latest.h_changes).toEqual({ ld_first_name: ['Bo', 'Bob'] });
    const reverted = await as.superadmin.post(path(`leads/${ids[1]}/history/${shared.h_id}/revert`));
    expect(reverted.status, JSON.stringify(reverted.body)).toBe(200);
    expect(reverted.body).toMatchObject({ ld_first_name: 'Bo', ld_is_valid: false });
    expect(await t.db('leads').whereIn('ld_id', ids).orderBy('ld_first_name').pluck('ld_first_name')).toEqual(names);
    // The shared entry's id is no entry of a record it does not list.
    expect((await as.superadmin.post(path(`leads/${ids[4]}/history/${shared.h_id}/revert`))).status).toBe(404);
  });

  it('a revert that the rules refuse changes nothing (validated like any update)', async () => {
    const a = await as.superadmin.post(path('events'), { ev_title: 'Taken', ev_name: 'taken-name', ev_access_type: 'open' });
    await as.superadmin.put(path(`events/${a.body.ev_id}`), { ev_name: 'moved-away' });
    const b = await as.superadmin.post(path('events'), { ev_title: 'Other', ev_name: 'taken-name', ev_access_type: 'open' });
    expect(b.status).toBe(201);
    const first = ((await as.superadmin.get(path(`events/${a.body.ev_id}/history`))).body as Entry[]).at(-1)!;
    const res = await as.superadmin.post(path(`events/${a.body.ev_id}/history/${first.h_id}/revert`));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'name_taken', fields: { ev_name: 'error_name_taken' } });
    expect((await as.superadmin.get(path(`events/${a.body.ev_id}`))).body.ev_name).toBe('moved-away');
  });

  it("another account's record, an unknown entry and an entry of another record answer 404", async () => {
    const other = await t.account('Elsewhere');
    const [foreign] = await t.db('events').insert({ ev_accountid: other.a_id, ev_title: 'Foreign', ev_name: 'foreign', ev_access_type: 'open' }).returning('ev_id');
    expect((await as.superadmin.get(path(`events/${foreign.ev_id}/history`))).status).toBe(404);
    const mine = await as.superadmin.post(path('events'), { ev_title: 'Mine', ev_name: 'mine', ev_access_type: 'open' });
    const foreignEntry = await t.db('history_by_record').where({ h_recordid: foreign.ev_id }).first();
    expect((await as.superadmin.post(path(`events/${mine.body.ev_id}/history/${foreignEntry.h_id}/revert`))).status).toBe(404);
    expect((await as.superadmin.post(path(`events/${mine.body.ev_id}/history/not-a-uuid/revert`))).status).toBe(404);
  });

  it('the account settings (one record) have a history at …/settings/{accountId}/history', async () => {
    expect((await as.superadmin.put(path('settings'), { ls_customer_api_key: 'k-123456' })).status).toBe(200);
    const res = await as.superadmin.get(path(`settings/${accountId}/history`));
    expect(res.status).toBe(200);
    expect(res.body[0]).toMatchObject({ h_action: 'create', h_changes: { ls_customer_api_key: [null, 'set'] } });
  });

  it('a cascade writes its own entries (an element deleted with its form); an account takes its history along', async () => {
    const form = await as.superadmin.post(path('forms'), { f_title: 'Visitors', f_name: 'visitors' });
    expect(form.status, JSON.stringify(form.body)).toBe(201);
    const element = await as.superadmin.post(path('form-elements'), { fe_formid: form.body.f_id, fe_title: 'Company', fe_name: 'company', fe_type: 'text' });
    expect(element.status, JSON.stringify(element.body)).toBe(201);
    // The form goes to the trash (its elements untouched), then is purged: the cascade removes the element.
    await as.superadmin.delete(path(`forms/${form.body.f_id}`));
    expect((await t.db('history_by_record').where({ h_recordid: element.body.fe_id })).map((e) => e.h_action)).toEqual(['create']);
    expect((await as.superadmin.delete(path(`forms/${form.body.f_id}/purge`))).status).toBe(200);
    const elementEntries = await t.db('history_by_record').where({ h_recordid: element.body.fe_id });
    expect(elementEntries.map((e) => e.h_action).sort()).toEqual(['create', 'delete']);

    const doomed = await t.account('Doomed');
    await t.db('events').insert({ ev_accountid: doomed.a_id, ev_title: 'Doomed', ev_name: 'doomed', ev_access_type: 'open' });
    expect((await as.root.delete(`/api/1/accounts/${doomed.a_id}`)).status).toBe(200);
    expect(await t.db('history').where({ h_accountid: doomed.a_id })).toEqual([]);
    expect(await t.db('history_by_record').where({ h_table: 'accounts', h_recordid: doomed.a_id }).orderBy('h_seq').pluck('h_action')).toEqual(['create', 'delete']);
  });

  it('every resource that declares history has the trigger that writes it', async () => {
    const triggers = await t.db.raw("select event_object_table as t from information_schema.triggers where trigger_name like '%_history' group by 1");
    const tables = new Set((triggers.rows as { t: string }[]).map((r) => r.t));
    for (const decl of RESOURCES.filter((d) => d.history)) expect(tables, decl.name).toContain(decl.table);
  });
});
