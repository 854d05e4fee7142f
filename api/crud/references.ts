import type { Knex } from 'knex';
import { ApiError } from '../errors.js';

/** The foreign keys that keep a row of `table` from being deleted (on delete restrict / no action): table and column. */
const restricting = new Map<string, Promise<{ table: string; column: string }[]>>();

function restrictingReferences(db: Knex | Knex.Transaction, table: string): Promise<{ table: string; column: string }[]> {
  let found = restricting.get(table);
  if (!found) {
    found = db
      .raw(
        `select r.relname as "table", a.attname as "column"
           from pg_constraint c
           join pg_class r on r.oid = c.conrelid
           join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
          where c.contype = 'f' and c.confrelid = ?::regclass and c.confdeltype in ('r', 'a') and array_length(c.conkey, 1) = 1`,
        [table],
      )
      .then((r: { rows: { table: string; column: string }[] }) => r.rows);
    // A failed look-up is asked again next time.
    found.catch(() => restricting.delete(table));
    restricting.set(table, found);
  }
  return found;
}

/** The error of a record that a restricting reference keeps (refuseIfReferenced, referencedAmong). */
export const referenceConflict = () => new ApiError(409, 'reference_conflict', 'The record refers to, or is referred to by, another record');

/** Ids per query of referencedAmong (bind parameters stay well under the driver's limit). */
const CHUNK = 5000;

/**
 * refuseIfReferenced for many records at once (a bulk delete of a trash resource): the ids among `ids` that a row
 * refers to through a restricting foreign key, one query per reference and 5,000 ids.
 */
export async function referencedAmong(trx: Knex | Knex.Transaction, table: string, ids: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const ref of await restrictingReferences(trx, table)) {
    for (let i = 0; i < ids.length; i += CHUNK) {
      const rows = (await trx(ref.table)
        .whereIn(ref.column, ids.slice(i, i + CHUNK))
        .distinct({ id: ref.column })) as { id: string }[];
      for (const r of rows) found.add(String(r.id));
    }
  }
  return found;
}

/**
 * Refuses (409 reference_conflict, as the database answers a delete it refuses) to move a record to the trash while a
 * row refers to it through a foreign key that would refuse its purge (a list used by a form element): the trash holds
 * only what can be removed for good.
 */
export async function refuseIfReferenced(trx: Knex | Knex.Transaction, table: string, id: string): Promise<void> {
  for (const ref of await restrictingReferences(trx, table)) {
    if (await trx(ref.table).where(ref.column, id).first(trx.raw('1 as found'))) throw referenceConflict();
  }
}
