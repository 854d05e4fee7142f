import type { Server } from 'node:http';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type WriteMethod = Exclude<Method, 'get'>;
export const WRITE_METHODS: WriteMethod[] = ['post', 'put', 'patch', 'delete'];

export interface RouteInfo<M extends Method = Method> {
  method: M;
  /** Full path with its :params, e.g. /api/1/accounts/:accountId/users/:id. */
  path: string;
}
export type WriteRoute = RouteInfo<WriteMethod>;

interface Layer {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}
type AppLike = { router: { stack: Layer[] } };

/** The Express app behind a listening server (the function it hands each request to). */
export function appOf(server: Server): AppLike {
  const app = server.listeners('request')[0] as unknown as { router?: { stack?: Layer[] } };
  if (!Array.isArray(app?.router?.stack)) throw new Error('the server does not run an Express 5 app (no app.router.stack)');
  return app as AppLike;
}

const join = (prefix: string, path: string) => (path === '/' ? prefix || '/' : `${prefix}${path}`.replace(/\/+$/, '') || '/');

/**
 * Every route of an Express 5 app, found by walking its router stack and the routers mounted in it (router 2 keeps
 * each layer's mount path in rawPath), so a route added later is found without editing a test. A route or router
 * whose path is not a plain string could not be tested, so it throws rather than being skipped.
 */
export function listRoutes(app: unknown): RouteInfo[] {
  const found: RouteInfo[] = [];
  const methods: Method[] = ['get', ...WRITE_METHODS];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const { path, methods: on } = layer.route;
        const wanted = methods.filter((m) => on[m] || on._all);
        if (!wanted.length) continue;
        if (typeof path !== 'string') {
          // The admin's catch-all GET (a regular expression) serves pages; a write route must be testable.
          if (wanted.some((m) => m !== 'get')) throw new Error(`write route with a non-string path under ${prefix}: ${String(path)}`);
          continue;
        }
        for (const method of wanted) found.push({ method, path: join(prefix, path) });
      } else if (Array.isArray(layer.handle?.stack)) {
        if (typeof layer.rawPath !== 'string') throw new Error(`router mounted at a non-string path under ${prefix}`);
        walk(layer.handle.stack, join(prefix, layer.rawPath));
      }
    }
  };
  walk((app as AppLike).router.stack, '');
  const seen = new Set<string>();
  return found.filter((r) => !seen.has(`${r.method} ${r.path}`) && seen.add(`${r.method} ${r.path}`));
}

/** Every POST/PUT/PATCH/DELETE route. */
export function writeRoutes(app: unknown): WriteRoute[] {
  return listRoutes(app).filter((r): r is WriteRoute => r.method !== 'get');
}

/** Fills :params from a map (missing ones get `fallback`). */
export function fillPath(path: string, params: Record<string, string>, fallback: string): string {
  return path.replace(/:(\w+)/g, (_m, name: string) => params[name] ?? fallback);
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
