import type { Knex } from 'knex';

/**
 * One service per database handle (a LISTEN connection's owner: the session cache, the conversations' event hub),
 * made on first use and closed with the handle: knex.destroy() ends in client.destroy(), which closes it first.
 */
export function perDatabase<T extends { close(): Promise<void> }>(registry: WeakMap<Knex, T>, db: Knex, make: () => T): T {
  let service = registry.get(db);
  if (!service) {
    const created = make();
    registry.set(db, (service = created));
    const client = db.client as { destroy: (cb?: unknown) => Promise<void> };
    const destroy = client.destroy.bind(client);
    client.destroy = async (cb?: unknown) => {
      await created.close();
      return destroy(cb);
    };
  }
  return service;
}
