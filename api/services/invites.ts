import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors.js';
import { hashToken } from './tokens.js';
import { hashPassword } from './passwords.js';
import { createUser, findUserByEmail } from './users.js';
import { mailDateTime, roleName, sendAccountMail } from '../mail/accountTemplates.js';
import { INVITE_TTL_DAYS } from '../../resources/invites.js';

type Row = Record<string, unknown>;

/** An invite link's token: 256 random bits, base64url; only its SHA-256 is stored. */
export const newInviteToken = () => crypto.randomBytes(32).toString('base64url');
export const inviteExpiry = () => new Date(Date.now() + INVITE_TTL_DAYS * 86400_000);
export const inviteLink = (app: AppContext, token: string) => `${app.config.publicUrl}/invite/${encodeURIComponent(token)}`;

export const inviteFailed = () => new ApiError(502, 'invite_failed', 'Failed to create invite');
export const inviteInvalid = () => new ApiError(400, 'invite_invalid', 'Failed to validate the invite', { token: 'error_invite_invalid' });
export const memberAlreadyExists = () =>
  new ApiError(409, 'member_already_exists', 'A member with the same email address already exists', { iv_email: 'error_member_already_exists' });
export const inviteAlreadyExists = () =>
  new ApiError(409, 'invite_already_exists', 'An invite with the same email address already exists', { iv_email: 'error_invite_already_exists' });

/**
 * The partial unique index of pending invites (one per e-mail and account) refused a write. (The token hash is unique
 * too, but 256 random bits do not collide.)
 */
export const isPendingConflict = (err: unknown): boolean => (err as { code?: string })?.code === '23505';

/** True when a user with this e-mail is already a member of the account. */
export async function isMember(db: Knex | Knex.Transaction, accountId: string, email: string): Promise<boolean> {
  const row = await db('account_users')
    .join('users', 'u_id', 'au_userid')
    .where('au_accountid', accountId)
    .whereRaw('lower(u_email) = ?', [email.trim().toLowerCase()])
    .first('au_id');
  return Boolean(row);
}

/** Stored pending invites whose time is up become expired (so they no longer hold the e-mail's one pending place). */
export async function expireStale(db: Knex | Knex.Transaction, accountId: string): Promise<void> {
  await db('invites')
    .where({ iv_accountid: accountId, iv_status: 'pending' })
    .andWhere('iv_expires_at', '<=', db.fn.now())
    .update({ iv_status: 'expired', iv_updated_at: db.fn.now() });
}

/**
 * Mails the invite link with the account's `invite` template, else the built-in one; a mail that cannot be sent
 * answers 502 invite_failed. Called once the token is committed (the database is not held while the relay talks);
 * the caller undoes its write when this throws.
 */
export async function mailInvite(
  app: AppContext,
  db: Knex,
  account: { a_id: string; a_name: string },
  invite: Row,
  token: string,
  inviter: { u_first_name?: string | null; u_last_name?: string | null; u_email: string },
): Promise<void> {
  const link = inviteLink(app, token);
  const email = String(invite.iv_email);
  try {
    await sendAccountMail(app, db, account, 'invite', email, {
      first_name: (invite.iv_first_name as string | null) || email,
      last_name: (invite.iv_last_name as string | null) ?? '',
      email,
      role: roleName(String(invite.iv_role)),
      inviter_name: [inviter.u_first_name, inviter.u_last_name].filter(Boolean).join(' ') || inviter.u_email,
      link,
      expires_at: mailDateTime(invite.iv_expires_at as Date),
    });
  } catch (err) {
    app.log(`mail: invite to ${email} failed: ${(err as Error).message}`);
    throw inviteFailed();
  }
}

export interface OpenInvite {
  iv_id: string;
  iv_accountid: string;
  iv_email: string;
  iv_first_name: string | null;
  iv_last_name: string | null;
  iv_role: string;
  a_id: string;
  a_name: string;
}

/** The pending, unexpired invite of a link's token with its account; undefined for a used, revoked, expired or unknown one. */
export async function findOpenInvite(db: Knex, token: unknown): Promise<OpenInvite | undefined> {
  if (typeof token !== 'string' || token.length < 16 || token.length > 200) return undefined;
  return db('invites')
    .join('accounts', 'a_id', 'iv_accountid')
    .where({ iv_token_hash: hashToken(token), iv_status: 'pending' })
    .andWhere('iv_expires_at', '>', db.fn.now())
    .first('iv_id', 'iv_accountid', 'iv_email', 'iv_first_name', 'iv_last_name', 'iv_role', 'a_id', 'a_name');
}

/** A user who can sign in with the invited address (a user who never confirmed it is completed by the invite instead). */
export async function invitedUser(db: Knex, email: string) {
  const user = await findUserByEmail(db, email);
  return user?.u_is_verified ? user : undefined;
}

/** Marks the invite accepted if it still is pending and unexpired: single use, atomically (a second accept finds nothing). */
async function consume(trx: Knex.Transaction, inviteId: string): Promise<void> {
  const rows = await trx('invites')
    .where({ iv_id: inviteId, iv_status: 'pending' })
    .andWhere('iv_expires_at', '>', trx.fn.now())
    .update({ iv_status: 'accepted', iv_updated_at: trx.fn.now() })
    .returning(['iv_id']);
  if (!rows.length) throw inviteInvalid();
}

/** An existing user (signed in as the invited address) joins with the invite's role; a membership it already has stays. */
export async function acceptAsExistingUser(app: AppContext, invite: OpenInvite, userId: string): Promise<void> {
  await app.db.transaction(async (trx) => {
    await consume(trx, invite.iv_id);
    await trx('account_users').insert({ au_accountid: invite.iv_accountid, au_userid: userId, au_role: invite.iv_role }).onConflict(['au_accountid', 'au_userid']).ignore();
  });
}

/**
 * A new user: created verified (the link proved the address) with the given names (else the invite's) and password,
 * then joins with the invite's role. A user who registered the address but never confirmed it is completed the same
 * way. Answers the user's id; the caller signs it in.
 */
export async function acceptAsNewUser(app: AppContext, invite: OpenInvite, input: { u_first_name: string; u_last_name: string; u_password: string }): Promise<string> {
  const first = input.u_first_name || invite.iv_first_name || '';
  const last = input.u_last_name || invite.iv_last_name || '';
  return app.db.transaction(async (trx) => {
    await consume(trx, invite.iv_id);
    const unverified = await findUserByEmail(trx, invite.iv_email);
    let userId: string;
    if (unverified && !unverified.u_is_verified) {
      userId = unverified.u_id;
      await trx('users')
        .where('u_id', userId)
        .update({ u_first_name: first, u_last_name: last, u_password: await hashPassword(input.u_password), u_is_verified: true, u_updated_at: trx.fn.now() });
    } else {
      // A verified user with the address appearing meanwhile: createUser answers 409 user_already_exists.
      const created = await createUser(app, trx, {
        u_first_name: first,
        u_last_name: last,
        u_email: invite.iv_email,
        u_role: 'member',
        u_is_verified: true,
        u_is_enabled: true,
        u_password: input.u_password,
      });
      userId = created.id;
    }
    // The e-mail domain may have made it a member just now: the invite's role wins.
    await trx('account_users')
      .insert({ au_accountid: invite.iv_accountid, au_userid: userId, au_role: invite.iv_role })
      .onConflict(['au_accountid', 'au_userid'])
      .merge({ au_role: invite.iv_role, au_updated_at: trx.fn.now() });
    return userId;
  });
}
