import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Config } from '../config.js';
import { ctx, type AppContext } from '../context.js';
import { USER_COLUMNS } from '../services/users.js';
import { clearStateCookies } from './auth.js';
import type { User } from '../../resources/users.js';

/**
 * Sessions exist for signed-in users only: a visitor (login page, health check, crawler) writes nothing. The cookie
 * holds a 256-bit random token; the table holds its SHA-256 (s_id), the user id and a little data. Reading the
 * session and its user is one join; the expiry moves forward at most once a minute, not on every request.
 */

export const SESSION_COOKIE = 'ls.sid';
export const SIGNED_IN_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** A session's expiry is moved forward only when it is older than this (one write a minute at most, per session). */
export const TOUCH_AFTER_MS = 60 * 1000;

export interface SessionData {
  loginAt?: number;
}

export interface Session {
  /** SHA-256 of the cookie token: the row key, and what CSRF tokens are bound to. */
  id: string;
  userId: string;
  data: SessionData;
  expiresAt: Date;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      session?: Session;
    }
  }
}

/** One-shot crypto.hash (Node ≥ 20.12): the same digest without a Hash object per request. */
const hashSessionToken = (token: string) => crypto.hash('sha256', token, 'hex');
/** A well-formed cookie token: 43 base64url characters (32 bytes); anything else is not looked up. */
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

function cookieOptions(config: Config, maxAge: number) {
  return { httpOnly: true, sameSite: 'lax' as const, secure: config.secureCookies, path: '/', maxAge };
}

/** Reads the session named by the cookie with its user, in one query; sets req.session and req.user. */
export function sessionMiddleware(): RequestHandler {
  const done = (req: Request, res: Response, next: NextFunction) => {
    // The readable state cookies (spec 4) must not claim a sign-in that no longer exists.
    if (!req.user && req.cookies?.is_logged_in) clearStateCookies(res);
    next();
  };
  return (req, res, next) => {
    // A call made with an API token (api/middleware/bearer.ts) is that token's alone: no session is read or renewed.
    if (req.apiToken) return next();
    // A kept session (most calls) is taken without an async function's promise (bench/README.md, "Server CPU per request").
    const reading = readSession(req, res);
    if (reading) return reading.then(() => done(req, res, next));
    done(req, res, next);
  };
}

type Kept = NonNullable<ReturnType<AppContext['sessionCache']['get']>>;

/** Takes the session of the cookie from the process's cache; its read from the database when not kept (a promise). */
function readSession(req: Request, res: Response): Promise<void> | undefined {
  const token = req.cookies?.[SESSION_COOKIE];
  if (typeof token !== 'string' || !TOKEN_RE.test(token)) return undefined;
  const app = ctx(req);
  const id = hashSessionToken(token);
  const found = app.sessionCache.get(id);
  if (!found) return readStoredSession(req, res, app, id, token);
  takeSession(req, res, app, id, token, found);
  return undefined;
}

async function readStoredSession(req: Request, res: Response, app: AppContext, id: string, token: string): Promise<void> {
  const epoch = app.sessionCache.currentEpoch();
  const row = await app
    .db('sessions')
    .join('users', 'u_id', 's_userid')
    .where('s_id', id)
    .andWhere('s_expires_at', '>', app.db.fn.now())
    .first(['s_data', 's_expires_at', ...USER_COLUMNS]);
  if (!row) {
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    return;
  }
  const { s_data, s_expires_at, ...user } = row as Record<string, unknown> & { s_data: SessionData | string; s_expires_at: Date | string };
  if (!user.u_is_enabled || !user.u_is_verified) {
    // A user disabled since sign-in: the session ends here.
    await app.db('sessions').where('s_id', id).del();
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    return;
  }
  const found: Kept = {
    userId: user.u_id as string,
    data: typeof s_data === 'string' ? JSON.parse(s_data) : s_data,
    expiresAt: new Date(s_expires_at),
    user: user as unknown as User,
  };
  app.sessionCache.set(id, found, epoch);
  takeSession(req, res, app, id, token, found);
}

/** The session and its user on the request; the expiry moved forward when it is older than TOUCH_AFTER_MS. */
function takeSession(req: Request, res: Response, app: AppContext, id: string, token: string, found: Kept): void {
  req.session = { id, userId: found.userId, data: found.data as SessionData, expiresAt: found.expiresAt };
  req.user = { ...found.user };
  if (found.expiresAt.getTime() - Date.now() < SIGNED_IN_TTL_MS - TOUCH_AFTER_MS) {
    // Not awaited: the answer does not wait for the renewal, and a failed renewal only costs a later expiry.
    const renewed = new Date(Date.now() + SIGNED_IN_TTL_MS);
    app.sessionCache.renewed(id, renewed);
    app
      .db('sessions')
      .where('s_id', id)
      .update({ s_expires_at: renewed })
      .then(
        () => undefined,
        (err: Error) => app.log(`session renewal failed: ${err.message}`),
      );
    res.cookie(SESSION_COOKIE, token, cookieOptions(app.config, SIGNED_IN_TTL_MS));
  }
}

/** Signs a user in: any current session ends, a new one (new token, no fixation) is stored and its cookie set. */
export async function startSession(req: Request, res: Response, userId: string, data: SessionData = {}): Promise<Session> {
  const app = ctx(req);
  const token = crypto.randomBytes(32).toString('base64url');
  const session: Session = { id: hashSessionToken(token), userId, data, expiresAt: new Date(Date.now() + SIGNED_IN_TTL_MS) };
  await app.db.transaction(async (trx) => {
    if (req.session) await trx('sessions').where('s_id', req.session.id).del();
    await trx('sessions').insert({ s_id: session.id, s_userid: userId, s_data: JSON.stringify(data), s_expires_at: session.expiresAt });
  });
  res.cookie(SESSION_COOKIE, token, cookieOptions(app.config, SIGNED_IN_TTL_MS));
  req.session = session;
  return session;
}

/** Signs out: the row is deleted and the cookie cleared. */
export async function endSession(req: Request, res: Response): Promise<void> {
  if (req.session) await ctx(req).db('sessions').where('s_id', req.session.id).del();
  req.session = undefined;
  req.user = undefined;
  res.clearCookie(SESSION_COOKIE, { path: '/' });
}

/** Ends every session of a user except `keepSessionId` (after a password change, a reset, disabling). */
export async function endSessions(db: Knex, userId: string, keepSessionId?: string): Promise<void> {
  const q = db('sessions').where('s_userid', userId);
  if (keepSessionId) q.whereNot('s_id', keepSessionId);
  await q.del();
}

export async function pruneSessions(db: Knex): Promise<void> {
  await db('sessions').where('s_expires_at', '<=', db.fn.now()).del();
}
