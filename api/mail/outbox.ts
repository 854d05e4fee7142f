import type { AppContext } from '../context.js';
import type { OutgoingMail } from './mailer.js';

/** The queue's name of a mail to send (api/jobs/). */
export const MAIL_JOB = 'mail.send';

/**
 * Puts an already rendered mail on the job queue: sent by a worker soon after, retried with backoff while the relay
 * fails (JOBS_RETRY_LIMIT, JOBS_RETRY_DELAY_SECONDS), kept across restarts. For mail nobody waits for (confirmations,
 * notifications, reminders); a call whose answer says whether the mail went out (invite, handoff) sends it itself.
 * Answers the job's id.
 */
export async function enqueueMail(context: AppContext, mail: OutgoingMail): Promise<string | null> {
  return context.jobs.send(MAIL_JOB, { mail });
}

/** The worker's side: the mailer of the moment (tests swap it) sends the stored mail; a throw is a retry. */
export function registerMailJob(context: AppContext): void {
  context.jobs.work(MAIL_JOB, async (data) => {
    const mail = data.mail as OutgoingMail | undefined;
    if (!mail?.to) throw new Error('mail.send: a job without a mail');
    await context.mailer.sendMail(mail);
  });
}
