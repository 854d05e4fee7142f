import type { Server, ServerResponse } from 'node:http';
import type { Knex } from 'knex';
import { flushLogs, type Logger } from './log.js';
import { withTimeout } from './timeout.js';

/** Requests in flight get this long to finish after SIGTERM/SIGINT; then their connections are cut. */
export const GRACE_MS = 10_000;
/** Closing the pool after the requests are done: a connection stuck in the driver must not hold the exit. */
const POOL_CLOSE_MS = 5_000;
/** How often keep-alive connections that went idle since the signal are closed. */
const IDLE_SWEEP_MS = 100;

export interface ShutdownOptions {
  /** The public server, and the internal metrics server when there is one. */
  servers: Server[];
  db: Knex;
  logger: Logger;
  graceMs?: number;
  /** Intervals and timeouts to clear at once. */
  timers?: NodeJS.Timeout[];
  /** Stops the job queue's workers before the pool closes (api/jobs/), with at most `graceMs` for running jobs. */
  stopJobs?: (graceMs: number) => Promise<void>;
  /** Other resources to release once requests are done (e.g. storage clients). */
  release?: () => Promise<void>;
  exit?: (code: number) => void;
}

/**
 * The shutdown sequence, started by the first signal: stop accepting connections, close idle keep-alive connections
 * (now, and as in-flight responses end), wait for the requests in flight for at most `graceMs` (then cut their
 * connections), close the database pool, exit 0 — or 1 when anything had to be forced. A second signal exits at once
 * with 1.
 */
export function createShutdown(opts: ShutdownOptions): (signal: string) => void {
  const { servers, db, logger, graceMs = GRACE_MS, timers = [], stopJobs, release, exit = (code) => process.exit(code) } = opts;
  let started = false;
  // Responses not yet started when the signal comes say Connection: close, so no client reuses a closing connection.
  const unanswered = new Set<ServerResponse>();
  for (const server of servers) {
    server.prependListener('request', (_req, res: ServerResponse) => {
      if (started) {
        res.setHeader('Connection', 'close');
        return;
      }
      unanswered.add(res);
      res.once('close', () => unanswered.delete(res));
    });
  }

  async function run(signal: string): Promise<void> {
    const begin = Date.now();
    for (const t of timers) clearTimeout(t);
    let forced = false;
    for (const res of unanswered) if (!res.headersSent) res.setHeader('Connection', 'close');
    const closed = Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    // close() has shut the listening sockets already (its callback waits for the open connections): whoever reads
    // this line finds new connections refused.
    logger.info({ signal, graceMs }, 'shutting down: refusing new connections, finishing requests in flight');
    // Written now, not with the next batch (api/log.ts): whoever watches the logs for it (an orchestrator, an operator,
    // the tests) learns at once that this process takes no more connections.
    flushLogs();
    // The workers stop asking for jobs at once; the running ones finish beside the requests (or go back to the queue).
    const jobsStopped = (stopJobs?.(graceMs) ?? Promise.resolve()).catch((err: unknown) => logger.warn({ err }, 'shutdown: stopping the job queue failed'));
    const closeIdle = () => servers.forEach((s) => s.closeIdleConnections());
    closeIdle();
    const sweep = setInterval(closeIdle, IDLE_SWEEP_MS);
    const force = setTimeout(() => {
      forced = true;
      logger.warn({ graceMs }, 'shutdown: requests still in flight after the grace period; closing their connections');
      servers.forEach((s) => s.closeAllConnections());
    }, graceMs);
    await closed;
    await jobsStopped;
    clearInterval(sweep);
    clearTimeout(force);
    try {
      await withTimeout(db.destroy(), POOL_CLOSE_MS);
    } catch (err) {
      forced = true;
      logger.error({ err }, 'shutdown: the database pool did not close');
    }
    try {
      await release?.();
    } catch (err) {
      logger.warn({ err }, 'shutdown: releasing resources failed');
    }
    logger.info({ ms: Date.now() - begin, forced }, 'shut down');
    exit(forced ? 1 : 0);
  }

  return (signal) => {
    if (started) {
      logger.warn({ signal }, 'second signal: exiting now');
      servers.forEach((s) => s.closeAllConnections());
      exit(1);
      return;
    }
    started = true;
    run(signal).catch((err) => {
      logger.fatal({ err }, 'shutdown failed');
      exit(1);
    });
  };
}

/** SIGTERM (docker stop, Kubernetes) and SIGINT (Ctrl-C) start the shutdown; a second one forces it. */
export function onSignals(shutdown: (signal: string) => void): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => shutdown(signal));
}
