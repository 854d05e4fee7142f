import type { Request } from 'express';
import type { Knex } from 'knex';
import { currentRequest } from '../requestContext.js';

/**
 * Who makes a change, for the history the database writes (migrations/20261126000001_history.ts): every transaction
 * opened while a request is served starts by setting ls.actor_id and ls.actor_label for itself (set_config(…, true):
 * local to the transaction, so a pooled connection carries nothing to the next). The request is looked up when the
 * transaction opens, so the user is whoever signed the request by then (session or token).
 */
const WRAPPED = Symbol('actors');

/** The label an entry keeps: the user's name and e-mail as they are at the time of the change. */
export function actorLabel(user: { u_first_name?: string | null; u_last_name?: string | null; u_email: string }): string {
  const name = [user.u_first_name, user.u_last_name].filter(Boolean).join(' ');
  return name ? `${name} <${user.u_email}>` : user.u_email;
}

/** Sets the transaction's actor (the current request's user; nothing outside a request or without a user). */
export async function setActor(trx: Knex.Transaction, req: Request | undefined = currentRequest()): Promise<void> {
  const user = req?.user;
  if (!user) return;
  await trx.raw("select set_config('ls.actor_id', ?, true), set_config('ls.actor_label', ?, true)", [user.u_id, actorLabel(user)]);
}

/**
 * Every transaction of this knex instance (callback form: all the app uses) sets the actor first. knex's public
 * transaction() is wrapped, not its internals.
 */
export function withActors(db: Knex): Knex {
  if ((db as { [WRAPPED]?: true })[WRAPPED]) return db;
  const original = db.transaction as unknown as (this: Knex, work?: unknown, config?: Knex.TransactionConfig) => unknown;
  const wrapped = (work?: unknown, config?: Knex.TransactionConfig) => {
    if (typeof work !== 'function') return original.call(db, work, config);
    return original.call(
      db,
      async (trx: Knex.Transaction) => {
        await setActor(trx);
        return (work as (trx: Knex.Transaction) => unknown)(trx);
      },
      config,
    );
  };
  Object.defineProperty(db, 'transaction', { value: wrapped, configurable: true, writable: true });
  Object.defineProperty(db, WRAPPED, { value: true });
  return db;
}
