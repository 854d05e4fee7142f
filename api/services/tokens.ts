import crypto from 'node:crypto';
import type { Knex } from 'knex';

export type TokenType = 'verify' | 'reset';

/** Lifetimes: verification 48 h, reset 1 h. */
export const TOKEN_TTL_SECONDS: Record<TokenType, number> = { verify: 48 * 3600, reset: 3600 };

export function hashToken(raw: string): string {
  return crypto.createHash('sha256').update(raw).digest('hex');
}

/** A 256-bit random token; only its SHA-256 is stored. */
export async function createToken(db: Knex, type: TokenType, userId: string | null): Promise<string> {
  const raw = crypto.randomBytes(32).toString('base64url');
  await db('tokens').insert({
    t_type: type,
    t_hash: hashToken(raw),
    t_userid: userId,
    t_expires_at: new Date(Date.now() + TOKEN_TTL_SECONDS[type] * 1000),
  });
  return raw;
}

export interface TokenRow {
  t_id: string;
  t_type: TokenType;
  t_userid: string | null;
  t_expires_at: Date;
  t_used_at: Date | null;
}

/** Marks an unused, unexpired token used and returns it; null when there is no such token. Single use, atomically. */
export async function consumeToken(db: Knex, type: TokenType, raw: string): Promise<TokenRow | null> {
  if (typeof raw !== 'string' || raw.length < 16 || raw.length > 200) return null;
  const rows = await db('tokens')
    .where({ t_type: type, t_hash: hashToken(raw) })
    .whereNull('t_used_at')
    .andWhere('t_expires_at', '>', db.fn.now())
    .update({ t_used_at: db.fn.now() })
    .returning(['t_id', 't_type', 't_userid', 't_expires_at', 't_used_at']);
  return rows[0] ?? null;
}

/** A token's row whatever its state (to tell "already used" from "never existed"). */
export async function findToken(db: Knex, type: TokenType, raw: string): Promise<TokenRow | null> {
  if (typeof raw !== 'string' || raw.length < 16 || raw.length > 200) return null;
  return (
    (await db('tokens')
      .where({ t_type: type, t_hash: hashToken(raw) })
      .first()) ?? null
  );
}

export async function pruneTokens(db: Knex): Promise<void> {
  await db('tokens').where('t_expires_at', '<', db.raw("now() - interval '7 days'")).del();
}
