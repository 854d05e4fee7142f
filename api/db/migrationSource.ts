import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { migrationsDir, seedsDir } from './knex.js';

import type { StorageDriver } from '../storage/driver.js';

/** What a seed may use besides the database: the storage driver for bytes (the demo's images and memos). */
export interface SeedServices {
  storage?: StorageDriver;
  /** The server's SESSION_SECRET and PUBLIC_URL: seeded links that are HMACs of the secret (conversations) then work. */
  sessionSecret?: string;
  publicUrl?: string;
  /** Where a seed says what a person needs from it (a link to open); console.log when not given. */
  say?: (line: string) => void;
}

type Migration = { up: (knex: Knex) => Promise<void>; down: (knex: Knex) => Promise<void> };

/** Migration or seed modules: .ts sources under tsx and Vitest, .js in the compiled build (dist/). */
function listModules(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith('.d.ts'))
    .sort();
}

/**
 * Loads migrations with our own import(), so the same .ts files run under tsx, Vitest and the CLI
 * (knex's own loader would import them outside the TypeScript loader).
 */
export const migrationSource: Knex.MigrationSource<string> = {
  async getMigrations() {
    return listModules(migrationsDir);
  },
  // Recorded under the source's name, so the compiled build and tsx agree on what a database has run.
  getMigrationName(name) {
    return name.replace(/\.js$/, '.ts');
  },
  async getMigration(name) {
    return (await import(pathToFileURL(path.join(migrationsDir, name)).href)) as Migration;
  },
};

/** Applies every pending migration; their names. */
export async function migrateLatest(db: Knex): Promise<string[]> {
  const [, names] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
  return names;
}

export async function rollback(db: Knex, all = false): Promise<void> {
  await db.migrate.rollback({ migrationSource }, all);
}

/** Names of the applied migrations, oldest first. */
export async function appliedMigrations(db: Knex): Promise<string[]> {
  const [completed] = (await db.migrate.list({ migrationSource })) as [{ name: string }[], unknown[]];
  return completed.map((m) => m.name);
}

/** Undoes the last applied migration; its name, or undefined when none is applied. */
export async function rollbackOne(db: Knex): Promise<string | undefined> {
  const [, names] = (await db.migrate.down({ migrationSource })) as [number, string[]];
  return names[0];
}

/** The seeds of npm run db:seed:demo (02_demo, 03_console_demo, 04_showcase_demo); 01_roles is db:seed's. */
export const isDemoSeed = (file: string): boolean => /^0[2-4]_/.test(file);

/** Runs seeds in file-name order (NN_name.ts); `only` picks some by name prefix; `services` goes to each seed. */
export async function runSeeds(db: Knex, only?: (name: string) => boolean, services: SeedServices = {}): Promise<string[]> {
  const ran: string[] = [];
  for (const file of listModules(seedsDir)) {
    if (only && !only(file)) continue;
    const mod = (await import(pathToFileURL(path.join(seedsDir, file)).href)) as { seed: (k: Knex, s: SeedServices) => Promise<void> };
    await mod.seed(db, services);
    ran.push(file);
  }
  return ran;
}
