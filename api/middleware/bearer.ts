import type { RequestHandler, Response } from 'express';
import { ctx } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { findBearerToken, touchApiToken, type BearerToken } from '../services/apiTokens.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Set when the call is authenticated by `Authorization: Bearer <API token>` (then there is no session). */
      apiToken?: BearerToken;
    }
  }
}

/** The routes a token opens: those of one account, /api/1/accounts/{a}/… (the id is the first capture). */
const ACCOUNT_ROUTE_RE = /^\/api\/1\/accounts\/([^/]+)\/./i;
const BEARER_RE = /^Bearer(?:\s+(\S*))?\s*$/i;

export const tokenInvalid = (res: Response) => {
  res.setHeader('WWW-Authenticate', 'Bearer error="invalid_token"');
  return new ApiError(401, 'token_invalid', 'The API token is invalid, expired or revoked');
};

/**
 * Authenticates an API call that carries `Authorization: Bearer <token>` (platform-and-flows.md section 2), before the
 * session is read. Such a call is authenticated by the token alone: a session cookie beside it is not read, so the
 * call never acts with the cookie's rights, and it needs no CSRF header (a cross-site page cannot set the header).
 * In this order:
 * - a token that does not work (unknown, revoked, expired; its user disabled or no longer in the account) → 401
 *   token_invalid;
 * - over the token's budget (API_TOKEN_LIMIT per API_TOKEN_LIMIT_WINDOW_SECONDS) → 429 too_many_requests, Retry-After;
 * - a route outside /api/1/accounts/{a}/… → 403 token_not_allowed (a token manages neither the user nor other tokens);
 * - another account's routes → 404, like any account the caller cannot see.
 * Then req.user is the token's user and req.apiToken the token (its role lowered to the user's current role);
 * resolveAccount and requirePermission check against that role. Other schemes and non-API paths are left alone.
 */
export function bearerMiddleware(): RequestHandler {
  const withToken: RequestHandler = async (req, res, next) => {
    const header = req.get('authorization');
    if (!header || !/^\/api\//i.test(req.path)) return next();
    const m = BEARER_RE.exec(header);
    if (!m) return next();
    const app = ctx(req);
    const token = m[1] ? await findBearerToken(app.db, m[1]) : null;
    if (!token) throw tokenInvalid(res);

    const { perToken, windowSeconds } = app.config.apiTokenLimit;
    const hit = await app.limiter.hit(`token:${token.id}`, windowSeconds);
    if (hit.points > perToken) {
      res.setHeader('Retry-After', String(Math.max(1, Math.ceil((hit.resetAt.getTime() - Date.now()) / 1000))));
      throw new ApiError(429, 'too_many_requests', 'Too many requests with this API token, please wait a moment and try again');
    }

    const route = ACCOUNT_ROUTE_RE.exec(req.path);
    if (!route) throw new ApiError(403, 'token_not_allowed', 'An API token works only on the routes of its account (/api/1/accounts/{account}/…)');
    if (route[1].toLowerCase() !== token.accountId) throw notFound('Account not found');

    req.user = { ...token.user };
    req.apiToken = token;
    // At most one write a minute per token (touchApiToken), so it is awaited; a failed write only leaves an older date.
    await touchApiToken(app.db, token).catch((err: Error) => app.log(`api token last-used update failed: ${err.message}`));
    next();
  };
  // Most calls carry no Authorization header: they pass without an async function's promise (bench/README.md, "Server
  // CPU per request").
  return (req, res, next) => (req.headers.authorization === undefined ? next() : withToken(req, res, next));
}
