import session from 'express-session';
import { ConnectSessionKnexStore } from 'connect-session-knex';
import type { Knex } from 'knex';
import type { RequestHandler } from 'express';
import type { Config } from '../config.js';

declare module 'express-session' {
  interface SessionData {
    userId?: string;
    csrfToken?: string;
    loginAt?: number;
  }
}

export const SESSION_COOKIE = 'ls.sid';
/** A visitor's session (only a CSRF token) lives 2 hours; a signed-in one 7 days, renewed on use. */
export const ANONYMOUS_TTL_MS = 2 * 60 * 60 * 1000;
export const SIGNED_IN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export function sessionMiddleware(db: Knex, config: Config, opts: { cleanup: boolean }): RequestHandler {
  const store = new ConnectSessionKnexStore({
    knex: db,
    tableName: 'sessions',
    createTable: false,
    cleanupInterval: opts.cleanup ? 10 * 60 * 1000 : 0,
  });
  return session({
    name: SESSION_COOKIE,
    secret: config.sessionSecret,
    store,
    resave: false,
    saveUninitialized: false,
    rolling: true,
    proxy: config.trustProxy,
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure: config.secureCookies,
      path: '/',
      maxAge: ANONYMOUS_TTL_MS,
    },
  });
}
