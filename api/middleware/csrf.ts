import { doubleCsrf } from 'csrf-csrf';
import type { Request, RequestHandler, Response } from 'express';
import type { Config } from '../config.js';
import { ApiError } from '../errors.js';

export const CSRF_COOKIE = 'ls.csrf-token';
export const CSRF_HEADER = 'x-csrf-token';
/** What a visitor's token is bound to: no session exists before sign-in, so nothing is stored for it. */
const ANONYMOUS = 'anonymous';

export const csrfInvalid = () => new ApiError(403, 'csrf_invalid', 'The security token is missing or expired; reload the page and try again');

/**
 * Signed double-submit token (csrf-csrf): an HMAC of the session id (or of "anonymous" before sign-in) and a random
 * value, in a readable cookie that must come back in the X-CSRF-Token header of every state-changing call. A
 * visitor's token needs no stored session; at sign-in a new token bound to the new session replaces it, so a token
 * from another session, or a visitor's token after sign-in, is refused.
 */
export function createCsrf(config: Config) {
  // The token cookieValid checks in the header's place (validateRequest is synchronous: set only for that call).
  let probing: string | undefined;
  const { generateCsrfToken, validateRequest } = doubleCsrf({
    getSecret: () => config.sessionSecret,
    getSessionIdentifier: (req) => req.session?.id ?? ANONYMOUS,
    cookieName: CSRF_COOKIE,
    cookieOptions: { sameSite: 'lax', path: '/', secure: config.secureCookies, httpOnly: false },
    getCsrfTokenFromRequest: (req) => probing ?? (req.headers[CSRF_HEADER] as string | undefined),
  });

  /** Issues a fresh token for the request's current binding (after sign-in or sign-out it changed). */
  function issue(req: Request, res: Response): string {
    return generateCsrfToken(req, res, { overwrite: true });
  }

  /** True when the header carries a token that matches the cookie and the current session. */
  const headerValid = (req: Request) => validateRequest(req);

  /**
   * The cookie alone is valid for the current binding (checked as if the page had sent it back). A browser sends the
   * same cookie with every request of a session, so a positive answer is remembered (bounded) instead of recomputed.
   */
  const known = new Set<string>();
  const cookieValid = (req: Request) => {
    const cookie = req.cookies?.[CSRF_COOKIE];
    if (typeof cookie !== 'string' || !cookie) return false;
    const key = `${req.session?.id ?? ANONYMOUS}|${cookie}`;
    if (known.has(key)) return true;
    // Checked as if the header carried the cookie's token. Not through a stand-in request made with Object.create(req):
    // an object used as a prototype gets a hidden class of its own, and every request of a client whose cookie no longer
    // matches (a token from before sign-in, from another session) then stayed alive through the young generation's
    // collections and was promoted, 2–3 MB a collection (bench/README.md, "Server CPU per request").
    probing = cookie;
    let valid: boolean;
    try {
      valid = validateRequest(req);
    } finally {
      probing = undefined;
    }
    if (!valid) return false;
    if (known.size >= 10_000) known.clear();
    known.add(key);
    return true;
  };

  const ensureCookie: RequestHandler = (req, res, next) => {
    // An API-token call gets no cookie: it is not a browser's, and it needs no CSRF token.
    if (!req.apiToken && !cookieValid(req)) issue(req, res);
    next();
  };

  const protect: RequestHandler = (req, _res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
    // Only a call authenticated by a valid API token, and by nothing else (bearer.ts sets req.apiToken only then and
    // the session is not read for it): a cross-site page can neither set the Authorization header nor know the token.
    if (req.apiToken && !req.session) return next();
    next(headerValid(req) ? undefined : csrfInvalid());
  };

  return { ensureCookie, protect, issue, headerValid };
}
