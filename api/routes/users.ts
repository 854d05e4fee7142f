import type { Request } from 'express';
import type { ResourceHooks } from '../crud/adapter.js';
import { ctx } from '../context.js';
import { ApiError } from '../errors.js';
import { userSchemas } from '../../resources/users.js';
import { assertEmailFree, createUser, emailWrite, USER_COLUMNS, type NewUser } from '../services/users.js';
import { endSessions } from '../middleware/session.js';
import { hashPassword } from '../services/passwords.js';

/** users (entry_users): the entry admin's user management, served by the generic pipeline with these hooks. */
export const usersHooks: ResourceHooks = {
  query: (db) => db('users').select(USER_COLUMNS),
  schemas: (req) => userSchemas(ctx(req).config.passwordMinLength),
  async create(trx, data, req) {
    // The verification mail goes out after commit (a rollback must not mail a link to nobody).
    return createUser(ctx(req), trx, data as unknown as NewUser);
  },
  async update(trx, id, data, req) {
    const app = ctx(req);
    const { u_password, u_password_confirm: _confirm, ...fields } = data as Record<string, unknown>;
    const patch: Record<string, unknown> = { ...fields };
    if (typeof fields.u_email === 'string') await assertEmailFree(trx, fields.u_email, id);
    if (typeof u_password === 'string' && u_password !== '') {
      if (!(await app.permissions.can(req.user!.u_role, 'entry_users', 'change_password')))
        throw new ApiError(403, 'forbidden', 'You do not have permission to change passwords', { u_password: 'error_forbidden' });
      patch.u_password = await hashPassword(u_password);
    }
    guardSelf(req, id, patch);
    await emailWrite(
      trx('users')
        .where('u_id', id)
        .update({ ...patch, u_updated_at: trx.fn.now() }),
    );
    if (patch.u_password || patch.u_is_enabled === false) await endSessions(trx, id, id === req.user!.u_id ? req.session?.id : undefined);
  },
  async remove(trx, id, req) {
    if (id === req.user!.u_id) throw new ApiError(409, 'cannot_delete_self', 'You cannot delete your own user');
    await trx('users').where('u_id', id).del();
    await endSessions(trx, id);
  },
};

/** Nobody locks themselves out: no disabling or demoting your own user. */
function guardSelf(req: Request, id: string, patch: Record<string, unknown>): void {
  if (id !== req.user!.u_id) return;
  if (patch.u_is_enabled === false) throw new ApiError(409, 'cannot_disable_self', 'You cannot disable your own user', { u_is_enabled: 'error_cannot_disable_self' });
  if (patch.u_role !== undefined && patch.u_role !== req.user!.u_role)
    throw new ApiError(409, 'cannot_change_own_role', 'You cannot change your own role', { u_role: 'error_cannot_change_own_role' });
}
