import crypto from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.js';
import { LOG } from './requestSlots.js';

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

/**
 * Log lines on stdout go out in batches: a line waits until 4 KiB are buffered (about fifteen request lines) or a
 * second has passed, and what is buffered is written when the process exits (process.exit, an uncaught exception,
 * the shutdown) and by flushLogs(). A synchronous write per line was a system call and a wake-up of the reader for
 * every request (bench/README.md, "Server CPU per request"). Only a process killed outright (SIGKILL, out of memory)
 * loses what is buffered: at most a second of lines.
 */
export const LOG_BATCH_BYTES = 4096;
export const LOG_BATCH_MS = 1000;

type Batched = DestinationStream & { flush(): void; flushSync(): void; destroyed?: boolean };
const batched = new Set<Batched>();

/** A destination on file descriptor `fd` (stdout by default) that writes its lines in batches (see LOG_BATCH_BYTES). */
export function batchedDestination(fd = 1): DestinationStream {
  // sonic-boom (pino's own destination): synchronous writes, each once minLength bytes are buffered, and a flush every
  // periodicFlush ms for the rest.
  const dest = pino.destination({ dest: fd, sync: true, minLength: LOG_BATCH_BYTES, periodicFlush: LOG_BATCH_MS }) as unknown as Batched;
  if (batched.size === 0) process.once('exit', flushLogsSync);
  batched.add(dest);
  return dest;
}

/** Writes every batched destination's buffered lines now (after the start's lines, before what is printed below them). */
export function flushLogs(): void {
  for (const dest of batched) if (!dest.destroyed) dest.flush();
}

function flushLogsSync(): void {
  for (const dest of batched) {
    try {
      if (!dest.destroyed) dest.flushSync();
    } catch {
      // A closed stdout: nothing more can be written.
    }
  }
}

const OPTIONS = (config: Pick<Config, 'logLevel'>) => ({
  level: config.logLevel,
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label: string) => ({ level: label }) },
});

let stdout: DestinationStream | undefined;

/** The logger of each createLogger's request lines: the same destination and options, without redaction (see httpLogger). */
const requestLineLoggers = new WeakMap<Logger, Logger>();

/** One JSON object a line on stdout (or `destination`), at config.logLevel. */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  // Every logger of the process that writes to stdout shares one destination (one buffer, one timer).
  const dest = destination ?? (stdout ??= batchedDestination(1));
  const logger = pino({ ...OPTIONS(config), redact: { paths: REDACT, censor: '[redacted]' } }, dest);
  requestLineLoggers.set(logger, pino(OPTIONS(config), dest));
  return logger;
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

/**
 * The log of the request being served, kept on it (api/requestSlots.ts: not in a WeakMap), so the lines its services
 * write (ctx(req).log) carry its id too.
 */
type WithLog = { [LOG]?: RequestLog };

/** The logger of this request (with its reqId), else `fallback`. */
export function requestLogger(req: object | undefined, fallback: Logger): Logger {
  return (req && (req as WithLog)[LOG]?.logger) ?? fallback;
}

/**
 * AppContext.log: a message and optional detail (an Error is logged with its stack) on the request's logger (a
 * request's context, api/context.ts) or on `logger` (the app's, for work outside a request).
 */
export function contextLog(logger: Logger, req?: object): (msg: string, extra?: unknown) => void {
  return (msg, extra) => {
    const log = requestLogger(req, logger);
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

const SECRET_PARAMS = ['token', 'signature', 'access_code'];
const SECRET_NAMES = new Set(SECRET_PARAMS);

/**
 * Whether the query (after `?`) certainly names no secret, from its names alone: a name without `%` or `+` is what it
 * decodes to. A name that is a secret or is encoded answers false (then the query is parsed whole). A list page's
 * query is mostly encoded JSON values, which parsing whole decoded on every request line for nothing.
 */
function plainlyNoSecret(query: string): boolean {
  for (let start = 0; start <= query.length;) {
    let end = query.indexOf('&', start);
    if (end < 0) end = query.length;
    const eq = query.indexOf('=', start);
    const name = query.slice(start, eq >= 0 && eq < end ? eq : end);
    if (name.includes('%') || name.includes('+') || SECRET_NAMES.has(name)) return false;
    start = end + 1;
  }
  return true;
}

/** Secret query values (reset-password and upload-signature links, a registration's access code) and the e-mail verification token in a path. */
export function safeUrl(url: string): string {
  const q = url.indexOf('?');
  const bare = q < 0 ? url : url.slice(0, q);
  const path = bare.includes('/users/verify/') ? bare.replace(/(\/users\/verify\/)[^/?]+/, '$1[redacted]') : bare;
  if (q < 0) return path;
  if (plainlyNoSecret(url.slice(q + 1))) return path === bare ? url : `${path}${url.slice(q)}`;
  const params = new URLSearchParams(url.slice(q + 1));
  // The query as the client wrote it unless it names a secret (compared decoded: %74oken is token too).
  if (!SECRET_PARAMS.some((key) => params.has(key))) return `${path}${url.slice(q)}`;
  for (const key of SECRET_PARAMS) if (params.has(key)) params.set(key, '[redacted]');
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
 * left), and the request's log kept for what its services write (ctx(req).log, requestLogger).
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
    // per-request log would cost every request for nothing. The id stays (header, 500s).
    return (req, res, next) => {
      req.id = requestId(req, res);
      next();
    };
  }
  const debug = logger.isLevelEnabled('debug');
  // A request's closing line holds only what is built below (the URL through safeUrl, no headers, no body), so it needs
  // none of the redaction paths, which pino would otherwise walk on every line (wildcards included). A line with an
  // error, or one through the request's own logger (a service logged), goes through the redacting logger.
  const plain = requestLineLoggers.get(logger) ?? logger;
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
      const request = { method: req.method, url: safeUrl(url), remoteAddress: req.ip ?? req.socket?.remoteAddress };
      const responseTime = Date.now() - start;
      // Two literals, not `{ ...(bound ? {} : { reqId }), req, … }`: properties added after a spread went through V8's
      // slow path on every line, a sixth of a signed-in GET's CPU (bench/README.md, "Server CPU per request").
      const line: Record<string, unknown> = bound
        ? { req: request, res: { statusCode: status }, responseTime }
        : { reqId: log.id, req: request, res: { statusCode: status }, responseTime };
      const userId = req.user?.u_id;
      if (userId) line.userId = userId;
      const target = bound ?? plain;
      if (failed) {
        line.err = (res as { err?: unknown }).err ?? new Error(`failed with status code ${status}`);
        (bound ?? logger).error(line, 'request errored');
      } else if (QUIET_PATHS.has(url.split('?', 1)[0])) target.debug(line, 'request completed');
      else target.info(line, !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted');
    });
    (req as WithLog)[LOG] = log;
    next();
  };
}
