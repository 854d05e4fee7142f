import type { Knex } from 'knex';
import { ctx } from '../context.js';
import { notFound } from '../errors.js';
import { scoped, accountOf } from '../models/scope.js';
import { hashToken } from '../services/tokens.js';
import { mailHandoff, newHandoffToken } from '../services/handoffs.js';
import { handoffs } from '../../resources/handoffs.js';
import { leads } from '../../resources/leads.js';
import { invalid } from '../crud/input.js';
import { type ResourceHooks } from '../crud/adapter.js';

type Row = Record<string, unknown>;

/** What a client sees of a handoff (never the token's hash). */
const COLUMNS = ['ho_id', 'ho_accountid', 'ho_leadid', 'ho_to_userid', 'ho_message', 'ho_status', 'ho_created_by', 'ho_decided_at', 'ho_created_at', 'ho_updated_at'];

/**
 * The account's handoffs, each with the lead's names and e-mail and the names of the representative and the sender,
 * so a lead's history (`?filter={"ho_leadid":…}`) reads without a lookup per row.
 */
function handoffsQuery(db: Knex | Knex.Transaction, accountId: string): Knex.QueryBuilder {
  const inner = scoped(db, handoffs, accountId)
    .leftJoin('leads', 'leads.ld_id', 'handoffs.ho_leadid')
    .leftJoin('users as rep', 'rep.u_id', 'handoffs.ho_to_userid')
    .leftJoin('users as sender', 'sender.u_id', 'handoffs.ho_created_by')
    .select(
      ...COLUMNS.map((c) => `handoffs.${c}`),
      'leads.ld_first_name',
      'leads.ld_last_name',
      'leads.ld_email',
      'rep.u_first_name as to_first_name',
      'rep.u_last_name as to_last_name',
      'rep.u_email as to_email',
      'sender.u_first_name as sender_first_name',
      'sender.u_last_name as sender_last_name',
      'sender.u_email as sender_email',
    );
  return db.from(inner.as('handoffs')).select('handoffs.*');
}

/**
 * handoffs (account-console.md): create checks the lead (of this account, else 404 like any parent from elsewhere) and
 * the representative (a member of the account, else 400 on ho_to_userid), stores the handoff with a hashed token and
 * mails the link once that is committed: when the mail cannot be sent the handoff is deleted again and the answer is
 * 502 handoff_notification_failed, so nothing is kept. The group has no delete bit: the history stays.
 */
export const handoffsHooks: ResourceHooks = {
  query: (db, req) => handoffsQuery(db, accountOf(req)),

  async create(trx, data, req) {
    const accountId = accountOf(req);
    const lead: Row | undefined = await scoped(trx, leads, accountId)
      .leftJoin('events', 'events.ev_id', 'leads.ld_eventid')
      .where('leads.ld_id', String(data.ho_leadid))
      .first('leads.ld_id', 'leads.ld_first_name', 'leads.ld_last_name', 'leads.ld_email', 'events.ev_title');
    if (!lead) throw notFound('The lead does not exist');
    const to = await trx('account_users')
      .join('users', 'users.u_id', 'account_users.au_userid')
      .where({ au_accountid: accountId, au_userid: String(data.ho_to_userid) })
      .first('users.u_id', 'users.u_email', 'users.u_first_name', 'users.u_last_name');
    if (!to) throw invalid(handoffs, { ho_to_userid: 'error_reference_invalid' });
    const token = newHandoffToken();
    const message = typeof data.ho_message === 'string' && data.ho_message.trim() ? data.ho_message : null;
    const [row] = await trx('handoffs')
      .insert({
        ho_accountid: accountId,
        ho_leadid: lead.ld_id,
        ho_to_userid: to.u_id,
        ho_message: message,
        ho_status: 'pending',
        ho_created_by: req.user!.u_id,
        ho_token_hash: hashToken(token),
      })
      .returning(['ho_id']);
    const app = ctx(req);
    const id = row.ho_id as string;
    return {
      id,
      // After the commit, so a slow mail server holds no transaction (on PGlite one would hold every request): a mail
      // that cannot be sent takes the handoff away again (502 handoff_notification_failed, nothing kept).
      afterCommit: async () => {
        try {
          await mailHandoff(app, app.db, req.account!, { to, sender: req.user!, lead, message, token });
        } catch (err) {
          await app.db('handoffs').where('ho_id', id).del();
          throw err;
        }
      },
    };
  },
};
