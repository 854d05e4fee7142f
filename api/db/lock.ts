import fs from 'node:fs';
import path from 'node:path';

/** PGlite is single-process: whoever opens a data directory holds this file (its pid) until it exits. */
export const LOCK_FILE = 'leadstage.lock';

export interface DataLock {
  file: string;
  release(): void;
}

interface LockContent {
  pid: number;
  holder: string;
}

/** Another live process holds the directory. */
export class DataLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
    readonly holder: string,
  ) {
    const relative = path.relative(process.cwd(), dir);
    const shown = relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : dir;
    const by = holder === 'server' ? 'a running server' : `another process (${holder})`;
    super(`The database in ${shown} is in use by ${by} (pid ${pid}). Stop the server first, or run against PostgreSQL with DATABASE_URL.`);
    this.name = 'DataLockedError';
  }
}

// Locks this process holds, so its own pid in a lock file is told apart from a stale one left under the same pid.
const held = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(file: string): LockContent | undefined {
  try {
    const content = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockContent>;
    return Number.isSafeInteger(content.pid) && (content.pid as number) > 0 ? { pid: content.pid as number, holder: String(content.holder ?? 'unknown') } : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the lock file whole or not at all (a reader never sees it half-written): write aside, then hard-link. */
function tryCreate(file: string, content: LockContent): boolean {
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(content) + '\n');
  try {
    fs.linkSync(temp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/**
 * Takes the lock on `dir` for `holder` (e.g. "server", "user:create"), or throws DataLockedError while a live process
 * holds it. A lock whose process is gone is taken over. Released by release() or when this process exits.
 */
export function acquireDataLock(dir: string, holder = 'server'): DataLock {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(path.resolve(dir), LOCK_FILE);
  const mine: LockContent = { pid: process.pid, holder };
  // Two rounds: the second after removing a stale lock.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (tryCreate(file, mine)) {
      held.add(file);
      const release = () => {
        process.off('exit', release);
        if (!held.delete(file)) return;
        if (readLock(file)?.pid === process.pid) fs.rmSync(file, { force: true });
      };
      process.on('exit', release);
      return { file, release };
    }
    const current = readLock(file);
    const ours = current?.pid === process.pid && held.has(file);
    if (current && (ours || (current.pid !== process.pid && isAlive(current.pid)))) throw new DataLockedError(path.dirname(file), current.pid, current.holder);
    fs.rmSync(file, { force: true });
  }
  throw new Error(`Could not take the lock ${file}: another process keeps creating it.`);
}
