import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import compression from 'compression';
import express, { type Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenApp, rawRequest } from '../helpers/rawHttp.js';
import { installLazyCompression } from '../../api/middleware/lazyCompression.js';
import { installLeanJson } from '../../api/leanJson.js';

const bigText = 'Leadstage lead capture, row after row. '.repeat(400);
const bigJson = Array.from({ length: 300 }, (_, i) => ({ id: i, name: `Visitor ${i}`, email: `visitor${i}@example.com` }));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-lazy-'));
const file = path.join(dir, 'big.txt');
fs.writeFileSync(file, bigText);

const CASES: Record<string, express.RequestHandler> = {
  smallJson: (_req, res) => void res.json({ ok: true }),
  bigJson: (_req, res) => void res.json(bigJson),
  smallText: (_req, res) => void res.send('hello'),
  bigHtml: (_req, res) => void res.send(`<p>${bigText}</p>`),
  // Over compressWhole's 256 KiB: streamed by compression() as before.
  hugeText: (_req, res) => void res.type('text/plain').send(bigText.repeat(20)),
  streamed: (_req, res) => {
    res.type('text/csv');
    for (let i = 0; i < 50; i++) res.write(`row ${i},${bigText.slice(0, 200)}\n`);
    res.end('last\n');
  },
  piped: async (_req, res) => {
    res.type('text/plain');
    await pipeline(Readable.from([bigText, bigText]), res);
  },
  smallStreamed: (_req, res) => {
    res.type('text/plain');
    res.write('a');
    res.end('b');
  },
  sendFile: (_req, res) => res.sendFile(file),
  noTransform: (_req, res) => void res.set('Cache-Control', 'no-transform').type('text/plain').send(bigText),
  noTransformSmall: (_req, res) => void res.set('Cache-Control', 'private, No-Transform').json({ ok: true }),
  notCompressible: (_req, res) => void res.type('image/png').send(Buffer.alloc(5000, 7)),
  noContent: (_req, res) => void res.status(204).end(),
  notModified: (_req, res) => void res.status(304).end(),
  varyKept: (_req, res) => void res.set('Vary', 'Origin').json({ ok: true }),
  varyKeptBig: (_req, res) => void res.set('Vary', 'Origin').json(bigJson),
  endString: (_req, res) => {
    res.setHeader('Content-Type', 'text/plain');
    res.end(bigText);
  },
  endSmallNoLength: (_req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end('{"a":1}');
  },
};

function build(lazy: boolean, options: compression.CompressionOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  installLeanJson(app);
  if (lazy) installLazyCompression(app, options);
  else app.use(compression(options));
  for (const [name, handler] of Object.entries(CASES)) app.all(`/${name}`, handler);
  return app;
}

/** Whole bodies over the threshold, compressed in one call (api/middleware/lazyCompression.ts compressWhole). */
const WHOLE = new Set(['bigJson', 'bigHtml', 'varyKeptBig', 'endString']);

describe('lazy compression: the same answers as compression() on every request', () => {
  let lazy: Awaited<ReturnType<typeof listenApp>>;
  let eager: Awaited<ReturnType<typeof listenApp>>;
  beforeAll(async () => {
    lazy = await listenApp(build(true));
    eager = await listenApp(build(false));
  });
  afterAll(() => {
    lazy?.server.close();
    eager?.server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const encodings = ['', 'gzip, deflate, br', 'gzip', 'deflate', 'identity'];
  for (const name of Object.keys(CASES)) {
    for (const method of ['GET', 'HEAD']) {
      it(`${method} ${name}`, async () => {
        for (const enc of encodings) {
          const headers = enc ? { 'Accept-Encoding': enc } : ({} as Record<string, string>);
          const a = await rawRequest(lazy.base, `/${name}`, method, headers);
          const b = await rawRequest(eager.base, `/${name}`, method, headers);
          if (name === 'endSmallNoLength') {
            // The one difference: compression() writes the headers before it sees the body, so a small body ended
            // without a Content-Length goes out chunked; left alone, Node counts it. Same body either way.
            expect(a.headers['content-length']).toBe(method === 'HEAD' ? undefined : '7');
            expect(b.headers['transfer-encoding']).toBe(method === 'HEAD' ? undefined : 'chunked');
            for (const r of [a, b]) {
              delete r.headers['content-length'];
              delete r.headers['transfer-encoding'];
            }
          }
          if (WHOLE.has(name) && a.headers['content-encoding']) {
            // A whole body it compresses goes in one write with its length (compressWhole); compression() streams it
            // chunked. The same bytes.
            expect(a.headers['content-length']).toBe(method === 'HEAD' ? undefined : String(a.body.length));
            expect(a.headers['transfer-encoding']).toBeUndefined();
            expect(b.headers['transfer-encoding']).toBe('chunked');
            for (const r of [a, b]) {
              delete r.headers['content-length'];
              delete r.headers['transfer-encoding'];
            }
          }
          expect(a, `${name} with "${enc}"`).toEqual(b);
        }
      });
    }
  }

  it('gives a whole body the options compression() would (a brotli quality and a gzip level of its own)', async () => {
    const options = { brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 2 } }, level: 1 };
    const lazyTuned = await listenApp(build(true, options));
    const eagerTuned = await listenApp(build(false, options));
    try {
      for (const enc of ['br', 'gzip', 'deflate']) {
        const a = await rawRequest(lazyTuned.base, '/bigJson', 'GET', { 'Accept-Encoding': enc });
        const b = await rawRequest(eagerTuned.base, '/bigJson', 'GET', { 'Accept-Encoding': enc });
        expect(a.headers['content-encoding']).toBe(enc);
        expect(a.body.equals(b.body), enc).toBe(true);
        // and not what the defaults give
        expect(a.body.equals((await rawRequest(lazy.base, '/bigJson', 'GET', { 'Accept-Encoding': enc })).body), enc).toBe(false);
      }
    } finally {
      lazyTuned.server.close();
      eagerTuned.server.close();
    }
  });

  it('compresses what it should (the cases are not all left alone)', async () => {
    for (const name of ['bigJson', 'bigHtml', 'streamed', 'piped', 'sendFile', 'endString', 'varyKeptBig', 'hugeText']) {
      const res = await rawRequest(lazy.base, `/${name}`, 'GET', { 'Accept-Encoding': 'gzip, deflate, br' });
      expect(res.headers['content-encoding'], name).toBe('br');
    }
    for (const name of ['smallJson', 'smallText', 'noTransform', 'notCompressible', 'endSmallNoLength']) {
      const res = await rawRequest(lazy.base, `/${name}`, 'GET', { 'Accept-Encoding': 'gzip, deflate, br' });
      expect(res.headers['content-encoding'], name).toBeUndefined();
    }
    expect((await rawRequest(lazy.base, '/smallJson', 'GET', {})).headers.vary).toBe('Accept-Encoding');
    expect((await rawRequest(lazy.base, '/varyKept', 'GET', {})).headers.vary).toBe('Origin, Accept-Encoding');
  });
});
