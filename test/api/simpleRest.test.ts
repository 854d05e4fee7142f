import { afterAll, beforeAll, expect, it } from 'vitest';
import simpleRestProvider from 'ra-data-simple-rest';
import { fetchUtils, HttpError, type DataProvider } from 'ra-core';
import { describeEachDb } from '../helpers/db.js';
import { PASSWORD, startApp, type TestApp } from '../helpers/app.js';

/**
 * The stock ra-data-simple-rest provider, as the admin uses it, against the running API: a real HTTP server, the real
 * fetch, ra-core's fetchJson. The httpClient only adds what a browser would: the cookies and the CSRF header.
 */

const uid = () => `x${Math.random().toString(36).slice(2, 9)}`;
const NEW_PASSWORD = 'simple-rest-password';

/** A tiny cookie jar for fetch (node has none). */
class Jar {
  cookies = new Map<string, string>();
  take(headers: Headers) {
    for (const c of headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1);
      if (value === '' || attrs.some((a) => /expires=Thu, 01 Jan 1970/i.test(a))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  csrf() {
    return decodeURIComponent(this.cookies.get('ls.csrf-token') ?? '');
  }
}

/** fetchJson with the session cookie and the X-CSRF-Token header (like the admin's httpClient in a browser). */
function httpClientFor(jar: Jar, opts: { csrf: boolean } = { csrf: true }) {
  return async (url: string, options: fetchUtils.Options = {}) => {
    const headers = new Headers(options.headers as HeadersInit | undefined);
    headers.set('Cookie', jar.header());
    if (opts.csrf && jar.csrf()) headers.set('X-CSRF-Token', jar.csrf());
    const res = await fetchUtils.fetchJson(url, { ...options, headers });
    jar.take(res.headers);
    return res;
  };
}

async function signIn(baseUrl: string, email: string, password: string): Promise<Jar> {
  const jar = new Jar();
  const first = await fetch(`${baseUrl}/api/1/auth/me`);
  jar.take(first.headers);
  const login = await fetch(`${baseUrl}/api/1/auth/web`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: jar.header(), 'X-CSRF-Token': jar.csrf() },
    body: JSON.stringify({ u_email: email, u_password: password }),
  });
  expect(login.status).toBe(200);
  jar.take(login.headers);
  return jar;
}

/** The rejection of a data provider call (fetchJson rejects with HttpError {status, body}). */
async function failure(p: Promise<unknown>): Promise<HttpError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    return err as HttpError;
  }
  throw new Error('expected the call to fail');
}

describeEachDb('ra-data-simple-rest against the API', (kind) => {
  let t: TestApp;
  let dp: DataProvider;
  let jar: Jar;

  beforeAll(async () => {
    t = await startApp(kind);
    const root = await t.user(`${uid()}.root@example.com`, 'root');
    jar = await signIn(t.baseUrl, root.u_email, PASSWORD);
    dp = simpleRestProvider(`${t.baseUrl}/api/1`, httpClientFor(jar));
  });
  afterAll(() => t?.close());

  it('users: create, getList with filter/sort/range, getOne, getMany, update, delete', async () => {
    const p = uid();
    const created: { id: string; [k: string]: unknown }[] = [];
    for (const [s, first, role] of [
      ['c', 'Carla', 'member'],
      ['a', 'Abel', 'admin'],
      ['d', 'Dora', 'member'],
      ['b', 'Bert', 'member'],
    ]) {
      const { data } = await dp.create('users', {
        data: { u_email: `${p}${s}@example.com`, u_first_name: first, u_last_name: `${p}Family`, u_role: role, u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD },
      });
      expect(data.id).toBe(data.u_id);
      expect(data).not.toHaveProperty('u_password');
      created.push(data as { id: string });
    }
    expect(await t.db('users').whereRaw('u_email like ?', [`${p}%`])).toHaveLength(4);

    // page 2 of 2-per-page, by e-mail: c, d
    const page = await dp.getList('users', { filter: { q: p }, sort: { field: 'u_email', order: 'ASC' }, pagination: { page: 2, perPage: 2 } });
    expect(page.total).toBe(4);
    expect(page.data.map((u) => u.u_email)).toEqual([`${p}c@example.com`, `${p}d@example.com`]);
    // first name, descending; search by last name in another case
    const desc = await dp.getList('users', { filter: { q: `${p}FAM` }, sort: { field: 'u_first_name', order: 'DESC' }, pagination: { page: 1, perPage: 3 } });
    expect(desc.total).toBe(4);
    expect(desc.data.map((u) => u.u_first_name)).toEqual(['Dora', 'Carla', 'Bert']);
    // filter by an equality column, sort by id (react-admin's default)
    const admins = await dp.getList('users', { filter: { q: p, u_role: 'admin' }, sort: { field: 'id', order: 'ASC' }, pagination: { page: 1, perPage: 25 } });
    expect(admins.total).toBe(1);
    expect(admins.data[0].u_email).toBe(`${p}a@example.com`);
    // an empty result still has a total
    const none = await dp.getList('users', { filter: { q: `${p}zzz` }, sort: { field: 'id', order: 'ASC' }, pagination: { page: 1, perPage: 25 } });
    expect(none).toEqual({ data: [], total: 0 });

    const one = await dp.getOne('users', { id: created[1].id });
    expect(one.data).toMatchObject({ id: created[1].id, u_email: `${p}a@example.com`, u_role: 'admin' });
    const many = await dp.getMany('users', { ids: [created[0].id, created[2].id] });
    expect(many.data.map((u) => u.id).sort()).toEqual([created[0].id, created[2].id].sort());

    // update as react-admin does it: the whole record with the edited fields
    const updated = await dp.update('users', { id: one.data.id, data: { ...one.data, u_first_name: 'Abelard', u_password: '', u_password_confirm: '' }, previousData: one.data });
    expect(updated.data).toMatchObject({ id: one.data.id, u_first_name: 'Abelard', u_last_name: `${p}Family`, u_role: 'admin' });
    expect(await t.db('users').where('u_id', one.data.id).first()).toMatchObject({ u_first_name: 'Abelard', u_email: `${p}a@example.com` });

    const deleted = await dp.delete('users', { id: created[3].id, previousData: created[3] });
    expect(deleted.data.id).toBe(created[3].id);
    expect(await t.db('users').where('u_id', created[3].id).first()).toBeUndefined();
    const gone = await failure(dp.getOne('users', { id: created[3].id }));
    expect(gone.status).toBe(404);
    expect((await dp.getList('users', { filter: { q: p }, sort: { field: 'id', order: 'ASC' }, pagination: { page: 1, perPage: 10 } })).total).toBe(3);

    // deleteMany / updateMany fall back to one call per id
    const removed = await dp.deleteMany('users', { ids: [created[0].id, created[2].id] });
    expect([...(removed.data ?? [])].sort()).toEqual([created[0].id, created[2].id].sort());
    expect(await t.db('users').whereRaw('u_email like ?', [`${p}%`])).toHaveLength(1);
  });

  it('users: API errors reach the client as HttpError with status and {code, fields}', async () => {
    const email = `${uid()}@example.com`;
    await dp.create('users', { data: { u_email: email, u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD } });
    const dup = await failure(dp.create('users', { data: { u_email: email.toUpperCase(), u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD } }));
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'user_already_exists', fields: { u_email: 'error_user_already_exists' } });
    const invalid = await failure(dp.create('users', { data: { u_email: 'nope', u_password: 'short', u_password_confirm: 'other' } }));
    expect(invalid.status).toBe(400);
    expect(invalid.body.fields).toMatchObject({ u_email: 'error_email_invalid', u_password: 'error_password_too_short', u_password_confirm: 'error_passwords_do_not_match' });
    const bigPage = await failure(dp.getList('users', { filter: {}, sort: { field: 'id', order: 'ASC' }, pagination: { page: 1, perPage: 1001 } }));
    expect(bigPage.status).toBe(400);
    expect(bigPage.body.code).toBe('invalid_range');
    const badSort = await failure(dp.getList('users', { filter: {}, sort: { field: 'u_password', order: 'ASC' }, pagination: { page: 1, perPage: 5 } }));
    expect(badSort.status).toBe(400);
    // the same provider without the CSRF header is refused on writes, and changes nothing
    const noCsrf = simpleRestProvider(`${t.baseUrl}/api/1`, httpClientFor(jar, { csrf: false }));
    const refused = await failure(noCsrf.create('users', { data: { u_email: `${uid()}@example.com`, u_password: NEW_PASSWORD, u_password_confirm: NEW_PASSWORD } }));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('csrf_invalid');
    // reads need no CSRF header
    expect((await noCsrf.getList('users', { filter: {}, sort: { field: 'id', order: 'ASC' }, pagination: { page: 1, perPage: 1 } })).total).toBeGreaterThan(0);
    // and without a session: 401
    const anon = simpleRestProvider(`${t.baseUrl}/api/1`, httpClientFor(new Jar()));
    expect((await failure(anon.getList('users', { filter: {}, sort: { field: 'id', order: 'ASC' }, pagination: { page: 1, perPage: 1 } }))).status).toBe(401);
  });

  it('accounts: create, getList with filter/sort/range, getOne, getMany, update, delete', async () => {
    const p = uid();
    const ids: string[] = [];
    for (const s of ['beta', 'alpha', 'delta', 'gamma', 'epsilon']) {
      const { data } = await dp.create('accounts', { data: { a_name: `${p} ${s}`, a_email_domain: `${s}.${p}.example` } });
      expect(data.id).toBe(data.a_id);
      ids.push(data.id as string);
    }
    const page = await dp.getList('accounts', { filter: { q: p.toUpperCase() }, sort: { field: 'a_name', order: 'ASC' }, pagination: { page: 2, perPage: 2 } });
    expect(page.total).toBe(5);
    expect(page.data.map((a) => a.a_name)).toEqual([`${p} delta`, `${p} epsilon`]);
    const phrase = await dp.getList('accounts', { filter: { q: `${p} ga` }, sort: { field: 'a_name', order: 'ASC' }, pagination: { page: 1, perPage: 25 } });
    expect(phrase.data.map((a) => a.a_name)).toEqual([`${p} gamma`]);
    const desc = await dp.getList('accounts', { filter: { q: p }, sort: { field: 'a_name', order: 'DESC' }, pagination: { page: 1, perPage: 1 } });
    expect(desc.data.map((a) => a.a_name)).toEqual([`${p} gamma`]);

    const one = await dp.getOne('accounts', { id: ids[0] });
    expect(one.data).toMatchObject({ a_name: `${p} beta`, a_email_domain: `beta.${p}.example`, a_is_enabled: true });
    const many = await dp.getMany('accounts', { ids: [ids[1], ids[4]] });
    expect(many.data.map((a) => a.id).sort()).toEqual([ids[1], ids[4]].sort());

    const updated = await dp.update('accounts', { id: ids[0], data: { ...one.data, a_name: `${p} beta two`, a_is_enabled: false }, previousData: one.data });
    expect(updated.data).toMatchObject({ a_name: `${p} beta two`, a_is_enabled: false, a_email_domain: `beta.${p}.example` });
    expect(await t.db('accounts').where('a_id', ids[0]).first()).toMatchObject({ a_name: `${p} beta two`, a_is_enabled: false });
    const disabled = await dp.getList('accounts', { filter: { q: p, a_is_enabled: false }, sort: { field: 'id', order: 'ASC' }, pagination: { page: 1, perPage: 25 } });
    expect(disabled.data.map((a) => a.id)).toEqual([ids[0]]);

    const invalid = await failure(dp.update('accounts', { id: ids[0], data: { ...updated.data, a_name: '' }, previousData: updated.data }));
    expect(invalid.status).toBe(400);
    expect(invalid.body.fields).toEqual({ a_name: 'error_name_required' });

    await dp.delete('accounts', { id: ids[2], previousData: { id: ids[2] } });
    expect(await t.db('accounts').where('a_id', ids[2]).first()).toBeUndefined();
    expect((await failure(dp.getOne('accounts', { id: ids[2] }))).status).toBe(404);
    expect((await dp.getList('accounts', { filter: { q: p }, sort: { field: 'id', order: 'ASC' }, pagination: { page: 1, perPage: 25 } })).total).toBe(4);
  });

  it('members: accounts/{id}/users works as a resource path (getList, create, update, delete)', async () => {
    const p = uid();
    const { data: account } = await dp.create('accounts', { data: { a_name: `${p} members` } });
    const u = await t.user(`${p}.m@example.com`, 'member', { u_first_name: 'Mona' });
    const resource = `accounts/${account.id}/users`;
    const unlinked = await dp.getList(`${resource}/unlinked`, { filter: { q: p }, sort: { field: 'u_email', order: 'ASC' }, pagination: { page: 1, perPage: 25 } });
    expect(unlinked.data.map((x) => x.id)).toEqual([u.u_id]);
    const { data: created } = await dp.create(resource, { data: { au_userid: u.u_id, au_role: 'admin' } });
    expect(created).toMatchObject({ id: u.u_id, au_role: 'admin', u_first_name: 'Mona' });
    const list = await dp.getList(resource, { filter: { q: 'mon' }, sort: { field: 'u_email', order: 'ASC' }, pagination: { page: 1, perPage: 25 } });
    expect(list.total).toBe(1);
    const updated = await dp.update(resource, { id: u.u_id, data: { ...created, au_role: 'member' }, previousData: created });
    expect(updated.data.au_role).toBe('member');
    await dp.delete(resource, { id: u.u_id, previousData: updated.data });
    expect(await t.db('account_users').where({ au_accountid: account.id, au_userid: u.u_id }).first()).toBeUndefined();
  });
});
