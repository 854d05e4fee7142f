import type { AppContext } from '../context.js';
import { pruneTokens } from '../services/tokens.js';
import { pruneApiTokens } from '../services/apiTokens.js';
import { pruneSessions } from '../middleware/session.js';
import { purgeExpiredTrash } from '../crud/trash.js';
import { sweepUploads } from '../storage/library.js';
import { sweepOrphanPhotos } from '../console/leadFiles.js';
import { expireMeetingRequests, sendMeetingReminders } from '../services/meetings.js';
import { hooksOf } from '../resources.js';
import { RESOURCES, resourceNamed } from '../../resources/index.js';

/** Expired sessions, rate-limit windows, old one-time and API tokens, never-registered uploads and orphan card photos. */
export const SWEEP_JOB = 'sweep.expired';
/** Records in the trash longer than TRASH_DAYS, with their files. */
export const TRASH_PURGE_JOB = 'trash.purge';
/** Meetings: unanswered requests past mg_expires_at expire, reminders go out 60 minutes before (every minute). */
export const MEETINGS_JOB = 'meetings.tick';

/** Runs every step, then fails (a retry) if any failed: one broken step does not hold up the others. */
async function allSteps(steps: Record<string, () => Promise<unknown>>): Promise<Record<string, unknown>> {
  const names = Object.keys(steps);
  const results = await Promise.allSettled(names.map((n) => steps[n]()));
  const failed = names.filter((_, i) => results[i].status === 'rejected');
  if (failed.length) {
    const reasons = results.flatMap((r, i) => (r.status === 'rejected' ? [`${names[i]}: ${r.reason instanceof Error ? r.reason.message : String(r.reason)}`] : []));
    throw new Error(`failed: ${reasons.join('; ')}`);
  }
  return Object.fromEntries(names.map((n, i) => [n, (results[i] as PromiseFulfilledResult<unknown>).value]));
}

/**
 * The timed work, on the job queue: each runs once per period across every process (SWEEP_MINUTES,
 * TRASH_PURGE_MINUTES), and only in processes that start the queue's workers (the server).
 */
export function registerTimedJobs(context: AppContext): void {
  const { jobs, config } = context;
  jobs.work(SWEEP_JOB, async () => {
    await allSteps({
      sessions: () => pruneSessions(context.db),
      limiter: () => context.limiter.prune(),
      tokens: () => pruneTokens(context.db),
      apiTokens: () => pruneApiTokens(context.db),
      uploads: () => sweepUploads(context),
      photos: () => sweepOrphanPhotos(context),
    });
  });
  jobs.work(TRASH_PURGE_JOB, async () => {
    const n = await purgeExpiredTrash(context, RESOURCES, hooksOf, resourceNamed);
    if (n) context.log(`purged ${n} records from the trash`);
  });
  // Each claims its rows first (a conditional UPDATE … RETURNING), so even a run that overlaps another handles a row once.
  jobs.work(MEETINGS_JOB, async () => {
    const { expired, reminded } = await allSteps({ expired: () => expireMeetingRequests(context), reminded: () => sendMeetingReminders(context) });
    if (expired || reminded) context.log(`meetings: ${String(expired)} requests expired, ${String(reminded)} reminders sent`);
  });
  jobs.schedule(SWEEP_JOB, config.jobs.sweepMinutes * 60);
  jobs.schedule(MEETINGS_JOB, 60);
  jobs.schedule(TRASH_PURGE_JOB, config.jobs.trashPurgeMinutes * 60);
}
