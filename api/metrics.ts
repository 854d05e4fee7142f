import crypto from 'node:crypto';
import http from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { Knex } from 'knex';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { ApiError, notFound } from './errors.js';
import { poolOf } from './db/knex.js';
import { withTimeout } from './timeout.js';
import { ROUTE, ROUTE_LABEL } from './requestSlots.js';

/** Bound on the sessions count at scrape time: a slow database must not hang the scraper. */
const SCRAPE_QUERY_MS = 2000;

export interface Metrics {
  /** This app's own registry (not prom-client's global one: a process may build several apps). */
  registry: Registry;
  /** Times every request by method, route pattern and status; mounted first after the request logger. */
  timing: RequestHandler;
  /** GET /metrics on the public port: open with `Authorization: Bearer <token>`, else 401; 404 when not served there. */
  publicEndpoint(opts: { token?: string; internalPort?: number }): RequestHandler;
  /** Serves GET /metrics (and nothing else) on an internal port. */
  listen(port: number, host?: string): Promise<http.Server>;
}

/** `processMetrics`: Node's default series, which keep an event-loop monitor running; only worth it when scraped. */
/** `jobCounts`: the job queue's counts (api/jobs/), read at scrape time. */
export function createMetrics(db: Knex, opts: { processMetrics: boolean; jobCounts?: () => Promise<{ byName: Record<string, { waiting: number; failed: number }> }> }): Metrics {
  const registry = new Registry();
  if (opts.processMetrics) collectDefaultMetrics({ register: registry });

  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to the end of its response, by route pattern',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });

  // knex's tarn pool (PGlite: one connection, max 1); absent once the knex is destroyed.
  const pool = () => poolOf(db);
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database pool connections by state (used: lent to a query, free: idle in the pool)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const p = pool();
      this.reset();
      if (!p) return;
      this.set({ state: 'used' }, p.numUsed());
      this.set({ state: 'free' }, p.numFree());
    },
  });
  new Gauge({
    name: 'db_pool_max_connections',
    help: 'Largest number of connections the database pool opens',
    registers: [registry],
    collect() {
      const p = pool();
      this.reset();
      if (p) this.set(p.max);
    },
  });
  new Gauge({
    name: 'db_pool_pending_acquires',
    help: 'Queries waiting for a database connection',
    registers: [registry],
    collect() {
      const p = pool();
      this.reset();
      if (p) this.set(p.numPendingAcquires());
    },
  });
  new Gauge({
    name: 'db_pool_pending_creates',
    help: 'Database connections being opened',
    registers: [registry],
    collect() {
      const p = pool();
      this.reset();
      if (p) this.set(p.numPendingCreates());
    },
  });
  new Gauge({
    name: 'sessions_active',
    help: 'Unexpired sessions (signed-in users), counted at scrape time',
    registers: [registry],
    async collect() {
      try {
        const row = await withTimeout(db('sessions').where('s_expires_at', '>', new Date()).count({ n: '*' }).first(), SCRAPE_QUERY_MS);
        this.set(Number(row?.n ?? 0));
      } catch {
        // No value rather than a stale one while the database is unreachable (the scrape itself still succeeds).
        this.reset();
      }
    },
  });

  // One query per scrape for both gauges: the second collect() within a second reuses the first one's answer.
  let jobRead: { at: number; counts: ReturnType<NonNullable<typeof opts.jobCounts>> } | undefined;
  const jobCounts = () => {
    if (!jobRead || Date.now() - jobRead.at > 1000) jobRead = { at: Date.now(), counts: withTimeout(opts.jobCounts!(), SCRAPE_QUERY_MS) };
    return jobRead.counts;
  };
  for (const [state, help] of [
    ['waiting', 'Jobs of the queue waiting to run (due, delayed, or between retries), by job name'],
    ['failed', 'Jobs of the queue that used up their retries (kept a day), by job name'],
  ] as const) {
    if (!opts.jobCounts) break;
    new Gauge({
      name: `jobs_${state}`,
      help,
      labelNames: ['name'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        try {
          for (const [name, c] of Object.entries((await jobCounts()).byName)) this.set({ name }, c[state]);
        } catch {
          // No value while the database is unreachable, as sessions_active.
        }
      },
    });
  }

  // The router sets req.route when it hands a request to a Route; at that moment req.baseUrl and req.params are the
  // route's own (they are unwound before an error handler runs), so the label is taken then, by an accessor on the
  // app's request prototype (defined once: an accessor defined on each request would slow every later req.* read).
  // Both kept on the request itself (api/requestSlots.ts), not in maps keyed by it.
  type Routed = Request & { [ROUTE]?: unknown; [ROUTE_LABEL]?: string };
  const prototypes = new WeakSet<object>();
  const watchRoutes = (req: Request) => {
    const proto = Object.getPrototypeOf(req) as object;
    if (prototypes.has(proto)) return;
    prototypes.add(proto);
    Object.defineProperty(proto, 'route', {
      configurable: true,
      get(this: Routed) {
        return this[ROUTE];
      },
      set(this: Routed, v: { path?: unknown } | undefined) {
        this[ROUTE] = v;
        if (v?.path !== undefined) this[ROUTE_LABEL] = routeLabel(this.baseUrl ?? '', this.params as Record<string, string>, String(v.path));
      },
    });
  };

  const timing: RequestHandler = (req, res, next) => {
    const start = process.hrtime.bigint();
    watchRoutes(req);
    res.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      const status = res.writableFinished ? String(res.statusCode) : 'aborted';
      const route = (req as Routed)[ROUTE_LABEL] ?? mountLabel(req.originalUrl ?? req.url, res.statusCode);
      duration.observe({ method: req.method, route, status_code: status }, seconds);
    });
    next();
  };

  const send = async (res: Response | http.ServerResponse) => {
    const body = await registry.metrics();
    res.setHeader('Content-Type', registry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.end(body);
  };

  return {
    registry,
    timing,
    publicEndpoint({ token, internalPort }) {
      const expected = token ? digest(token) : undefined;
      return async (req, res, next) => {
        try {
          if (!expected || internalPort) throw notFound('No such route');
          const m = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '');
          if (!m || !crypto.timingSafeEqual(digest(m[1]), expected)) {
            res.setHeader('WWW-Authenticate', 'Bearer');
            throw new ApiError(401, 'invalid_token', 'A valid metrics token is required');
          }
          await send(res);
        } catch (e) {
          next(e);
        }
      };
    },
    async listen(port, host) {
      const server = http.createServer((req, res) => {
        if ((req.method === 'GET' || req.method === 'HEAD') && (req.url ?? '').split('?')[0] === '/metrics') {
          send(res).catch(() => {
            res.statusCode = 500;
            res.end();
          });
          return;
        }
        res.statusCode = 404;
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        res.end(JSON.stringify({ code: 'not_found', message: 'No such route' }));
      });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      return server;
    },
  };
}

/** Equal-length inputs for timingSafeEqual, whatever the token's length. */
function digest(token: string): Buffer {
  return crypto.createHash('sha256').update(token).digest();
}

/** App-level mounts that answer without a Route of their own (static files, stored media): labelled `/<mount>/*`. */
const MOUNTS = new Set(['assets', 'storage']);

/** The label of a request no Route took: its app-level mount's, or `unmatched`. */
function mountLabel(url: string, status: number): string {
  const mount = url.split('/')[1] ?? '';
  return mount && status !== 404 && MOUNTS.has(mount) ? `/${mount}/*` : 'unmatched';
}

/**
 * The label of a matched Route: its pattern behind the mount path, where every segment that equals a parameter value
 * of the request is put back as `:name` (/api/1/accounts/<uuid>/users → /api/1/accounts/:accountId/users). Never the
 * raw URL: a segment shaped like an id that is no known parameter becomes `:param`.
 */
function routeLabel(base: string, params: Record<string, string> | undefined, path: string): string {
  // Most routes: no segment of the mount path is a parameter's value or looks like an id, so it is the label as is.
  if (!ID_LIKE.test(base) && !Object.values(params ?? {}).some((v) => typeof v === 'string' && v && base.includes(v))) return base && path === '/' ? base : base + path;
  const names = new Map<string, string>();
  for (const [name, value] of Object.entries(params ?? {})) if (typeof value === 'string' && value) names.set(value, name);
  const labelled = base
    .split('/')
    .map((segment) => {
      if (!segment) return segment;
      const name = names.get(safeDecode(segment));
      if (name) return `:${name}`;
      return /%|^[0-9a-f-]{16,}$/i.test(segment) ? ':param' : segment;
    })
    .join('/');
  return labelled && path === '/' ? labelled : labelled + path;
}

/** Anywhere in a mount path: an escaped character or a run that could be an id (then each segment is looked at). */
const ID_LIKE = /%|[0-9a-f-]{16,}/i;

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
