/** Raised by withTimeout when the work did not settle in time. */
export class TimeoutError extends Error {
  constructor(ms: number) {
    super(`timed out after ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

/**
 * Settles with `work` or rejects with TimeoutError after `ms`, whichever comes first. The work is not cancelled;
 * its late failure is swallowed so it never becomes an unhandled rejection.
 */
export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  work.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(ms)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
