import type { Server } from 'node:http';

export type WriteMethod = 'post' | 'put' | 'patch' | 'delete';
export const WRITE_METHODS: WriteMethod[] = ['post', 'put', 'patch', 'delete'];

export interface WriteRoute {
  method: WriteMethod;
  /** Full path with its :params, e.g. /api/1/accounts/:accountId/users/:id. */
  path: string;
}

interface Layer {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** The Express app behind a listening server (the function it hands each request to). */
export function appOf(server: Server): { router: { stack: Layer[] } } {
  const app = server.listeners('request')[0] as unknown as { router?: { stack?: Layer[] } };
  if (!Array.isArray(app?.router?.stack)) throw new Error('the server does not run an Express 5 app (no app.router.stack)');
  return app as { router: { stack: Layer[] } };
}

const join = (prefix: string, path: string) => (path === '/' ? prefix || '/' : `${prefix}${path}`.replace(/\/+$/, '') || '/');

/**
 * Every POST/PUT/PATCH/DELETE route of an Express 5 app, found by walking its router stack and the routers mounted
 * in it (router 2 keeps each layer's mount path in rawPath). A route whose path is not a plain string cannot be
 * fuzzed, so it throws rather than being skipped.
 */
export function writeRoutes(app: { router: { stack: Layer[] } }): WriteRoute[] {
  const found: WriteRoute[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const { path, methods } = layer.route;
        const wanted = WRITE_METHODS.filter((m) => methods[m] || methods._all);
        if (!wanted.length) continue;
        if (typeof path !== 'string') throw new Error(`write route with a non-string path under ${prefix}: ${String(path)}`);
        for (const method of wanted) found.push({ method, path: join(prefix, path) });
      } else if (Array.isArray(layer.handle?.stack)) {
        if (typeof layer.rawPath !== 'string') throw new Error(`router mounted at a non-string path under ${prefix}`);
        walk(layer.handle.stack, join(prefix, layer.rawPath));
      }
    }
  };
  walk(app.router.stack, '');
  const seen = new Set<string>();
  return found.filter((r) => !seen.has(`${r.method} ${r.path}`) && seen.add(`${r.method} ${r.path}`));
}

/**
 * The resource names a route path can serve: its static segments read from the end, each earlier one singular and
 * camel-cased onto the rest (/accounts/:accountId/users → users, accountUsers; /storage/folders → folders, …).
 */
export function resourceNamesOf(path: string): string[] {
  const segments = path.split('/').filter((s) => s && !s.startsWith(':'));
  const names: string[] = [];
  for (let i = segments.length - 1; i >= 0; i--) {
    const head = segments.slice(i, -1).map((s) => s.replace(/s$/, ''));
    const last = segments[segments.length - 1];
    const words = [...head, last];
    names.push(words.map((w, j) => (j === 0 ? w : w[0].toUpperCase() + w.slice(1))).join(''));
  }
  return names;
}
