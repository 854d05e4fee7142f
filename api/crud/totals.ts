import type { Knex } from 'knex';
import { onWrite } from '../db/writes.js';

/**
 * The totals of paged lists (Content-Range), reused across pages of the same filter so that count(*) does not
 * dominate a page's cost. A total is reused only while fresh: at most TTL_MS old, and no write has gone through this
 * process's database handle since (every INSERT, UPDATE or DELETE it runs moves the write epoch). Writes made by
 * another process show in totals within TTL_MS. The list itself never comes from here, only the number.
 */
export const TOTAL_TTL_MS = 5000;
const MAX_ENTRIES = 2000;

interface Entry {
  total: number;
  /** The total is the planner's estimate (ResourceDeclaration.exactTotalUpTo). */
  estimated: boolean;
  epoch: number;
  at: number;
}

class TotalCache {
  epoch = 0;
  entries = new Map<string, Entry>();

  constructor(db: Knex) {
    onWrite(db, () => this.epoch++);
  }

  get(key: string): number | undefined {
    return this.entry(key)?.total;
  }

  /** Whether a fresh total of this key is an estimate. */
  estimated(key: string): boolean {
    return this.entry(key)?.estimated ?? false;
  }

  set(key: string, total: number, estimated = false): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { total, estimated, epoch: this.epoch, at: Date.now() });
  }

  private entry(key: string): Entry | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.epoch !== this.epoch || Date.now() - e.at > TOTAL_TTL_MS) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }
}

const caches = new WeakMap<Knex, TotalCache>();

export function totalsFor(db: Knex): TotalCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new TotalCache(db)));
  return cache;
}
