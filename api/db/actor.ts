import type { Request } from 'express';
import type { Knex } from 'knex';

/**
 * Who makes a change, for the history the database writes (migrations/20261126000001_history.ts): every transaction
 * a request opens through its handle (ctx(req).db, actingFor) starts by setting ls.actor_id and ls.actor_label for
 * itself (set_config(…, true): local to the transaction, so a pooled connection carries nothing to the next). The user
 * is read when the transaction opens, so it is whoever signed the request by then (session or token).
 */
const ROOT = Symbol('the app handle');

/** The label an entry keeps: the user's name and e-mail as they are at the time of the change. */
export function actorLabel(user: { u_first_name?: string | null; u_last_name?: string | null; u_email: string }): string {
  const name = [user.u_first_name, user.u_last_name].filter(Boolean).join(' ');
  return name ? `${name} <${user.u_email}>` : user.u_email;
}

/** Sets the transaction's actor (the request's user; nothing without one). */
export async function setActor(trx: Knex.Transaction, req: Request | undefined): Promise<void> {
  const user = req?.user;
  if (!user) return;
  await trx.raw("select set_config('ls.actor_id', ?, true), set_config('ls.actor_label', ?, true)", [user.u_id, actorLabel(user)]);
}

/**
 * The database handle of a request (what ctx(req).db gives): the app's own handle, whose transactions (callback form:
 * all the app uses) first set the request's user as their actor. The request is carried by the handle, not looked up
 * in an AsyncLocalStorage, whose async hooks cost every promise of every request on Node 20 (bench/README.md, "Server
 * CPU per request"). Everything else is the app's handle itself: what is kept per handle (caches, listeners) is kept
 * per app handle (perHandle and perDatabase, api/db/perDatabase.ts).
 */
export function actingFor(db: Knex, req: Request): Knex {
  const root = rootOf(db);
  const original = root.transaction as unknown as (this: Knex, work?: unknown, config?: Knex.TransactionConfig) => unknown;
  const transaction = (work?: unknown, config?: Knex.TransactionConfig) => {
    if (typeof work !== 'function') return original.call(root, work, config);
    return original.call(
      root,
      async (trx: Knex.Transaction) => {
        await setActor(trx, req);
        return (work as (trx: Knex.Transaction) => unknown)(trx);
      },
      config,
    );
  };
  return new Proxy(root, {
    get(target, key) {
      if (key === 'transaction') return transaction;
      if (key === ROOT) return target;
      return Reflect.get(target, key, target) as unknown;
    },
  });
}

/** The app's handle behind a request's (actingFor), or the handle itself. */
export function rootOf<T extends Knex>(db: T): T {
  return ((db as unknown as { [ROOT]?: T })[ROOT] ?? db) as T;
}
