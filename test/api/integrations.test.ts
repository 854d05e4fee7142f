import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { startApp, withGrant, MISSING, type Signed, type TestApp } from '../helpers/app.js';
import { accountPath } from '../helpers/console.js';
import { startFakeBadgeProvider, BADGES, type FakeBadgeProvider } from '../../scripts/fake-badge-provider.js';
import { checkUrlHost, guardedLookup, isPrivateAddress, PrivateAddressError } from '../../api/services/privateAddress.js';
import { badgeScan } from '../../api/services/badgeScan.js';

type Row = Record<string, unknown>;

const SECRET = 'shared-secret-of-the-test';
const TIMEOUT_MS = 400;

describe('private addresses', () => {
  it('refuses loopback, private, link-local, unique-local, mapped and embedded forms; lets public ones through', () => {
    for (const ip of [
      '127.0.0.1',
      '127.8.9.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      'fc12::3',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      '2002:c0a8:101::1',
      'ff02::1',
    ])
      expect(isPrivateAddress(ip), ip).toBe(true);
    for (const ip of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '192.169.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])
      expect(isPrivateAddress(ip), ip).toBe(false);
    expect(isPrivateAddress('not-an-ip')).toBe(true);
  });

  it('checks URL hosts: literal IPs in any spelling, localhost, and names by what they resolve to', async () => {
    const lookup = async (host: string) =>
      host === 'inside.example'
        ? [{ address: '10.0.0.7' }]
        : host === 'mixed.example'
          ? [{ address: '8.8.8.8' }, { address: 'fd00::7' }]
          : host === 'public.example'
            ? [{ address: '93.184.216.34' }]
            : Promise.reject(new Error('ENOTFOUND'));
    for (const url of [
      'https://127.0.0.1/x',
      'https://0x7f.1/x',
      'https://2130706433/x',
      'https://[::1]:8443/x',
      'https://[::ffff:127.0.0.1]/',
      'https://localhost/x',
      'https://LOCALHOST./x',
      'https://api.localhost/x',
      'https://inside.example/x',
      'https://mixed.example/x',
    ])
      expect(await checkUrlHost(url, { lookup }), url).toBe('private');
    expect(await checkUrlHost('https://public.example/scan', { lookup })).toBe('public');
    expect(await checkUrlHost('https://8.8.8.8/scan', { lookup })).toBe('public');
    expect(await checkUrlHost('https://nowhere.example/scan', { lookup })).toBe('unresolved');
    expect(await checkUrlHost('https://slow.example/', { lookup: () => new Promise(() => undefined), timeoutMs: 50 })).toBe('unresolved');
  });
});

describe('the lookup a scan connects through (DNS rebinding)', () => {
  // A resolver whose answer for rebound.example has turned private since the URL was saved.
  const resolver = ((host: string, _options: unknown, callback: (err: Error | null, addresses?: { address: string; family: number }[]) => void) =>
    callback(
      null,
      host === 'rebound.example'
        ? [
            { address: '93.184.216.34', family: 4 },
            { address: '10.0.0.7', family: 4 },
          ]
        : [{ address: '93.184.216.34', family: 4 }],
    )) as unknown as Parameters<typeof guardedLookup>[1];
  const lookup = (allowPrivate: boolean, host: string, all: boolean) =>
    new Promise<{ err: Error | null; address: unknown }>((resolve) => guardedLookup(allowPrivate, resolver)(host, { all }, (err, address) => resolve({ err, address })));

  it('refuses a name that resolves to any private address, unless allowed; hands out the checked address otherwise', async () => {
    expect((await lookup(false, 'rebound.example', false)).err).toBeInstanceOf(PrivateAddressError);
    expect((await lookup(false, 'rebound.example', true)).err).toBeInstanceOf(PrivateAddressError);
    expect(await lookup(false, 'public.example', false)).toEqual({ err: null, address: '93.184.216.34' });
    expect(await lookup(false, 'public.example', true)).toEqual({ err: null, address: [{ address: '93.184.216.34', family: 4 }] });
    expect((await lookup(true, 'rebound.example', false)).err).toBeNull();
  });
});

describe('the fake badge provider', () => {
  let provider: FakeBadgeProvider;
  beforeAll(async () => {
    provider = await startFakeBadgeProvider({ secret: SECRET, apiKey: 'key-1', slowMs: 700 });
  });
  afterAll(() => provider?.close());
  const scan = (code: string, options: { secret?: string; key?: string; timeoutMs?: number } = {}) =>
    badgeScan(
      { in_api_url: provider.url, in_key: options.key ?? 'key-1', in_secret: options.secret ?? SECRET },
      { event: 'ext-1', code },
      { allowPrivate: true, timeoutMs: options.timeoutMs ?? 3000, ca: provider.cert },
    );

  it('receives {event, code} with the key and the HMAC of the exact body, and answers by code', async () => {
    const before = provider.requests.length;
    expect(await scan('1002')).toEqual({ answers: BADGES['1002'] });
    const seen = provider.requests[before];
    expect(JSON.parse(seen.body)).toEqual({ event: 'ext-1', code: '1002' });
    expect(seen.headers['x-api-key']).toBe('key-1');
    expect(seen.headers['x-signature']).toBe(crypto.createHmac('sha256', SECRET).update(seen.body).digest('hex'));
    expect(seen.headers['content-type']).toBe('application/json');
  });

  it('a wrong secret or key is 401, an unknown code 404, an error code 500: each a 502 badge_scan_failed with the status', async () => {
    for (const [options, code, status] of [
      [{ secret: 'wrong' }, '1001', 401],
      [{ key: 'wrong' }, '1001', 401],
      [{}, 'nobody', 404],
      [{}, 'error-1', 500],
    ] as const) {
      const err = await scan(code, options).catch((e: unknown) => e);
      expect(err, `${code} ${JSON.stringify(options)}`).toMatchObject({ status: 502, code: 'badge_scan_failed', details: { reason: 'provider_error', provider_status: status } });
    }
  });

  it('a slow code answers after its wait, or times out (504) at the caller’s limit', async () => {
    const started = Date.now();
    const err = await scan('slow-1', { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 504, code: 'badge_scan_timeout', message: 'Sadly we could not retrieve any data at this time' });
    expect(Date.now() - started).toBeLessThan(1500);
    expect((await scan('slow-2', { timeoutMs: 5000 })).answers.email).toBe(BADGES['1001'].email);
  });

  it('without its certificate trusted, or on a private address without the flag, the scan fails before sending', async () => {
    const untrusted = await badgeScan({ in_api_url: provider.url, in_secret: SECRET }, { event: null, code: '1001' }, { allowPrivate: true, timeoutMs: 3000 }).catch(
      (e: unknown) => e,
    );
    expect(untrusted).toMatchObject({ status: 502, details: { reason: 'unreachable' } });
    const before = provider.requests.length;
    for (const url of [provider.url, provider.url.replace('127.0.0.1', 'localhost'), provider.url.replace('127.0.0.1', '[::ffff:127.0.0.1]')]) {
      const refused = await badgeScan({ in_api_url: url, in_secret: SECRET }, { event: null, code: '1001' }, { allowPrivate: false, timeoutMs: 3000, ca: provider.cert }).catch(
        (e: unknown) => e,
      );
      expect(refused, url).toMatchObject({ status: 502, code: 'badge_scan_failed', details: { reason: 'private_address' } });
    }
    expect(provider.requests.length).toBe(before);
  });
});

describeEachDb('integrations', (kind) => {
  let provider: FakeBadgeProvider;
  let t: TestApp; // INTEGRATIONS_ALLOW_PRIVATE=1, trusts the fake provider
  let strict: TestApp; // the default: private addresses refused
  let root: Signed;
  let strictRoot: Signed;
  let a: string;
  let sa: string;
  let n = 0;

  beforeAll(async () => {
    provider = await startFakeBadgeProvider({ secret: SECRET, slowMs: 5000 });
    t = await startApp(kind, { integrationsAllowPrivate: true, integrationsCa: provider.cert, badgeScanTimeoutMs: TIMEOUT_MS });
    strict = await startApp(kind);
    root = await t.signedIn('root');
    strictRoot = await strict.signedIn('root');
    a = (await t.account('Scan A')).a_id;
    sa = (await strict.account('Strict A')).a_id;
  });
  afterAll(async () => {
    await t?.close();
    await strict?.close();
    await provider?.close();
  });

  const path = (account = a) => accountPath(account, 'integrations');
  const body = (url: string, extra: Row = {}): Row => ({
    in_title: `Provider ${++n}`,
    in_name: `provider-${n}`,
    in_type: 'badge_scan',
    in_api_url: url,
    in_key: 'key-1',
    in_secret: SECRET,
    ...extra,
  });

  it('by default a private, loopback or localhost URL is refused with in_api_url: error_url_private, nothing stored', async () => {
    for (const url of [
      'https://127.0.0.1:4555/scan',
      'https://localhost/scan',
      'https://[::1]/scan',
      'https://10.0.0.8/scan',
      'https://169.254.169.254/latest',
      'https://[fd00::5]/scan',
      'https://0x7f.1/scan',
    ]) {
      const res = await strictRoot.post(path(sa), body(url));
      expect(res.status, url).toBe(400);
      expect(res.body.fields, url).toEqual({ in_api_url: 'error_url_private' });
    }
    expect(Number((await strict.db('integrations').count({ n: '*' }).first())!.n)).toBe(0);
    // Changing a stored URL to a private one is refused as well, and leaves it as it was.
    const ok = await strictRoot.post(path(sa), body('https://badges.example.com/scan'));
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const put = await strictRoot.put(`${path(sa)}/${ok.body.id}`, { in_api_url: 'https://192.168.0.10/scan' });
    expect(put.status).toBe(400);
    expect(put.body.fields).toEqual({ in_api_url: 'error_url_private' });
    expect((await strict.db('integrations').where('in_id', ok.body.id).first()).in_api_url).toBe('https://badges.example.com/scan');
    // http is refused whatever the address.
    const http = await strictRoot.post(path(sa), body('http://badges.example.com/scan'));
    expect(http.status).toBe(400);
    expect(http.body.fields).toEqual({ in_api_url: 'error_url_https_required' });
  });

  it('with INTEGRATIONS_ALLOW_PRIVATE=1 a private URL is stored', async () => {
    const res = await root.post(path(), body(provider.url));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.in_api_url).toBe(provider.url);
  });

  it('the secret is write-only: never answered, in_secret_set instead; an update without it keeps it, an empty one clears it', async () => {
    const res = await root.post(path(), body(provider.url));
    const id = String(res.body.id);
    for (const answer of [res.body, (await root.get(`${path()}/${id}`)).body, (await root.get(path())).body.find((r: Row) => r.id === id)]) {
      expect(answer).not.toHaveProperty('in_secret');
      expect(answer.in_secret_set).toBe(true);
    }
    expect(JSON.stringify((await root.get(path())).body)).not.toContain(SECRET);
    expect((await root.put(`${path()}/${id}`, { in_title: 'Renamed' })).body.in_secret_set).toBe(true);
    expect((await t.db('integrations').where('in_id', id).first()).in_secret).toBe(SECRET);
    expect((await root.put(`${path()}/${id}`, { in_secret: '' })).body.in_secret_set).toBe(false);
    expect((await t.db('integrations').where('in_id', id).first()).in_secret).toBeNull();
  });

  it('POST /integrations/{id}/test {code} runs a signed scan and answers the person', async () => {
    const id = String((await root.post(path(), body(provider.url))).body.id);
    const before = provider.requests.length;
    const res = await root.post(`${path()}/${id}/test`, { code: '1003' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      answers: { email: 'edsger.dijkstra@example.nl', first_name: 'Edsger', last_name: 'Dijkstra', company: 'Mathematisch Centrum', job_title: 'Programmer', country: 'NL' },
    });
    const seen = provider.requests[before];
    expect(JSON.parse(seen.body)).toEqual({ event: null, code: '1003' });
    expect(seen.headers['x-api-key']).toBe('key-1');
    expect(seen.headers['x-signature']).toBe(crypto.createHmac('sha256', SECRET).update(seen.body).digest('hex'));
  });

  it('with show_request (and export_curl) the test answers the request it sent, signature included, the key masked', async () => {
    const id = String((await root.post(path(), body(provider.url, { in_key: 'key-123456789' }))).body.id);
    const before = provider.requests.length;
    const res = await root.post(`${path()}/${id}/test`, { code: '1003', show_request: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const seen = provider.requests[before];
    expect(res.body.request).toEqual({
      method: 'POST',
      url: provider.url,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Api-Key': '…6789', 'X-Signature': seen.headers['x-signature'] },
      body: seen.body,
    });
    expect(JSON.stringify(res.body)).not.toContain('key-123456789');
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    // A failed scan carries it too; without show_request the answer is as before.
    const failed = await root.post(`${path()}/${id}/test`, { code: 'nobody', show_request: true });
    expect(failed.status).toBe(502);
    expect(failed.body.request).toMatchObject({ method: 'POST', url: provider.url });
    expect(Object.keys((await root.post(`${path()}/${id}/test`, { code: '1003' })).body)).toEqual(['answers']);
  });

  it('a wrong secret is 502 badge_scan_failed (provider 401); an unknown code 502 (404)', async () => {
    const id = String((await root.post(path(), body(provider.url, { in_secret: 'not-the-secret' }))).body.id);
    const res = await root.post(`${path()}/${id}/test`, { code: '1001' });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 'badge_scan_failed', reason: 'provider_error', provider_status: 401 });
    const good = String((await root.post(path(), body(provider.url))).body.id);
    const unknown = await root.post(`${path()}/${good}/test`, { code: 'nobody' });
    expect(unknown.status).toBe(502);
    expect(unknown.body.provider_status).toBe(404);
  });

  it('a slow provider answers 504 badge_scan_timeout with the spec text, at the configured limit', async () => {
    expect(t.config.badgeScanTimeoutMs).toBe(TIMEOUT_MS);
    const id = String((await root.post(path(), body(provider.url))).body.id);
    const started = Date.now();
    const res = await root.post(`${path()}/${id}/test`, { code: 'slow-badge' });
    const elapsed = Date.now() - started;
    expect(res.status).toBe(504);
    expect(res.body).toMatchObject({ code: 'badge_scan_timeout', message: 'Sadly we could not retrieve any data at this time' });
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 2000);
  });

  it('an unreachable provider is 502; the default limit is 8 s', async () => {
    expect(strict.config.badgeScanTimeoutMs).toBe(8000);
    const closed = await startFakeBadgeProvider({ secret: SECRET });
    const url = closed.url;
    await closed.close();
    const id = String((await root.post(path(), body(url))).body.id);
    const res = await root.post(`${path()}/${id}/test`, { code: '1001' });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 'badge_scan_failed', reason: 'unreachable' });
  });

  it('a private URL stored while allowed is refused at scan time where private addresses are not', async () => {
    // As if the flag had been turned off (or a name had come to resolve inside): the stored row, the strict app.
    const [row] = await strict
      .db('integrations')
      .insert({ in_accountid: sa, in_title: 'Inside', in_name: 'inside', in_type: 'badge_scan', in_api_url: provider.url, in_secret: SECRET })
      .returning(['in_id']);
    const before = provider.requests.length;
    const res = await strictRoot.post(`${path(sa)}/${row.in_id}/test`, { code: '1001' });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 'badge_scan_failed', reason: 'private_address' });
    expect(provider.requests.length).toBe(before);
  });

  it('test scan: code required; unknown or foreign integration 404; the update bit is needed', async () => {
    const id = String((await root.post(path(), body(provider.url))).body.id);
    const missing = await root.post(`${path()}/${id}/test`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toEqual({ code: 'error_required' });
    expect((await root.post(`${path()}/${MISSING}/test`, { code: '1001' })).status).toBe(404);
    const b = (await t.account('Scan B')).a_id;
    expect((await root.post(`${path(b)}/${id}/test`, { code: '1001' })).status).toBe(404);
    expect((await t.client().post(`${path()}/${id}/test`, { code: '1001' })).status).toBe(401);
    expect((await root.post(`${path()}/${id}/test`, { code: '1001' }, { csrf: false })).status).toBe(403);
    // Spec 6: a member reads integrations only.
    const member = await t.signedIn('member');
    await t.member(a, member.userId, 'member');
    expect((await member.get(path())).status).toBe(200);
    expect((await member.post(`${path()}/${id}/test`, { code: '1001' })).status).toBe(403);
    await withGrant(t, 'member', 'account_integrations', 1 | 4, async () => {
      expect((await member.post(`${path()}/${id}/test`, { code: '1001' })).status).toBe(200);
    });
  });
});
