import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { linkFromMail, startApp, withGrant, type TestApp, type TestClient } from '../helpers/app.js';

const URL = '/api/1/users/import/csv';

describeEachDb('CSV user import', (kind) => {
  let t: TestApp;
  let root: TestClient;
  let acme: { a_id: string };
  beforeAll(async () => {
    t = await startApp(kind, { csvMaxBytes: 5 * 1024 * 1024 });
    root = await t.signedIn('root');
    acme = await t.account('Acme Events');
    await t.account('Domain Co', { a_email_domain: 'domain.example' });
  });
  afterAll(() => t?.close());

  const upload = (c: TestClient, csv: string, name = 'users.csv') => c.raw('post', URL).attach('file', Buffer.from(csv, 'utf8'), { filename: name, contentType: 'text/csv' });
  const count = async () => Number((await t.db('users').count({ n: '*' }).first())!.n);

  it('imports a multipart .csv: users pending, memberships by account name and id with roles, domain membership', async () => {
    const csv = [
      'email,first name,last name,account,role',
      'ann@one.example,Ann,Able,Acme Events,superadmin',
      `bob@one.example,Bob,Baker,${acme.a_id},`,
      'cy@domain.example,Cy,"Cole, Jr.",,',
    ].join('\n');
    const res = await upload(root, csv);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 'ok', rows: 3, created: 3, memberships: 3 });
    const ann = await t.db('users').where('u_email', 'ann@one.example').first();
    expect(ann).toMatchObject({ u_first_name: 'Ann', u_last_name: 'Able', u_role: 'member', u_is_verified: false, u_password: null });
    const roles = await t.db('account_users').join('users', 'u_id', 'au_userid').join('accounts', 'a_id', 'au_accountid').select('u_email', 'a_name', 'au_role').orderBy('u_email');
    expect(roles).toEqual([
      { u_email: 'ann@one.example', a_name: 'Acme Events', au_role: 'superadmin' },
      { u_email: 'bob@one.example', a_name: 'Acme Events', au_role: 'member' },
      { u_email: 'cy@domain.example', a_name: 'Domain Co', au_role: 'member' },
    ]);
    expect((await t.db('users').where('u_email', 'cy@domain.example').first()).u_last_name).toBe('Cole, Jr.');
  });

  it('accepts a text/csv body and JSON {csv}, a BOM, ";" separators and other header spellings', async () => {
    const text = '\uFEFFE-Mail Address;Given Name;Surname;Company\r\ntext1@two.example;T;One;acme events\r\n';
    const a = await root.post(URL, text);
    expect(a.status).toBe(200);
    expect(a.body.created).toBe(1);
    const b = await root.post(URL, { csv: 'EMAIL,FIRSTNAME,LASTNAME\njson1@two.example,J,One\n' });
    expect(b.status).toBe(200);
    expect(b.body.created).toBe(1);
    const row = await t.db('users').where('u_email', 'text1@two.example').first();
    expect(row.u_first_name).toBe('T');
    expect(await t.db('account_users').where('au_userid', row.u_id).first()).toBeTruthy();
  });

  it('rejects the whole file and lists every offending row with its code', async () => {
    await t.user('exists@three.example');
    const before = await count();
    const csv = [
      'email,first name,last name,account',
      'ok1@three.example,Ok,One,Acme Events', // row 2: fine
      'not-an-email,Bad,Mail,Acme Events', // row 3
      'exists@three.example,Ex,Ists,', // row 4
      'dup@three.example,Dup,First,', // row 5: fine (first occurrence)
      'DUP@three.example,Dup,Second,', // row 6
      'ok2@three.example,No,Where,Atlantis', // row 7
    ].join('\n');
    const res = await upload(root, csv);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('createuserscsv_invalid_email');
    expect(res.body.message).toMatch(/4 rows could not be imported; nothing was imported/);
    expect(res.body.errors).toEqual([
      { row: 3, code: 'createuserscsv_invalid_email', u_first_name: 'Bad', u_last_name: 'Mail', u_email: 'not-an-email' },
      { row: 4, code: 'createuserscsv_user_exists', u_first_name: 'Ex', u_last_name: 'Ists', u_email: 'exists@three.example' },
      { row: 6, code: 'createuserscsv_duplicate_user', u_first_name: 'Dup', u_last_name: 'Second', u_email: 'DUP@three.example' },
      { row: 7, code: 'createuserscsv_unknown_account', u_first_name: 'No', u_last_name: 'Where', u_email: 'ok2@three.example' },
    ]);
    expect(await count()).toBe(before); // all or nothing
    expect(await t.db('users').where('u_email', 'ok1@three.example').first()).toBeUndefined();
  });

  it('names each single error code on its own', async () => {
    const cases: [string, string][] = [
      ['a@four.example,A,A,Nowhere Inc', 'createuserscsv_unknown_account'],
      ['four-at-example,A,A,', 'createuserscsv_invalid_email'],
      ['exists@three.example,A,A,', 'createuserscsv_user_exists'],
      ['d@four.example,A,A,\nd@four.example,B,B,', 'createuserscsv_duplicate_user'],
      ['r@four.example,A,A,Acme Events,emperor', 'createuserscsv_invalid_role'],
    ];
    for (const [rows, code] of cases) {
      const res = await upload(root, `email,first,last,account,role\n${rows}\n`);
      expect(res.status, code).toBe(400);
      expect(res.body.code).toBe(code);
      expect(res.body.errors.map((e: { code: string }) => e.code)).toEqual([code]);
    }
  });

  it('refuses other file types, empty files, a file without an e-mail column, and files over the size limit', async () => {
    const before = await count();
    const notCsv = await upload(root, 'email\nx@five.example\n', 'users.xlsx');
    expect(notCsv.status).toBe(400);
    expect(notCsv.body.code).toBe('invalid_file_type');
    const empty = await upload(root, 'email,first name\n');
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe('createuserscsv_empty');
    const noEmail = await upload(root, 'name,company\nAnn,Acme\n');
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.code).toBe('createuserscsv_missing_columns');
    const big = await upload(root, 'email\n' + 'x'.repeat(6 * 1024 * 1024));
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('file_too_large');
    const nothing = await root.post(URL, {});
    expect(nothing.status).toBe(400);
    expect(nothing.body.fields).toEqual({ csv: 'error_required' });
    expect(await count()).toBe(before);
  });

  it('is root only: 401 without a session, 403 without CSRF, 403 for superadmin, admin and member', async () => {
    const csv = 'email\nnope@six.example\n';
    const anon = t.client();
    expect((await anon.post(URL, csv)).status).toBe(401);
    const noCsrf = await root.send('post', URL, csv, { csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.code).toBe('csrf_invalid');
    for (const role of ['superadmin', 'admin', 'member']) {
      const c = await t.signedIn(role);
      const res = await c.post(URL, csv);
      expect(res.status, role).toBe(403);
    }
    // even when ops grant superadmin every entry_users bit in the database, importing stays root-only (spec 6)
    const superadmin = await t.signedIn('superadmin');
    await withGrant(t, 'superadmin', 'entry_users', 31, async () => {
      expect((await superadmin.get('/api/1/users')).status).toBe(200);
      expect((await superadmin.post(URL, csv)).status).toBe(403);
    });
    expect(await t.db('users').where('u_email', 'nope@six.example').first()).toBeUndefined();
  });

  it('imported users are pending until they reset a password from the mailed link', async () => {
    await upload(root, 'email,first name\npending@seven.example,Pat\n');
    const login = await t.client().post('/api/1/auth/web', { u_email: 'pending@seven.example', u_password: 'whatever-password' });
    expect(login.status).toBe(401);
    await t.client().post('/api/1/auth/forgot-password', { u_email: 'pending@seven.example' });
    const mail = t.outbox().find((m) => m.file.includes('pending@seven.example'))!;
    const token = new globalThis.URL(linkFromMail(mail.text, '/users/resetpassword?token=')!).searchParams.get('token')!;
    const page = t.client();
    const guest = await page.get('/api/1/auth/guest-token');
    const reset = await page.put(
      '/api/1/auth/reset-password',
      { token, password: 'pending-new-password', password_confirm: 'pending-new-password' },
      { headers: { 'X-Guest-Token': guest.body.token } },
    );
    expect(reset.status).toBe(200);
    expect((await t.client().post('/api/1/auth/web', { u_email: 'pending@seven.example', u_password: 'pending-new-password' })).status).toBe(200);
  });

  it('imports a 100,000-row file in one go', async () => {
    const lines = ['email,first name,last name,account'];
    for (let i = 0; i < 100_000; i++) lines.push(`bulk${i}@bulk.example,First${i},Last${i},${i % 4 === 0 ? 'Acme Events' : ''}`);
    const before = await count();
    const res = await upload(root, lines.join('\n'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 'ok', rows: 100_000, created: 100_000, memberships: 25_000 });
    expect(await count()).toBe(before + 100_000);
    const page = await root.get('/api/1/users?range=[0,24]&sort=["u_email","ASC"]&filter={"q":"bulk9999"}');
    expect(page.headers['content-range']).toBe('users 0-10/11'); // bulk9999 and bulk99990..bulk99999
  }, 120_000);
});
