import type { Knex } from 'knex';
import type { Request } from 'express';
import type { Config } from './config.js';
import type { Mailer } from './mail/mailer.js';
import type { PermissionStore } from './services/permissions.js';
import type { SessionCache } from './services/sessionCache.js';
import type { RateLimiter } from './middleware/rateLimit.js';
import type { User } from '../resources/users.js';
import type { Account } from '../resources/accounts.js';
import type { Jobs } from './jobs/index.js';

/** Everything a handler needs, built once per app (api/app.ts) and reachable from any request. */
export interface AppContext {
  db: Knex;
  config: Config;
  mailer: Mailer;
  permissions: PermissionStore;
  /** Sessions with their user, cached briefly and emptied on any change (api/services/sessionCache.ts). */
  sessionCache: SessionCache;
  limiter: RateLimiter;
  /** The durable job queue (api/jobs/): send, work, schedule, counts; mail through api/mail/outbox.ts enqueueMail. */
  jobs: Jobs;
  log: (msg: string, extra?: unknown) => void;
  /** Issues a fresh CSRF token for the request's (new) session. */
  issueCsrf: (req: Request, res: import('express').Response) => string;
  /** True when the request's X-CSRF-Token header is valid for its session (or for a visitor). */
  csrfHeaderValid: (req: Request) => boolean;
  /** Extra services later parts attach (storage, …). */
  services: Record<string, unknown>;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      user?: User;
      account?: Account;
      /** The caller's role in req.account (root users act as root everywhere). */
      accountRole?: string;
    }
  }
}

export function ctx(req: Request): AppContext {
  return req.app.locals.ctx as AppContext;
}
