import type { Router } from 'express';
import { ctx } from '../context.js';
import { requestLogger, type Logger } from '../log.js';
import { storageOf } from '../storage/index.js';
import { TimeoutError, withTimeout } from '../timeout.js';

/** How long a readiness check may take before it counts as failed (probes usually time out at a few seconds). */
export const CHECK_TIMEOUT_MS = 2000;

type CheckResult = 'ok' | 'failed' | 'timeout';

/**
 * Probes, mounted before sessions and CSRF (no cookie, no session row):
 *   GET /healthz   the process is up and serving (no database work): restart it when this fails
 *   GET /readyz    the database and the storage are reachable: send it traffic only while this answers 200
 */
export function mountHealth(router: Pick<Router, 'get'>, logger: Logger): void {
  // Routes of the app itself, not a router of their own: every other request passes them at the cost of a path test.
  router.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (req, res) => {
    const context = ctx(req);
    const log = requestLogger(req, logger);
    const [database, storage] = await Promise.all([check('database', log, () => context.db.raw('select 1')), check('storage', log, (signal) => storageOf(context).check(signal))]);
    const ready = database === 'ok' && storage === 'ok';
    res.setHeader('Cache-Control', 'no-store');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ok' : 'unavailable', checks: { database, storage } });
  });
}

/** The reason is logged, not answered: the probe is public. */
async function check(name: string, log: Logger, run: (signal: AbortSignal) => Promise<unknown>): Promise<CheckResult> {
  const abort = new AbortController();
  try {
    await withTimeout(
      Promise.resolve().then(() => run(abort.signal)),
      CHECK_TIMEOUT_MS,
    );
    return 'ok';
  } catch (err) {
    abort.abort();
    const timedOut = err instanceof TimeoutError;
    log.warn({ check: name, err }, `readiness: ${name} ${timedOut ? 'timed out' : 'failed'}`);
    return timedOut ? 'timeout' : 'failed';
  }
}
