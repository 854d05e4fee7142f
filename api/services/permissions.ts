import type { Knex } from 'knex';
import { can, grantsOf, matrixFromRows, PERMISSIONS, type Matrix } from '../../resources/permissions.js';

/**
 * The permission matrix as stored in permission_grants (seed 01 writes resources/permissions.ts there; ops may
 * change grants in the table). Re-read at most every `ttlMs`, so every API process follows a change.
 */
export class PermissionStore {
  private matrix: Matrix = PERMISSIONS;
  private loadedAt = 0;
  /** The read in flight: every request that finds the cache expired waits for this one read (single flight). */
  private loading?: Promise<void>;

  constructor(
    private db: Knex,
    private ttlMs = 30_000,
  ) {}

  refresh(): Promise<void> {
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async load(): Promise<void> {
    const rows = await this.db('permission_grants').select('pg_role', 'pg_group', 'pg_bits');
    // An empty table (not seeded yet) falls back to the code's matrix rather than locking everyone out.
    this.matrix = rows.length ? matrixFromRows(rows) : PERMISSIONS;
    this.loadedAt = Date.now();
  }

  async current(): Promise<Matrix> {
    if (!this.fresh()) await this.refresh();
    return this.matrix;
  }

  /** The matrix when it is fresh, else undefined (then `current()` reads it again). */
  fresh(): Matrix | undefined {
    return Date.now() - this.loadedAt > this.ttlMs ? undefined : this.matrix;
  }

  async can(role: string | undefined, group: string, permission: string | number): Promise<boolean> {
    return can(role, group, permission, await this.current());
  }

  async grants(role: string | undefined): Promise<Record<string, number>> {
    return grantsOf(role, await this.current());
  }
}
