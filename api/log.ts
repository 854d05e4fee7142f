import crypto from 'node:crypto';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.js';

export type { Logger } from 'pino';

/** Never written to a log: session and CSRF cookies, the CSRF header, bearer tokens, passwords anywhere. */
const REDACT = [
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  'password',
  'u_password',
  '*.password',
  '*.u_password',
  '*.*.password',
  '*.*.u_password',
];

/** One JSON object a line on stdout (or `destination`), at config.logLevel. */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.logLevel,
      redact: { paths: REDACT, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    // Synchronous writes: the lines logged just before process.exit (shutdown) are not lost.
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

/**
 * What the request being handled logs through: its id, and the logger bound to it (`reqId` on every line), made on
 * the first line a service writes: most requests write none but their own closing line, which needs no child logger.
 */
class RequestLog {
  private bound?: Logger;
  constructor(
    private readonly base: Logger,
    readonly id: string,
  ) {}
  get logger(): Logger {
    return (this.bound ??= this.base.child({ reqId: this.id }));
  }
  /** The bound logger if a line was written through it, else undefined (then the caller adds reqId itself). */
  get made(): Logger | undefined {
    return this.bound;
  }
}

/** The request being handled, so lines logged deep in services carry its id too. */
const requestLog = new AsyncLocalStorage<RequestLog>();

/** The logger of the request being handled (with its reqId), else `fallback`. */
export function currentLogger(fallback: Logger): Logger {
  return requestLog.getStore()?.logger ?? fallback;
}

/** AppContext.log: a message and optional detail (an Error is logged with its stack) on the current request's logger. */
export function contextLog(logger: Logger): (msg: string, extra?: unknown) => void {
  return (msg, extra) => {
    const log = currentLogger(logger);
    if (extra === undefined) log.info(msg);
    else if (extra instanceof Error) log.info({ err: extra }, msg);
    else if (typeof extra === 'object' && extra !== null) log.info(extra, msg);
    else log.info({ extra }, msg);
  };
}

/** A client's X-Request-Id is kept only when it is a short token that cannot forge or break a log line. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

function requestId(req: { headers: Record<string, string | string[] | undefined> }, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : crypto.randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** Paths polled by probes and scrapers: logged at debug, not info. */
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** Secret query values (reset-password and upload-signature links, a registration's access code) and the e-mail verification token in a path. */
export function safeUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q < 0 ? url : url.slice(0, q)).replace(/(\/users\/verify\/)[^/?]+/, '$1[redacted]');
  if (q < 0) return path;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of ['token', 'signature', 'access_code']) if (params.has(key)) params.set(key, '[redacted]');
  return `${path}?${params.toString().replace(/%5Bredacted%5D/g, '[redacted]')}`;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The request id (X-Request-Id), set by the first middleware (httpLogger). */
      id?: string;
    }
  }
}

/**
 * The first middleware: a request id (echoed in X-Request-Id), one line when the response is done (or the client
 * left), and the request's log made current for everything that runs on its behalf (AppContext.log, currentLogger).
 *
 * The closing line holds what an operator looks a request up by: `reqId`, `req` {method, url (secrets redacted),
 * remoteAddress}, `res` {statusCode}, `responseTime` (ms) and `userId` (the session's or API token's user), at info,
 * or error with `err` for a 5xx. No request headers: the cookies, CSRF token and authorization they carry would only
 * be redacted again, and serialising them was a large part of a small request's CPU (bench/README.md, "Server CPU per
 * request"). Written straight by the logger, not through pino-http's child loggers and serializers.
 */
export function httpLogger(logger: Logger): RequestHandler {
  if (!logger.isLevelEnabled('info')) {
    // Below info no request line and no service line (AppContext.log writes at info) is ever written, so the
    // per-request log and its async context would cost every request for nothing. The id stays: header, 500s.
    return (req, res, next) => {
      req.id = requestId(req, res);
      next();
    };
  }
  const debug = logger.isLevelEnabled('debug');
  return (req, res, next) => {
    const start = Date.now();
    const log = new RequestLog(logger, requestId(req, res));
    req.id = log.id;
    // 'close' comes once per response, after 'finish' when it was sent whole, alone when the client left first.
    res.once('close', () => {
      const url = req.originalUrl ?? req.url ?? '';
      const status = res.statusCode;
      const failed = status >= 500;
      if (!failed && !debug && QUIET_PATHS.has(url.split('?', 1)[0])) return; // probes: debug only
      const bound = log.made;
      const line: Record<string, unknown> = {
        ...(bound ? {} : { reqId: log.id }),
        req: { method: req.method, url: safeUrl(url), remoteAddress: req.ip ?? req.socket?.remoteAddress },
        res: { statusCode: status },
        responseTime: Date.now() - start,
      };
      const userId = req.user?.u_id;
      if (userId) line.userId = userId;
      const target = bound ?? logger;
      if (failed) {
        line.err = (res as { err?: unknown }).err ?? new Error(`failed with status code ${status}`);
        target.error(line, 'request errored');
      } else if (QUIET_PATHS.has(url.split('?', 1)[0])) target.debug(line, 'request completed');
      else target.info(line, !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted');
    });
    requestLog.run(log, next);
  };
}
