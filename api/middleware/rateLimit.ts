import type { Knex } from 'knex';

/**
 * One hit of a fixed-window counter as SQL: the upsert of the rows `source` yields (key, 1, the window's end); a window
 * that has passed starts again at 1. Returns rl_points and rl_reset_at. The registration counts its hit inside the
 * statement that loads the event (api/services/registration.ts), so the rule lives here once.
 */
export function rateLimitHitSql(source: string): string {
  return `insert into rate_limits (rl_key, rl_points, rl_reset_at)
       ${source}
       on conflict (rl_key) do update set
         rl_points = case when rate_limits.rl_reset_at <= now() then 1 else rate_limits.rl_points + 1 end,
         rl_reset_at = case when rate_limits.rl_reset_at <= now() then excluded.rl_reset_at else rate_limits.rl_reset_at end
       returning rl_points, rl_reset_at`;
}

/**
 * Fixed-window counters in the database (table rate_limits), so every API process shares them.
 * One upsert per hit: a window that has passed starts again at 1.
 */
export class RateLimiter {
  constructor(private db: Knex) {}

  async hit(key: string, windowSeconds: number): Promise<{ points: number; resetAt: Date }> {
    const { rows } = await this.db.raw(rateLimitHitSql('values (?, 1, now() + make_interval(secs => ?))'), [key, windowSeconds]);
    return { points: Number(rows[0].rl_points), resetAt: new Date(rows[0].rl_reset_at) };
  }

  async peek(key: string): Promise<number> {
    const row = await this.db('rate_limits').where('rl_key', key).andWhere('rl_reset_at', '>', this.db.fn.now()).first('rl_points');
    return row ? Number(row.rl_points) : 0;
  }

  async reset(key: string): Promise<void> {
    await this.db('rate_limits').where('rl_key', key).del();
  }

  async prune(): Promise<void> {
    await this.db('rate_limits').where('rl_reset_at', '<=', this.db.fn.now()).del();
  }
}
