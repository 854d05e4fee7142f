import { z } from 'zod';
import { defineAccountResource } from './define.js';
import { NOBODY, staffAndMembers } from './roles.js';

export const HANDOFF_STATUSES = ['pending', 'accepted', 'not_available'] as const;

/**
 * A lead handed to another member (account-console.md: handoffs): create mails the representative a link
 * /handoffs/{token} (502 handoff_notification_failed and nothing stored when the mail cannot be sent); accepting
 * makes the representative the lead's owner.
 */
export const handoffs = defineAccountResource({
  name: 'handoffs',
  table: 'handoffs',
  prefix: 'ho',
  group: 'account_handoffs',
  grants: staffAndMembers(7, 7),
  icon: 'swap_horiz',
  // The group has no delete bit (spec 6: read, create, update), so a delete is refused for every role: the history stays.
  operations: { list: 'read', get: 'read', create: 'create', update: 'update', delete: NOBODY },
  fields: {
    // A child of its lead (account-console.md section 1): a lead's history is ?filter={"ho_leadid":…}, and a lead of
    // another account answers 404; the lead page shows it (no menu item of its own).
    ho_leadid: { kind: 'reference', reference: 'leads', parent: true, required: true, createOnly: true, list: true, filter: true },
    ho_to_userid: { kind: 'reference', reference: 'members', referenceKey: 'au_userid', required: true, createOnly: true, list: true, filter: true, sort: true },
    ho_message: { kind: 'longtext', max: 2000, createOnly: true },
    ho_status: { kind: 'enum', options: HANDOFF_STATUSES, default: 'pending', readOnly: true, list: true, filter: true, sort: true },
    ho_created_by: { kind: 'reference', reference: 'members', referenceKey: 'au_userid', readOnly: true, list: true },
  },
  defaultSort: { field: 'ho_created_at', order: 'DESC' },
  title: 'ho_status',
  labels: {
    en: {
      name_one: 'Handoff',
      name_other: 'Handoffs',
      fields: {
        ho_leadid: 'Lead',
        ho_to_userid: 'Representative',
        ho_message: 'Message',
        ho_status: 'Status',
        ho_created_by: 'Handed off by',
      },
      options: {
        ho_status: { pending: 'Waiting for an answer', accepted: 'Accepted', not_available: 'Not available' },
      },
    },
    nl: {
      name_one: 'Overdracht',
      name_other: 'Overdrachten',
      fields: {
        ho_leadid: 'Lead',
        ho_to_userid: 'Vertegenwoordiger',
        ho_message: 'Bericht',
        ho_status: 'Status',
        ho_created_by: 'Overgedragen door',
      },
      options: {
        ho_status: { pending: 'Wacht op antwoord', accepted: 'Aangenomen', not_available: 'Niet beschikbaar' },
      },
    },
  },
});

/** What the representative answers on the handoff page. */
export const HANDOFF_DECISIONS = ['accepted', 'not_available'] as const;
export type HandoffDecision = (typeof HANDOFF_DECISIONS)[number];

/**
 * POST /handoff/accept {token, decision} (account-console.md: handoffs). The token is checked against the stored
 * hash by the service (an unknown or used one answers 400 handoff_invalid), so here it only has to be text.
 */
export const handoffAcceptSchema = z.object({
  token: z.string({ error: 'error_handoff_invalid' }).max(200, { error: 'error_handoff_invalid' }),
  decision: z.enum(HANDOFF_DECISIONS, { error: 'error_handoff_decision_invalid' }),
});
export type HandoffAccept = z.output<typeof handoffAcceptSchema>;
