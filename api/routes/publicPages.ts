import fs from 'node:fs';
import path from 'node:path';
import { Router, type Response } from 'express';
import { PROJECT_ROOT } from '../paths.js';
import { isUuid } from '../../resources/checks.js';
import { COLLECTION_TOKEN_RE } from '../services/collectionPage.js';

/** The public form page's HTML (admin/public-form.html, built by admin/vite.public-form.config.ts). */
export const PUBLIC_FORM_HTML = path.join(PROJECT_ROOT, 'admin', 'dist', 'public-form.html');

/**
 * The public form page's Content-Security-Policy, stricter than the admin's because the page carries an account's
 * custom CSS (as a stylesheet from this origin): no inline styles or scripts; images, fonts and media only from this
 * origin (and the storage's S3 address), so CSS cannot call out to another host (no url() beacon, no @import, no
 * @font-face from elsewhere, the usual ways of reading a page out with CSS); framed only by this origin (the
 * console's preview).
 */
export function publicFormCsp(storageOrigins: string[], upgradeInsecure: boolean): string {
  const sources = (...list: string[]) => [...list, ...storageOrigins].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "script-src-attr 'none'",
    "style-src 'self'",
    `img-src ${sources("'self'", 'data:')}`,
    `font-src ${sources("'self'", 'data:')}`,
    `media-src ${sources("'self'")}`,
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-src 'none'",
    "frame-ancestors 'self'",
    ...(upgradeInsecure ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

const PLACEHOLDER = `<!doctype html><meta charset="utf-8"><title>Leadstage</title>
<body><h1>Leadstage</h1><p>The public form page is not built yet: run <code>npm run build</code>.</p></body>`;

/**
 * The pages of the public form entry: the console's preview of a form style,
 * GET /preview/form-styles/{accountId}/{styleId}?form={formId}&view=form|thanks, and the registration page
 * GET /register/{eventId}, and a collection's page GET /c/{co_token}. The HTML is the same static page for everyone; what it shows comes from the API (the
 * console's with the visitor's own session, or the public registration API), so it needs none here.
 */
export function publicPagesRouter(storageOrigins: string[], upgradeInsecure: boolean): Router {
  const router = Router();
  const csp = publicFormCsp(storageOrigins, upgradeInsecure);
  const page = (res: Response, status = 200) => {
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('Cache-Control', 'no-cache');
    res.status(status);
    if (fs.existsSync(PUBLIC_FORM_HTML)) res.sendFile(PUBLIC_FORM_HTML);
    else res.type('html').send(PLACEHOLDER);
  };
  router.get('/preview/form-styles/:accountId/:styleId', (req, res, next) => {
    if (!isUuid(req.params.accountId) || !isUuid(req.params.styleId)) return next();
    page(res);
  });
  // The registration page: its data comes from GET /api/1/register/{eventId}; a malformed id is a 404 page.
  router.get('/register/:eventId', (req, res) => page(res, isUuid(req.params.eventId) ? 200 : 404));
  // The meeting page: its data comes from GET /api/1/meet/{eventId}; a malformed id is a 404 page.
  router.get('/meet/:eventId', (req, res) => page(res, isUuid(req.params.eventId) ? 200 : 404));
  // A collection's public page: its data comes from GET /api/1/c/{token}; a malformed token is a 404 page.
  router.get('/c/:token', (req, res) => page(res, COLLECTION_TOKEN_RE.test(req.params.token) ? 200 : 404));
  return router;
}
