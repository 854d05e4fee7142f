import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { PgBoss, type Job } from 'pg-boss';
import type { Config } from '../config.js';
import { JOBS_SCHEMA, knexJobsDb } from './db.js';

export { installJobSchema, JOBS_SCHEMA } from './db.js';

export interface SendOptions {
  /** Not before this time. */
  startAfter?: Date;
  /** At most one job with this key waiting, running or between retries in the queue (another send answers null). */
  singletonKey?: string;
  /** Retries after the first failure (default JOBS_RETRY_LIMIT). */
  retryLimit?: number;
}

export type JobHandler = (data: Record<string, unknown>) => Promise<void>;

export interface JobCounts {
  /** Jobs due or waiting for their time or their next attempt (created, retry). */
  waiting: number;
  /** Jobs that used up their retries. */
  failed: number;
  byName: Record<string, { waiting: number; failed: number }>;
}

/**
 * The durable job queue (pg-boss, in the `pgboss` schema of the application's database, PGlite or PostgreSQL). Every
 * process may send; the handlers registered with work() run in the processes that called start() (the server), each
 * job once across all of them, retried with exponential backoff, and kept in the database across restarts.
 */
export interface Jobs {
  send(name: string, data: object, opts?: SendOptions): Promise<string | null>;
  /** Registers the handler of `name` (run by start()'s workers, or by drain()). A throw fails the attempt: retried. */
  work(name: string, handler: JobHandler): void;
  /** A timed job: one job of `name` per period of `everySeconds`, across all processes (started by start()). */
  schedule(name: string, everySeconds: number): void;
  counts(): Promise<JobCounts>;
  /** Starts the workers of every registered handler and the timed jobs' clocks (the server; tests use drain()). */
  start(): Promise<void>;
  /** Stops asking for jobs, gives running ones `graceMs` to finish, then hands them back to the queue (retried). */
  stop(graceMs?: number): Promise<void>;
  /**
   * Runs every job that is due now, of every registered handler, in this process, through the same queue (fetch,
   * complete or fail), until none is due; answers how many ran. For tests and scripts: deterministic, no polling.
   */
  drain(): Promise<number>;
}

/** Jobs a worker takes at a time. */
const BATCH = 10;
/** Longest wait between two retries, whatever the backoff says. */
const RETRY_DELAY_MAX_SECONDS = 3600;
/** Completed and failed jobs are kept this long (a mail's content is personal data: a day). */
const DELETE_AFTER_SECONDS = 24 * 3600;

interface JobsOptions {
  log: (msg: string, extra?: unknown) => void;
}

export function createJobs(knex: Knex, config: Config, { log }: JobsOptions): Jobs {
  const handlers = new Map<string, JobHandler>();
  const schedules = new Map<string, number>();
  const queues = new Map<string, Promise<void>>();
  const timers: NodeJS.Timeout[] = [];
  let boss: PgBoss | undefined;
  let booting: Promise<PgBoss> | undefined;
  let working = false;

  // Started on first use: an app that never sends (most tests) never starts pg-boss. Its own timers stay off here:
  // supervise (expiry of stuck jobs, deletion of old ones) runs only in start()ed processes, see start().
  function ready(supervise = false): Promise<PgBoss> {
    booting ??= (async () => {
      const b = new PgBoss({
        db: knexJobsDb(knex),
        schema: JOBS_SCHEMA,
        backend: config.databaseUrl ? 'postgres' : 'pglite',
        supervise,
        schedule: false,
        migrate: true,
        // No row in pg-boss's instance registry (getInstances, which nothing here reads): registering also starts
        // its "nurse", an event-loop delay monitor on a 20 ms timer in every process for as long as it runs, which
        // was most of an idle server's CPU (bench/README.md, "Server CPU per request").
        registerInstance: false,
      });
      b.on('error', (err) => log('jobs: pg-boss error', err));
      await b.start();
      boss = b;
      return b;
    })();
    booting.catch(() => (booting = undefined));
    return booting;
  }

  function queue(b: PgBoss, name: string): Promise<void> {
    let made = queues.get(name);
    if (!made) {
      made = (async () => {
        const options = {
          retryLimit: config.jobs.retryLimit,
          retryDelay: config.jobs.retryDelaySeconds,
          retryBackoff: true,
          retryDelayMax: RETRY_DELAY_MAX_SECONDS,
          deleteAfterSeconds: DELETE_AFTER_SECONDS,
        };
        const found = await b.getQueue(name);
        // A queue made by an earlier start takes this configuration's retries (JOBS_RETRY_*), for the jobs sent from now.
        if (found) {
          if (found.retryLimit !== options.retryLimit || found.retryDelay !== options.retryDelay) await b.updateQueue(name, options);
          return;
        }
        // exclusive: one live (created, retry or active) job per singletonKey; send() gives a job without one a key of
        // its own, so only the jobs that ask for a key are held to it.
        await b.createQueue(name, { policy: 'exclusive', ...options });
      })();
      made.catch(() => queues.delete(name));
      queues.set(name, made);
    }
    return made;
  }

  async function run(name: string, job: Job<object>): Promise<void> {
    const handler = handlers.get(name);
    if (!handler) throw new Error(`jobs: no handler for ${name}`);
    try {
      await handler((job.data ?? {}) as Record<string, unknown>);
    } catch (err) {
      log(`jobs: ${name} ${job.id} failed (attempt ${job.retryCount + 1}); it is retried until its retries are used up`, err);
      throw err;
    }
  }

  async function send(name: string, data: object, opts: SendOptions = {}): Promise<string | null> {
    const b = await ready();
    await queue(b, name);
    return b.send(name, data, {
      ...(opts.startAfter ? { startAfter: opts.startAfter } : {}),
      singletonKey: opts.singletonKey ?? randomUUID(),
      ...(opts.retryLimit !== undefined ? { retryLimit: opts.retryLimit } : {}),
    });
  }

  async function startWorker(b: PgBoss, name: string): Promise<void> {
    await queue(b, name);
    // Up to BATCH jobs a fetch, run one after the other and settled each on its own (a failed mail does not retry the
    // batch's others); a full batch fetches again at once, so a burst of mail does not wait a poll per job.
    await b.work<object>(name, { pollingIntervalSeconds: config.jobs.pollMs / 1000, batchSize: BATCH, perJobResults: true, burstWhenBatchFull: true }, async (batch) => {
      const results: { id: string; status: 'completed' | 'failed'; output?: object }[] = [];
      for (const job of batch) {
        try {
          await run(name, job);
          results.push({ id: job.id, status: 'completed' });
        } catch (err) {
          results.push({ id: job.id, status: 'failed', output: { message: err instanceof Error ? err.message : String(err) } });
        }
      }
      return results;
    });
  }

  // One job per slot of `everySeconds` (pg-boss' singletonSeconds: a unique slot per queue), whoever sends it first:
  // every process sends twice a slot, one job is made, one worker runs it.
  function startClock(b: PgBoss, name: string, everySeconds: number): void {
    const tick = () => {
      queue(b, name)
        .then(() => b.sendThrottled(name, {}, null, everySeconds, name))
        .catch((err) => log(`jobs: could not schedule ${name}`, err));
    };
    tick();
    const timer = setInterval(tick, Math.min(everySeconds / 2, 60) * 1000);
    timer.unref();
    timers.push(timer);
  }

  return {
    send,
    work(name, handler) {
      handlers.set(name, handler);
      if (working && boss) void startWorker(boss, name).catch((err) => log(`jobs: could not start the worker of ${name}`, err));
    },
    schedule(name, everySeconds) {
      schedules.set(name, everySeconds);
      if (working && boss) startClock(boss, name, everySeconds);
    },
    async counts() {
      const rows = (await knex.raw(`select name, state, count(*)::int as n from ${JOBS_SCHEMA}.job where state in ('created', 'retry', 'failed') group by name, state`)).rows as {
        name: string;
        state: string;
        n: number;
      }[];
      const counts: JobCounts = { waiting: 0, failed: 0, byName: {} };
      // Every job this process knows by name, at 0 when none is waiting.
      for (const name of [...handlers.keys()].sort()) counts.byName[name] = { waiting: 0, failed: 0 };
      for (const r of rows) {
        const of = (counts.byName[r.name] ??= { waiting: 0, failed: 0 });
        const key = r.state === 'failed' ? 'failed' : 'waiting';
        of[key] += r.n;
        counts[key] += r.n;
      }
      return counts;
    },
    async start() {
      if (working) return;
      working = true;
      // An instance started lazily (this process only sent) runs no supervisor: replace it by one that does.
      const lazy = booting && (await booting.catch(() => undefined));
      booting = undefined;
      boss = undefined;
      queues.clear();
      await lazy?.stop({ graceful: false, close: false });
      const b = await ready(true);
      for (const name of handlers.keys()) await startWorker(b, name);
      for (const [name, seconds] of schedules) startClock(b, name, seconds);
    },
    async stop(graceMs = 10_000) {
      for (const t of timers.splice(0)) clearInterval(t);
      working = false;
      const b = boss ?? (booting ? await booting.catch(() => undefined) : undefined);
      boss = undefined;
      booting = undefined;
      queues.clear();
      await b?.stop({ graceful: graceMs > 0, timeout: Math.max(graceMs, 1000), close: false });
    },
    async drain() {
      const b = await ready();
      let ran = 0;
      for (;;) {
        let found = 0;
        for (const name of handlers.keys()) {
          await queue(b, name);
          for (const job of await b.fetch<object>(name, { batchSize: BATCH })) {
            found++;
            try {
              await run(name, job);
              await b.complete(name, job.id);
            } catch (err) {
              await b.fail(name, job.id, { message: err instanceof Error ? err.message : String(err) });
            }
          }
        }
        ran += found;
        if (!found) return ran;
      }
    },
  };
}
