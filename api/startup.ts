import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase, pgliteDir } from './db/bootstrap.js';
import { acquireDataLock, DataLockedError } from './db/lock.js';

/** Startup of the server and the scripts: problems an operator must fix are printed plainly (no stack), exit 1. */

/** Loads ./.env when present; variables already set in the environment win. */
export function loadDotEnv(file = path.resolve('.env')): void {
  if (fs.existsSync(file)) process.loadEnvFile(file);
}

function exitWith(err: unknown): never {
  if (err instanceof ConfigError || err instanceof DataLockedError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}

/** .env, then the validated configuration. */
export function startupConfig(): Config {
  loadDotEnv();
  try {
    return loadConfig();
  } catch (err) {
    exitWith(err);
  }
}

/** On PGlite, takes its lock for `holder` or exits saying who holds it (PostgreSQL serves many processes). */
export function lockDatabase(config: Config, holder: string): void {
  try {
    if (!config.databaseUrl) acquireDataLock(pgliteDir(config), holder);
  } catch (err) {
    exitWith(err);
  }
}

/** The lock, then the database (knex starts PGlite at once). */
export function startupDatabase(config: Config, holder: string, log?: (message: string) => void): Knex {
  lockDatabase(config, holder);
  return openDatabase(config, log);
}
