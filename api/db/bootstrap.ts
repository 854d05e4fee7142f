import crypto from 'node:crypto';
import path from 'node:path';
import type { Knex } from 'knex';
import type { Config } from '../config.js';
import { createKnex } from './knex.js';
import { migrateLatest } from './migrationSource.js';
import { installJobSchema } from '../jobs/db.js';
import { grantRows } from '../../resources/permissions.js';
import { hashPassword } from '../services/passwords.js';
import { isEmail } from '../../resources/fields.js';

/** Where PGlite keeps the database of this configuration. */
export function pgliteDir(config: Config): string {
  return path.join(config.dataDir, 'db');
}

/** `log` receives knex's own warnings (connection errors during an outage); default the console. */
export function openDatabase(config: Config, log?: (message: string) => void): Knex {
  return config.databaseUrl ? createKnex({ databaseUrl: config.databaseUrl, poolMax: config.databasePoolMax, log }) : createKnex({ pgliteDir: pgliteDir(config), log });
}

/**
 * Gives every (role, group) pair that permission_grants lacks its default from resources/permissions.ts, and keeps
 * every row already there: a group added after a database was seeded works at the next start, and grants that an
 * operator changed stay as they are (to take a grant away, set its bits to 0; a deleted row comes back). Returns the
 * rows added.
 */
export async function fillMissingGrants(db: Knex): Promise<{ pg_role: string; pg_group: string; pg_bits: number }[]> {
  return db('permission_grants').insert(grantRows()).onConflict(['pg_role', 'pg_group']).ignore().returning(['pg_role', 'pg_group', 'pg_bits']);
}

/**
 * Migrates, installs the job queue's schema when it is missing (api/jobs/db.ts), then fills in the grants the database
 * lacks (an empty table gets the whole matrix).
 */
export async function prepareDatabase(db: Knex): Promise<{ grantsAdded: { pg_role: string; pg_group: string; pg_bits: number }[] }> {
  await migrateLatest(db);
  await installJobSchema(db);
  return { grantsAdded: await fillMissingGrants(db) };
}

export interface CreatedUser {
  u_id: string;
  u_email: string;
  u_role: string;
}

/**
 * Creates a verified, enabled user with a password, or re-keys an existing one (matched by e-mail, any case):
 * the CLI and first start. Without `role` an existing user keeps theirs and a new one is a member; names given
 * replace the stored ones.
 */
export async function upsertUser(
  db: Knex,
  input: { email: string; password: string; role?: string; firstName?: string; lastName?: string },
): Promise<{ user: CreatedUser; created: boolean; previousRole?: string }> {
  if (!isEmail(input.email)) throw new Error(`Not a valid e-mail address: ${input.email}`);
  const hash = await hashPassword(input.password);
  const existing = await db('users').whereRaw('lower(u_email) = ?', [input.email.toLowerCase()]).first('u_id', 'u_email', 'u_role');
  if (existing) {
    const changes: Record<string, unknown> = { u_password: hash, u_is_verified: true, u_is_enabled: true };
    if (input.role !== undefined) changes.u_role = input.role;
    if (input.firstName !== undefined) changes.u_first_name = input.firstName;
    if (input.lastName !== undefined) changes.u_last_name = input.lastName;
    const [user] = await db('users').where('u_id', existing.u_id).update(changes).returning(['u_id', 'u_email', 'u_role']);
    return { user, created: false, previousRole: existing.u_role };
  }
  const [user] = await db('users')
    .insert({
      u_email: input.email,
      u_password: hash,
      u_role: input.role ?? 'member',
      u_first_name: input.firstName ?? '',
      u_last_name: input.lastName ?? '',
      u_is_verified: true,
      u_is_enabled: true,
    })
    .returning(['u_id', 'u_email', 'u_role']);
  return { user, created: true };
}

/** The first root user made at this start: the generated password is known only here, to be printed once. */
export interface FirstRoot {
  email: string;
  /** Generated (no ADMIN_PASSWORD): to show once; undefined when it came from ADMIN_PASSWORD. */
  password?: string;
}

/**
 * First start: with no root user, ADMIN_EMAIL/ADMIN_PASSWORD make one; without a password one is generated (it is not
 * stored anywhere in clear). Answers who was made, or null when a root user existed already.
 */
export async function ensureRootUser(db: Knex, config: Config): Promise<FirstRoot | null> {
  const root = await db('users').where('u_role', 'root').first('u_id');
  if (root) return null;
  const email = config.adminEmail ?? 'admin@leadstage.local';
  const password = config.adminPassword ?? crypto.randomBytes(12).toString('base64url');
  await upsertUser(db, { email, password, role: 'root', firstName: 'Platform', lastName: 'Admin' });
  return config.adminPassword ? { email } : { email, password };
}

/**
 * What to print about the first root user: a generated password in a box, with where to sign in, printed last (after
 * the build and the start lines) so it is not lost above them.
 */
export function firstRootNotice(first: FirstRoot, signInUrl: string): string {
  if (!first.password) return `First root user created: ${first.email} (password from ADMIN_PASSWORD). Sign in at ${signInUrl}`;
  const lines = [
    'First root user created. Sign in at:',
    `  ${signInUrl}`,
    `  e-mail:   ${first.email}`,
    `  password: ${first.password}`,
    'This password is shown only once: change it after signing in,',
    'or set ADMIN_EMAIL and ADMIN_PASSWORD before the first start.',
  ];
  const width = Math.max(...lines.map((l) => l.length));
  const rule = '─'.repeat(width + 2);
  return ['', `┌${rule}┐`, ...lines.map((l) => `│ ${l.padEnd(width)} │`), `└${rule}┘`, ''].join('\n');
}
