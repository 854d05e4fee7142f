import type { Knex } from 'knex';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors.js';
import { hashPassword } from './passwords.js';
import { createToken } from './tokens.js';

/** Every user column except the password hash. */
export const USER_COLUMNS = ['u_id', 'u_first_name', 'u_last_name', 'u_email', 'u_role', 'u_is_verified', 'u_is_enabled', 'u_created_at', 'u_updated_at'];

export const userAlreadyExists = () => new ApiError(409, 'user_already_exists', 'A user with the same email address already exists', { u_email: 'error_user_already_exists' });

/** The unique index on lower(u_email) refused a write: two requests raced past assertEmailFree. */
export function isEmailConflict(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string };
  return e?.code === '23505' && (e.constraint === undefined || e.constraint === 'users_email_unique');
}

/** Runs a write that may hit the e-mail index; a conflict becomes 409 user_already_exists. */
export async function emailWrite<T>(write: PromiseLike<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (isEmailConflict(err)) throw userAlreadyExists();
    throw err;
  }
}

export async function findUserByEmail(db: Knex, email: string) {
  return db('users').whereRaw('lower(u_email) = ?', [email.trim().toLowerCase()]).first();
}

export async function assertEmailFree(db: Knex, email: string, exceptId?: string): Promise<void> {
  const q = db('users').whereRaw('lower(u_email) = ?', [email.trim().toLowerCase()]);
  if (exceptId) q.whereNot('u_id', exceptId);
  if (await q.first('u_id')) throw userAlreadyExists();
}

/** Spec 3: users registering with an account's e-mail domain are added to it as members (set-based). */
export async function linkByEmailDomain(db: Knex, userIds: string[]): Promise<number> {
  if (userIds.length === 0) return 0;
  const result = await db.raw(
    `insert into account_users (au_userid, au_accountid, au_role)
     select u.u_id, a.a_id, 'member'
       from users u
       join accounts a on a.a_email_domain is not null
                      and lower(a.a_email_domain) = lower(split_part(u.u_email, '@', 2))
      where u.u_id = any(?::uuid[])
     on conflict (au_accountid, au_userid) do nothing`,
    [userIds],
  );
  return result.rowCount ?? 0;
}

export interface NewUser {
  u_first_name: string;
  u_last_name: string;
  u_email: string;
  u_role: string;
  u_is_verified: boolean;
  u_is_enabled: boolean;
  u_password?: string;
}

/** Creates one user: unique e-mail (409 user_already_exists), argon2id hash, domain membership, verification mail. */
export async function createUser(app: AppContext, trx: Knex.Transaction, input: NewUser): Promise<{ id: string; afterCommit: () => Promise<void> }> {
  await assertEmailFree(trx, input.u_email);
  const u_password = input.u_password ? await hashPassword(input.u_password) : null;
  const [row] = await emailWrite(
    trx('users')
      .insert({
        u_first_name: input.u_first_name,
        u_last_name: input.u_last_name,
        u_email: input.u_email.trim(),
        u_role: input.u_role,
        u_is_verified: input.u_is_verified,
        u_is_enabled: input.u_is_enabled,
        u_password,
      })
      .returning(['u_id']),
  );
  await linkByEmailDomain(trx, [row.u_id]);
  let token: string | undefined;
  if (!input.u_is_verified) token = await createToken(trx, 'verify', row.u_id);
  return {
    id: row.u_id,
    afterCommit: async () => {
      if (token) await sendVerification(app, input, token);
    },
  };
}

export function verifyLink(app: AppContext, token: string): string {
  return `${app.config.publicUrl}/users/verify/${encodeURIComponent(token)}`;
}

export function resetLink(app: AppContext, token: string): string {
  return `${app.config.publicUrl}/users/resetpassword?token=${encodeURIComponent(token)}`;
}

type MailUser = { u_email: string; u_first_name: string };

/** Mail failures are logged, never surfaced: the user exists and can ask for a resend. */
export async function sendVerification(app: AppContext, user: MailUser, token: string): Promise<void> {
  try {
    await app.mailer.send('signup', user.u_email, { first_name: user.u_first_name || user.u_email, email: user.u_email, link: verifyLink(app, token) });
  } catch (err) {
    app.log(`mail: could not send signup to ${user.u_email}: ${(err as Error).message}`);
  }
}

export async function sendReset(app: AppContext, user: MailUser, token: string): Promise<void> {
  try {
    await app.mailer.send('resetpassword', user.u_email, { first_name: user.u_first_name || user.u_email, email: user.u_email, link: resetLink(app, token) });
  } catch (err) {
    app.log(`mail: could not send resetpassword to ${user.u_email}: ${(err as Error).message}`);
  }
}
