import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import knexFactory, { type Knex } from 'knex';
import { PGlite } from '@electric-sql/pglite';
import { createKnex } from '../../api/db/knex.js';
import { prepareDatabase } from '../../api/db/bootstrap.js';
import { PG_TEMPLATE_ENV, PGLITE_TEMPLATE_ENV } from './templates.js';

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

/**
 * Puts this run's migrated PGlite template (test/helpers/templates.ts) into `dir` when there is one and `dir` holds no
 * database yet: a server started on it then finds every migration done. False when there is no template.
 */
export function seedPgliteDir(dir: string): boolean {
  const file = process.env[PGLITE_TEMPLATE_ENV];
  if (!file || !fs.existsSync(file) || fs.existsSync(path.join(dir, 'PG_VERSION'))) return false;
  fs.mkdirSync(dir, { recursive: true });
  const run = spawnSync('tar', ['-xf', file, '-C', dir], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`could not unpack the PGlite template: ${run.stderr}`);
  return true;
}

/** The migrated PGlite data directory of this run (test/helpers/templates.ts), read once per worker. */
let pgliteTemplate: Blob | undefined;
function pgliteFromTemplate(): Knex | undefined {
  const file = process.env[PGLITE_TEMPLATE_ENV];
  if (!file || !fs.existsSync(file)) return undefined;
  pgliteTemplate ??= new Blob([fs.readFileSync(file)]);
  return createKnex({ pglite: new PGlite({ loadDataDir: pgliteTemplate }) });
}

/** Copies of one template may be asked for at once; PostgreSQL refuses a copy while the template is busy: try again. */
export async function createDatabase(admin: Knex, name: string, template: string | undefined = process.env[PG_TEMPLATE_ENV] || undefined): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.raw(template ? `create database ${name} template ${template}` : `create database ${name}`);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '55006' || attempt >= 50) throw err;
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
    }
  }
}

/**
 * A fresh, migrated database: PGlite in memory, or a new database on the TEST_DATABASE_URL server (dropped after);
 * a copy of this run's template when npm test made one, else migrated here.
 */
export async function createTestDb(kind: DbKind): Promise<TestDb> {
  if (kind === 'pglite') {
    const cloned = pgliteFromTemplate();
    const db = cloned ?? createKnex({ memory: true });
    if (!cloned) await prepareDatabase(db);
    return { kind, db, drop: () => db.destroy() };
  }
  const base = new URL(process.env.TEST_DATABASE_URL!);
  const name = `ls_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: base.toString(), pool: { min: 0, max: 1 } });
  const template = process.env[PG_TEMPLATE_ENV] || undefined;
  await createDatabase(admin, name, template);
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  const db = createKnex({ databaseUrl: url.toString() });
  if (!template) await prepareDatabase(db);
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
