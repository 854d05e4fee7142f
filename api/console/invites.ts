import type { Knex } from 'knex';
import type { Request, Router } from 'express';
import { ctx } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { requirePermission } from '../middleware/auth.js';
import { scoped, accountOf } from '../models/scope.js';
import { hashToken } from '../services/tokens.js';
import { expireStale, inviteAlreadyExists, inviteExpiry, isMember, isPendingConflict, mailInvite, memberAlreadyExists, newInviteToken } from '../services/invites.js';
import { assertMayGrant } from './members.js';
import { isUuid } from '../../resources/fields.js';
import { invites } from '../../resources/invites.js';
import { type ResourceHooks } from '../crud/adapter.js';

type Row = Record<string, unknown>;

/** What a client sees of an invite (never the token's hash); iv_status is computed below. */
const COLUMNS = ['iv_id', 'iv_accountid', 'iv_email', 'iv_first_name', 'iv_last_name', 'iv_role', 'iv_expires_at', 'iv_invited_by', 'iv_created_at', 'iv_updated_at'];

/**
 * The account's invites with their status as of now: a pending invite past its expiry reads expired, in lists,
 * filters and sorts alike, without a write on every read (the stored status catches up on the next create or resend).
 */
function invitesQuery(db: Knex | Knex.Transaction, accountId: string): Knex.QueryBuilder {
  const inner = scoped(db, invites, accountId).select(
    ...COLUMNS.map((c) => `invites.${c}`),
    db.raw(`case when invites.iv_status = 'pending' and invites.iv_expires_at <= now() then 'expired' else invites.iv_status end as iv_status`),
  );
  return db.from(inner.as('invites')).select('invites.*');
}

const inviteClosed = () => new ApiError(409, 'invite_closed', 'This invite has already been accepted or revoked');

/**
 * invites (account-console.md): create stores a pending invite (one per e-mail, never for a member) and mails its
 * link once committed; a mail failure (502 invite_failed) removes it again, so nothing is kept; delete = revoke.
 */
export const invitesHooks: ResourceHooks = {
  query: (db, req) => invitesQuery(db, accountOf(req)),

  async create(trx, data, req) {
    const accountId = accountOf(req);
    await assertMayGrant(req, data.iv_role, { field: 'iv_role' });
    const email = String(data.iv_email);
    if (await isMember(trx, accountId, email)) throw memberAlreadyExists();
    await expireStale(trx, accountId);
    const token = newInviteToken();
    let row: Row;
    try {
      [row] = await trx('invites')
        .insert({
          ...data,
          iv_accountid: accountId,
          iv_status: 'pending',
          iv_expires_at: inviteExpiry(),
          iv_invited_by: req.user!.u_id,
          iv_token_hash: hashToken(token),
        })
        .returning('*');
    } catch (err) {
      if (isPendingConflict(err)) throw inviteAlreadyExists();
      throw err;
    }
    const app = ctx(req);
    const id = row.iv_id as string;
    return {
      id,
      // After the commit: a mail that cannot be sent takes the invite away again (502 invite_failed, nothing kept).
      afterCommit: async () => {
        try {
          await mailInvite(app, app.db, req.account!, row, token, req.user!);
        } catch (err) {
          await app.db('invites').where('iv_id', id).del();
          throw err;
        }
      },
    };
  },

  async update(trx, id, data, req, existing) {
    if (existing.iv_status === 'accepted' || existing.iv_status === 'revoked') throw inviteClosed();
    if (data.iv_role !== undefined && data.iv_role !== existing.iv_role) await assertMayGrant(req, data.iv_role, { field: 'iv_role', change: true });
    if (!Object.keys(data).length) return;
    await scoped(trx, invites, accountOf(req))
      .where('iv_id', id)
      .update({ ...data, iv_updated_at: trx.fn.now() });
  },

  async remove(trx, id, req, existing) {
    if (existing.iv_status === 'accepted') throw new ApiError(409, 'invite_closed', 'This invite has already been accepted');
    await scoped(trx, invites, accountOf(req)).where('iv_id', id).update({ iv_status: 'revoked', iv_updated_at: trx.fn.now() });
  },
};

/** The invite as the list shows it, with `id`. */
async function inviteRecord(db: Knex, accountId: string, id: string): Promise<Row> {
  const row = await invitesQuery(db, accountId).where('iv_id', id).first();
  return { ...row, id: row.iv_id };
}

/**
 * POST /invites/{id}/resend: a pending or expired invite gets a new token and seven more days, and is mailed again;
 * the old link stops working. A mail failure answers 502 invite_failed and puts the invite (and its old link) back
 * as it was. The mail goes out after the commit, so the database is not held while the relay talks.
 */
async function resend(req: Request): Promise<Row> {
  const id = String(req.params.id);
  if (!isUuid(id)) throw notFound();
  const accountId = accountOf(req);
  const app = ctx(req);
  const token = newInviteToken();
  const expires = inviteExpiry();
  const { invite, before } = await app.db.transaction(async (trx) => {
    const invite = await invitesQuery(trx, accountId).where('iv_id', id).first();
    if (!invite) throw notFound();
    if (invite.iv_status !== 'pending' && invite.iv_status !== 'expired') throw inviteClosed();
    await assertMayGrant(req, invite.iv_role, { field: 'iv_role' });
    if (await isMember(trx, accountId, invite.iv_email)) throw memberAlreadyExists();
    const before = await scoped(trx, invites, accountId).where('iv_id', id).first('iv_status', 'iv_token_hash', 'iv_expires_at', 'iv_updated_at').forUpdate();
    try {
      const changed = await scoped(trx, invites, accountId)
        .where('iv_id', id)
        .whereIn('iv_status', ['pending', 'expired'])
        .update({ iv_status: 'pending', iv_token_hash: hashToken(token), iv_expires_at: expires, iv_updated_at: trx.fn.now() });
      if (!changed) throw inviteClosed(); // accepted or revoked meanwhile
    } catch (err) {
      if (isPendingConflict(err)) throw inviteAlreadyExists();
      throw err;
    }
    return { invite, before };
  });
  try {
    await mailInvite(app, app.db, req.account!, { ...invite, iv_expires_at: expires }, token, req.user!);
  } catch (err) {
    // Back as it was (matched on the new token: nothing else has touched it then).
    await scoped(app.db, invites, accountId)
      .where({ iv_id: id, iv_token_hash: hashToken(token) })
      .update(before);
    throw err;
  }
  return inviteRecord(app.db, accountId, id);
}

export function invitesRoutes(router: Router): void {
  router.post('/:id/resend', requirePermission(invites.group, 'update'), async (req, res) => {
    res.json(await resend(req));
  });
}
