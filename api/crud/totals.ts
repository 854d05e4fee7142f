import type { Knex } from 'knex';
import { perHandle } from '../db/perDatabase.js';
import { onWrite } from '../db/writes.js';
import { resourceNamed } from '../../resources/index.js';
import type { ResourceDeclaration } from '../../resources/types.js';

/**
 * The totals of paged lists (Content-Range), reused across pages of the same filter so that count(*) does not
 * dominate a page's cost. A total is reused only while fresh: at most TTL_MS old, and, for an exact total, no write
 * since to a table it depends on (the list's table and those its references lead to, whose deletes cascade into it or
 * whose trash hides its rows) has gone through this process's database handle; a write whose table cannot be read
 * from its SQL counts for every table. An estimated total (past a declaration's exactTotalUpTo) is the planner's
 * guess anyway: it survives writes for TTL_MS, so that a busy table (a hundred booth phones adding leads) does not
 * have every list page count ten thousand rows and ask the planner again. Writes made by another process show in
 * totals within TTL_MS. The list itself never comes from here, only the number.
 */
export const TOTAL_TTL_MS = 5000;
const MAX_ENTRIES = 2000;

interface Entry {
  total: number;
  /** The total is the planner's estimate (ResourceDeclaration.exactTotalUpTo). */
  estimated: boolean;
  /** The tables it depends on, with their write epochs when it was counted; `*` the writes of unknown tables. */
  epochs: [string, number][];
  at: number;
}

/** The table a writing statement names first (insert into / update / delete from / truncate), else undefined. */
const WRITTEN_TABLE = /^\s*(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?)\s+(?:only\s+)?"?([a-z_][a-z0-9_]*)"?/i;

/**
 * The tables whose writes can change which rows a list of `decl` holds: its own, and those its reference fields lead
 * to, transitively (a delete there cascades here or sets a key null; a trash there hides rows here).
 */
export function totalDependencies(decl: ResourceDeclaration): readonly string[] {
  let found = dependencies.get(decl);
  if (!found) dependencies.set(decl, (found = Object.freeze(findDependencies(decl))));
  return found;
}
// They depend on the declarations alone (fixed at load), yet every list page walked them: kept.
const dependencies = new WeakMap<ResourceDeclaration, readonly string[]>();

function findDependencies(decl: ResourceDeclaration): string[] {
  const tables = new Set<string>();
  const visit = (d: ResourceDeclaration) => {
    if (tables.has(d.table)) return;
    tables.add(d.table);
    for (const meta of Object.values(d.fields ?? {})) {
      const ref = meta.kind === 'reference' && meta.reference ? resourceNamed(meta.reference) : undefined;
      if (ref) visit(ref);
    }
  };
  visit(decl);
  return [...tables];
}

class TotalCache {
  entries = new Map<string, Entry>();
  epochs = new Map<string, number>();

  constructor(db: Knex) {
    onWrite(db, (sql) => {
      const table = WRITTEN_TABLE.exec(sql)?.[1]?.toLowerCase() ?? '*';
      this.epochs.set(table, (this.epochs.get(table) ?? 0) + 1);
    });
  }

  private epochOf(table: string): number {
    return this.epochs.get(table) ?? 0;
  }

  get(key: string): number | undefined {
    return this.entry(key)?.total;
  }

  /** Whether a fresh total of this key is an estimate. */
  estimated(key: string): boolean {
    return this.entry(key)?.estimated ?? false;
  }

  /** Keeps a total counted over `tables` (totalDependencies): read the epochs before counting, see `epochsNow`. */
  set(key: string, total: number, estimated: boolean, epochs: [string, number][]): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { total, estimated, epochs, at: Date.now() });
  }

  /** The write epochs of these tables (and of unknown tables) now: taken before a count, so a write during it counts. */
  epochsNow(tables: readonly string[]): [string, number][] {
    return [...tables, '*'].map((t) => [t, this.epochOf(t)]);
  }

  private entry(key: string): Entry | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    const written = !e.estimated && e.epochs.some(([t, n]) => this.epochOf(t) !== n);
    if (written || Date.now() - e.at > TOTAL_TTL_MS) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }
}

export const totalsFor = perHandle((db) => new TotalCache(db));
