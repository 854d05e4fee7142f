import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { startApp, type TestApp, MISSING, type Signed } from '../helpers/app.js';

/**
 * Bad input on every route of the entry API: always a 4xx with {code, message} (field errors for bodies), never a
 * 500, and nothing written. The happy paths and per-route rules live in accounts/users/accountUsers/emails.test.ts.
 */

const PW = 'long-enough-password';
const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));

describeEachDb('entry API: bad input never answers 500', (kind) => {
  let t: TestApp;
  let root: Signed;
  let accountId: string;
  let otherUserId: string;

  beforeAll(async () => {
    t = await startApp(kind);
    root = await t.signedIn('root');
    accountId = (await t.account('Robust Co')).a_id;
    otherUserId = (await t.user('robust.other@example.com')).u_id;
    await t.member(accountId, otherUserId);
  });
  afterAll(() => t?.close());

  const snapshot = async () => ({
    users: await t.db('users').orderBy('u_id').select('u_id', 'u_email', 'u_first_name', 'u_last_name', 'u_role', 'u_is_enabled', 'u_password'),
    accounts: await t.db('accounts').orderBy('a_id').select('a_id', 'a_name', 'a_email_domain', 'a_public_key', 'a_is_enabled'),
    members: await t.db('account_users').orderBy('au_id').select('au_id', 'au_role', 'au_external_id'),
  });

  const expectClientError = (label: string, res: { status: number; body: { code?: string; message?: string } }) => {
    expect({ label, ok: res.status >= 400 && res.status < 500 }).toEqual({ label, ok: true });
    expect({ label, code: typeof res.body.code, message: typeof res.body.message }).toEqual({ label, code: 'string', message: 'string' });
  };

  it('NUL characters in a body field answer 400 with that field (PostgreSQL text cannot hold them)', async () => {
    const before = await snapshot();
    const nul = 'a\u0000b';
    const writes: [string, string, string, Record<string, unknown>, string][] = [
      ['post', '/api/1/accounts', 'a_name', { a_name: nul }, 'a_name'],
      ['put', `/api/1/accounts/${accountId}`, 'a_public_key', { a_public_key: nul }, 'a_public_key'],
      ['post', '/api/1/users', 'u_first_name', { u_email: 'nul1@example.com', u_first_name: nul, u_password: PW, u_password_confirm: PW }, 'u_first_name'],
      ['post', '/api/1/users', 'u_email', { u_email: 'n\u0000ul@example.com', u_password: PW, u_password_confirm: PW }, 'u_email'],
      ['put', `/api/1/users/${otherUserId}`, 'u_last_name', { u_last_name: nul }, 'u_last_name'],
      ['post', `/api/1/accounts/${accountId}/users`, 'au_external_id', { au_userid: root.userId, au_external_id: nul }, 'au_external_id'],
      ['put', `/api/1/accounts/${accountId}/users/${otherUserId}`, 'au_external_id', { au_external_id: nul }, 'au_external_id'],
    ];
    for (const [method, url, label, body, field] of writes) {
      const res = method === 'post' ? await root.post(url, body) : await root.put(url, body);
      expectClientError(`${method} ${url} ${label}`, res);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.fields).toHaveProperty(field);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('list parameters: NUL in q or a filter value, odd JSON, prototype keys, very long q: 400 or a valid page', async () => {
    const lists = ['/api/1/accounts', '/api/1/users', `/api/1/accounts/${accountId}/users`, `/api/1/accounts/${accountId}/users/unlinked`];
    const bad = [
      `filter=${enc({ q: 'a\u0000' })}`,
      `filter=${enc({ u_role: 'a\u0000', au_role: 'a\u0000', a_is_enabled: 'a\u0000' })}`,
      `sort=${enc(['__proto__', 'ASC'])}`,
      `sort=${enc(['constructor', 'ASC'])}`,
      `filter=${enc({ toString: 'x' })}`,
      'filter={"__proto__":{"q":"x"}}',
      'range=null',
      'sort=null',
      'range=[0,1e999]',
      'range=[0,9]&range=[0,9]',
      'filter=%7B',
      `filter=${enc({ u_role: true, au_role: false, a_is_enabled: 1 })}`,
      `filter=${enc({ u_is_enabled: [true, 'x'], q: '%_\\' })}`,
      `range=${enc([0, 9])}&sort=${enc(['id'])}&filter=${enc({ id: 5 })}`,
    ];
    for (const list of lists) {
      for (const query of bad) {
        const res = await root.get(`${list}?${query}`);
        const label = `${list}?${decodeURIComponent(query)}`;
        if (res.status === 200) expect({ label, array: Array.isArray(res.body) }).toEqual({ label, array: true });
        else expectClientError(label, res);
      }
      // a long multi-word q is cut, not fatal
      const long = await root.get(`${list}?filter=${enc({ q: 'ab '.repeat(1000) })}`);
      expect({ list, status: long.status }).toEqual({ list, status: 200 });
      // many ids (getMany of a long reference list)
      const ids = await root.get(`${list}?filter=${enc({ id: Array.from({ length: 200 }, () => MISSING) })}`);
      expect({ list, status: ids.status }).toEqual({ list, status: 200 });
    }
  });

  it('ids that do not decode or are not UUIDs answer 4xx on every route', async () => {
    const before = await snapshot();
    const ids = ['%E0%A4%A', '%', '%00', "1'--", '..', 'null', '-1', '9'.repeat(300), `${MISSING}%00`];
    for (const id of ids) {
      const routes: [string, string][] = [
        ['get', `/api/1/accounts/${id}`],
        ['put', `/api/1/accounts/${id}`],
        ['delete', `/api/1/accounts/${id}`],
        ['get', `/api/1/accounts/${id}/users`],
        ['post', `/api/1/accounts/${id}/users`],
        ['get', `/api/1/accounts/${id}/users/unlinked`],
        ['get', `/api/1/accounts/${accountId}/users/${id}`],
        ['put', `/api/1/accounts/${accountId}/users/${id}`],
        ['delete', `/api/1/accounts/${accountId}/users/${id}`],
        ['get', `/api/1/users/${id}`],
        ['put', `/api/1/users/${id}`],
        ['delete', `/api/1/users/${id}`],
        ['get', `/api/1/emails/preview/signup/${id}`],
        ['get', `/api/1/emails/preview/${id}/${otherUserId}`],
      ];
      for (const [method, url] of routes) {
        const res =
          method === 'get'
            ? await root.get(url)
            : method === 'delete'
              ? await root.delete(url)
              : method === 'post'
                ? await root.post(url, { a_name: 'x' })
                : await root.put(url, { a_name: 'x' });
        expectClientError(`${method} ${url}`, res);
        expect([400, 404]).toContain(res.status);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('bodies that are not objects, not JSON, too deep or too large answer 4xx and write nothing', async () => {
    const before = await snapshot();
    const urls: [string, string][] = [
      ['post', '/api/1/accounts'],
      ['put', `/api/1/accounts/${accountId}`],
      ['post', '/api/1/users'],
      ['put', `/api/1/users/${otherUserId}`],
      ['post', `/api/1/accounts/${accountId}/users`],
      ['put', `/api/1/accounts/${accountId}/users/${otherUserId}`],
    ];
    const bodies: [string, string][] = [
      ['application/json', 'null'],
      ['application/json', '"text"'],
      ['application/json', '[{"a_name":"x"}]'],
      ['application/json', '{"a_name":'],
      ['application/json', `{"a_name":${'['.repeat(3000)}${']'.repeat(3000)}}`],
      ['application/json', JSON.stringify({ a_name: 'x'.repeat(1_100_000) })],
      ['application/json', '{"u_email":{"$gt":""},"a_name":{"toString":1},"au_userid":["x"],"au_role":{"0":"admin"},"u_role":["root"]}'],
      ['text/plain', 'a_name=x'],
      ['application/x-www-form-urlencoded', 'a_name=x&u_email=x%40example.com'],
    ];
    for (const [method, url] of urls) {
      for (const [type, text] of bodies) {
        const res = await root
          .raw(method as 'post' | 'put', url)
          .type(type)
          .send(text);
        const label = `${method} ${url} ${type} ${text.slice(0, 40)}`;
        // an update with nothing valid to change may answer 200 (nothing changed); everything else is refused
        if (res.status === 200 && method === 'put') continue;
        expectClientError(label, res);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('prototype keys in a body are refused and change nothing', async () => {
    const before = await t.db('accounts').count({ n: '*' }).first();
    const res = await root
      .raw('post', '/api/1/accounts')
      .type('application/json')
      .send('{"a_name":"Proto Co","__proto__":{"a_is_enabled":false},"constructor":{"prototype":{"polluted":1}}}');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('forbidden_key');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await t.db('accounts').count({ n: '*' }).first()).toEqual(before);
  });
});
