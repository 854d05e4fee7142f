import crypto from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { createKnex } from '../../api/db/knex.js';
import { prepareDatabase } from '../../api/db/bootstrap.js';

export type DbKind = 'pglite' | 'postgres';

/** The databases API tests run on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const DB_KINDS: DbKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
export const POSTGRES_SKIP_REASON = process.env.TEST_DATABASE_URL ? null : 'TEST_DATABASE_URL not set';

export interface TestDb {
  kind: DbKind;
  db: Knex;
  url?: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database: PGlite in memory, or a new database on the TEST_DATABASE_URL server (dropped after). */
export async function createTestDb(kind: DbKind): Promise<TestDb> {
  if (kind === 'pglite') {
    const db = createKnex({ memory: true });
    await prepareDatabase(db);
    return { kind, db, drop: () => db.destroy() };
  }
  const base = new URL(process.env.TEST_DATABASE_URL!);
  const name = `ls_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: base.toString(), pool: { min: 0, max: 1 } });
  await admin.raw(`create database ${name}`);
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  const db = createKnex({ databaseUrl: url.toString() });
  await prepareDatabase(db);
  return {
    kind,
    db,
    url: url.toString(),
    async drop() {
      await db.destroy();
      await admin.raw(`drop database if exists ${name} with (force)`);
      await admin.destroy();
    },
  };
}

/** describe() once per database kind; PostgreSQL is announced as skipped when TEST_DATABASE_URL is unset. */
export function describeEachDb(name: string, fn: (kind: DbKind) => void): void {
  for (const kind of ['pglite', 'postgres'] as DbKind[]) {
    const skip = kind === 'postgres' && !process.env.TEST_DATABASE_URL;
    (skip ? describe.skip : describe)(`${name} [${kind}]${skip ? ' (skipped: TEST_DATABASE_URL not set)' : ''}`, () => fn(kind));
  }
}
