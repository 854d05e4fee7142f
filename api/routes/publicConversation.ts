import { Router, type RequestHandler } from 'express';
import { ctx } from '../context.js';
import { ApiError, notFound, validate } from '../errors.js';
import { conversationEventsFor } from '../services/conversationEvents.js';
import { addMessage, conversationByToken, loadMessage, mailLocaleOf, mailOwner, messagesAfter, messagesQuery, visitorMessage } from '../services/conversations.js';
import { messageSchema } from '../../resources/conversations.js';

/** Reads and replies share a per-address budget with the other public link pages, across API processes (rate_limits). */
const limited =
  (what: string): RequestHandler =>
  async (req, res, next) => {
    const app = ctx(req);
    const { windowSeconds, loginPerIp } = app.config.rateLimit;
    const hit = await app.limiter.hit(`conversation:${what}:ip:${req.ip}`, windowSeconds);
    if (hit.points > loginPerIp) {
      res.setHeader('Retry-After', String(Math.max(1, Math.ceil((hit.resetAt.getTime() - Date.now()) / 1000))));
      throw new ApiError(429, 'too_many_attempts', 'Too many attempts, please wait a few minutes and try again');
    }
    next();
  };

const unknownConversation = () => notFound('This conversation link is unknown');
export const conversationClosed = () => new ApiError(409, 'conversation_closed', 'This conversation is closed');

/**
 * The visitor's side of a conversation (platform-and-flows.md 6), the mailed link being the credential (no session):
 * - `GET /conversation/{token}` → {subject, status, account: {a_id, a_name}, messages: [{cm_id, cm_body, cm_created_at,
 *   from}]} (from: "visitor" or the member's first name); an unknown token, or a lead in the trash → 404;
 * - `POST /conversation/{token}/messages {cm_body}` (CSRF of the page's cookie, rate-limited) → 201 the message; the
 *   lead's owner is mailed; a closed conversation → 409 conversation_closed;
 * - `GET /conversation/{token}/events`: Server-Sent Events, `event: message` per new message.
 */
export function publicConversationRouter(): Router {
  const router = Router();

  router.get('/conversation/:token', limited('read'), async (req, res) => {
    const { db } = ctx(req);
    const conversation = await conversationByToken(db, String(req.params.token));
    if (!conversation) throw unknownConversation();
    const rows = await messagesQuery(db).where('conversation_messages.cm_conversationid', String(conversation.cv_id)).limit(1000);
    res.json({
      subject: conversation.cv_subject,
      status: conversation.cv_status,
      account: { a_id: conversation.a_id, a_name: conversation.a_name },
      messages: rows.map(visitorMessage),
    });
  });

  router.post('/conversation/:token/messages', limited('write'), async (req, res) => {
    const app = ctx(req);
    const conversation = await conversationByToken(app.db, String(req.params.token));
    if (!conversation) throw unknownConversation();
    const { cm_body } = validate(messageSchema, req.body);
    if (conversation.cv_status === 'closed') throw conversationClosed();
    const row = await addMessage(app.db, String(conversation.cv_id), null, cm_body);
    await mailOwner(app, app.db, conversation, cm_body, mailLocaleOf(req));
    res.status(201).json(visitorMessage(row));
  });

  router.get('/conversation/:token/events', async (req, res) => {
    const { db } = ctx(req);
    const conversation = await conversationByToken(db, String(req.params.token));
    if (!conversation) throw unknownConversation();
    const id = String(conversation.cv_id);
    await conversationEventsFor(db).stream(req, res, id, {
      load: (messageId) => loadMessage(db, messageId),
      backlog: (after) => messagesAfter(db, id, after),
      present: visitorMessage,
    });
  });

  return router;
}
