import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { startApp, type Signed, type TestApp } from '../helpers/app.js';
import { businessDigest, expectClientError, rawSend } from '../helpers/bodies.js';
import { PNG } from '../helpers/storage.js';

const JSON_TYPE = { 'Content-Type': 'application/json' };
const IMPORT = '/api/1/users/import/csv';

/** A body nested `levels` deep in arrays, as raw text (JSON.stringify would overflow building it). */
const deepArray = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
/** An object whose a_name is valid and whose `extra` nests to `levels` levels in all (the body itself is level 1). */
const nestedAccount = (levels: number) => `{"a_name":"Deep","extra":${'{"x":'.repeat(levels - 1)}1${'}'.repeat(levels - 1)}}`;

// Each case here answered 500 before bodies were bounded and parser errors mapped: a regression names itself.
describeEachDb('request bodies the API cannot take: 4xx, nothing changed', (kind) => {
  let t: TestApp;
  let root: Signed;
  let before: string;
  beforeAll(async () => {
    t = await startApp(kind, { csvMaxBytes: 64 * 1024 });
    root = await t.signedIn('root');
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    before = await businessDigest(t.db);
  });
  const unchanged = async () => expect(await businessDigest(t.db)).toBe(before);

  it('refuses a body nested 10,000 levels deep with 400 body_too_deep (it overflowed the NUL-byte check)', async () => {
    for (const body of [deepArray(10_000), `{"a_name":${deepArray(10_000)}}`, `{"a_name":"x","a":${'{"b":'.repeat(5000)}1${'}'.repeat(5000)}}`]) {
      expectClientError(await rawSend(root, 'post', '/api/1/accounts', body, JSON_TYPE), 400, 'body_too_deep');
    }
    expectClientError(await rawSend(root, 'put', `/api/1/users/${root.userId}`, deepArray(100_000), JSON_TYPE), 400, 'body_too_deep');
    await unchanged();
  });

  it('takes 32 levels of nesting and refuses 33', async () => {
    const ok = await rawSend(root, 'post', '/api/1/accounts', nestedAccount(32), JSON_TYPE);
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.a_name).toBe('Deep');
    before = await businessDigest(t.db);
    expectClientError(await rawSend(root, 'post', '/api/1/accounts', nestedAccount(33), JSON_TYPE), 400, 'body_too_deep');
    await unchanged();
  });

  it('refuses a charset other than UTF with 415 unsupported_media_type', async () => {
    for (const charset of ['x-bogus', 'utf-bogus', 'latin1']) {
      const res = await rawSend(root, 'post', '/api/1/accounts', '{"a_name":"Charset"}', { 'Content-Type': `application/json; charset=${charset}` });
      expectClientError(res, 415, 'unsupported_media_type');
    }
    expectClientError(await rawSend(root, 'post', IMPORT, 'email\na@b.example\n', { 'Content-Type': 'text/csv; charset=x-bogus' }), 415, 'unsupported_media_type');
    await unchanged();
  });

  it('reads UTF-16 JSON as it says (a positive control for the charset check)', async () => {
    const res = await rawSend(root, 'post', '/api/1/accounts', Buffer.from('\ufeff{"a_name":"Sixteen"}', 'utf16le'), { 'Content-Type': 'application/json; charset=utf-16' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.a_name).toBe('Sixteen');
  });

  it('refuses an unknown Content-Encoding with 415 and bytes that do not match it with 400', async () => {
    const body = '{"a_name":"Encoded"}';
    for (const encoding of ['x-bogus', 'gzip, br', 'compress']) {
      expectClientError(await rawSend(root, 'post', '/api/1/accounts', body, { ...JSON_TYPE, 'Content-Encoding': encoding }), 415, 'unsupported_encoding');
    }
    for (const encoding of ['gzip', 'br', 'deflate']) {
      expectClientError(await rawSend(root, 'post', '/api/1/accounts', body, { ...JSON_TYPE, 'Content-Encoding': encoding }), 400, 'invalid_encoding');
    }
    // A gzip stream cut off halfway.
    expectClientError(await rawSend(root, 'post', '/api/1/accounts', zlib.gzipSync(body).subarray(0, 12), { ...JSON_TYPE, 'Content-Encoding': 'gzip' }), 400, 'invalid_encoding');
    expectClientError(await rawSend(root, 'post', IMPORT, 'email\n', { 'Content-Type': 'text/csv', 'Content-Encoding': 'x-bogus' }), 415, 'unsupported_encoding');
    await unchanged();
    // A body that is what it says it is goes through.
    const ok = await rawSend(root, 'post', '/api/1/accounts', zlib.gzipSync(body), { ...JSON_TYPE, 'Content-Encoding': 'gzip' });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.a_name).toBe('Encoded');
  });

  it('refuses a gzip bomb past the size limit with 413 payload_too_large', async () => {
    const bomb = zlib.gzipSync(`{"a_name":"${'x'.repeat(3 * 1024 * 1024)}"}`);
    expect(bomb.length).toBeLessThan(64 * 1024);
    expectClientError(await rawSend(root, 'post', '/api/1/accounts', bomb, { ...JSON_TYPE, 'Content-Encoding': 'gzip' }), 413, 'payload_too_large');
    await unchanged();
  });

  it('answers invalid JSON 400 invalid_json and an oversized body 413 payload_too_large', async () => {
    for (const body of ['{"a_name":', '{a_name: "x"}', 'null', '"just a string"', '\u0000']) {
      expectClientError(await rawSend(root, 'post', '/api/1/accounts', body, JSON_TYPE), 400, 'invalid_json');
    }
    expectClientError(await rawSend(root, 'post', '/api/1/accounts', `{"a_name":"${'x'.repeat(1024 * 1024)}"}`, JSON_TYPE), 413, 'payload_too_large');
    await unchanged();
  });

  it('refuses __proto__, constructor and prototype keys at any depth with 400 forbidden_key', async () => {
    for (const body of ['{"a_name":"Proto","__proto__":{"u_role":"root"}}', '{"a_name":"Proto","settings":{"constructor":{"prototype":{"polluted":true}}}}', '[{"prototype":1}]']) {
      expectClientError(await rawSend(root, 'post', '/api/1/accounts', body, JSON_TYPE), 400, 'forbidden_key');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await unchanged();
  });

  it('refuses a NUL byte however deep it sits in a field, naming the field', async () => {
    const body = `{"a_name":"Nul","a_email_domain":${'['.repeat(20)}"a\\u0000b"${']'.repeat(20)}}`;
    const res = await rawSend(root, 'post', '/api/1/accounts', body, JSON_TYPE);
    expectClientError(res, 400, 'validation_failed');
    expect(res.body.fields).toEqual({ a_email_domain: 'error_invalid_value' });
    await unchanged();
  });

  it('answers a CSV import whose multipart body is cut off halfway 400 invalid_multipart and imports nobody', async () => {
    const boundary = 'cutcutcut';
    const whole = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="users.csv"\r\nContent-Type: text/csv\r\n\r\nemail\r\ncut1@example.com\r\ncut2@example.com\r\n--${boundary}--\r\n`,
    );
    // The whole request arrives (Content-Length matches), but the form inside it stops mid-file.
    const cut = whole.subarray(0, whole.length - 30);
    const res = await rawSend(root, 'post', IMPORT, cut, { 'Content-Type': `multipart/form-data; boundary=${boundary}` });
    expectClientError(res, 400, 'invalid_multipart');
    await unchanged();
    // The same form, whole, imports (so the refusal above was about the cut).
    const ok = await rawSend(root, 'post', IMPORT, whole, { 'Content-Type': `multipart/form-data; boundary=${boundary}` });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.created).toBe(2);
  });

  it('answers a malformed multipart body 400 invalid_multipart', async () => {
    const cases: Array<[string, string]> = [
      ['multipart/form-data', '--x\r\n\r\n'], // no boundary parameter
      ['multipart/form-data; boundary=b', '--b\r\nContent-Disposition form-data broken\r\n\r\ndata\r\n--b--\r\n'], // malformed part header
      ['multipart/form-data; boundary=b', 'no boundary anywhere in here'],
      ['multipart/form-data; boundary=b', `--b\r\n${'X-Long: '.padEnd(90_000, 'x')}\r\n\r\nx\r\n--b--\r\n`], // a header past busboy's limit
    ];
    for (const [type, body] of cases) expectClientError(await rawSend(root, 'post', IMPORT, body, { 'Content-Type': type }), 400, 'invalid_multipart');
    await unchanged();
  });

  it('answers a file in the wrong field 400, and too many parts or files 413', async () => {
    const wrongField = await root.raw('post', IMPORT).attach('upload', Buffer.from('email\nw@example.com\n'), { filename: 'users.csv', contentType: 'text/csv' });
    expectClientError(wrongField, 400, 'unexpected_file_field');
    const twoFiles = await root
      .raw('post', IMPORT)
      .attach('file', Buffer.from('email\nf1@example.com\n'), { filename: 'a.csv', contentType: 'text/csv' })
      .attach('csv', Buffer.from('email\nf2@example.com\n'), { filename: 'b.csv', contentType: 'text/csv' });
    expectClientError(twoFiles, 413, 'payload_too_large');
    let manyFields = root.raw('post', IMPORT);
    for (let i = 0; i < 40; i++) manyFields = manyFields.field(`f${i}`, 'x');
    expectClientError(await manyFields, 413, 'payload_too_large');
    const bigField = await root.raw('post', IMPORT).field('csv', `email\n${'y'.repeat(70 * 1024)}@example.com\n`);
    expectClientError(bigField, 413, 'payload_too_large');
    await unchanged();
  });

  it('answers a 404 of the static asset server as a 404 with a JSON body, not a 500', async () => {
    const res = await t.client().get('/assets/no-such-file.js');
    expectClientError(res, 404, 'not_found');
  });

  it('refuses a signed upload PUT with a Content-Encoding 415 (the bytes would be stored encoded), and keeps nothing', async () => {
    const sign = await root.post('/api/1/storage/sign', { ids: [crypto.randomUUID()], destination: null });
    expect(sign.status, sign.text).toBe(200);
    before = await businessDigest(t.db);
    const url = new URL(sign.body[0].url, t.baseUrl);
    const put = (body: Buffer, headers: Record<string, string>) => rawSend(t.client(), 'put', url.pathname + url.search, body, headers);
    expectClientError(await put(zlib.gzipSync(PNG), { 'Content-Encoding': 'gzip', 'Content-Type': 'image/png' }), 415, 'unsupported_encoding');
    expectClientError(await put(Buffer.from('plain text'), { 'Content-Encoding': 'x-bogus', 'Content-Type': 'application/json; charset=x-bogus' }), 415, 'unsupported_encoding');
    expectClientError(await put(Buffer.alloc(0), { 'Content-Type': 'multipart/form-data' }), 400, 'file_empty');
    const reg = await root.post('/api/1/storage/files', { fs_id: sign.body[0].id, fs_folderid: null, fs_filename: 'x.png', fs_type: 'image/png', fs_path: sign.body[0].path });
    expectClientError(reg, 400, 'validation_failed');
    expect(reg.body.fields).toEqual({ fs_id: 'error_upload_not_found' });
    await unchanged();
    // Content-Type is not the driver's to interpret, and "identity" is no encoding: the bytes are sniffed as they are.
    const ok = await put(PNG, { 'Content-Encoding': 'identity', 'Content-Type': 'application/json; charset=x-bogus' });
    expect(ok.status, ok.text).toBe(200);
  });
});
