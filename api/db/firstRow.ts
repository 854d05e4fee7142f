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
  const client = clientOf(builder);
  if (!pooled(client)) return (await builder.first()) as T | undefined;
  return (await onPooledConnection(client, builder.first(), 'first'))[0] as T | undefined;
}

/**
 * Every row of a read query (a select builder), as `await builder` gives them, the same way as firstRow: on
 * PostgreSQL outside a transaction on a pooled connection without knex's runner, with the builder's query options
 * (a list page's JSON_ROWS types) passed to pg as knex passes them.
 */
export async function allRows<T = Record<string, unknown>>(builder: Knex.QueryBuilder): Promise<T[]> {
  const client = clientOf(builder);
  if (!pooled(client)) return (await builder) as T[];
  return (await onPooledConnection(client, builder, 'select')) as T[];
}

const clientOf = (builder: Knex.QueryBuilder) => (builder as unknown as { client: PooledClient }).client;
const pooled = (client: PooledClient) => client.config.client === 'pg' && !client.transacting;

async function onPooledConnection(client: PooledClient, builder: Knex.QueryBuilder, method: 'first' | 'select'): Promise<Record<string, unknown>[]> {
  const compiled = builder.toSQL();
  const { sql, bindings } = compiled.toNative();
  const connection = await client.acquireConnection();
  // knex's own events, so whatever watches the queries (a query log, the tests' counts) still sees this one
  const query = { __knexUid: connection.__knexUid, method, sql, bindings };
  client.emit('query', query);
  try {
    // knex's pg dialect adds the query's options to pg's query config the same way (JSON_ROWS: `types`).
    const result = await connection.query({ text: sql, values: bindings as unknown[], ...(compiled as { options?: object }).options });
    return result.rows;
  } catch (err) {
    client.emit('query-error', err, query);
    throw err;
  } finally {
    // knex's release is synchronous (the pool takes the connection back at once); its promise is already resolved.
    void client.releaseConnection(connection);
  }
}
