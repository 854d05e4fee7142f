// A benchmark's own PostgreSQL database on the server of BENCH_DATABASE_URL (or TEST_DATABASE_URL): made for the run
// and dropped after it, or kept and found again by name.
import crypto from 'node:crypto';
import pg from 'pg';

export interface BenchDatabase {
  name: string;
  /** The connection string of the database. */
  url: string;
  /** True when the database existed (a kept one, named by the caller) and was not made now. */
  reused: boolean;
  /** Drops the database (open connections are ended) and closes the admin connection. */
  drop(): Promise<void>;
  /** Closes the admin connection and keeps the database. */
  keep(): Promise<void>;
}

/** The server's connection string, or undefined (the caller says it is skipped). */
export const benchServerUrl = (): string | undefined => process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;

/**
 * The database `name` when given and it exists (reused), else a new one: `name`, or `<prefix>_<random>`. Answers
 * undefined when no server is configured.
 */
export async function benchDatabase(prefix: string, name?: string): Promise<BenchDatabase | undefined> {
  const server = benchServerUrl();
  if (!server) return undefined;
  const dbName = name ?? `${prefix}_${crypto.randomBytes(4).toString('hex')}`;
  if (!/^[a-z_][a-z0-9_]*$/.test(dbName)) throw new Error(`not a plain database name: ${dbName}`);
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  const reused = Boolean(name) && (await admin.query('select 1 from pg_database where datname = $1', [dbName])).rowCount === 1;
  if (!reused) await admin.query(`create database ${dbName}`);
  const url = new URL(server);
  url.pathname = `/${dbName}`;
  return {
    name: dbName,
    url: url.toString(),
    reused,
    drop: async () => {
      try {
        await admin.query(`drop database if exists ${dbName} with (force)`);
      } finally {
        await admin.end();
      }
    },
    keep: () => admin.end(),
  };
}
