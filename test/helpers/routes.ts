import type { Express } from 'express';

export interface RouteInfo {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Express path with :params, e.g. /api/1/accounts/:accountId/users/:id */
  path: string;
}

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  rawPath?: unknown;
}

/** Every route the live app serves, read from its router stack (Express 5), so routes added later are included. */
export function listRoutes(app: Express): RouteInfo[] {
  const out: RouteInfo[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      const at = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
      if (layer.route) {
        for (const p of [layer.route.path].flat()) {
          if (typeof p !== 'string') continue;
          for (const [m, on] of Object.entries(layer.route.methods)) {
            if (on && ['get', 'post', 'put', 'patch', 'delete'].includes(m)) out.push({ method: m as RouteInfo['method'], path: join(prefix, p) });
          }
        }
      } else if (layer.handle?.stack) {
        if (layer.rawPath !== undefined && typeof layer.rawPath !== 'string') continue; // a regular-expression mount
        walk(layer.handle.stack, join(prefix, at));
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  const seen = new Set<string>();
  return out.filter((r) => {
    const k = `${r.method} ${r.path}`;
    return !seen.has(k) && seen.add(k);
  });
}

function join(a: string, b: string): string {
  const s = `${a.replace(/\/$/, '')}/${b.replace(/^\//, '')}`;
  return s.length > 1 ? s.replace(/\/$/, '') : s;
}

/** Fills :params from a map (missing ones get `fallback`). */
export function fillPath(path: string, params: Record<string, string>, fallback: string): string {
  return path.replace(/:(\w+)/g, (_m, name: string) => params[name] ?? fallback);
}
