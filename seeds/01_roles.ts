import type { Knex } from 'knex';
import { grantRows } from '../resources/permissions.js';

/** Writes the matrix of resources/permissions.ts to permission_grants (ops may change grants there later). */
export async function seed(knex: Knex): Promise<void> {
  await knex.transaction(async (trx) => {
    await trx('permission_grants').del();
    await trx('permission_grants').insert(grantRows());
  });
}
