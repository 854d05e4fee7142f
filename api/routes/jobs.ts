import { Router } from 'express';
import { ctx } from '../context.js';
import { ApiError } from '../errors.js';
import { requireUser } from '../middleware/auth.js';

/**
 * GET /jobs: the job queue's waiting and failed counts, in all and per job name, for root users (the entry admin's
 * dashboard card; the same figures as /metrics' jobs_waiting and jobs_failed). An API token never opens it.
 */
export function jobsRouter(): Router {
  const router = Router();
  router.get('/', requireUser, async (req, res) => {
    if (req.user!.u_role !== 'root' || req.apiToken) throw new ApiError(403, 'forbidden', 'Only a root user can see the job queue');
    res.json({ code: 'ok', ...(await ctx(req).jobs.counts()) });
  });
  return router;
}
