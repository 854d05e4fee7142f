import crypto from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { ctx } from '../context.js';
import { buildOpenApi } from '../openapi/document.js';
import { mountedRoutes } from '../openapi/mountedRoutes.js';
import { RESOURCES } from '../../resources/index.js';
import type { ResourceDeclaration } from '../../resources/types.js';

interface Built {
  body: string;
  etag: string;
}

/**
 * GET /api/1/openapi.json: the OpenAPI 3.1 document of the whole API, open to anyone (it describes routes and field
 * rules, no data). Built from the live app on the first call (every route is mounted by then) and kept for the life
 * of the process: the routes and declarations do not change while it runs. An ETag lets a client keep its copy.
 */
export function openApiHandler(resources: ResourceDeclaration[] = RESOURCES): RequestHandler {
  const cache = new WeakMap<object, Built>();
  const build = (req: Request): Built => {
    const found = cache.get(req.app);
    if (found) return found;
    const document = buildOpenApi({ routes: mountedRoutes(req.app).routes, resources, config: ctx(req).config });
    const body = JSON.stringify(document);
    const built = { body, etag: `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    cache.set(req.app, built);
    return built;
  };
  return (req, res) => {
    const { body, etag } = build(req);
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('ETag', etag);
    if (req.headers['if-none-match'] === etag) {
      res.status(304).end();
      return;
    }
    res.type('application/json').send(body);
  };
}
