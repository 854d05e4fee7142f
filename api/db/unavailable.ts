/**
 * Errors that mean "the database cannot be reached right now" (down, restarting, refusing, pool exhausted), as
 * opposed to an error in a query. The API answers these 503 database_unavailable with Retry-After.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
// SQLSTATE class 08 (connection exception), 57P01-57P03 (shutdown, crash, cannot connect now), 53300 (too many connections).
const SQLSTATES = /^(08...|57P0[123]|53300)$/;
const MESSAGES =
  /Connection terminated|Client has encountered a connection error|Connection ended unexpectedly|Timeout acquiring a connection|timeout exceeded when trying to connect|connect ECONNREFUSED|Client was closed and is not queryable/i;

export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.name === 'KnexTimeoutError') return true;
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || SQLSTATES.test(e.code))) return true;
  return typeof e.message === 'string' && MESSAGES.test(e.message);
}
