import type { Knex } from 'knex';

interface PgConnection {
  query(config: { text: string; values: unknown[] }): Promise<{ rows: Record<string, unknown>[] }>;
  __knexUid?: string;
}
interface PooledClient {
  emit(event: string, ...args: unknown[]): boolean;
  config: { client?: unknown };
  transacting?: boolean;
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<void>;
}

/**
 * The first row of a read query. On PostgreSQL outside a transaction the builder is compiled by knex and run on a
 * connection of knex's own pool, without knex's query runner (a query uid, its promise chain, response processing,
 * about a tenth of the CPU of a `GET /{resource}/{id}` in a profile). Same SQL, same pool
 * (its acquire timeout and connection checks included), the same `query` and `query-error` events, same pg errors
 * (their codes, which is what api/errors.ts maps). PGlite and transactions run the builder as usual.
 */
export async function firstRow<T = Record<string, unknown>>(builder: Knex.QueryBuilder): Promise<T | undefined> {
  const client = (builder as unknown as { client: PooledClient }).client;
  if (client.config.client !== 'pg' || client.transacting) return (await builder.first()) as T | undefined;
  const { sql, bindings } = builder.first().toSQL().toNative();
  const connection = await client.acquireConnection();
  // knex's own events, so whatever watches the queries (a query log, the tests' counts) still sees this one
  const query = { __knexUid: connection.__knexUid, method: 'first', sql, bindings };
  client.emit('query', query);
  try {
    const result = await connection.query({ text: sql, values: bindings as unknown[] });
    return result.rows[0] as T | undefined;
  } catch (err) {
    client.emit('query-error', err, query);
    throw err;
  } finally {
    await client.releaseConnection(connection);
  }
}
