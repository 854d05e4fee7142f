import type { RequestHandler, Response } from 'express';
import { ctx } from '../context.js';
import { ApiError, notFound, unauthorized } from '../errors.js';
import { isUuid } from '../../resources/fields.js';
import { accountRoleOf } from '../../resources/permissions.js';
import { USER_COLUMNS } from '../services/users.js';

/** Readable cookies the client uses for its first paint (spec 4); the truth stays in the session. */
export const STATE_COOKIES = ['is_logged_in', 'user_role', 'account_role'] as const;

export function clearStateCookies(res: Response): void {
  for (const name of STATE_COOKIES) res.clearCookie(name, { path: '/' });
}

/** Loads the signed-in user (fresh from the database, so a disabled user or a changed role takes effect at once). */
export const loadUser: RequestHandler = async (req, res, next) => {
  const userId = req.session?.userId;
  if (userId) {
    const user = await ctx(req).db('users').where('u_id', userId).first(USER_COLUMNS);
    if (user && user.u_is_enabled && user.u_is_verified) req.user = user;
    else delete req.session.userId;
  }
  if (!req.user && req.cookies?.is_logged_in) clearStateCookies(res);
  next();
};

export const requireUser: RequestHandler = (req, _res, next) => {
  next(req.user ? undefined : unauthorized());
};

/**
 * Resolves the account named by :accountId (404 for a malformed or unknown id) and the caller's role in it.
 * A user whose own role is root acts as root in every account; anyone else needs a membership (else 404,
 * exactly like an account that does not exist).
 */
export function resolveAccount(param = 'accountId'): RequestHandler {
  return async (req, _res, next) => {
    const id = req.params[param];
    if (!isUuid(id)) throw notFound('Account not found');
    const { db } = ctx(req);
    const account = await db('accounts').where('a_id', id).first();
    if (!account) throw notFound('Account not found');
    const membership = req.user && req.user.u_role !== 'root'
      ? await db('account_users').where({ au_accountid: id, au_userid: req.user.u_id }).first('au_role')
      : undefined;
    req.account = account;
    req.accountRole = req.user ? accountRoleOf(req.user.u_role, membership?.au_role) : undefined;
    next();
  };
}

/** The role a permission group is checked against: entry_* the user's own role, account_* the role in req.account. */
export function roleFor(req: Parameters<RequestHandler>[0], group: string): string | undefined {
  if (group.startsWith('account_')) return req.accountRole;
  return req.user?.u_role;
}

/** 401 without a session, 403 without the bit. The one place permissions are checked (STYLE: fixed pipeline). */
export function requirePermission(group: string, permission: string | number): RequestHandler {
  return async (req, _res, next) => {
    if (!req.user) throw unauthorized();
    if (group.startsWith('account_') && req.accountRole === undefined && req.account) throw notFound('Account not found');
    const allowed = await ctx(req).permissions.can(roleFor(req, group), group, permission);
    if (!allowed) throw new ApiError(403, 'forbidden', 'You do not have permission to do this');
    next();
  };
}
