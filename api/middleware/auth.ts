import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ctx } from '../context.js';
import { ApiError, notFound, unauthorized } from '../errors.js';
import { isUuid } from '../../resources/fields.js';
import { accountRoleOf, can, PLATFORM_STAFF_ROLES, type Matrix } from '../../resources/permissions.js';
import type { Account } from '../../resources/accounts.js';
import { lowerRole } from '../services/apiTokens.js';
import { processCache } from '../db/processCache.js';
import { ACCOUNT_CHANNEL } from '../db/channels.js';

/** Readable cookies the client uses for its first paint (spec 4); the truth stays in the session. */
export const STATE_COOKIES = ['is_logged_in', 'user_role', 'account_role'] as const;

export function clearStateCookies(res: Response): void {
  for (const name of STATE_COOKIES) res.clearCookie(name, { path: '/' });
}

export const requireUser: RequestHandler = (req, _res, next) => {
  next(req.user ? undefined : unauthorized());
};

/**
 * The account with the user's membership role (au_role; null when not a member), or undefined when there is no such
 * account: kept per process for 10 s at most and dropped on any write to accounts or members (this process's at once;
 * on PostgreSQL every process's, NOTIFY leadstage_account at commit, migration 20261128001920) and on a user's delete
 * (its memberships go with it). Saves every account request a query (issue 18: CPU per leads list page).
 */
const accountsWithRole = processCache<(Account & { au_role: string | null }) | undefined>({
  tables: ['accounts', 'account_users'],
  dropOn: /^\s*delete\s+from\s+"?users"?\b/i,
  channel: ACCOUNT_CHANNEL,
  max: 50_000,
  maxAgeMs: 10_000,
});

/**
 * Resolves the account named by :accountId and the caller's role in it, in one query (or none, kept). An account the
 * caller may not see (not platform staff, not a member) answers 404 exactly like one that does not exist, so no route
 * tells a member which other accounts exist. A user whose own role is root acts as root in every account.
 */
export function resolveAccount(param = 'accountId'): RequestHandler {
  type Row = (Account & { au_role: string | null }) | undefined;
  const accept = (req: Request, row: Row, id: string): void => {
    const staff = PLATFORM_STAFF_ROLES.includes(req.user!.u_role);
    if (!row || (!staff && !row.au_role)) throw notFound('Account not found');
    const { au_role, ...account } = row;
    const role = accountRoleOf(req.user!.u_role, au_role ?? undefined);
    if (req.apiToken) {
      // An API token opens its own account only, with its role, never above the user's current one (bearer.ts).
      if (id.toLowerCase() !== req.apiToken.accountId || !role) throw notFound('Account not found');
      req.account = account;
      req.accountRole = lowerRole(req.apiToken.role, role);
      return;
    }
    req.account = account;
    req.accountRole = role;
  };
  const read = async (req: Request, id: string, key: string, next: NextFunction) => {
    const { db } = ctx(req);
    const userId = req.user!.u_id;
    const row = await accountsWithRole.get(db, key, () =>
      db('accounts')
        .leftJoin('account_users', (j) => j.on('au_accountid', 'a_id').andOnVal('au_userid', userId))
        .where('a_id', id)
        .first('accounts.*', 'au_role'),
    );
    accept(req, row, id);
    next();
  };
  return (req, _res, next) => {
    const id = req.params[param];
    if (!isUuid(id) || !req.user) throw notFound('Account not found');
    const key = `${req.user.u_id}:${String(id).toLowerCase()}`;
    // Kept (most calls): answered without an async function's promise (bench/README.md, "Server CPU per request").
    const kept = accountsWithRole.known(ctx(req).db, key);
    if (!kept) return read(req, String(id), key, next);
    accept(req, kept.value, String(id));
    next();
  };
}

/** The role a permission group is checked against: entry_* the user's own role, account_* the role in req.account. */
export function roleFor(req: Parameters<RequestHandler>[0], group: string): string | undefined {
  if (group.startsWith('account_')) return req.accountRole;
  return req.user?.u_role;
}

/**
 * 401 without a session, 403 without the bit. The one place permissions are checked (STYLE: fixed pipeline). A call
 * with an API token needs the bit for the token's role as well: account_* groups are checked against it already
 * (resolveAccount), the others (entry_*, app_general: the user's own role) also against the token's role, so a token
 * never opens more than its owner's session would, nor more than its role.
 */
export function requirePermission(group: string, permission: string | number): RequestHandler {
  const decide = (req: Request, matrix: Matrix, next: NextFunction) => {
    const allowed = can(roleFor(req, group), group, permission, matrix) && (!req.apiToken || group.startsWith('account_') || can(req.apiToken.role, group, permission, matrix));
    if (!allowed) throw new ApiError(403, 'forbidden', 'You do not have permission to do this');
    next();
  };
  return (req, _res, next) => {
    if (!req.user) throw unauthorized();
    if (group.startsWith('account_') && req.accountRole === undefined && req.account) throw notFound('Account not found');
    // While the matrix is fresh (most calls): decided without an async function's promise.
    const { permissions } = ctx(req);
    const matrix = permissions.fresh();
    if (!matrix) return permissions.current().then((read) => decide(req, read, next));
    decide(req, matrix, next);
  };
}
