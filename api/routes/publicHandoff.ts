import { Router, type RequestHandler } from 'express';
import { ctx } from '../context.js';
import { ApiError, validate } from '../errors.js';
import { decideHandoff, findHandoff, handoffInvalid, publicHandoff } from '../services/handoffs.js';
import { handoffAcceptSchema } from '../../resources/handoffs.js';

/** Like the invite page: a per-address budget of attempts, shared by every API process (rate_limits table). */
const limited: RequestHandler = async (req, res, next) => {
  const app = ctx(req);
  const { windowSeconds, loginPerIp } = app.config.rateLimit;
  const hit = await app.limiter.hit(`handoff:ip:${req.ip}`, windowSeconds);
  if (hit.points > loginPerIp) {
    res.setHeader('Retry-After', String(Math.max(1, Math.ceil((hit.resetAt.getTime() - Date.now()) / 1000))));
    throw new ApiError(429, 'too_many_attempts', 'Too many attempts, please wait a few minutes and try again');
  }
  next();
};

/**
 * The public side of a handoff (account-console.md: handoffs), the mailed link being the credential:
 * - `GET /handoff/{token}`: the lead, its event, who offers it, the message and the status; an unknown token answers
 *   400 handoff_invalid.
 * - `POST /handoff/accept {token, decision}` (CSRF like every write): accepted or not_available, once; a used or
 *   unknown token answers 400 handoff_invalid. Accepting makes the representative the lead's owner.
 * The caller's own handoffs across accounts (`GET /handoffs`) are in ./ownHandoffs.ts.
 */
export function publicHandoffRouter(): Router {
  const router = Router();

  router.post('/handoff/accept', limited, async (req, res) => {
    const body = validate(handoffAcceptSchema, req.body);
    const row = await decideHandoff(ctx(req).db, body.token, body.decision);
    res.json(publicHandoff(row));
  });

  router.get('/handoff/:token', limited, async (req, res) => {
    const row = await findHandoff(ctx(req).db, String(req.params.token));
    if (!row) throw handoffInvalid();
    res.json(publicHandoff(row));
  });

  return router;
}
