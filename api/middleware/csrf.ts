import { doubleCsrf } from 'csrf-csrf';
import type { Request, RequestHandler, Response } from 'express';
import type { Config } from '../config.js';
import { ApiError } from '../errors.js';

export const CSRF_COOKIE = 'ls.csrf-token';
export const CSRF_HEADER = 'x-csrf-token';

/**
 * Double-submit token bound to the session id (csrf-csrf): the token sits in a readable cookie and must come back
 * in the X-CSRF-Token header of every state-changing call. The session remembers the token it was given, so the
 * cookie is (re)issued only when it is missing or belongs to another session.
 */
export function createCsrf(config: Config) {
  const { generateCsrfToken, validateRequest } = doubleCsrf({
    getSecret: () => config.sessionSecret,
    getSessionIdentifier: (req) => req.sessionID,
    cookieName: CSRF_COOKIE,
    cookieOptions: { sameSite: 'lax', path: '/', secure: config.secureCookies, httpOnly: false },
    getCsrfTokenFromRequest: (req) => req.headers[CSRF_HEADER] as string | undefined,
  });

  /** Issues a fresh token for the current session (after login, the session id changed). */
  function issue(req: Request, res: Response): string {
    const token = generateCsrfToken(req, res, { overwrite: true });
    req.session.csrfToken = token;
    return token;
  }

  const ensureCookie: RequestHandler = (req, res, next) => {
    const cookie = req.cookies?.[CSRF_COOKIE];
    if (!cookie || cookie !== req.session.csrfToken) issue(req, res);
    next();
  };

  const protect: RequestHandler = (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
    if (validateRequest(req)) return next();
    next(new ApiError(403, 'csrf_invalid', 'The security token is missing or expired; reload the page and try again'));
  };

  return { ensureCookie, protect, issue };
}
