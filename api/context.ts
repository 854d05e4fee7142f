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
import { actingFor } from './db/actor.js';
import { CONTEXT } from './requestSlots.js';

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

/**
 * What a request's context inherits: the app's context, and the mailer writing its lines on the request's log (made
 * when a request sends mail). One per app: the getter is defined here once, not on each request's context. An accessor
 * with its own function on every context gave every context a hidden class of its own (an accessor is part of the
 * class), and through those classes and the getter's closure (its `log` holds the request) the young generation's
 * collections kept every signed-in request's objects alive and promoted them: about 2 MB at every collection of a
 * signed-in `GET` (bench/README.md, "Server CPU per request").
 */
const requestContextPrototypes = new WeakMap<AppContext, AppContext>();
function requestContextPrototype(app: AppContext): AppContext {
  let prototype = requestContextPrototypes.get(app);
  if (!prototype) {
    prototype = Object.create(app, {
      mailer: {
        get(this: AppContext) {
          return app.mailer.withLog?.(this.log) ?? app.mailer;
        },
      },
    }) as AppContext;
    requestContextPrototypes.set(app, prototype);
  }
  return prototype;
}

/**
 * The app's context as this request sees it: the same services, with `db` the request's handle (its transactions record
 * the request's user as their actor, api/db/actor.ts) and `log` (and the mailer's lines) on the request's logger (its
 * lines carry the request id). Made on the first call of the request, then kept on it. The request is carried here, not in
 * an AsyncLocalStorage, whose async hooks cost every promise of every request on Node 20 (bench/README.md, "Server
 * CPU per request").
 */
export function ctx(req: Request): AppContext {
  const slots = req as Request & { [CONTEXT]?: AppContext };
  let context = slots[CONTEXT];
  if (!context) {
    const app = req.app.locals.ctx as AppContext;
    const logFor = req.app.locals.logFor as ((req: Request) => AppContext['log']) | undefined;
    const log = logFor ? logFor(req) : app.log;
    context = Object.create(requestContextPrototype(app), {
      db: { value: actingFor(app.db, req) },
      log: { value: log },
    }) as AppContext;
    slots[CONTEXT] = context; // on the request, not in a WeakMap (api/requestSlots.ts)
  }
  return context;
}
