import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCK_FILE, DataLockedError, acquireDataLock } from '../../api/db/lock.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-lock-'));
  dirs.push(dir);
  return path.join(dir, 'db');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid as number;
}

const readLock = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8'));

describe('PGlite data lock', () => {
  it('writes the pid and holder, refuses a second holder, and release removes it', () => {
    const dir = tempDir();
    const lock = acquireDataLock(dir, 'server');
    expect(readLock(dir)).toEqual({ pid: process.pid, holder: 'server' });
    expect(() => acquireDataLock(dir, 'user:create')).toThrow(DataLockedError);
    lock.release();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    acquireDataLock(dir, 'user:create').release();
  });

  it('refuses while another live process holds it, naming it', () => {
    const dir = tempDir();
    fs.mkdirSync(dir, { recursive: true });
    // The parent of this test process is alive for as long as the test runs.
    fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: process.ppid, holder: 'server' }));
    let error: unknown;
    try {
      acquireDataLock(dir, 'user:create');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DataLockedError);
    expect((error as Error).message).toBe(
      `The database in ${dir} is in use by a running server (pid ${process.ppid}). Stop the server first, or run against PostgreSQL with DATABASE_URL.`,
    );
    fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: process.ppid, holder: 'db:migrate' }));
    expect(() => acquireDataLock(dir, 'server')).toThrow(`is in use by another process (db:migrate) (pid ${process.ppid})`);
    expect(readLock(dir)).toEqual({ pid: process.ppid, holder: 'db:migrate' });
  });

  it('takes over a stale lock: a dead pid, its own pid from an earlier run, or a damaged file', () => {
    const dir = tempDir();
    fs.mkdirSync(dir, { recursive: true });
    for (const content of [JSON.stringify({ pid: deadPid(), holder: 'server' }), JSON.stringify({ pid: process.pid, holder: 'server' }), 'not json']) {
      fs.writeFileSync(path.join(dir, LOCK_FILE), content);
      const lock = acquireDataLock(dir, 'user:create');
      expect(readLock(dir)).toEqual({ pid: process.pid, holder: 'user:create' });
      lock.release();
    }
  });
});
