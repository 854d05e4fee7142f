import fs from 'node:fs';
import path from 'node:path';
import { Router, type Response } from 'express';
import { ctx } from '../context.js';
import { PROJECT_ROOT } from '../paths.js';
import { manifestFor } from '../services/player.js';
import { isUuid } from '../../resources/checks.js';

const DIST = path.join(PROJECT_ROOT, 'admin', 'dist');
/** The player's page (admin/player.html, built by admin/vite.player.config.ts) and its service worker. */
export const PLAYER_HTML = path.join(DIST, 'player.html');
export const PLAYER_SW = path.join(DIST, 'player-sw.js');

/** The origin of an account's local media server (ls_local_server_url), when it is an http(s) URL. */
export function localOrigin(url: unknown): string | null {
  if (typeof url !== 'string' || !url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/**
 * The player page's Content-Security-Policy: its own script and stylesheet only (no inline script, no inline style
 * markup: the player sets positions through the CSSOM, which CSP does not govern); media from this origin and, for a
 * code whose account has a local media server, from that server's origin too (images, video and the /health probe;
 * the page of each code names its own, so no other account's server is allowed); iframe layers may show any http(s)
 * page (they are sandboxed by the player); the service worker from this origin; framed only by this origin (the
 * editor's preview). Nothing may be posted anywhere (form-action 'none') and no plugin runs.
 */
export function playerCsp(o: { localOrigin?: string | null; upgradeInsecure: boolean }): string {
  const media = ["'self'", ...(o.localOrigin ? [o.localOrigin] : [])].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "script-src-attr 'none'",
    "style-src 'self'",
    `img-src ${media}`,
    `media-src ${media}`,
    `connect-src ${media}`,
    "font-src 'self'",
    'frame-src https: http:',
    "worker-src 'self'",
    "manifest-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
    ...(o.upgradeInsecure ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

const PLACEHOLDER = `<!doctype html><meta charset="utf-8"><title>Leadstage</title>
<body><h1>Leadstage</h1><p>The player is not built yet: run <code>npm run build</code>.</p></body>`;

/**
 * The totem player's pages, mounted before the session middleware (a totem gets no session or CSRF cookie: the code
 * is the credential, and the preview's data comes from the console API with the editor's own session):
 *
 *   GET /play/{code}                              the player (404 with the same page for an unknown code: it shows
 *                                                 the message full screen in the screen's language)
 *   GET /play/_preview/{accountId}/{carouselId}   the editor's preview of one slide (?slide=&variant=)
 *   GET /play/sw.js                               the service worker (scope /play/)
 *
 * The page and the worker are revalidated on every load (no-cache), so a new build reaches a totem as soon as it is
 * online; the hashed files under /assets are cached for a year by the app's static route.
 */
/** Mounted at /play. */
export function playerPages(upgradeInsecure: boolean): Router {
  const router = Router();
  const page = (res: Response, status: number, csp: string) => {
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('X-Robots-Tag', 'noindex');
    res.status(status);
    if (fs.existsSync(PLAYER_HTML)) res.sendFile(PLAYER_HTML);
    else res.type('html').send(PLACEHOLDER);
  };
  const plain = playerCsp({ upgradeInsecure });

  router.get('/sw.js', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Service-Worker-Allowed', '/play/');
    if (fs.existsSync(PLAYER_SW)) res.type('text/javascript').sendFile(PLAYER_SW);
    else res.status(404).json({ code: 'not_found', message: 'The player is not built yet' });
  });

  router.get('/_preview/:accountId/:carouselId', (req, res) => {
    page(res, isUuid(req.params.accountId) && isUuid(req.params.carouselId) ? 200 : 404, plain);
  });

  router.get('/:code', async (req, res) => {
    const code = String(req.params.code);
    if (code === '_preview') return page(res, 404, plain);
    let manifest: Awaited<ReturnType<typeof manifestFor>>;
    try {
      manifest = await manifestFor(ctx(req).db, code.toUpperCase());
    } catch (err) {
      // The database is away: a totem that has played before keeps its stored page (its worker falls back on a 5xx).
      ctx(req).log('player page: the code could not be looked up', err);
      return page(res, 503, plain);
    }
    if (!manifest) return page(res, 404, plain);
    const local = localOrigin((JSON.parse(manifest.body) as { local_server_url?: unknown }).local_server_url);
    page(res, 200, playerCsp({ localOrigin: local, upgradeInsecure }));
  });

  router.get('/', (_req, res) => page(res, 404, plain)); // /play and /play/
  return router;
}
