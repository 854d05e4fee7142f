import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenApp, rawRequest } from '../helpers/rawHttp.js';
import { installLazyCompression } from '../../api/middleware/lazyCompression.js';
import { accepts, precompressedAssets } from '../../api/middleware/precompressed.js';

/** The admin's assets as api/app.ts mounts them: the build's .gz copies first, express.static (compressed on the fly) after. */
describe('precompressed assets', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-precompressed-'));
  const js = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `row ${i}`))};\n`;
  const gz = zlib.gzipSync(js, { level: 9 });
  let base = '';
  let server: http.Server;

  beforeAll(async () => {
    fs.writeFileSync(path.join(dir, 'app-abc.js'), js);
    fs.writeFileSync(path.join(dir, 'app-abc.js.gz'), gz);
    fs.writeFileSync(path.join(dir, 'plain-abc.js'), js); // no .gz copy
    const app = express();
    installLazyCompression(app);
    app.use('/assets', precompressedAssets(dir, { immutable: true, maxAge: '365d' }));
    app.use('/assets', express.static(dir, { immutable: true, maxAge: '365d', fallthrough: false }));
    ({ base, server } = await listenApp(app));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("sends the build's gzip copy as it is, with its length, the script's type and the asset's caching", async () => {
    const res = await rawRequest(base, '/assets/app-abc.js', 'GET', { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['content-length']).toBe(String(gz.length));
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.body.equals(gz)).toBe(true);
    expect(zlib.gunzipSync(res.body).toString()).toBe(js);
  });

  it('sends the file itself to a client that takes no gzip, and compresses on the fly a file without a copy', async () => {
    const plain = await rawRequest(base, '/assets/app-abc.js', 'GET', { 'Accept-Encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(js);
    expect(plain.headers.vary).toBe('Accept-Encoding');
    const refused = await rawRequest(base, '/assets/app-abc.js', 'GET', { 'Accept-Encoding': 'gzip;q=0, br' });
    expect(refused.headers['content-encoding']).not.toBe('gzip');
    const onTheFly = await rawRequest(base, '/assets/plain-abc.js', 'GET', { 'Accept-Encoding': 'gzip' });
    expect(onTheFly.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(onTheFly.body).toString()).toBe(js);
  });

  it('answers HEAD like GET without a body, and leaves other names and methods to express.static', async () => {
    const head = await rawRequest(base, '/assets/app-abc.js', 'HEAD', { 'Accept-Encoding': 'gzip' });
    expect(head.headers['content-length']).toBe(String(gz.length));
    expect(head.body.length).toBe(0);
    expect((await rawRequest(base, '/assets/missing.js', 'GET', { 'Accept-Encoding': 'gzip' })).status).toBe(404);
    // a name with a path in it is express.static's to refuse
    expect((await rawRequest(base, '/assets/..%2Fapp-abc.js', 'GET', { 'Accept-Encoding': 'gzip' })).status).toBe(403);
    // the .gz itself is not an asset of its own type: express.static sends it as what it is
    const raw = await rawRequest(base, '/assets/app-abc.js.gz', 'GET', { 'Accept-Encoding': 'identity' });
    expect(raw.headers['content-encoding']).toBeUndefined();
  });

  it('falls back to express.static when a copy it saw is gone (a new build under a running server)', async () => {
    fs.writeFileSync(path.join(dir, 'gone-abc.js'), js);
    fs.writeFileSync(path.join(dir, 'gone-abc.js.gz'), gz);
    expect((await rawRequest(base, '/assets/gone-abc.js', 'GET', { 'Accept-Encoding': 'gzip' })).body.equals(gz)).toBe(true);
    fs.rmSync(path.join(dir, 'gone-abc.js.gz'));
    const res = await rawRequest(base, '/assets/gone-abc.js', 'GET', { 'Accept-Encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(zlib.gunzipSync(res.body).toString()).toBe(js);
  });

  it('reads Accept-Encoding: listed or *, with a q above 0', () => {
    expect(accepts('gzip, deflate, br', 'gzip')).toBe(true);
    expect(accepts('GZIP', 'gzip')).toBe(true);
    expect(accepts('br;q=1, gzip;q=0', 'gzip')).toBe(false);
    expect(accepts('*', 'gzip')).toBe(true);
    expect(accepts('*;q=0', 'gzip')).toBe(false);
    expect(accepts('identity', 'gzip')).toBe(false);
    expect(accepts(undefined, 'gzip')).toBe(false);
  });
});
