import { Router } from 'express';
import { ctx } from '../context.js';
import { ApiError, notFound, validate } from '../errors.js';
import { requirePermission, requireUser } from '../middleware/auth.js';
import { createApiToken, listApiTokens, revokeApiToken } from '../services/apiTokens.js';
import { apiTokenCreateSchema } from '../../resources/apiTokens.js';
import { isUuid } from '../../resources/fields.js';
import { accountRoleOf, ROLE_RANK, type Role } from '../../resources/permissions.js';

/**
 * The caller's personal API tokens (platform-and-flows.md section 2), with a session (a token cannot reach these:
 * api/middleware/bearer.ts answers 403 token_not_allowed outside an account's routes):
 *
 *   GET    /auth/tokens          the caller's own tokens, newest first, with the account's name (a_name)
 *   POST   /auth/tokens          {tk_title, tk_accountid, tk_role, tk_expires_at?} → 201 the token and `token`, its secret
 *   DELETE /auth/tokens/{tk_id}  revokes one of the caller's own tokens (another's, or none: 404)
 *
 * Listing needs entry_profile read, creating and revoking entry_profile update (every role has both by default);
 * creating also needs app_general export_curl for the caller's role in that account, and a role at most that one.
 */
export function apiTokensRouter(): Router {
  const r = Router();

  r.get('/', requireUser, requirePermission('entry_profile', 'read'), async (req, res) => {
    res.json(await listApiTokens(ctx(req).db, req.user!.u_id));
  });

  r.post('/', requireUser, requirePermission('entry_profile', 'update'), async (req, res) => {
    const app = ctx(req);
    const body = validate(apiTokenCreateSchema, req.body);
    const user = req.user!;
    const row = await app
      .db('accounts')
      .leftJoin('account_users', (j) => j.on('au_accountid', 'a_id').andOnVal('au_userid', user.u_id))
      .where('a_id', body.tk_accountid)
      .first('a_id', 'au_role');
    const mine = row ? accountRoleOf(user.u_role, row.au_role ?? undefined) : undefined;
    // The same answer for an account that does not exist and one the caller has no role (or no export_curl) in.
    if (!mine || !(await app.permissions.can(mine, 'app_general', 'export_curl'))) throw new ApiError(403, 'forbidden', 'You may not create API tokens for this account');
    if (ROLE_RANK[body.tk_role] > ROLE_RANK[mine as Role]) throw new ApiError(403, 'forbidden', 'You cannot grant a role above your own', { tk_role: 'error_role_above_own' });
    const { record, token } = await createApiToken(app.db, user.u_id, body);
    res.status(201).json({ ...record, token });
  });

  r.delete('/:id', requireUser, requirePermission('entry_profile', 'update'), async (req, res) => {
    const id = String(req.params.id);
    if (!isUuid(id) || !(await revokeApiToken(ctx(req).db, req.user!.u_id, id))) throw notFound('Token not found');
    res.json({ code: 'ok', id });
  });

  return r;
}
