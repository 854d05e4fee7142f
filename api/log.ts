import crypto from 'node:crypto';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { pino, type DestinationStream, type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
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

/** The logger of the request being handled (with its reqId), so lines logged deep in services carry the id too. */
const requestLog = new AsyncLocalStorage<Logger>();

export function currentLogger(fallback: Logger): Logger {
  return requestLog.getStore() ?? fallback;
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

function requestId(req: IncomingMessage, res: ServerResponse): string {
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

/**
 * The first middleware: a request id (echoed in X-Request-Id), req.log bound to it, one line when the response is
 * done, and the request's logger made current for everything that runs on its behalf (AppContext.log).
 */
export function httpLogger(logger: Logger): RequestHandler {
  if (!logger.isLevelEnabled('info')) {
    // Below info no request line and no service line (AppContext.log writes at info) is ever written, so the
    // per-request logger and its async context would cost every request for nothing. The id stays: header, 500s.
    return (req, res, next) => {
      (req as { id?: unknown }).id = requestId(req, res);
      req.log = logger;
      next();
    };
  }
  const middleware = pinoHttp({
    logger,
    genReqId: requestId,
    quietReqLogger: true,
    customLogLevel: (req, res, err) => {
      if (err || res.statusCode >= 500) return 'error';
      return QUIET_PATHS.has((req.url ?? '').split('?')[0]) ? 'debug' : 'info';
    },
    serializers: {
      req: (req) => ({
        method: req.method,
        url: safeUrl(String(req.url ?? '')),
        remoteAddress: (req.raw as { ip?: string }).ip ?? req.remoteAddress,
        headers: req.headers,
      }),
      res: (res) => ({ statusCode: res.statusCode }),
    },
  });
  return (req, res, next) => {
    middleware(req, res);
    requestLog.run(req.log, next);
  };
}
