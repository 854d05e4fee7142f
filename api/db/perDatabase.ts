import type { Knex } from 'knex';
import { rootOf } from './actor.js';

/**
 * What is kept per database handle: `make` once per app handle, whatever handle is given (a request's, actingFor, is
 * its app's), with the arguments of the first call. The one place a per-handle registry is keyed, so no cache is made
 * again for each request's handle.
 */
export function perHandle<T, A extends unknown[] = []>(make: (db: Knex, ...args: A) => T): (handle: Knex, ...args: A) => T {
  const kept = new WeakMap<Knex, T>();
  return (handle, ...args) => {
    const db = rootOf(handle);
    let found = kept.get(db);
    if (found === undefined) kept.set(db, (found = make(db, ...args)));
    return found;
  };
}

/**
 * One service per database handle (a LISTEN connection's owner: the session cache, the conversations' event hub), as
 * perHandle keeps it, and closed with the handle: knex.destroy() ends in client.destroy(), which closes it first.
 */
export function perDatabase<T extends { close(): Promise<void> }, A extends unknown[] = []>(make: (db: Knex, ...args: A) => T): (handle: Knex, ...args: A) => T {
  return perHandle((db: Knex, ...args: A) => {
    const service = make(db, ...args);
    const client = db.client as { destroy: (cb?: unknown) => Promise<void> };
    const destroy = client.destroy.bind(client);
    client.destroy = async (cb?: unknown) => {
      await service.close();
      return destroy(cb);
    };
    return service;
  });
}
