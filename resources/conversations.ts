import { z } from 'zod';
import { defineAccountResource } from './define.js';
import { staffAndMembers } from './roles.js';

export const CONVERSATION_STATUSES = ['open', 'closed'] as const;
/** A message's body: plain text, at most this many characters (platform-and-flows.md 6). */
export const MESSAGE_MAX = 10_000;

/**
 * A thread between the account and one lead (platform-and-flows.md 6). Created with the lead and a subject; its
 * messages are GET/POST …/conversations/{id}/messages (api/console/conversations.ts), a member's message mails the
 * lead a link to /conversations/{token}, where the visitor reads and replies. A lead in the trash hides its
 * conversations (trashWith); its purge deletes them. The list answers each row's `cv_unread` (messages by others
 * since the caller last read the thread) and puts unread threads first under its default sort.
 */
export const conversations = defineAccountResource({
  name: 'conversations',
  table: 'conversations',
  prefix: 'cv',
  group: 'account_conversations',
  grants: staffAndMembers(15, 15),
  icon: 'forum',
  fields: {
    cv_leadid: { kind: 'reference', reference: 'leads', trashWith: true, required: true, createOnly: true, list: true, filter: true },
    cv_subject: { kind: 'text', max: 200, default: '', list: true, sort: true },
    cv_status: { kind: 'enum', options: CONVERSATION_STATUSES, default: 'open', list: true, filter: true, sort: true, bulk: true },
    cv_last_message_at: { kind: 'datetime', readOnly: true, list: true, sort: true },
  },
  search: ['cv_subject'],
  defaultSort: { field: 'cv_last_message_at', order: 'DESC' },
  title: 'cv_subject',
  labels: {
    en: {
      name_one: 'Conversation',
      name_other: 'Conversations',
      fields: { cv_leadid: 'Lead', cv_subject: 'Subject', cv_status: 'Status', cv_last_message_at: 'Last message' },
      options: { cv_status: { open: 'Open', closed: 'Closed' } },
    },
    nl: {
      name_one: 'Gesprek',
      name_other: 'Gesprekken',
      fields: { cv_leadid: 'Lead', cv_subject: 'Onderwerp', cv_status: 'Status', cv_last_message_at: 'Laatste bericht' },
      options: { cv_status: { open: 'Open', closed: 'Gesloten' } },
    },
  },
});

/** POST …/conversations/{id}/messages and POST /conversation/{token}/messages: `{cm_body}`, plain text. */
export const messageSchema = z.object({
  cm_body: z
    .string({ error: 'error_invalid_value' })
    .refine((s) => s.trim().length > 0, { error: 'error_required' })
    .refine((s) => s.length <= MESSAGE_MAX, { error: 'error_too_long' })
    .refine((s) => !s.includes('\u0000'), { error: 'error_invalid_value' }),
});
export type MessageInput = z.output<typeof messageSchema>;
