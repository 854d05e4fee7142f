import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, describeEachDb, type TestDb } from '../helpers/db.js';
import { createKnex, migrationsDir } from '../../api/db/knex.js';
import { LOCK_FILE, acquireDataLock } from '../../api/db/lock.js';
import { verifyPassword } from '../../api/services/passwords.js';

/** The real scripts as child processes, run from a directory of their own (its .env is theirs). */

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const TSX = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const MIGRATIONS = fs
  .readdirSync(migrationsDir)
  .filter((f) => f.endsWith('.ts'))
  .sort();
const SLOW = 180_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs scripts/<script> in `cwd` with only PATH and `env` set; `input` is its standard input (a pipe, never a TTY). */
function run(cwd: string, script: string, args: string[], options: { env?: Record<string, string>; input?: string } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX, path.join(ROOT, script), ...args], { cwd, env: { PATH: process.env.PATH, ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: stdout.trim(), stderr: stderr.trim() }));
    child.stdin.end(options.input ?? '');
  });
}

function workDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ls-cli-'));
}

describeEachDb('command-line tools', (kind) => {
  let cwd: string;
  let env: Record<string, string>;
  let pg: TestDb | undefined;
  /** Runs `fn` on the database the scripts use (on PGlite opened only between runs: one process at a time). */
  let withDb: <T>(fn: (db: Knex) => Promise<T>) => Promise<T>;

  beforeAll(async () => {
    cwd = workDir();
    // Settings from ./.env, as an operator would keep them: proves the scripts load it.
    fs.writeFileSync(path.join(cwd, '.env'), `DATA_DIR=${path.join(cwd, 'data')}\nSESSION_SECRET=cli-test-session-secret-0123456789\n`);
    env = {};
    if (kind === 'postgres') {
      pg = await createTestDb('postgres');
      env = { DATABASE_URL: pg.url! };
      withDb = (fn) => fn(pg!.db);
    } else {
      withDb = async (fn) => {
        const db = createKnex({ pgliteDir: path.join(cwd, 'data', 'db') });
        try {
          return await fn(db);
        } finally {
          await db.destroy();
        }
      };
    }
  });
  afterAll(async () => {
    await pg?.drop();
    fs.rmSync(cwd, { recursive: true, force: true });
  });

  const userCreate = (args: string[], input?: string) => run(cwd, 'scripts/user-create.ts', args, { env, input });
  const dbScript = (args: string[]) => run(cwd, 'scripts/db.ts', args, { env });
  const ID = '[0-9a-f-]{36}';

  it(
    'user:create: a new user is a member unless --role; an existing one keeps its role without --role; the password minimum holds; the password may come on stdin',
    async () => {
      const created = await userCreate(['--email', 'Ops@Example.com', '--password', 'first-password-1']);
      expect(created).toMatchObject({ code: 0, stderr: '' });
      expect(created.stdout).toMatch(new RegExp(`^created user Ops@Example.com \\(${ID}\\) with role member$`));

      const promoted = await userCreate(['--email', 'ops@example.com', '--password', 'second-password-2', '--role', 'admin']);
      expect(promoted).toMatchObject({ code: 0, stderr: '' });
      expect(promoted.stdout).toMatch(new RegExp(`^updated user Ops@Example.com \\(${ID}\\): password set, role changed from member to admin$`));

      const rekeyed = await userCreate(['--email', 'OPS@example.com'], 'third-password-3\n');
      expect(rekeyed).toMatchObject({ code: 0, stderr: '' });
      expect(rekeyed.stdout).toMatch(new RegExp(`^updated user Ops@Example.com \\(${ID}\\): password set, role admin kept$`));

      // Refused before anything is written: the default minimum, a raised PASSWORD_MIN_LENGTH, no password at all.
      const [short, belowConfigured, noPassword] = await Promise.all([
        userCreate(['--email', 'short@example.com', '--password', 'elevenchars']),
        run(cwd, 'scripts/user-create.ts', ['--email', 'ops@example.com', '--password', 'nineteen-characters'], { env: { ...env, PASSWORD_MIN_LENGTH: '20' } }),
        userCreate(['--email', 'short@example.com'], ''),
      ]);
      expect(short).toEqual({ code: 2, stdout: '', stderr: 'the password needs at least 12 characters (PASSWORD_MIN_LENGTH)' });
      expect(belowConfigured).toEqual({ code: 2, stdout: '', stderr: 'the password needs at least 20 characters (PASSWORD_MIN_LENGTH)' });
      expect(noPassword).toEqual({ code: 2, stdout: '', stderr: 'no password: pass --password, or one line on standard input' });

      await withDb(async (db) => {
        const users = await db('users').orderBy('u_email').select('u_email', 'u_role', 'u_password', 'u_is_verified', 'u_is_enabled');
        expect(users.map(({ u_password: _, ...u }) => u)).toEqual([{ u_email: 'Ops@Example.com', u_role: 'admin', u_is_verified: true, u_is_enabled: true }]);
        expect(await verifyPassword(users[0].u_password, 'third-password-3')).toBe(true);
      });
    },
    SLOW,
  );

  it(
    'the first start without ADMIN_PASSWORD prints the generated password last, boxed, with where to sign in; it signs in',
    async () => {
      // No root user yet (the table exists when an earlier test migrated; otherwise the server migrates it).
      await withDb(async (db) => (await db.schema.hasTable('users')) && db('users').where('u_role', 'root').del());
      const child = spawn(process.execPath, [TSX, path.join(ROOT, 'api/server.ts')], {
        cwd,
        env: { PATH: process.env.PATH, ...env, PORT: '0', PUBLIC_URL: 'http://leadstage.test:3000', ADMIN_EMAIL: 'first-root@example.com' },
      });
      let output = '';
      let startedAt = -1;
      child.stdout.on('data', (d) => {
        output += d;
        if (startedAt < 0 && output.includes('Leadstage on http://leadstage.test:3000')) startedAt = output.length;
      });
      child.stderr.on('data', (d) => (output += d));
      const exited = new Promise((resolve) => child.on('close', resolve));
      try {
        await expect.poll(() => output, { timeout: 60_000, interval: 100 }).toMatch(/└─+┘/);
      } finally {
        child.kill('SIGTERM');
        await exited;
      }
      const box = output.slice(output.indexOf('┌'), output.indexOf('┘') + 1);
      // After the server's start line, not above it.
      expect(startedAt).toBeGreaterThan(0);
      expect(output.indexOf('┌')).toBeGreaterThanOrEqual(startedAt);
      expect(box).toContain('Sign in at:');
      expect(box).toContain('http://leadstage.test:3000/login');
      expect(box).toContain('e-mail:   first-root@example.com');
      const password = /password: (\S+)/.exec(box)![1];
      // every line of the box is as wide as the others
      expect(new Set(box.split('\n').map((l) => l.length)).size).toBe(1);
      await withDb(async (db) => {
        const root = await db('users').where('u_role', 'root').first();
        expect(root.u_email).toBe('first-root@example.com');
        expect(await verifyPassword(root.u_password, password)).toBe(true);
      });
    },
    SLOW,
  );

  if (kind === 'pglite') {
    it(
      'refuses while a live process holds the PGlite lock, and takes over a stale one',
      async () => {
        const dbDir = path.join(cwd, 'data', 'db');
        const lock = acquireDataLock(dbDir, 'server');
        let refused: Run[];
        try {
          refused = await Promise.all([userCreate(['--email', 'locked@example.com', '--password', 'locked-password-1']), dbScript(['rollback'])]);
        } finally {
          lock.release();
        }
        const message = `The database in data/db is in use by a running server (pid ${process.pid}). Stop the server first, or run against PostgreSQL with DATABASE_URL.`;
        for (const r of refused) expect(r).toEqual({ code: 1, stdout: '', stderr: message });

        // A server that died without cleaning up: its pid is gone.
        const dead = spawnSync(process.execPath, ['-e', '']).pid;
        fs.writeFileSync(path.join(dbDir, LOCK_FILE), JSON.stringify({ pid: dead, holder: 'server' }));
        const after = await userCreate(['--email', 'locked@example.com', '--password', 'locked-password-1']);
        expect(after).toMatchObject({ code: 0, stderr: '' });
        expect(after.stdout).toMatch(/^created user locked@example.com /);
        expect(fs.existsSync(path.join(dbDir, LOCK_FILE))).toBe(false);
      },
      SLOW,
    );
  }

  it(
    'db:rollback undoes one migration at a time, naming it; --all needs --yes without a terminal; nothing left says so',
    async () => {
      const last = MIGRATIONS[MIGRATIONS.length - 1];
      const [one, refused] = await Promise.all([dbScript(['rollback']), dbScript(['rollback', '--all'])]);
      expect(one).toEqual({ code: 0, stdout: `undone: ${last}`, stderr: '' });
      expect(refused).toEqual({ code: 2, stdout: '', stderr: '--all undoes every migration and deletes every table with its data: add --yes to confirm (no terminal to ask on)' });

      // What is left, newest first: the refused --all undid nothing.
      const remaining = MIGRATIONS.slice(0, -1).reverse();
      expect(await dbScript(['rollback', '--all', '--yes'])).toEqual({ code: 0, stdout: remaining.map((n) => `undone: ${n}`).join('\n'), stderr: '' });
      expect(await dbScript(['rollback'])).toEqual({ code: 0, stdout: 'nothing to undo: no migration is applied', stderr: '' });
    },
    SLOW,
  );
});

describe('invalid configuration at start', () => {
  it(
    'the server and the scripts print what is wrong, without a stack, and exit 1',
    async () => {
      const cwd = workDir();
      try {
        fs.writeFileSync(path.join(cwd, '.env'), 'STORAGE_DRIVER=S3\n');
        const env = { DATA_DIR: path.join(cwd, 'data'), PORT: '80a' };
        const [server, script] = await Promise.all([
          run(cwd, 'api/server.ts', [], { env }),
          run(cwd, 'scripts/user-create.ts', ['--email', 'x@example.com', '--password', 'long-enough-password'], { env }),
        ]);
        const message = ['Invalid configuration:', '  PORT: must be a whole number from 0 to 65535 (got "80a")', '  STORAGE_DRIVER: must be one of local, s3 (got "S3")'].join(
          '\n',
        );
        expect(server).toEqual({ code: 1, stdout: '', stderr: message });
        expect(script).toEqual({ code: 1, stdout: '', stderr: message });
        expect(fs.existsSync(path.join(cwd, 'data', 'db'))).toBe(false);
      } finally {
        fs.rmSync(cwd, { recursive: true, force: true });
      }
    },
    SLOW,
  );
});
