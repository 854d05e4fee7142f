import { staffAndMembers } from './roles.js';
import { defineAccountResource } from './define.js';

/** Names the product sends mail by; any other identifier is a template of the account's own. */
export const MAIL_TEMPLATE_NAMES = [
  'invite',
  'handoff',
  'registration',
  'meeting_request',
  'meeting_accepted',
  'meeting_declined',
  'meeting_cancelled',
  'meeting_reminder',
] as const;

/** What every meeting mail fills in (platform-and-flows.md 5): the recipient, the visitor, the host, the slot. */
const MEETING_VARIABLES = [
  'first_name',
  'last_name',
  'visitor_first_name',
  'visitor_last_name',
  'visitor_email',
  'host_name',
  'event_title',
  'meeting_start',
  'meeting_end',
  'time_zone',
  'location',
  'message',
] as const;

/** An account's mail template (account-console.md: mail-templates). Variables {{name}}, HTML-escaped. */
export const mailTemplates = defineAccountResource({
  name: 'mail-templates',
  table: 'mail_templates',
  prefix: 'mt',
  group: 'account_mail_templates',
  history: true,
  trash: true,
  grants: staffAndMembers(15, 0),
  icon: 'email',
  fields: {
    mt_name: { kind: 'identifier', required: true, list: true, sort: true },
    mt_subject: { kind: 'text', required: true, max: 500, list: true, sort: true },
    mt_from_name: { kind: 'text', max: 200 },
    mt_from_email: { kind: 'email' },
    mt_api_url: { kind: 'url' },
    mt_asset_url: { kind: 'url' },
    mt_html: { kind: 'longtext', max: 500_000 },
    mt_text: { kind: 'longtext', max: 200_000 },
  },
  search: ['mt_name', 'mt_subject'],
  title: 'mt_name',
  unique: [{ field: 'mt_name' }],
  // A product mail whose flow hangs on a link (invite, handoff) is useless without it: every body it has must carry
  // {{link}}. A template without any body is sent with the built-in body under its subject (api/mail/accountTemplates.ts).
  check(r) {
    const errors: Record<string, string> = {};
    if (!mailNeedsLink(r.mt_name)) return errors;
    for (const body of ['mt_html', 'mt_text'] as const) {
      const value = typeof r[body] === 'string' ? (r[body] as string) : '';
      if (value.trim() && !LINK_VARIABLE_RE.test(value)) errors[body] = 'error_mail_link_missing';
    }
    return errors;
  },
  labels: {
    en: {
      name_one: 'Mail template',
      name_other: 'Mail templates',
      fields: {
        mt_name: 'Name',
        mt_subject: 'Subject',
        mt_from_name: 'From name',
        mt_from_email: 'From e-mail',
        mt_api_url: 'API address',
        mt_asset_url: 'Asset address',
        mt_html: 'HTML body',
        mt_text: 'Text body',
      },
    },
    nl: {
      name_one: 'E-mailsjabloon',
      name_other: 'E-mailsjablonen',
      fields: {
        mt_name: 'Naam',
        mt_subject: 'Onderwerp',
        mt_from_name: 'Naam afzender',
        mt_from_email: 'E-mail afzender',
        mt_api_url: 'API-adres',
        mt_asset_url: 'Asset-adres',
        mt_html: 'HTML-inhoud',
        mt_text: 'Tekstinhoud',
      },
    },
  },
});

/** Variables every account mail gets: the product, the account and the template's own addresses. */
export const COMMON_MAIL_VARIABLES = ['product', 'account_name', 'support_email', 'privacy_url', 'api_url', 'asset_url'] as const;

/**
 * The one list of what each mail the product sends fills in (`{{name}}` in subject, HTML and text). The editor lists
 * them; a variable a mail does not know renders empty. Labels: ls.mail_templates.variables.<name>.
 */
export const MAIL_TEMPLATE_VARIABLES = {
  invite: [...COMMON_MAIL_VARIABLES, 'first_name', 'last_name', 'email', 'role', 'inviter_name', 'link', 'expires_at'],
  handoff: [...COMMON_MAIL_VARIABLES, 'first_name', 'last_name', 'lead_first_name', 'lead_last_name', 'lead_email', 'event_title', 'message', 'sender_name', 'link'],
  registration: [...COMMON_MAIL_VARIABLES, 'first_name', 'last_name', 'email', 'event_title', 'event_start_date', 'event_end_date'],
  meeting_request: [...COMMON_MAIL_VARIABLES, ...MEETING_VARIABLES, 'link', 'expires_at'],
  meeting_accepted: [...COMMON_MAIL_VARIABLES, ...MEETING_VARIABLES],
  meeting_declined: [...COMMON_MAIL_VARIABLES, ...MEETING_VARIABLES],
  meeting_cancelled: [...COMMON_MAIL_VARIABLES, ...MEETING_VARIABLES],
  meeting_reminder: [...COMMON_MAIL_VARIABLES, ...MEETING_VARIABLES],
} as const satisfies Record<(typeof MAIL_TEMPLATE_NAMES)[number], readonly string[]>;

const LINK_VARIABLE_RE = /\{\{\s*link\s*\}\}/;

/** The product mail of this name fills in {{link}} (the invitation's or handoff's page): its bodies must carry it. */
export function mailNeedsLink(name: unknown): boolean {
  return isMailTemplateName(name) && (MAIL_TEMPLATE_VARIABLES[name] as readonly string[]).includes('link');
}

export type MailTemplateName = (typeof MAIL_TEMPLATE_NAMES)[number];

export function isMailTemplateName(name: unknown): name is MailTemplateName {
  return typeof name === 'string' && (MAIL_TEMPLATE_NAMES as readonly string[]).includes(name);
}

/** The variables a template of this name gets (a template of the account's own naming: the common ones). */
export function mailTemplateVariables(name: string): readonly string[] {
  return isMailTemplateName(name) ? MAIL_TEMPLATE_VARIABLES[name] : COMMON_MAIL_VARIABLES;
}

/** What an account's mail template holds (the mail_templates columns a mail is made of). */
export interface MailTemplateSource {
  mt_name?: string | null;
  mt_subject: string;
  mt_html?: string | null;
  mt_text?: string | null;
  mt_from_name?: string | null;
  mt_from_email?: string | null;
  mt_api_url?: string | null;
  mt_asset_url?: string | null;
}
