import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { startApp, MISSING, type Signed, type TestApp } from '../helpers/app.js';
import { fillPath, listRoutes } from '../helpers/routes.js';

/**
 * Every route under /accounts/:accountId (read from the live router, so later routes are covered) answers a caller
 * outside the account exactly as it answers an account that does not exist: 404, and nothing changes.
 */
describeEachDb('tenancy: a foreign account is indistinguishable from an unknown one', (kind) => {
  let t: TestApp;
  let member: Signed;
  let own: string, foreign: string, foreignMember: string;

  beforeAll(async () => {
    t = await startApp(kind);
    member = await t.signedIn('member');
    own = (await t.account('Own')).a_id;
    foreign = (await t.account('Foreign')).a_id;
    await t.member(own, member.userId, 'root'); // every right in its own account
    const other = await t.user(`foreign-${Date.now()}@example.com`);
    await t.member(foreign, other.u_id, 'member');
    foreignMember = other.u_id;
  });
  afterAll(() => t?.close());

  const nested = () => listRoutes(t.app).filter((r) => r.path.includes('/accounts/:accountId'));

  it('finds the account-nested routes', () => {
    const paths = nested().map((r) => `${r.method} ${r.path}`);
    expect(paths).toEqual(expect.arrayContaining(['get /api/1/accounts/:accountId/users', 'put /api/1/accounts/:accountId/haslogo']));
  });

  it('every account-nested route: 404 for a foreign account, the same answer as for an unknown one, nothing changed', async () => {
    const snapshot = async () => JSON.stringify(await Promise.all(['accounts', 'account_users', 'users'].map((n) => t.db(n).select().orderBy(1))));
    const before = await snapshot();
    for (const route of nested()) {
      const call = (accountId: string) => {
        const url = fillPath(route.path, { accountId, id: foreignMember, userId: foreignMember }, MISSING);
        return route.method === 'get'
          ? member.get(url)
          : member.send(route.method as 'post' | 'put' | 'delete', url, route.method === 'delete' ? undefined : { au_role: 'member' });
      };
      const [toForeign, toUnknown] = [await call(foreign), await call(MISSING)];
      expect({ route: `${route.method} ${route.path}`, status: toForeign.status, code: toForeign.body.code }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 404,
        code: 'not_found',
      });
      expect(toUnknown.status).toBe(404);
      expect(toForeign.body).toEqual(toUnknown.body);
    }
    expect(await snapshot()).toBe(before);
  });

  it("in its own account the caller gets the route's own answer (the 404 is about the account, not the route)", async () => {
    const res = await member.get(`/api/1/accounts/${own}/users`);
    expect(res.status).toBe(403); // entry_account_users is checked against the user's own role: member has none
    expect(res.body.code).toBe('forbidden');
    const root = await t.signedIn('root');
    const list = await root.get(`/api/1/accounts/${own}/users`);
    expect(list.body.map((m: { id: string }) => m.id)).toContain(member.userId);
  });
});
