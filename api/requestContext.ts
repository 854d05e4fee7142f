import { AsyncLocalStorage } from 'node:async_hooks';
import type { Request } from 'express';

/**
 * The request being served, for code that runs on its behalf without it in hand: the lines it logs carry its id
 * (api/log.ts) and the transactions it opens record who made the change (api/db/actor.ts). One store for both: while
 * a store is active Node copies it onto every promise made, so each store costs every await of every request
 * (about 0.1 µs a promise here, a few hundred promises a list page).
 */
const served = new AsyncLocalStorage<Request>();

/** Runs the rest of the request (`next`) with `req` as the current request. The first middleware calls it (httpLogger). */
export function serveInContext(req: Request, next: () => void): void {
  served.run(req, next);
}

/** The request being served, or undefined outside one (jobs, start-up). */
export function currentRequest(): Request | undefined {
  return served.getStore();
}
