import fs from 'node:fs';
import crypto from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import type { PGlite } from '@electric-sql/pglite';
import { createKnex } from '../../api/db/knex.js';
import { prepareDatabase } from '../../api/db/bootstrap.js';

/**
 * Migrated template databases, made once per `npm test` (scripts/test.mjs) so that each test file clones one instead
 * of running every migration again: a PGlite data directory dumped to a file, and a PostgreSQL database that
 * `create database … template` copies. The variables below tell test/helpers/db.ts where they are; without them (a
 * single file run with `npx vitest`) every test database is migrated as before.
 */
export const PGLITE_TEMPLATE_ENV = 'LS_TEST_PGLITE_TEMPLATE';
export const PG_TEMPLATE_ENV = 'LS_TEST_PG_TEMPLATE';

/** Migrates an in-memory PGlite and writes its data directory to `file` (an uncompressed tar). */
export async function makePgliteTemplate(file: string): Promise<void> {
  const db = createKnex({ memory: true });
  try {
    await prepareDatabase(db);
    const pglite = (db.client as unknown as { pglite: PGlite }).pglite;
    const dump = await pglite.dumpDataDir('none');
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await db.destroy();
  }
}

/** A new database on the server of `serverUrl`, migrated; its name. */
export async function makePostgresTemplate(serverUrl: string): Promise<string> {
  const name = `ls_template_${crypto.randomBytes(6).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: serverUrl, pool: { min: 0, max: 1 } });
  try {
    await admin.raw(`create database ${name}`);
  } finally {
    await admin.destroy();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db: Knex = createKnex({ databaseUrl: url.toString() });
  try {
    await prepareDatabase(db);
  } finally {
    await db.destroy();
  }
  return name;
}

export async function dropPostgresTemplate(serverUrl: string, name: string): Promise<void> {
  const admin = knexFactory({ client: 'pg', connection: serverUrl, pool: { min: 0, max: 1 } });
  try {
    await admin.raw(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.destroy();
  }
}
