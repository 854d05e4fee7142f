import request from 'supertest';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { secondProcess, queriesOf, type Signed, type TestApp } from '../helpers/app.js';
import { accountPath, startConsoleApp } from '../helpers/console.js';
import { sessionCacheFor } from '../../api/services/sessionCache.js';
import { ACCOUNT_CHANNEL } from '../../api/db/channels.js';

/**
 * The accounts with the caller's membership kept per process (api/middleware/auth.ts resolveAccount): an account
 * request after the first reads neither, and a membership taken away (or given, or an account renamed) counts at the
 * next request, in this process at once and in another within a second.
 */
describeEachDb('kept accounts and memberships', (kind) => {
  let t: TestApp;
  let a: string;
  let member: Signed;
  const ACCOUNT_READ = /from "accounts" left join "account_users"/i;
  const events = () => accountPath(a, 'events');

  beforeAll(async () => {
    ({ t, a } = await startConsoleApp(kind, 'Kept'));
    member = await t.signedIn('member');
  });
  afterAll(() => t?.close());

  /**
   * On PostgreSQL a write's NOTIFY comes back to this process too and drops the kept copy once more, some time after
   * the write: `write` runs, then this waits for that notification, so that it cannot land between two counts (a
   * whole run under load had it do so: 1 and 1 instead of 1 and 0). PGlite has no notifications.
   */
  const written = async (write: () => Promise<unknown>) => {
    const heard = kind === 'postgres' ? new Promise<void>((resolve) => sessionCacheFor(t.db).subscribe(ACCOUNT_CHANNEL, resolve)) : undefined;
    await write();
    await heard;
  };

  it('reads the account once; a membership taken away or given counts at the next request', async () => {
    expect((await member.get(events())).status).toBe(404); // not a member yet (and that is kept too)
    await written(() => t.member(a, member.userId));
    // The first request reads the account once (a knex query kept as is would run again on every await).
    expect((await queriesOf(t.db, async () => expect((await member.get(events())).status).toBe(200))).filter((s) => ACCOUNT_READ.test(s))).toHaveLength(1);
    const again = await queriesOf(t.db, async () => expect((await member.get(events())).status).toBe(200));
    expect(again.filter((s) => ACCOUNT_READ.test(s))).toEqual([]);
    await t.db('account_users').where({ au_accountid: a, au_userid: member.userId }).del();
    expect((await member.get(events())).status).toBe(404);
    await t.member(a, member.userId, 'member');
    expect((await member.get(events())).status).toBe(200);
    // A write to the account drops the kept copy: the next request reads it again, once.
    await written(() =>
      t
        .db('accounts')
        .where('a_id', a)
        .update({ a_name: `Renamed ${Date.now()}` }),
    );
    const reads = async () => (await queriesOf(t.db, async () => expect((await member.get(events())).status).toBe(200))).filter((s) => ACCOUNT_READ.test(s)).length;
    expect(await reads()).toBe(1);
    expect(await reads()).toBe(0);
  });

  if (kind === 'postgres')
    it('a membership taken away through another connection counts in this process within a second', async () => {
      const { server: server2, db: db2, close } = await secondProcess(t);
      try {
        const get = () => request(server2).get(events()).set('Cookie', member.cookieHeader());
        // Kept in the second process once its listener is up.
        await expect.poll(async () => (await queriesOf(db2, async () => expect((await get()).status).toBe(200))).filter((s) => ACCOUNT_READ.test(s))).toEqual([]);
        await t.db('account_users').where({ au_accountid: a, au_userid: member.userId }).del();
        await expect.poll(async () => (await get()).status, { timeout: 1000, interval: 20 }).toBe(404);
        await t.member(a, member.userId, 'member');
        await expect.poll(async () => (await get()).status, { timeout: 1000, interval: 20 }).toBe(200);
      } finally {
        await close();
      }
    });
});
