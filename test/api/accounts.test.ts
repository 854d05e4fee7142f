import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { startApp, type TestApp, MISSING, uid, signedInRoles, type Signed } from '../helpers/app.js';

const listUrl = (params: Record<string, unknown>) =>
  `/api/1/accounts?${Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`)
    .join('&')}`;

describeEachDb('entry API: /accounts', (kind) => {
  let t: TestApp;
  let root: Signed, superadmin: Signed, admin: Signed, member: Signed;

  beforeAll(async () => {
    t = await startApp(kind);
    ({ root, superadmin, admin, member } = await signedInRoles(t));
  });
  afterAll(() => t?.close());

  const row = (id: string) => t.db('accounts').where('a_id', id).first();
  const count = async () => Number((await t.db('accounts').count({ n: '*' }).first())!.n);

  // ---- list ----------------------------------------------------------------------------------------------------

  it('GET /accounts without parameters answers the full array; staff see every account', async () => {
    const p = uid();
    const a = await t.account(`${p}a`);
    const b = await t.account(`${p}b`);
    for (const c of [root, superadmin, admin]) {
      const res = await c.get('/api/1/accounts');
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.body).toHaveLength(await count());
      const ids = res.body.map((r: { id: string }) => r.id);
      expect(ids).toEqual(expect.arrayContaining([a.a_id, b.a_id]));
      const rec = res.body.find((r: { id: string }) => r.id === a.a_id);
      expect(rec).toMatchObject({ id: a.a_id, a_id: a.a_id, a_name: `${p}a`, a_is_enabled: true });
    }
  });

  it('a member lists and reads only the accounts it belongs to; another account answers 404', async () => {
    const p = uid();
    const mine = await t.account(`${p}mine`);
    const other = await t.account(`${p}other`);
    await t.member(mine.a_id, member.userId);
    const res = await member.get('/api/1/accounts');
    expect(res.status).toBe(200);
    const ids = res.body.map((r: { id: string }) => r.id);
    expect(ids).toContain(mine.a_id);
    expect(ids).not.toContain(other.a_id);
    expect((await member.get(`/api/1/accounts/${mine.a_id}`)).status).toBe(200);
    const nope = await member.get(`/api/1/accounts/${other.a_id}`);
    expect(nope.status).toBe(404);
    expect(nope.body.code).toBe('not_found');
    const paged = await member.get(listUrl({ filter: { q: p }, range: [0, 24] }));
    expect(paged.body.map((r: { id: string }) => r.id)).toEqual([mine.a_id]);
    expect(paged.headers['content-range']).toBe('accounts 0-0/1');
    // getMany cannot reach past the membership either
    const many = await member.get(listUrl({ filter: { id: [mine.a_id, other.a_id] } }));
    expect(many.body.map((r: { id: string }) => r.id)).toEqual([mine.a_id]);
  });

  it('pages with range/sort/filter: one page and Content-Range "accounts s-e/total"', async () => {
    const p = uid();
    for (const s of ['e', 'b', 'd', 'a', 'c']) await t.account(`${p}${s}`);
    const res = await root.get(listUrl({ filter: { q: p }, sort: ['a_name', 'ASC'], range: [1, 3] }));
    expect(res.status).toBe(200);
    expect(res.headers['content-range']).toBe('accounts 1-3/5');
    expect(res.headers['access-control-expose-headers']).toMatch(/Content-Range/i);
    expect(res.body.map((r: { a_name: string }) => r.a_name)).toEqual([`${p}b`, `${p}c`, `${p}d`]);
    const desc = await root.get(listUrl({ filter: { q: p }, sort: ['a_name', 'DESC'], range: [0, 1] }));
    expect(desc.body.map((r: { a_name: string }) => r.a_name)).toEqual([`${p}e`, `${p}d`]);
    expect(desc.headers['content-range']).toBe('accounts 0-1/5');
    // past the end: an empty page, the total still known
    const past = await root.get(listUrl({ filter: { q: p }, range: [10, 19] }));
    expect(past.status).toBe(200);
    expect(past.body).toEqual([]);
    expect(past.headers['content-range']).toMatch(/\/5$/);
    // filter or sort alone also asks for the paged form
    const onlyFilter = await root.get(listUrl({ filter: { q: p } }));
    expect(onlyFilter.headers['content-range']).toBe('accounts 0-4/5');
    expect(onlyFilter.body).toHaveLength(5);
    const onlySort = await root.get(listUrl({ sort: ['a_name', 'ASC'] }));
    expect(onlySort.headers['content-range']).toMatch(/^accounts 0-\d+\/\d+$/);
  });

  it('q is a case-insensitive prefix search over the name; several words must all match', async () => {
    const p = uid();
    const a = await t.account(`${p}Alpha Corp`);
    const b = await t.account(`${p}beta Alpha`);
    await t.account(`${p}gamma`);
    const q = async (text: string) => {
      const res = await root.get(listUrl({ filter: { q: text }, range: [0, 24] }));
      expect(res.status).toBe(200);
      return res.body.map((r: { id: string }) => r.id).sort();
    };
    expect(await q(`${p.toUpperCase()}ALPHA`)).toEqual([a.a_id]);
    expect(await q(`${p}BETA`)).toEqual([b.a_id]);
    // the second word is a prefix of a later word (multi-word)
    expect((await q(`${p}beta alp`)).length).toBe(1);
    expect(await q(`${p}alpha CORP`)).toEqual([a.a_id]);
    expect(await q(`${p}alpha beta`)).toEqual([]);
    // not a substring search
    expect(await q('lpha')).toEqual([]);
    // LIKE wildcards are literal
    expect(await q(`${p}%`)).toEqual([]);
    expect(await q(`${p}_lpha`)).toEqual([]);
  });

  it('filters by ids (getMany) and by a_is_enabled', async () => {
    const p = uid();
    const a = await t.account(`${p}a`);
    const b = await t.account(`${p}b`, { a_is_enabled: false });
    await t.account(`${p}c`);
    const many = await root.get(listUrl({ filter: { id: [a.a_id, b.a_id, 'not-a-uuid'] } }));
    expect(many.status).toBe(200);
    expect(many.body.map((r: { id: string }) => r.id).sort()).toEqual([a.a_id, b.a_id].sort());
    const none = await root.get(listUrl({ filter: { id: ['not-a-uuid'] } }));
    expect(none.body).toEqual([]);
    const disabled = await root.get(listUrl({ filter: { q: p, a_is_enabled: false }, range: [0, 9] }));
    expect(disabled.body.map((r: { id: string }) => r.id)).toEqual([b.a_id]);
    const enabled = await root.get(listUrl({ filter: { q: p, a_is_enabled: 'true' }, range: [0, 9] }));
    expect(enabled.headers['content-range']).toBe('accounts 0-1/2');
  });

  it('keeps a stable order across pages when sort values tie', async () => {
    const p = uid();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await t.account(`${p}same`)).a_id);
    const seen: string[] = [];
    for (const range of [
      [0, 2],
      [3, 5],
      [6, 8],
    ]) {
      const res = await root.get(listUrl({ filter: { q: p }, sort: ['a_name', 'ASC'], range }));
      expect(res.status).toBe(200);
      seen.push(...res.body.map((r: { id: string }) => r.id));
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    expect([...seen].sort()).toEqual([...ids].sort());
    // the same query twice gives the same order
    const again = await root.get(listUrl({ filter: { q: p }, sort: ['a_name', 'ASC'], range: [0, 6] }));
    expect(again.body.map((r: { id: string }) => r.id)).toEqual(seen);
    // sorting by id works too
    const byId = await root.get(listUrl({ filter: { q: p }, sort: ['id', 'DESC'], range: [0, 6] }));
    expect(byId.body.map((r: { id: string }) => r.id)).toEqual([...ids].sort().reverse());
  });

  it('accepts a page of 1000 rows and refuses 1001, a bad range, sort or filter with 400', async () => {
    const ok = await root.get(listUrl({ range: [0, 999] }));
    expect(ok.status).toBe(200);
    const bad: [Record<string, unknown> | string, string][] = [
      [{ range: [0, 1000] }, 'invalid_range'],
      [{ range: [5, 2] }, 'invalid_range'],
      [{ range: [-1, 3] }, 'invalid_range'],
      [{ range: [0] }, 'invalid_range'],
      [{ range: ['0', '9'] }, 'invalid_range'],
      [{ range: [1e300, 1e300] }, 'invalid_range'],
      [{ range: [Number.MAX_SAFE_INTEGER + 1, Number.MAX_SAFE_INTEGER + 1] }, 'invalid_range'], // what 9007199254740993 becomes as a number
      [{ range: { start: 0 } }, 'invalid_range'],
      [{ sort: ['a_password', 'ASC'] }, 'invalid_sort'],
      [{ sort: ['a_name', 'SIDEWAYS'] }, 'invalid_sort'],
      [{ sort: 'a_name' }, 'invalid_sort'],
      [{ sort: [{ a: 1 }, 'ASC'] }, 'invalid_sort'],
      [{ filter: { a_public_key: 'x' } }, 'invalid_filter'],
      [{ filter: ['q'] }, 'invalid_filter'],
      [{ filter: { q: 5 } }, 'invalid_filter'],
      [{ filter: { q: ['a'] } }, 'invalid_filter'],
      [{ filter: { a_is_enabled: { $ne: 1 } } }, 'invalid_filter'],
      [{ filter: { a_is_enabled: 'maybe' } }, 'invalid_filter'],
      [{ filter: { a_is_enabled: 7 } }, 'invalid_filter'],
      ['range=[0,&sort=x', 'invalid_query'],
      ['filter={q', 'invalid_query'],
      ['range=1&range=2', 'invalid_query'],
    ];
    for (const [params, code] of bad) {
      const url = typeof params === 'string' ? `/api/1/accounts?${params}` : listUrl(params);
      const res = await root.get(url);
      expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status: 400, code });
      expect(res.body.message).toBeTruthy();
    }
  });

  it('GET /accounts answers 401 without a session, also with list parameters', async () => {
    const res = await t.client().get('/api/1/accounts');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('not_logged_in');
    expect((await t.client().get(listUrl({ range: [0, 9] }))).status).toBe(401);
  });

  // ---- one record ----------------------------------------------------------------------------------------------

  it('GET /accounts/:id answers the record; 404 for unknown or malformed ids; 401 without a session', async () => {
    const a = await t.account(`${uid()}one`, { a_email_domain: 'one.example', a_api_url: 'https://api.one.example' });
    const res = await root.get(`/api/1/accounts/${a.a_id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: a.a_id, a_id: a.a_id, a_email_domain: 'one.example', a_api_url: 'https://api.one.example', a_has_logo: false });
    for (const id of [MISSING, 'nope', '1', `${a.a_id}x`, a.a_id.toUpperCase().replace(/-/g, '')]) {
      const r = await root.get(`/api/1/accounts/${encodeURIComponent(id)}`);
      expect({ id, status: r.status, code: r.body.code }).toEqual({ id, status: 404, code: 'not_found' });
    }
    expect((await t.client().get(`/api/1/accounts/${a.a_id}`)).status).toBe(401);
  });

  // ---- create --------------------------------------------------------------------------------------------------

  it('POST /accounts creates an account (root and superadmin) and stores the normalised fields', async () => {
    const p = uid();
    const res = await root.post('/api/1/accounts', {
      a_name: `  ${p} Events  `,
      a_email_domain: '@Example-Events.COM',
      a_api_url: 'https://api.example.com',
      a_admin_url: '',
      a_public_key: 'ssh-ed25519 AAAA',
      a_has_logo: true, // not writable here
      a_id: MISSING, // ignored
      a_is_enabled: false,
    });
    expect(res.status).toBe(201);
    expect(res.body.id).toBe(res.body.a_id);
    expect(res.body.a_id).not.toBe(MISSING);
    const stored = await row(res.body.a_id);
    expect(stored).toMatchObject({
      a_name: `${p} Events`,
      a_email_domain: 'example-events.com',
      a_api_url: 'https://api.example.com',
      a_admin_url: null,
      a_storage_url: null,
      a_public_key: 'ssh-ed25519 AAAA',
      a_is_enabled: false,
      a_has_logo: false,
    });
    const bySuper = await superadmin.post('/api/1/accounts', { a_name: `${p} second` });
    expect(bySuper.status).toBe(201);
    expect(await row(bySuper.body.a_id)).toMatchObject({ a_name: `${p} second`, a_is_enabled: true, a_email_domain: null });
  });

  it('POST /accounts: 401 without a session, 403 without CSRF, 403 for admin and member; nothing stored', async () => {
    const p = uid();
    const before = await count();
    const anon = await t.client().post('/api/1/accounts', { a_name: `${p}anon` });
    expect(anon.status).toBe(401);
    const noCsrf = await root.post('/api/1/accounts', { a_name: `${p}csrf` }, { csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.code).toBe('csrf_invalid');
    for (const c of [admin, member]) {
      const r = await c.post('/api/1/accounts', { a_name: `${p}role` });
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('forbidden');
    }
    expect(await count()).toBe(before);
    expect(
      await t
        .db('accounts')
        .whereRaw('a_name like ?', [`${p}%`])
        .first(),
    ).toBeUndefined();
  });

  it('POST /accounts: invalid body answers 400 with field errors and stores nothing', async () => {
    const before = await count();
    const cases: [unknown, Record<string, string>][] = [
      [{ a_name: '' }, { a_name: 'error_name_required' }],
      [{ a_name: '   ' }, { a_name: 'error_name_required' }],
      [{}, { a_name: 'error_name_required' }],
      [{ a_name: null }, { a_name: 'error_name_required' }],
      [{ a_name: 42 }, { a_name: 'error_name_required' }],
      [{ a_name: 'x'.repeat(201) }, { a_name: 'error_too_long' }],
      [{ a_name: 'ok', a_email_domain: 'not a domain' }, { a_email_domain: 'error_domain_invalid' }],
      [{ a_name: 'ok', a_api_url: 'javascript:alert(1)' }, { a_api_url: 'error_url_invalid' }],
      [{ a_name: 'ok', a_storage_url: 'ftp://files' }, { a_storage_url: 'error_url_invalid' }],
      [{ a_name: 'ok', a_is_enabled: 'yes' }, { a_is_enabled: 'error_invalid_value' }],
      [{ a_name: 'ok', a_public_key: { k: 1 } }, { a_public_key: 'error_invalid_value' }],
    ];
    for (const [body, fields] of cases) {
      const res = await root.post('/api/1/accounts', body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'validation_failed' });
      expect(res.body.fields).toMatchObject(fields);
      expect(res.body.message).toBeTruthy();
    }
    // not an object at all, and broken JSON
    const arr = await root.post('/api/1/accounts', [1, 2]);
    expect(arr.status).toBe(400);
    const broken = await root.raw('post', '/api/1/accounts').type('application/json').send('{"a_name":');
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe('invalid_json');
    expect(await count()).toBe(before);
  });

  // ---- update --------------------------------------------------------------------------------------------------

  it('PUT /accounts/:id updates the given fields and keeps the others (root and admin)', async () => {
    const p = uid();
    const a = await t.account(`${p}old`, { a_email_domain: 'keep.example', a_api_url: 'https://keep.example', a_public_key: 'k' });
    const res = await root.put(`/api/1/accounts/${a.a_id}`, { a_name: `${p}new` });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: a.a_id, a_name: `${p}new`, a_email_domain: 'keep.example' });
    expect(await row(a.a_id)).toMatchObject({ a_name: `${p}new`, a_email_domain: 'keep.example', a_api_url: 'https://keep.example', a_public_key: 'k' });
    // an empty string or null clears an optional field; admin has update
    const cleared = await admin.put(`/api/1/accounts/${a.a_id}`, { a_api_url: '', a_public_key: null, a_is_enabled: false });
    expect(cleared.status).toBe(200);
    expect(await row(a.a_id)).toMatchObject({ a_name: `${p}new`, a_api_url: null, a_public_key: null, a_email_domain: 'keep.example', a_is_enabled: false });
    // the full record as react-admin sends it back (id, timestamps, read-only fields) is accepted
    const full = (await root.get(`/api/1/accounts/${a.a_id}`)).body;
    const again = await root.put(`/api/1/accounts/${a.a_id}`, { ...full, a_name: `${p}full`, a_has_logo: true });
    expect(again.status).toBe(200);
    expect(await row(a.a_id)).toMatchObject({ a_id: a.a_id, a_name: `${p}full`, a_has_logo: false });
  });

  it('PUT /accounts/:id: 401, 403 without CSRF, 403 for a member, 404 for unknown/malformed ids; nothing changed', async () => {
    const p = uid();
    const a = await t.account(`${p}same`);
    await t.member(a.a_id, member.userId, 'root'); // the role in the account does not grant entry_* rights
    const before = await row(a.a_id);
    expect((await t.client().put(`/api/1/accounts/${a.a_id}`, { a_name: 'x' })).status).toBe(401);
    const noCsrf = await root.put(`/api/1/accounts/${a.a_id}`, { a_name: 'x' }, { csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.code).toBe('csrf_invalid');
    const byMember = await member.put(`/api/1/accounts/${a.a_id}`, { a_name: 'x' });
    expect(byMember.status).toBe(403);
    expect(byMember.body.code).toBe('forbidden');
    for (const id of [MISSING, 'nope']) {
      const r = await root.put(`/api/1/accounts/${id}`, { a_name: 'x' });
      expect(r.status).toBe(404);
    }
    expect(await row(a.a_id)).toEqual(before);
  });

  it('PUT /accounts/:id: invalid body answers 400 with field errors and changes nothing', async () => {
    const a = await t.account(`${uid()}valid`, { a_email_domain: 'valid.example' });
    const before = await row(a.a_id);
    const cases: [unknown, Record<string, string>][] = [
      [{ a_name: '' }, { a_name: 'error_name_required' }],
      [{ a_name: null }, { a_name: 'error_name_required' }],
      [{ a_name: 'fine', a_email_domain: 'nodot' }, { a_email_domain: 'error_domain_invalid' }],
      [{ a_name: 'fine', a_admin_url: 'admin' }, { a_admin_url: 'error_url_invalid' }],
      [{ a_is_enabled: 0 }, { a_is_enabled: 'error_invalid_value' }],
    ];
    for (const [body, fields] of cases) {
      const res = await root.put(`/api/1/accounts/${a.a_id}`, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.fields).toMatchObject(fields);
    }
    expect(await row(a.a_id)).toEqual(before);
  });

  // ---- delete --------------------------------------------------------------------------------------------------

  it('DELETE /accounts/:id removes the account and its memberships, not the users', async () => {
    const a = await t.account(`${uid()}gone`);
    const u = await t.user(`${uid()}@example.com`);
    await t.member(a.a_id, u.u_id);
    const res = await root.delete(`/api/1/accounts/${a.a_id}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(a.a_id);
    expect(await row(a.a_id)).toBeUndefined();
    expect(await t.db('account_users').where('au_accountid', a.a_id).first()).toBeUndefined();
    expect(await t.db('users').where('u_id', u.u_id).first()).toBeTruthy();
    expect((await root.get(`/api/1/accounts/${a.a_id}`)).status).toBe(404);
    const b = await t.account(`${uid()}gone2`);
    expect((await superadmin.delete(`/api/1/accounts/${b.a_id}`)).status).toBe(200);
    expect(await row(b.a_id)).toBeUndefined();
  });

  it('DELETE /accounts/:id: 401, 403 without CSRF, 403 for admin and member, 404 for unknown/malformed ids', async () => {
    const a = await t.account(`${uid()}stays`);
    await t.member(a.a_id, member.userId);
    expect((await t.client().delete(`/api/1/accounts/${a.a_id}`)).status).toBe(401);
    const noCsrf = await root.delete(`/api/1/accounts/${a.a_id}`, { csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.code).toBe('csrf_invalid');
    for (const c of [admin, member]) {
      const r = await c.delete(`/api/1/accounts/${a.a_id}`);
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('forbidden');
    }
    for (const id of [MISSING, 'nope', "1' or '1'='1"]) {
      const r = await root.delete(`/api/1/accounts/${encodeURIComponent(id)}`);
      expect(r.status).toBe(404);
    }
    expect(await row(a.a_id)).toBeTruthy();
    expect(await t.db('account_users').where('au_accountid', a.a_id).first()).toBeTruthy();
  });
});
