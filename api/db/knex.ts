import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import knexFactory, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import type { PGlite } from '@electric-sql/pglite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const migrationsDir = path.join(root, 'migrations');
export const seedsDir = path.join(root, 'seeds');

/** What a handle's connection pool (tarn) tells of itself: its size and what is lent, idle and waited for now. */
export interface PoolState {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
  max: number;
}

/** The connection pool of a handle (PostgreSQL: DATABASE_POOL_MAX connections; PGlite: its one), if it has one. */
export function poolOf(db: Knex): PoolState | undefined {
  return (db.client as { pool?: PoolState }).pool;
}

/** `pglite`: an instance made elsewhere (the tests' copies of a migrated template). */
export type DbTarget = ({ databaseUrl: string; poolMax?: number } | { pgliteDir: string } | { memory: true } | { pglite: PGlite }) & {
  /** Where knex's own warnings go (connection errors during an outage, …); default the console. */
  log?: (message: string) => void;
};

/**
 * PostgreSQL when a URL is given, otherwise PGlite (file-backed, or in memory for tests).
 * Both speak the same SQL, so one set of migrations serves both.
 */
export function createKnex(target: DbTarget): Knex {
  const say = target.log ?? ((m: string) => console.warn(m));
  const text = (m: unknown) => (m instanceof Error ? m.message : typeof m === 'string' ? m : JSON.stringify(m));
  const common: Knex.Config = {
    log: { warn: (m) => say(`knex: ${text(m)}`), error: (m) => say(`knex: ${text(m)}`), deprecate: (m) => say(`knex: ${text(m)}`), debug: () => undefined },
    migrations: { directory: migrationsDir, loadExtensions: ['.ts'], tableName: 'knex_migrations' },
    seeds: { directory: seedsDir, loadExtensions: ['.ts'] },
  };
  if ('databaseUrl' in target) {
    return knexFactory({
      ...common,
      client: 'pg',
      // A dead server is found out fast: connecting gives up after 3 s, waiting for a free connection after 5 s, so a
      // request during an outage answers 503 instead of hanging.
      connection: { connectionString: target.databaseUrl, connectionTimeoutMillis: 3000, keepAlive: true },
      pool: { min: 0, max: target.poolMax ?? 10 },
      acquireConnectionTimeout: 5000,
    });
  }
  const connection = 'pgliteDir' in target ? { filename: target.pgliteDir } : 'pglite' in target ? { pglite: target.pglite } : {};
  if ('pgliteDir' in target) fs.mkdirSync(target.pgliteDir, { recursive: true });
  // knex-pglite enforces its single connection; version lets knex use the PG fast paths.
  return knexFactory({ ...common, client: ClientPgLite as unknown as typeof Knex.Client, connection, version: '17' } as Knex.Config);
}
