import { Router, type Request, type Response } from 'express';
import { ctx } from '../context.js';
import { ApiError, validate } from '../errors.js';
import { jsonBody } from '../middleware/body.js';
import { encodedBody, manifestFor, playEventsSchema, playStatusSchema, recordPlayEvents, recordPlayStatus } from '../services/player.js';
import { rejectNulBytes } from '../crud/input.js';

/**
 * The player's API (account-console.md: Player), mounted at /api/1/play before any session work: the code is the
 * credential, so there is no cookie, no session and no CSRF token (a totem runs for days; a token would expire).
 *
 *   GET  /api/1/play/{code}          the manifest, with a strong ETag; If-None-Match answers 304 (players poll it)
 *   POST /api/1/play/{code}/events   {events: [{id, kind: play|hotspot|qr, at, carousel_id, slide_id}]} → {stored}
 *                                    (PLAY_LIMIT_PER_CODE per window and code, then 429 with Retry-After)
 *   POST /api/1/play/{code}/status   {version, width, height, online_since, last_error} → 204, every 60 s: the code's
 *                                    cc_last_seen_at, cc_player_version, cc_screen, cc_last_error (limited the same way)
 *
 * An unknown code, a code of a deleted group or a malformed one all answer 404 code_not_found.
 */
export function playRouter(): Router {
  const router = Router();
  const unknown = () => new ApiError(404, 'code_not_found', 'This code is not known');
  // Errors (404 for an unknown code, 400s) are never stored; the manifest's answer says no-cache itself.
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

  router.get('/:code', async (req, res) => {
    const manifest = await manifestFor(ctx(req).db, String(req.params.code).toUpperCase());
    if (!manifest) throw unknown();
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('ETag', manifest.etag);
    res.setHeader('Vary', 'Accept-Encoding');
    const inm = req.headers['if-none-match'];
    if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === manifest.etag)) {
      res.status(304).end();
      return;
    }
    res.type('application/json');
    // compressed once per cached manifest, not per request (compression leaves an encoded body alone); brotli first
    const encoding = req.acceptsEncodings('br') ? 'br' : req.acceptsEncodings('gzip') ? 'gzip' : undefined;
    if (encoding) {
      res.setHeader('Content-Encoding', encoding);
      res.send(await encodedBody(manifest, encoding));
    } else res.send(manifest.body);
  });

  /** Per code (every screen of the group shares it), across processes: a runaway player cannot flood the database. */
  async function limit(req: Request, res: Response, kind: 'play' | 'play-status', code: string): Promise<void> {
    const { limiter, config } = ctx(req);
    const hit = await limiter.hit(`${kind}:${code}`, config.playLimit.windowSeconds);
    if (hit.points > config.playLimit.perCode) {
      res.setHeader('Retry-After', String(Math.max(1, Math.ceil((hit.resetAt.getTime() - Date.now()) / 1000))));
      throw new ApiError(429, 'too_many_requests', 'Too many reports from this code, please wait a moment and try again');
    }
  }

  router.post('/:code/events', jsonBody({ limit: '256kb' }), async (req, res) => {
    rejectNulBytes(req.body);
    const input = validate(playEventsSchema, req.body);
    const { db } = ctx(req);
    const code = String(req.params.code).toUpperCase();
    const manifest = await manifestFor(db, code);
    if (!manifest) throw unknown();
    await limit(req, res, 'play', code);
    res.json({ stored: await recordPlayEvents(db, manifest, input) });
  });

  router.post('/:code/status', jsonBody({ limit: '16kb' }), async (req, res) => {
    rejectNulBytes(req.body);
    const input = validate(playStatusSchema, req.body);
    const { db } = ctx(req);
    const code = String(req.params.code).toUpperCase();
    const manifest = await manifestFor(db, code);
    if (!manifest) throw unknown();
    await limit(req, res, 'play-status', code);
    await recordPlayStatus(db, manifest, input);
    res.status(204).end();
  });

  return router;
}
