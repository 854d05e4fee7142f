import crypto from 'node:crypto';
import type { Request, Router } from 'express';
import type { Knex } from 'knex';
import { ctx } from '../context.js';
import { notFound, validate } from '../errors.js';
import { requirePermission } from '../middleware/auth.js';
import { accountOf, scoped, type TrashView } from '../models/scope.js';
import { hashToken } from '../services/tokens.js';
import { conversationEventsFor } from '../services/conversationEvents.js';
import { addMessage, consoleMessage, conversationToken, loadMessage, mailLead, mailLocaleOf, markRead, messagesAfter, messagesQuery } from '../services/conversations.js';
import { conversations, messageSchema } from '../../resources/conversations.js';
import { leads } from '../../resources/leads.js';
import { isUuid } from '../../resources/checks.js';
import type { ResourceHooks } from '../crud/adapter.js';

type Row = Record<string, unknown>;

/** What a client sees of a conversation (never the token's hash). */
const COLUMNS = ['cv_id', 'cv_accountid', 'cv_leadid', 'cv_subject', 'cv_status', 'cv_last_message_at', 'cv_created_at', 'cv_updated_at'];

/**
 * The account's conversations with the lead's names and e-mail and `cv_unread`: the messages of others (the visitor's
 * and other members') since the caller last read the thread. Under the default sort (none given, or by the last
 * message) threads with unread messages come first.
 */
function conversationsQuery(db: Knex | Knex.Transaction, req: Request, view?: TrashView): Knex.QueryBuilder {
  const userId = req.user!.u_id;
  const unread = db('conversation_messages as m')
    .count('*')
    .whereRaw('m.cm_conversationid = conversations.cv_id')
    .where(function () {
      this.whereNull('m.cm_author').orWhereNot('m.cm_author', userId);
    })
    .whereRaw(
      `m.cm_created_at > coalesce((select r.cr_last_read_at from conversation_reads r where r.cr_conversationid = conversations.cv_id and r.cr_userid = ?), '-infinity'::timestamptz)`,
      [userId],
    );
  const inner = scoped(db, conversations, accountOf(req), view)
    .leftJoin('leads', 'leads.ld_id', 'conversations.cv_leadid')
    .select(...COLUMNS.map((c) => `conversations.${c}`), 'leads.ld_first_name', 'leads.ld_last_name', 'leads.ld_email', db.raw(`(${unread.toQuery()})::int as cv_unread`));
  const outer = db.from(inner.as('conversations')).select('conversations.*');
  const sort = typeof req.query.sort === 'string' ? req.query.sort : '';
  if (req.method === 'GET' && (!sort || sort.includes('"cv_last_message_at"'))) outer.orderByRaw('(conversations.cv_unread > 0) desc');
  return outer;
}

/** The conversation `id` of the request's account, live (its lead not in the trash); else 404. */
async function conversationOf(req: Request): Promise<Row> {
  const id = String(req.params.id);
  if (!isUuid(id)) throw notFound();
  const row = await scoped(ctx(req).db, conversations, accountOf(req))
    .join('accounts', 'accounts.a_id', 'conversations.cv_accountid')
    .where('conversations.cv_id', id)
    .first('conversations.cv_id', 'conversations.cv_accountid', 'conversations.cv_leadid', 'conversations.cv_subject', 'conversations.cv_status', 'accounts.a_name');
  if (!row) throw notFound('The conversation does not exist');
  return row;
}

/**
 * - `GET …/conversations/{id}/messages`: the thread, oldest first (at most the last 1000), and marks it read for the
 *   caller.
 * - `POST …/conversations/{id}/messages {cm_body}`: the caller's message (201); mails the lead the link to the thread
 *   and reopens a closed conversation.
 * - `GET …/conversations/{id}/events`: Server-Sent Events, `event: message` per new message (api/services/conversationEvents.ts).
 */
export function conversationsRoutes(router: Router): void {
  router.get('/:id/messages', requirePermission('account_conversations', 'read'), async (req, res) => {
    const conversation = await conversationOf(req);
    const { db } = ctx(req);
    const rows: Row[] = await db
      .from(
        messagesQuery(db)
          .where('conversation_messages.cm_conversationid', String(conversation.cv_id))
          .clearOrder()
          .orderBy('conversation_messages.cm_created_at', 'desc')
          .orderBy('conversation_messages.cm_id', 'desc')
          .limit(1000)
          .as('last'),
      )
      .select('*')
      .orderBy([
        { column: 'cm_created_at', order: 'asc' },
        { column: 'cm_id', order: 'asc' },
      ]);
    await markRead(db, String(conversation.cv_id), req.user!.u_id);
    res.json(rows.map(consoleMessage));
  });

  router.post('/:id/messages', requirePermission('account_conversations', 'create'), async (req, res) => {
    const conversation = await conversationOf(req);
    const { cm_body } = validate(messageSchema, req.body);
    const app = ctx(req);
    const row = await addMessage(app.db, String(conversation.cv_id), req.user!.u_id, cm_body);
    if (conversation.cv_status === 'closed') await app.db('conversations').where('cv_id', String(conversation.cv_id)).update({ cv_status: 'open', cv_updated_at: app.db.fn.now() });
    const lead = await scoped(app.db, leads, accountOf(req)).where('leads.ld_id', String(conversation.cv_leadid)).first('ld_first_name', 'ld_last_name', 'ld_email');
    if (lead) await mailLead(app, conversation, lead, req.user!, cm_body, mailLocaleOf(req));
    res.status(201).json(consoleMessage(row));
  });

  router.get('/:id/events', requirePermission('account_conversations', 'read'), async (req, res) => {
    const conversation = await conversationOf(req);
    const { db } = ctx(req);
    const id = String(conversation.cv_id);
    await conversationEventsFor(db).stream(req, res, id, {
      load: (messageId) => loadMessage(db, messageId),
      backlog: (after) => messagesAfter(db, id, after),
      present: consoleMessage,
    });
  });
}

/**
 * conversations (platform-and-flows.md 6): the list and get answer the lead's names and the caller's unread count;
 * create checks the lead (of this account and live, else 404) and stores the hash of the visitor's link token.
 */
export const conversationsHooks: ResourceHooks = {
  query: (db, req, view) => conversationsQuery(db, req, view),

  async create(trx, data, req) {
    const accountId = accountOf(req);
    const lead = await scoped(trx, leads, accountId).where('leads.ld_id', String(data.cv_leadid)).first('leads.ld_id');
    if (!lead) throw notFound('The lead does not exist');
    const id = crypto.randomUUID();
    await trx('conversations').insert({
      cv_id: id,
      cv_accountid: accountId,
      cv_leadid: lead.ld_id,
      cv_subject: typeof data.cv_subject === 'string' ? data.cv_subject : '',
      cv_status: typeof data.cv_status === 'string' ? data.cv_status : 'open',
      cv_token_hash: hashToken(conversationToken(ctx(req).config.sessionSecret, id)),
    });
    return id;
  },

  routes: conversationsRoutes,
};
