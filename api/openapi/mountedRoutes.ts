export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
export const HTTP_METHODS: HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

export interface MountedRoute {
  method: HttpMethod;
  /** The full path with Express's :params, e.g. /api/1/accounts/:accountId/events/:id. */
  path: string;
}

/** What this module reads of an Express 5 router layer (router 2.x; guarded in test/unit/libraryPins.test.ts). */
interface Layer {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

const join = (prefix: string, path: string) => (path === '/' ? prefix || '/' : `${prefix.replace(/\/+$/, '')}${path}`.replace(/\/+$/, '') || '/');

/**
 * Every route of an Express 5 app, found by walking its router stack and the routers mounted in it (router 2 keeps
 * each layer's mount path in rawPath), in the order they are matched. `unnamed` lists the routes and routers whose
 * path is a regular expression (the admin's catch-all page), which no (method, path) pair can name.
 */
export function mountedRoutes(app: unknown): { routes: MountedRoute[]; unnamed: string[] } {
  const stack = (app as { router?: { stack?: Layer[] } })?.router?.stack;
  if (!Array.isArray(stack)) throw new Error('not an Express 5 app (no app.router.stack)');
  const routes: MountedRoute[] = [];
  const unnamed: string[] = [];
  const seen = new Set<string>();
  const walk = (layers: Layer[], prefix: string) => {
    for (const layer of layers) {
      if (layer.route) {
        const { path, methods: on } = layer.route;
        const methods = HTTP_METHODS.filter((m) => on[m] || on._all);
        if (!methods.length) continue;
        if (typeof path !== 'string') {
          unnamed.push(`${methods.join(',').toUpperCase()} ${prefix} ${String(path)}`);
          continue;
        }
        for (const method of methods) {
          const full = join(prefix, path);
          if (!seen.has(`${method} ${full}`)) routes.push({ method, path: full });
          seen.add(`${method} ${full}`);
        }
      } else if (Array.isArray(layer.handle?.stack)) {
        if (typeof layer.rawPath !== 'string') {
          unnamed.push(`router under ${prefix || '/'} at ${String(layer.rawPath)}`);
          continue;
        }
        walk(layer.handle.stack, join(prefix, layer.rawPath));
      }
    }
  };
  walk(stack, '');
  return { routes, unnamed };
}
