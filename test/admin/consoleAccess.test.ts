import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { accountDataProvider, accountResourcePath } from '../../admin/src/providers/accountDataProvider';
import { accountAddress, canEnterConsole, clearAccountCache, consoleAuthProvider, enterAccount, menuResourcesFor } from '../../admin/src/console/access';
import { grantsOf } from '../../resources/permissions';
import { ACCOUNT_RESOURCES } from '../../resources/registry';
import { parentFieldOf } from '../../resources/define';
import type { Membership, Session } from '../../admin/src/providers/session';

const A = '3f0c3a7e-6b1d-4c2e-9f3a-0a1b2c3d4e5f';
const B = '7d9e1f20-3a4b-4c5d-8e6f-7a8b9c0d1e2f';

const membership = (a_id: string, au_role: Membership['au_role'], a_admin_url: string | null = null): Membership => ({
  a_id,
  a_name: `Account ${a_id.slice(0, 4)}`,
  a_admin_url,
  a_is_enabled: true,
  au_role,
});

const session = (role: 'root' | 'superadmin' | 'member', accounts: Membership[] = []): Session => ({
  code: 'ok',
  user: { id: 'u', u_id: 'u', u_first_name: '', u_last_name: '', u_email: 'u@example.com', u_role: role, u_is_verified: true, u_is_enabled: true },
  permissions: grantsOf(role),
  roleGrants: Object.fromEntries([role, ...accounts.map((a) => a.au_role)].map((r) => [r, grantsOf(r)])),
  accounts,
  settings: { passwordMinLength: 12 },
});

/** A fake http client for the data provider: records the URL and method, answers like the API. */
function recorder() {
  const calls: { url: string; method: string; body?: string }[] = [];
  const http = async (url: string, options: { method?: string; body?: string } = {}) => {
    calls.push({ url, method: options.method ?? 'GET', body: options.body });
    const json = url.includes('/settings') ? { id: A, ls_instance_name: 'x' } : url.includes('?') ? [] : { id: 'r1' };
    return { status: 200, headers: new Headers({ 'Content-Range': 'items 0-0/0' }), body: JSON.stringify(json), json };
  };
  return { calls, http: http as never };
}

describe("a console's data provider", () => {
  it('sends every account resource to /api/1/accounts/{its account}/<name>, and the rest to their plain paths', async () => {
    expect(accountResourcePath(A, 'events')).toBe(`accounts/${A}/events`);
    expect(accountResourcePath(A, 'form-elements')).toBe(`accounts/${A}/form-elements`);
    expect(accountResourcePath(A, 'users')).toBe('users');
    // a root user's member picker: the entry API's users who are not members of this account yet
    expect(accountResourcePath(A, 'unlinkedUsers')).toBe(`accounts/${A}/users/unlinked`);
    const { calls, http } = recorder();
    const dp = accountDataProvider(A, http);
    await dp.getList('events', { pagination: { page: 2, perPage: 25 }, sort: { field: 'ev_title', order: 'ASC' }, filter: { q: 'exp' } });
    await dp.getOne('events', { id: 'e1' });
    await dp.create('events', { data: { ev_title: 'Expo' } });
    await dp.update('events', { id: 'e1', data: { ev_title: 'Expo 2' }, previousData: { id: 'e1' } });
    await dp.delete('events', { id: 'e1', previousData: { id: 'e1' } });
    await dp.getOne('accounts', { id: A });
    expect(calls.map((c) => `${c.method} ${decodeURIComponent(c.url)}`)).toEqual([
      `GET /api/1/accounts/${A}/events?filter={"q":"exp"}&range=[25,49]&sort=["ev_title","ASC"]`,
      `GET /api/1/accounts/${A}/events/e1`,
      `POST /api/1/accounts/${A}/events`,
      `PUT /api/1/accounts/${A}/events/e1`,
      `DELETE /api/1/accounts/${A}/events/e1`,
      `GET /api/1/accounts/${A}`,
    ]);
    // Another account's console: the same names, its own paths.
    const other = recorder();
    await accountDataProvider(B, other.http).getOne('members', { id: 'm1' });
    expect(other.calls[0].url).toBe(`/api/1/accounts/${B}/members/m1`);
  });

  it('reads and writes the singleton settings on its resource path (no id in the path)', async () => {
    const { calls, http } = recorder();
    const dp = accountDataProvider(A, http);
    expect((await dp.getOne('settings', { id: A })).data).toEqual({ id: A, ls_instance_name: 'x' });
    await dp.update('settings', { id: A, data: { ls_instance_name: 'Hall 3' }, previousData: { id: A } });
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([`GET /api/1/accounts/${A}/settings`, `PUT /api/1/accounts/${A}/settings`]);
    expect(JSON.parse(calls[1].body!)).toEqual({ ls_instance_name: 'Hall 3' });
  });
});

describe('who enters a console and what its menu offers', () => {
  it('a member of the account (any role) and a root user enter; nobody else', () => {
    expect(canEnterConsole(session('member', [membership(A, 'member')]), A)).toBe(true);
    expect(canEnterConsole(session('member', [membership(A, 'member')]), B)).toBe(false);
    expect(canEnterConsole(session('superadmin'), A)).toBe(false); // staff, but not a member
    expect(canEnterConsole(session('root'), A)).toBe(true);
    expect(canEnterConsole(session('root'), 'not-an-id')).toBe(false);
    expect(canEnterConsole(null, A)).toBe(false);
  });

  it("shows each resource with its group's read bit for the caller's role in that account, never child resources", () => {
    const names = (s: Session, a = A) => menuResourcesFor(s, a).map((d) => d.name);
    // Every resource that is not a child of another, the one-record ones (settings) after the everyday ones.
    // Saved views have no item of their own (menu: false): each list's Views menu manages them.
    const topLevel = ACCOUNT_RESOURCES.filter((d) => !parentFieldOf(d) && d.menu !== false);
    const all = [...topLevel.filter((d) => !d.singleton), ...topLevel.filter((d) => d.singleton)].map((d) => d.name);
    expect(all).toContain('members');
    expect(all).not.toContain('form-elements');
    expect(all).not.toContain('views');
    expect(ACCOUNT_RESOURCES.map((d) => d.name)).toContain('views');
    expect(all.at(-1)).toBe('settings');
    expect(names(session('root'))).toEqual(all);
    expect(names(session('member', [membership(A, 'superadmin')]))).toEqual(all);
    // A member sees what its role reads: members, events and leads, say; not invites, mail templates or settings.
    const read = all.filter((n) => grantsOf('member')[ACCOUNT_RESOURCES.find((d) => d.name === n)!.group] & 1);
    expect(read).toEqual(expect.arrayContaining(['members', 'events', 'leads', 'carousels']));
    for (const hidden of ['invites', 'mail-templates', 'settings']) expect(read).not.toContain(hidden);
    expect(names(session('member', [membership(A, 'member')]))).toEqual(read);
    // The role in that account counts, not in another one.
    expect(names(session('member', [membership(A, 'member'), membership(B, 'superadmin')]))).toEqual(read);
  });

  it("answers react-admin's canAccess with the role in the console's account", async () => {
    const memberOfA = session('member', [membership(A, 'member'), membership(B, 'superadmin')]);
    const base = {
      login: async () => undefined,
      logout: async () => undefined,
      checkAuth: async () => undefined,
      checkError: async () => undefined,
      getPermissions: async () => undefined,
      canAccess: async () => 'entry' as never,
    };
    const inA = consoleAuthProvider(base, A, async () => memberOfA);
    const inB = consoleAuthProvider(base, B, async () => memberOfA);
    const ask = (p: typeof inA, resource: string, action: string) => p.canAccess!({ resource, action });
    expect(await ask(inA, 'events', 'list')).toBe(true);
    expect(await ask(inA, 'events', 'create')).toBe(false);
    expect(await ask(inA, 'events', 'edit')).toBe(false);
    expect(await ask(inA, 'lists', 'edit')).toBe(true); // member: 15 on lists
    expect(await ask(inA, 'invites', 'list')).toBe(false);
    expect(await ask(inB, 'events', 'create')).toBe(true);
    expect(await ask(inB, 'events', 'delete')).toBe(true);
    // Not an account resource: the entry admin's rule.
    expect(await ask(inA, 'users', 'list')).toBe('entry');
  });
});

describe('moving between accounts', () => {
  it('an account opens at its admin address when it has one, else its console', () => {
    expect(accountAddress(membership(A, 'superadmin'))).toBe(`/console/${A}`);
    expect(accountAddress(membership(A, 'superadmin', 'https://acme.example.com/admin'))).toBe('https://acme.example.com/admin');
  });

  it("entering another account's console drops every cached record of the previous one, but keeps the session", () => {
    const queryClient = new QueryClient();
    const seed = () => {
      queryClient.setQueryData(['events', 'getList', { pagination: { page: 1, perPage: 25 } }], { data: [{ id: 'e-of-a' }], total: 1 });
      queryClient.setQueryData(['auth', 'canAccess', { action: 'create', resource: 'events' }], true);
      queryClient.setQueryData(['ls.session'], { user: 'me' });
    };
    seed();
    enterAccount(queryClient, A);
    expect(queryClient.getQueryData(['events', 'getList', { pagination: { page: 1, perPage: 25 } }])).toBeDefined(); // same account
    enterAccount(queryClient, B);
    expect(
      queryClient
        .getQueryCache()
        .getAll()
        .map((q) => q.queryKey[0]),
    ).toEqual(['ls.session']);
    seed();
    clearAccountCache(queryClient);
    expect(
      queryClient
        .getQueryCache()
        .getAll()
        .map((q) => q.queryKey[0]),
    ).toEqual(['ls.session']);
  });
});
