import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { callable, createHttpServer } from '../../api/httpServer.js';

/** An app that reports the prototypes its request and response had on arrival and in the route. */
function probeApp() {
  const app = express();
  app.use(express.json());
  const seen: { arrival: [object, object][]; route: [object, object][] } = { arrival: [], route: [] };
  app.post('/echo/:id', (req, res) => {
    seen.route.push([Object.getPrototypeOf(req) as object, Object.getPrototypeOf(res) as object]);
    res.status(201).json({ id: req.params.id, body: req.body as unknown, accept: req.get('accept'), json: req.is('json') });
  });
  return { app, seen };
}

async function serve(server: http.Server, seen: { arrival: [object, object][] }) {
  server.prependListener('request', (req, res) => seen.arrival.push([Object.getPrototypeOf(req) as object, Object.getPrototypeOf(res) as object]));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("createHttpServer: requests and responses born with the app's prototypes", () => {
  it("Node's IncomingMessage and ServerResponse are callable constructors on this Node (else the server falls back to app.listen's objects)", () => {
    // When this fails, Node made them classes: createHttpServer still works (its fallback), but the CPU it saved is
    // lost. Find another way to make the objects with the app's prototypes, or take the module out.
    expect(callable(http.IncomingMessage)).toBe(true);
    expect(callable(http.ServerResponse)).toBe(true);
    expect(callable(class Foo {})).toBe(false);
    expect(callable(function Bar() {})).toBe(true);
    expect(callable(undefined)).toBe(false);
  });

  it('a request arrives with app.request / app.response as prototypes, keeps them through Express, and is served as under app.listen', async () => {
    const { app, seen } = probeApp();
    const server = createHttpServer(app);
    const base = await serve(server, seen);
    try {
      // Two requests on one keep-alive connection, then one with a body on a new one.
      for (const n of [1, 2, 3]) {
        const res = await fetch(`${base}/echo/${n}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify({ n }) });
        expect(res.status).toBe(201);
        expect(await res.json()).toEqual({ id: String(n), body: { n }, accept: 'application/json', json: 'json' });
      }
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
    expect(seen.arrival).toHaveLength(3);
    for (const [req, res] of [...seen.arrival, ...seen.route]) {
      expect(req).toBe(app.request);
      expect(res).toBe(app.response);
    }
    expect(app.request).toBeInstanceOf(http.IncomingMessage);
    expect(app.response).toBeInstanceOf(http.ServerResponse);
  });

  it("under app.listen the same app gets Node's objects, which Express re-prototypes on every request (the cost createHttpServer avoids)", async () => {
    const { app, seen } = probeApp();
    const server = http.createServer(app);
    const base = await serve(server, seen);
    try {
      const res = await fetch(`${base}/echo/x`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(201);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
    expect(seen.arrival[0]).toEqual([http.IncomingMessage.prototype, http.ServerResponse.prototype]);
    expect(seen.route[0][0]).toBe(app.request);
    expect(seen.route[0][1]).toBe(app.response);
  });
});
