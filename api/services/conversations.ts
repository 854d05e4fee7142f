import crypto from 'node:crypto';
import type { Request } from 'express';
import type { Knex } from 'knex';
import type { AppContext } from '../context.js';
import { hashToken } from './tokens.js';
import { conversationEventsFor } from './conversationEvents.js';
import { renderTemplate, type MailLocale, type TemplateName } from '../mail/templates.js';
import { mailVars } from '../mail/mailer.js';
import { enqueueMail } from '../mail/outbox.js';

type Row = Record<string, unknown>;

/**
 * The visitor's link token of a conversation: 256 bits, an HMAC of the conversation's id under the server's secret, so
 * every member's message can mail the same link again without the token being stored anywhere: the database keeps
 * only its SHA-256 (cv_token_hash), which is what a visit looks up. (A new SESSION_SECRET invalidates old links.)
 */
export const conversationToken = (secret: string, conversationId: string) => crypto.createHmac('sha256', `conversation:${secret}`).update(conversationId).digest('base64url');
export const conversationLink = (app: AppContext, token: string) => `${app.config.publicUrl}/conversations/${encodeURIComponent(token)}`;
/** What a token can look like (base64url of 32 bytes); anything else is unknown without a query. */
export const CONVERSATION_TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

/** A message as both APIs answer it: `from` is "visitor" or the member's first name (or e-mail when they gave none). */
export const MESSAGE_COLUMNS = ['cm_id', 'cm_conversationid', 'cm_author', 'cm_from_visitor', 'cm_body', 'cm_created_at'];

/** The messages of a conversation with the author's first name, oldest first. */
export function messagesQuery(db: Knex | Knex.Transaction): Knex.QueryBuilder {
  return db('conversation_messages')
    .leftJoin('users', 'users.u_id', 'conversation_messages.cm_author')
    .select(...MESSAGE_COLUMNS.map((c) => `conversation_messages.${c}`), 'users.u_first_name as author_first_name', 'users.u_email as author_email')
    .orderBy([
      { column: 'conversation_messages.cm_created_at', order: 'asc' },
      { column: 'conversation_messages.cm_id', order: 'asc' },
    ]);
}

const fromOf = (row: Row): string => {
  if (row.cm_from_visitor) return 'visitor';
  const first = typeof row.author_first_name === 'string' ? row.author_first_name.trim() : '';
  if (first) return first;
  const email = typeof row.author_email === 'string' ? row.author_email : '';
  return email ? email.split('@')[0] : 'Leadstage';
};

/** The visitor's view of a message (contract fields only: no user ids). */
export const visitorMessage = (row: Row): Row => ({ cm_id: row.cm_id, cm_body: row.cm_body, cm_created_at: row.cm_created_at, from: fromOf(row) });

/** The console's view: every column, plus `from` like the visitor's and the author's first name. */
export const consoleMessage = (row: Row): Row => ({
  cm_id: row.cm_id,
  cm_conversationid: row.cm_conversationid,
  cm_author: row.cm_author,
  cm_body: row.cm_body,
  cm_created_at: row.cm_created_at,
  from: fromOf(row),
});

/** One stored message by id, as messagesQuery reads it. */
export const loadMessage = (db: Knex, messageId: string) => messagesQuery(db).where('conversation_messages.cm_id', messageId).first() as Promise<Row | undefined>;

/** The messages stored after `afterId` (an EventSource's Last-Event-ID) in one conversation; none when it is unknown. */
export async function messagesAfter(db: Knex, conversationId: string, afterId: string): Promise<Row[]> {
  if (!/^[0-9a-f-]{36}$/i.test(afterId)) return [];
  const after = await db('conversation_messages').where({ cm_id: afterId, cm_conversationid: conversationId }).first('cm_created_at');
  if (!after) return [];
  return messagesQuery(db)
    .where('conversation_messages.cm_conversationid', conversationId)
    .where('conversation_messages.cm_created_at', '>=', after.cm_created_at)
    .whereNot('conversation_messages.cm_id', afterId)
    .limit(500);
}

/**
 * Stores a message (author: a member's user id, or null for the visitor), moves the conversation's last message time,
 * marks the thread read for its author, and announces it to the event streams of every process. Answers the stored row.
 */
export async function addMessage(db: Knex, conversationId: string, author: string | null, body: string): Promise<Row> {
  const events = conversationEventsFor(db);
  const id = await db.transaction(async (trx) => {
    const [row] = await trx('conversation_messages')
      .insert({ cm_conversationid: conversationId, cm_author: author, cm_from_visitor: author === null, cm_body: body })
      .returning(['cm_id', 'cm_created_at']);
    await trx('conversations').where('cv_id', conversationId).update({ cv_last_message_at: row.cm_created_at, cv_updated_at: trx.fn.now() });
    if (author) await markRead(trx, conversationId, author, row.cm_created_at);
    await events.published(trx, conversationId, row.cm_id);
    return row.cm_id as string;
  });
  const row = (await loadMessage(db, id))!;
  events.local(conversationId, row);
  return row;
}

/** The member has read the thread up to `at` (never moves back). */
export async function markRead(db: Knex | Knex.Transaction, conversationId: string, userId: string, at: Date | string | Knex.Raw = db.fn.now()): Promise<void> {
  await db('conversation_reads')
    .insert({ cr_conversationid: conversationId, cr_userid: userId, cr_last_read_at: at })
    .onConflict(['cr_conversationid', 'cr_userid'])
    .merge({ cr_last_read_at: db.raw('greatest(conversation_reads.cr_last_read_at, excluded.cr_last_read_at)') });
}

/** The conversation of a visitor's token (its lead, account and lead's owner), unless the lead is in the trash. */
export async function conversationByToken(db: Knex, token: unknown): Promise<Row | undefined> {
  if (typeof token !== 'string' || !CONVERSATION_TOKEN_RE.test(token)) return undefined;
  return (
    db('conversations')
      .join('leads', 'leads.ld_id', 'conversations.cv_leadid')
      .join('accounts', 'accounts.a_id', 'conversations.cv_accountid')
      .leftJoin('events', 'events.ev_id', 'leads.ld_eventid')
      .where('conversations.cv_token_hash', hashToken(token))
      // A lead in the trash (or of an event in the trash) hides its conversations, from the visitor too.
      .whereNull('leads.ld_deleted_at')
      .whereNull('events.ev_deleted_at')
      .first(
        'conversations.cv_id',
        'conversations.cv_accountid',
        'conversations.cv_subject',
        'conversations.cv_status',
        'conversations.cv_leadid',
        'accounts.a_id',
        'accounts.a_name',
        'leads.ld_first_name',
        'leads.ld_last_name',
        'leads.ld_email',
        'leads.ld_ownerid',
        'leads.ld_captured_by',
      )
  );
}

/** The mail language: the writer's browser language when it is Dutch, else English (users keep no language). */
export const mailLocaleOf = (req: Request): MailLocale => (/^nl\b/i.test(req.get('Accept-Language') ?? '') ? 'nl' : 'en');

export interface ConversationMail {
  template: Extract<TemplateName, 'conversation_message' | 'conversation_reply'>;
  to: string;
  vars: Record<string, string>;
  locale: MailLocale;
}

/**
 * THE one way conversation mails leave: rendered, then on the durable mail queue (api/mail/outbox.ts), retried while
 * the relay fails; the message is stored either way (the thread is the record and the page shows it).
 */
export async function sendConversationMail(app: AppContext, mail: ConversationMail): Promise<void> {
  const vars = { ...mailVars(app.config), ...mail.vars };
  const rendered = renderTemplate(mail.template, vars, mail.locale);
  await enqueueMail(app, { to: mail.to, subject: rendered.subject, html: rendered.html, text: rendered.text, label: mail.template, link: vars.link });
}

const personName = (first: unknown, last: unknown, fallback = '') => [first, last].filter((v) => typeof v === 'string' && v.trim()).join(' ') || fallback;
const excerpt = (body: string) => (body.length > 500 ? `${body.slice(0, 500)}…` : body);

/** A member wrote: the lead gets the message and the link to the thread (no mail when the lead has no address). */
export async function mailLead(
  app: AppContext,
  conversation: Row,
  lead: Row,
  sender: { u_first_name?: string | null; u_last_name?: string | null; u_email: string },
  body: string,
  locale: MailLocale,
): Promise<void> {
  const to = typeof lead.ld_email === 'string' ? lead.ld_email : '';
  if (!to) return;
  const token = conversationToken(app.config.sessionSecret, String(conversation.cv_id));
  await sendConversationMail(app, {
    template: 'conversation_message',
    to,
    locale,
    vars: {
      first_name: personName(lead.ld_first_name, null, to),
      sender_name: personName(sender.u_first_name, sender.u_last_name, sender.u_email),
      account_name: String(conversation.a_name ?? ''),
      subject: String(conversation.cv_subject ?? ''),
      message: excerpt(body),
      link: conversationLink(app, token),
    },
  });
}

/** The visitor replied: the lead's owner (else who captured it) gets the reply and the way to the lead's page. */
export async function mailOwner(app: AppContext, db: Knex, conversation: Row, body: string, locale: MailLocale): Promise<void> {
  const ownerId = (conversation.ld_ownerid ?? conversation.ld_captured_by) as string | null;
  if (!ownerId) return;
  // Someone who left the account is told nothing about its leads.
  const owner = await db('users')
    .join('account_users', 'account_users.au_userid', 'users.u_id')
    .where({ 'users.u_id': ownerId, 'account_users.au_accountid': conversation.cv_accountid })
    .first('users.u_email', 'users.u_first_name');
  if (!owner) return;
  await sendConversationMail(app, {
    template: 'conversation_reply',
    to: owner.u_email,
    locale,
    vars: {
      first_name: owner.u_first_name || owner.u_email,
      lead_name: personName(conversation.ld_first_name, conversation.ld_last_name, String(conversation.ld_email ?? '')),
      account_name: String(conversation.a_name ?? ''),
      subject: String(conversation.cv_subject ?? ''),
      message: excerpt(body),
      link: `${app.config.publicUrl}/console/${conversation.cv_accountid}/leads/${conversation.cv_leadid}`,
    },
  });
}
