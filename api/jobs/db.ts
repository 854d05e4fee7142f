import type { Knex } from 'knex';
import { getConstructionPlans, type Db } from 'pg-boss';

/** The schema pg-boss keeps its tables in (its default). */
export const JOBS_SCHEMA = 'pgboss';

interface Connection {
  query(text: string, values?: unknown[]): Promise<unknown>;
  /** PGlite only: several statements at once (its query() takes one). */
  exec?(text: string): Promise<{ rows?: unknown[] }[]>;
}
interface KnexClient {
  acquireConnection(): Promise<Connection>;
  releaseConnection(c: Connection): Promise<unknown>;
}

const rowsOf = (result: unknown): { rows: unknown[] } =>
  Array.isArray(result) ? { rows: result.flatMap((r: { rows?: unknown[] }) => r.rows ?? []) } : (result as { rows: unknown[] });

/** Runs `text` on `conn`: a single statement with values, or a multi-statement block without (pg-boss' locked blocks). */
async function run(conn: Connection, text: string, values?: unknown[]): Promise<{ rows: unknown[] }> {
  if (values?.length) return rowsOf(await conn.query(text, values));
  return rowsOf(conn.exec ? await conn.exec(text) : await conn.query(text));
}

/**
 * pg-boss' database, over knex's own pool: one connection lent per statement, as knex lends it to a query. On PGlite
 * (one connection, knex-pglite's pool of one) this is what keeps pg-boss out of a transaction knex has open on that
 * connection: its statement waits for the connection like any other query, instead of running inside the transaction
 * (pg-boss' own fromPglite() would talk to the instance directly). On PostgreSQL it shares the pool's connections. A
 * failed statement is followed by a ROLLBACK, so a block that failed between its BEGIN and COMMIT does not hand an
 * aborted transaction back to the pool.
 */
export function knexJobsDb(knex: Knex): Db {
  const client = knex.client as unknown as KnexClient;
  return {
    async executeSql(text: string, values?: unknown[]) {
      const conn = await client.acquireConnection();
      try {
        return await run(conn, text, values);
      } catch (err) {
        await Promise.resolve(conn.query('ROLLBACK')).catch(() => undefined);
        throw err;
      } finally {
        await client.releaseConnection(conn);
      }
    },
  };
}

/**
 * Installs pg-boss' schema when the database has none (part of prepareDatabase, so test templates and a fresh data
 * dir carry it, and the first start does not spend seconds building it). A schema of an older pg-boss is left to
 * pg-boss, which migrates its own schema when it starts.
 */
export async function installJobSchema(knex: Knex): Promise<boolean> {
  const installed = async () => Boolean((await knex.raw<{ rows: { t: string | null }[] }>('select to_regclass(?) as t', [`${JOBS_SCHEMA}.version`])).rows[0]?.t);
  if (await installed()) return false;
  try {
    await knexJobsDb(knex).executeSql(getConstructionPlans(JOBS_SCHEMA));
  } catch (err) {
    // Two processes starting on a fresh database: pg-boss' plan takes an advisory lock, so the second waits for the
    // first and then fails on what the first made. The schema is there: nothing more to do.
    if (await installed()) return false;
    throw err;
  }
  return true;
}
