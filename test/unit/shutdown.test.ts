import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { batchedDestination, createLogger } from '../../api/log.js';
import { createShutdown } from '../../api/shutdown.js';

/** A server whose /slow answers after `ms`, a pool stand-in that records its closing, and the exit code captured. */
async function setup(slowMs: number, graceMs: number) {
  // The tests signal once /slow has reached the handler, not after a fixed wait: on a loaded machine a connection can
  // still sit in the listen backlog after 50 ms, and closing the listening socket then resets it (CI, load 9 on 2 cores).
  let slowArrived: () => void;
  const slowReached = new Promise<void>((resolve) => (slowArrived = resolve));
  const server = http.createServer((req, res) => {
    if (req.url === '/slow') {
      slowArrived();
      setTimeout(() => res.end('slow done'), slowMs);
    } else res.end('fast');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const events: string[] = [];
  const db = { destroy: async () => void events.push('pool closed') } as unknown as Knex;
  let exited: (code: number) => void;
  const exit = new Promise<number>((resolve) => (exited = resolve));
  const lines: { msg: string }[] = [];
  const logger = createLogger({ logLevel: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s)) });
  const timer = setInterval(() => events.push('timer fired'), 20);
  const shutdown = createShutdown({
    servers: [server],
    db,
    logger,
    graceMs,
    timers: [timer],
    exit: (code) => {
      events.push(`exit ${code}`);
      exited(code);
    },
  });
  const agent = new http.Agent({ keepAlive: true });
  const get = (path: string, via = agent) =>
    new Promise<{ status: number; body: string; connection?: string }>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path, agent: via }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode!, body, connection: res.headers.connection }));
          res.on('error', reject);
        })
        .on('error', reject);
    });
  return { server, port, events, exit, lines, shutdown, get, agent, slowReached };
}

describe('graceful shutdown', () => {
  it('lets a request in flight finish, closes idle keep-alive connections at once, refuses new ones, closes the pool, exits 0', async () => {
    const s = await setup(400, 5000);
    // An idle keep-alive connection, and one request in flight on another connection.
    let idleClosedAt = 0;
    s.server.once('connection', (socket) => socket.on('close', () => (idleClosedAt = Date.now())));
    const idleAgent = new http.Agent({ keepAlive: true });
    expect((await s.get('/fast', idleAgent)).body).toBe('fast');
    const slow = s.get('/slow');
    await s.slowReached;
    const signalledAt = Date.now();
    s.shutdown('SIGTERM');

    const refused = await new Promise<string>((resolve) => {
      const req = http.get({ host: '127.0.0.1', port: s.port, path: '/fast', agent: false }, () => resolve('answered'));
      req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
    expect((await slow).body).toBe('slow done');
    expect(idleClosedAt - signalledAt).toBeGreaterThanOrEqual(0);
    expect(idleClosedAt - signalledAt).toBeLessThan(150);
    expect(await s.exit).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(2000);
    expect(s.events.filter((e) => e !== 'timer fired')).toEqual(['pool closed', 'exit 0']);
    // The interval was cleared at the signal: no tick once shutdown began (at most one already queued).
    const ticks = s.events.filter((e) => e === 'timer fired').length;
    await new Promise((r) => setTimeout(r, 60));
    expect(s.events.filter((e) => e === 'timer fired').length).toBe(ticks);
    expect(s.lines.map((l) => l.msg)).toEqual(['shutting down: refusing new connections, finishing requests in flight', 'shut down']);
    s.agent.destroy();
    idleAgent.destroy();
  });

  it('cuts the requests still in flight after the grace period and exits 1', async () => {
    const s = await setup(60_000, 300);
    const slow = s.get('/slow').then(
      () => 'answered',
      (e: NodeJS.ErrnoException) => e.code,
    );
    await s.slowReached;
    const signalledAt = Date.now();
    s.shutdown('SIGTERM');
    expect(await s.exit).toBe(1);
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(290);
    expect(Date.now() - signalledAt).toBeLessThan(2000);
    expect(await slow).toBe('ECONNRESET');
    expect(s.events.filter((e) => e !== 'timer fired')).toEqual(['pool closed', 'exit 1']);
    s.agent.destroy();
  });

  it('exits 1 at once on a second signal', async () => {
    const s = await setup(60_000, 10_000);
    const slow = s.get('/slow').catch(() => 'cut');
    await s.slowReached;
    s.shutdown('SIGTERM');
    const secondAt = Date.now();
    s.shutdown('SIGINT');
    expect(await s.exit).toBe(1);
    expect(Date.now() - secondAt).toBeLessThan(500);
    expect(await slow).toBe('cut');
    s.agent.destroy();
  });

  it('closes a keep-alive connection after the response it was serving when the signal came', async () => {
    const s = await setup(300, 5000);
    const slow = s.get('/slow');
    await s.slowReached;
    s.shutdown('SIGTERM');
    const res = await slow;
    expect(res.body).toBe('slow done');
    expect(res.connection).toBe('close');
    expect(await s.exit).toBe(0);
    s.agent.destroy();
  });

  it('writes its "shutting down" line at once, not with the next batch of log lines', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-shutdown-log-'));
    const file = path.join(dir, 'out.log');
    const fd = fs.openSync(file, 'w');
    const dest = batchedDestination(fd) as ReturnType<typeof batchedDestination> & { destroy(): void };
    try {
      const server = http.createServer((_req, res) => res.end());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      let exited: (code: number) => void;
      const exit = new Promise<number>((resolve) => (exited = resolve));
      const db = { destroy: async () => undefined } as unknown as Knex;
      const logger = createLogger({ logLevel: 'info' }, dest);
      logger.info('before'); // a short line: stays in the batch until something writes it
      expect(fs.readFileSync(file, 'utf8')).toBe('');
      createShutdown({ servers: [server], db, logger, graceMs: 1000, exit: (code) => exited(code) })('SIGTERM');
      // Read synchronously after the signal's handler: no timer could have written the batch yet.
      const written = fs.readFileSync(file, 'utf8');
      expect(written).toContain('"msg":"before"');
      expect(written).toContain('"msg":"shutting down: refusing new connections');
      expect(await exit).toBe(0);
    } finally {
      dest.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
