import crypto from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApp, type Signed, type TestApp } from '../helpers/app.js';
import { describeEachDb } from '../helpers/db.js';
import { bulkFieldsOf } from '../../api/crud/bulk.js';
import { events } from '../../resources/events.js';
import { leads } from '../../resources/leads.js';
import { RESOURCES } from '../../resources/registry.js';

/**
 * The `bulk: true` fields chosen beyond the contract's leads (owner, validity): the events' owner, each row checked
 * like a single update (the owner must be a member of the account), through the row-by-row path of the generic bulk.
 */
describeEachDb('bulk fields: which fields, and the events owner', (kind) => {
  let t: TestApp;
  let accountId: string;
  let admin: Signed;
  let member: Signed;
  const path = (rest = '') => `/api/1/accounts/${accountId}/events${rest}`;
  const owners = async () => (await t.db('events').where('ev_accountid', accountId).orderBy('ev_name').select('ev_ownerid')).map((r) => r.ev_ownerid as string | null);

  beforeAll(async () => {
    t = await startApp(kind);
    ({ a_id: accountId } = await t.account('Owners'));
    admin = await t.signedIn('member');
    member = await t.signedIn('member');
    await t.member(accountId, admin.userId, 'superadmin');
    await t.member(accountId, member.userId, 'member');
    await t.db.raw(`insert into events (ev_accountid, ev_title, ev_name, ev_access_type) select ?, 'Event ' || g, 'event-' || g, 'open' from generate_series(1, 12) g`, [
      accountId,
    ]);
  });
  afterAll(() => t?.close());

  it('declares a short list: leads owner, validity, rating and tags, events enabled flag and owner, conversations status; nothing else', () => {
    expect(bulkFieldsOf(leads)).toEqual(['ld_ownerid', 'ld_is_valid', 'ld_rating', 'ld_tags']);
    expect(bulkFieldsOf(events)).toEqual(['ev_is_enabled', 'ev_ownerid']);
    const others = RESOURCES.filter((d) => d !== leads && d !== events).flatMap((d) => bulkFieldsOf(d).map((f) => `${d.name}.${f}`));
    expect(others).toEqual(['conversations.cv_status']);
  });

  it('hands every event of the filter to a member; an owner who is no member refuses every row and changes nothing', async () => {
    const res = await admin.post(path('/bulk'), { action: 'update', filter: {}, changes: { ev_ownerid: member.userId } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ count: 12 });
    expect(new Set(await owners())).toEqual(new Set([member.userId]));

    const outsider = await t.user(`outsider-${crypto.randomUUID()}@example.com`);
    const refused = await admin.post(path('/bulk'), { action: 'update', filter: {}, changes: { ev_ownerid: outsider.u_id } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'bulk_refused', refused: 12 });
    expect(refused.body.reasons[0]).toMatchObject({ fields: { ev_ownerid: 'error_reference_invalid' } });
    expect(new Set(await owners())).toEqual(new Set([member.userId]));

    const cleared = await admin.post(path('/bulk'), { action: 'update', filter: { q: 'Event 1' }, changes: { ev_ownerid: null } });
    expect(cleared.body.count).toBeGreaterThan(0);
    expect((await owners()).filter((o) => o === null)).toHaveLength(cleared.body.count);
  });
});
