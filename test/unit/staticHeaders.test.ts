import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { staticHeaders } from '../../api/middleware/staticHeaders.js';

async function headersOf(middleware: RequestHandler): Promise<Record<string, unknown>> {
  const app = express();
  app.disable('x-powered-by');
  app.use(middleware);
  app.get('/', (_req, res) => res.send('ok'));
  const server = await new Promise<http.Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const out: Record<string, unknown> = {};
    res.headers.forEach((v, k) => {
      if (k !== 'date' && k !== 'etag' && k !== 'content-length' && k !== 'connection' && k !== 'keep-alive') out[k] = v;
    });
    return out;
  } finally {
    server.close();
  }
}

describe('staticHeaders: helmet run once, its headers replayed', () => {
  const options = {
    contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], imgSrc: ["'self'", 'data:'], upgradeInsecureRequests: null } },
    strictTransportSecurity: true,
  };

  it('sends exactly the headers helmet itself sends', async () => {
    const direct = await headersOf(helmet(options));
    const replayed = await headersOf(staticHeaders(helmet(options)));
    expect(replayed).toEqual(direct);
    expect(replayed['content-security-policy']).toContain("img-src 'self' data:");
    expect(Object.keys(replayed).length).toBeGreaterThan(8);
  });

  it('refuses a middleware whose headers depend on the request', () => {
    const perRequest: RequestHandler = (req, res, next) => {
      res.setHeader('X-Path', req.path);
      next();
    };
    expect(() => staticHeaders(perRequest)).toThrow(/not static/);
    const nonce = helmet({ contentSecurityPolicy: { directives: { scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as unknown as { locals: { n: string } }).locals.n}'`] } } });
    expect(() => staticHeaders(nonce)).toThrow();
  });
});
