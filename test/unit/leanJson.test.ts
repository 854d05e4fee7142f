import zlib from 'node:zlib';
import compression from 'compression';
import express, { type Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenApp, rawRequest } from '../helpers/rawHttp.js';
import { installLeanJson } from '../../api/leanJson.js';

const big = Array.from({ length: 200 }, (_, i) => ({ id: i, name: `Ünïcødé ${i} — “quoted” <b>&</b>`, ok: i % 2 === 0 }));
const CASES: Record<string, (res: express.Response) => void> = {
  object: (res) => res.json({ a: 1, b: 'two', c: [null, true] }),
  array: (res) => res.json([1, 2, 3]),
  null: (res) => res.json(null),
  string: (res) => res.json('a "string"'),
  zero: (res) => res.json(0),
  false: (res) => res.json(false),
  undefined: (res) => res.json(undefined),
  unicode: (res) => res.json({ t: 'naïve café ✓ 😀' }),
  big: (res) => res.json(big),
  created: (res) => res.status(201).json({ id: 'x' }),
  noContent: (res) => res.status(204).json({ id: 'x' }),
  notModified: (res) => res.status(304).json({ id: 'x' }),
  error: (res) => res.status(404).json({ code: 'not_found', message: 'No such route' }),
  ownType: (res) => res.type('application/problem+json').json({ title: 'x' }),
  etag: (res) => res.setHeader('ETag', '"abc"').json({ a: 1 }),
};

function build(lean: boolean): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (lean) installLeanJson(app);
  app.use(compression());
  for (const [name, send] of Object.entries(CASES)) app.all(`/${name}`, (_req, res) => send(res));
  return app;
}

describe('lean res.json: the same answer as Express, byte for byte', () => {
  let lean: Awaited<ReturnType<typeof listenApp>>;
  let plain: Awaited<ReturnType<typeof listenApp>>;
  beforeAll(async () => {
    lean = await listenApp(build(true));
    plain = await listenApp(build(false));
  });
  afterAll(() => {
    lean?.server.close();
    plain?.server.close();
  });

  for (const name of Object.keys(CASES)) {
    for (const method of ['GET', 'HEAD', 'POST']) {
      it(`${method} ${name}`, async () => {
        const a = await rawRequest(lean.base, `/${name}`, method);
        const b = await rawRequest(plain.base, `/${name}`, method);
        expect(a).toEqual(b);
      });
    }
  }

  it('a body over the compression threshold is compressed the same way, and decodes to the same JSON', async () => {
    const a = await rawRequest(lean.base, '/big', 'GET', { 'Accept-Encoding': 'gzip' });
    const b = await rawRequest(plain.base, '/big', 'GET', { 'Accept-Encoding': 'gzip' });
    expect(a.headers['content-encoding']).toBe('gzip');
    expect(a.headers).toEqual(b.headers);
    expect(JSON.parse(zlib.gunzipSync(a.body).toString('utf8'))).toEqual(big);
    expect(zlib.gunzipSync(a.body)).toEqual(zlib.gunzipSync(b.body));
  });

  it('takes the lean path for a plain answer (and leaves Express the rest)', async () => {
    const app = build(true);
    expect(app.response.json.name).toBe('leanJson');
    const spaced = express();
    spaced.set('json spaces', 2);
    installLeanJson(spaced);
    expect(spaced.response.json.name).not.toBe('leanJson');
    // Express's default app hashes an ETag for every body, which the lean path does not do.
    const tagged = express();
    installLeanJson(tagged);
    expect(tagged.response.json.name).not.toBe('leanJson');
  });
});
