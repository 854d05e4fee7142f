import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { hashToken } from './tokens.js';
import { USER_COLUMNS } from './users.js';
import { API_TOKEN_PREFIX, defaultTokenExpiry, type ApiTokenCreate } from '../../resources/apiTokens.js';
import { accountRoleOf, ROLE_RANK, type Role } from '../../resources/permissions.js';
import type { User } from '../../resources/users.js';

/**
 * Personal API tokens (platform-and-flows.md section 2). The secret is `lst_` + 256 random bits (base64url); the table
 * keeps only its SHA-256 (like every other token, api/services/tokens.ts), so a copy of the table opens nothing.
 */

/** tk_last_used_at moves at most once a minute per token: a busy token costs one write a minute, not one per call. */
export const LAST_USED_EVERY_MS = 60 * 1000;

const LIST_COLUMNS = ['tk_id', 'tk_title', 'tk_accountid', 'tk_role', 'tk_expires_at', 'tk_last_used_at', 'tk_created_at', 'a_name'];

/** A well-formed secret: the prefix and 43 base64url characters; anything else is not looked up. */
const SECRET_RE = new RegExp(`^${API_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`);

type Row = Record<string, unknown>;
const serialize = (row: Row) => ({ id: row.tk_id, ...row });

/** The lower of two roles (a token never acts above its owner's current role). */
export function lowerRole(a: string, b: string): string {
  return (ROLE_RANK[a as Role] ?? 0) <= (ROLE_RANK[b as Role] ?? 0) ? a : b;
}

/** The user's tokens with their account's name, newest first (expired ones too, until pruned). */
export async function listApiTokens(db: Knex, userId: string): Promise<Row[]> {
  const rows = await db('api_tokens').join('accounts', 'a_id', 'tk_accountid').where('tk_userid', userId).orderBy('tk_created_at', 'desc').orderBy('tk_id').select(LIST_COLUMNS);
  return rows.map(serialize);
}

/** Stores a new token; answers the record and the secret (shown once, never stored). */
export async function createApiToken(db: Knex, userId: string, input: ApiTokenCreate): Promise<{ record: Row; token: string }> {
  const token = API_TOKEN_PREFIX + crypto.randomBytes(32).toString('base64url');
  const [{ tk_id }] = await db('api_tokens')
    .insert({
      tk_userid: userId,
      tk_accountid: input.tk_accountid,
      tk_title: input.tk_title,
      tk_role: input.tk_role,
      tk_hash: hashToken(token),
      tk_expires_at: input.tk_expires_at ?? defaultTokenExpiry(),
    })
    .returning(['tk_id']);
  const record = await db('api_tokens').join('accounts', 'a_id', 'tk_accountid').where('tk_id', tk_id).first(LIST_COLUMNS);
  return { record: serialize(record), token };
}

/** Deletes (revokes) one of the user's own tokens; false when the user has no such token. */
export async function revokeApiToken(db: Knex, userId: string, id: string): Promise<boolean> {
  // returning(): the affected-row count is not reported alike by every driver (PGlite).
  const gone = await db('api_tokens').where({ tk_id: id, tk_userid: userId }).del().returning('tk_id');
  return gone.length > 0;
}

export interface BearerToken {
  id: string;
  accountId: string;
  /** The role the call acts with: the token's, lowered to the owner's current role in the account. */
  role: string;
  user: User;
  lastUsedAt: Date | null;
}

/**
 * The token a Bearer secret names, when it still works: not expired, not revoked (deleted), its user enabled and
 * verified, and the user still holding a role in the token's account (a membership, or root). Null otherwise.
 * One indexed read: the token, its user and the membership.
 */
export async function findBearerToken(db: Knex, secret: string): Promise<BearerToken | null> {
  if (!SECRET_RE.test(secret)) return null;
  const row = await db('api_tokens')
    .join('users', 'u_id', 'tk_userid')
    .leftJoin('account_users', (j) => j.on('au_accountid', 'tk_accountid').andOn('au_userid', 'tk_userid'))
    .where('tk_hash', hashToken(secret))
    .andWhere('tk_expires_at', '>', db.fn.now())
    .first(['tk_id', 'tk_accountid', 'tk_role', 'tk_last_used_at', 'au_role', ...USER_COLUMNS]);
  if (!row) return null;
  const { tk_id, tk_accountid, tk_role, tk_last_used_at, au_role, ...user } = row;
  if (!user.u_is_enabled || !user.u_is_verified) return null;
  const current = accountRoleOf(user.u_role, au_role ?? undefined);
  if (!current) return null;
  return {
    id: tk_id,
    accountId: String(tk_accountid).toLowerCase(),
    role: lowerRole(tk_role, current),
    user: user as User,
    lastUsedAt: tk_last_used_at ? new Date(tk_last_used_at) : null,
  };
}

/** Records a use, when the last recorded one is older than LAST_USED_EVERY_MS. */
export async function touchApiToken(db: Knex, token: BearerToken): Promise<void> {
  if (token.lastUsedAt && Date.now() - token.lastUsedAt.getTime() < LAST_USED_EVERY_MS) return;
  await db('api_tokens').where('tk_id', token.id).update({ tk_last_used_at: db.fn.now() });
}

/** Tokens expired more than 30 days ago leave the list (the profile page shows an expired one for a while). */
export async function pruneApiTokens(db: Knex): Promise<void> {
  await db('api_tokens').where('tk_expires_at', '<', db.raw("now() - interval '30 days'")).del();
}
