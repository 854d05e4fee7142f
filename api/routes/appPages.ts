import fs from 'node:fs';
import path from 'node:path';
import { Router, type Response } from 'express';
import { PROJECT_ROOT } from '../paths.js';

const DIST = path.join(PROJECT_ROOT, 'admin', 'dist');
/** The capture app's page (admin/app.html, built by admin/vite.app.config.ts), its service worker and manifest. */
export const CAPTURE_APP_HTML = path.join(DIST, 'app.html');
export const CAPTURE_APP_SW = path.join(DIST, 'app-sw.js');
export const CAPTURE_APP_MANIFEST = path.join(DIST, 'app.webmanifest');

/**
 * The capture app's Content-Security-Policy: like the public form page's (no inline script or style, everything from
 * this origin), plus what the app itself needs: 'wasm-unsafe-eval' for the barcode decoder's WebAssembly (served from
 * this origin, never a CDN), blob: images (card photos before upload, the profile picture), workers and the manifest
 * from this origin.
 */
export function captureAppCsp(storageOrigins: string[], upgradeInsecure: boolean): string {
  const sources = (...list: string[]) => [...list, ...storageOrigins].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "script-src-attr 'none'",
    "style-src 'self'",
    `img-src ${sources("'self'", 'data:', 'blob:')}`,
    "font-src 'self' data:",
    `media-src ${sources("'self'", 'blob:')}`,
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
    ...(upgradeInsecure ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

const PLACEHOLDER = `<!doctype html><meta charset="utf-8"><title>Leadstage</title>
<body><h1>Leadstage</h1><p>The capture app is not built yet: run <code>npm run build</code>.</p></body>`;

const notBuilt = (res: Response) => res.status(404).json({ code: 'not_found', message: 'The capture app is not built yet' });

function sendBuilt(res: Response, file: string, type: string, fallback: () => void): void {
  if (fs.existsSync(file)) res.type(type).sendFile(file);
  else fallback();
}

/**
 * GET /app and everything below it answers the app's page (a single-page app: it picks the screen from the address),
 * except the service worker (/app/sw.js, scope /app/) and the web app manifest. The page and the worker are revalidated
 * on every load (no-cache), so a new build reaches the booth as soon as it is online; the hashed assets under /assets
 * are cached for a year by the app's own static route.
 */
export function captureAppPages(storageOrigins: string[], upgradeInsecure: boolean): Router {
  const router = Router();
  const csp = captureAppCsp(storageOrigins, upgradeInsecure);

  router.get('/app/sw.js', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Service-Worker-Allowed', '/app/');
    sendBuilt(res, CAPTURE_APP_SW, 'text/javascript', () => notBuilt(res));
  });
  router.get('/app/manifest.webmanifest', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    sendBuilt(res, CAPTURE_APP_MANIFEST, 'application/manifest+json', () => notBuilt(res));
  });
  router.get('/app/icons/:file', (req, res, next) => {
    const file = String(req.params.file);
    if (!/^icon(-maskable)?-\d+\.png$/.test(file)) return next();
    res.setHeader('Cache-Control', 'public, max-age=86400');
    sendBuilt(res, path.join(DIST, 'app-icons', file), 'image/png', () => notBuilt(res));
  });
  // "/app" (what a person types) lies outside the service worker's scope /app/, so an offline reload of it would fail:
  // it moves to /app/ (its query kept), where the worker answers from its cache.
  router.get(/^\/app$/, (req, res) => {
    const query = req.originalUrl.indexOf('?');
    res.redirect(301, `/app/${query >= 0 ? req.originalUrl.slice(query) : ''}`);
  });
  router.get(/^\/app(\/.*)?$/, (_req, res) => {
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('Cache-Control', 'no-cache');
    if (fs.existsSync(CAPTURE_APP_HTML)) res.sendFile(CAPTURE_APP_HTML);
    else res.type('html').send(PLACEHOLDER);
  });
  return router;
}
