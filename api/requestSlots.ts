/**
 * What the app keeps for a request while it is served (its context, its log, its route, the views' lists), as
 * properties of the request itself under these symbols, not in `WeakMap`s keyed by the request.
 *
 * Why: a request's objects must die in the young generation's collections (the scavenges, every few megabytes of
 * allocation). In this app they did not: each request's context had an accessor of its own and the CSRF check made the
 * request a prototype, both giving objects hidden classes of their own through which every signed-in request was kept
 * and promoted, 2 MB a scavenge (api/context.ts, api/middleware/csrf.ts; bench/README.md, "Server CPU per request").
 * Those two were the cause measured. A `WeakMap` keyed by young objects is the same risk in another form: in a
 * micro-benchmark its entries were promoted too (2.6 MB a scavenge against 11 KB without it), so nothing per request
 * is kept in one; a property dies with its request.
 *
 * The app's requests are made with these slots already there (api/httpServer.ts, `initRequestSlots`), so every request
 * has the same hidden class whichever slot is filled first; a request made elsewhere (tests, another server) gets them
 * when they are set.
 */
export const CONTEXT = Symbol('request context');
export const LOG = Symbol('request log');
export const ROUTE = Symbol('request route');
export const ROUTE_LABEL = Symbol('request route label');
export const LISTABLE = Symbol('request listable resources');

const SLOTS = [CONTEXT, LOG, ROUTE, ROUTE_LABEL, LISTABLE];

/** The slots of a request made by the app's server, empty, always in the same order. */
export function initRequestSlots(req: object): void {
  const slots = req as Record<symbol, unknown>;
  for (const slot of SLOTS) slots[slot] = undefined;
}
