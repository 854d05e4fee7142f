import type { Knex } from 'knex';
import type { AppContext } from '../context.js';
import { localizedFile, read, type MailLocale } from './templates.js';
import type { SentMail } from './mailer.js';
import { isMailTemplateName, mailTemplateVariables, MAIL_TEMPLATE_VARIABLES, type MailTemplateName, type MailTemplateSource } from '../../resources/mailTemplates.js';
import type { Role } from '../../resources/permissions.js';

export { MAIL_TEMPLATE_VARIABLES, mailTemplateVariables };
export type { MailTemplateSource };

export interface RenderedAccountMail {
  subject: string;
  html: string;
  text: string;
  fromName: string | null;
  replyTo: string | null;
}

export type MailVars = Record<string, string | null | undefined>;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const VARIABLE_RE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** {{name}} → its value (HTML-escaped in HTML); a variable the mail does not know renders empty. */
function fill(template: string, vars: MailVars, html: boolean): string {
  return template.replace(VARIABLE_RE, (_, name: string) => {
    const value = Object.hasOwn(vars, name) ? (vars[name] ?? '') : '';
    return html ? escapeHtml(value) : value;
  });
}

/** Plain text from a template's HTML, for a template that has no text part. */
export function textFromHtml(html: string): string {
  return html
    .replace(/<(head|style|script|title)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<a\b[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a\s*>/gi, (_, href: string, label: string) => (label.replace(/<[^>]*>/g, '').trim() === href ? href : `${label} (${href})`))
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr|table)\s*>/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** HTML from a template's text, for a template that has no HTML part: paragraphs, line breaks kept. */
function htmlFromText(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((p) => `<p>${p.split('\n').join('<br>')}</p>`)
    .join('\n');
}

/**
 * Renders an account's template: `{{name}}` variables HTML-escaped in the HTML, as they are in the subject and text
 * (the subject kept on one line). A template with only HTML or only text gets the other part made from it.
 */
export function renderAccountTemplate(source: MailTemplateSource, vars: MailVars): RenderedAccountMail {
  const all: MailVars = { api_url: source.mt_api_url ?? '', asset_url: source.mt_asset_url ?? '', ...vars };
  const subject = fill(source.mt_subject ?? '', all, false)
    .replace(/[\r\n]+/g, ' ')
    .trim();
  const hasHtml = Boolean(source.mt_html?.trim());
  const hasText = Boolean(source.mt_text?.trim());
  let html: string;
  let text: string;
  if (hasHtml) html = fill(source.mt_html!, all, true);
  else html = htmlFromText(fill(escapeHtml(source.mt_text ?? ''), escapedVars(all), false));
  if (hasText) text = fill(source.mt_text!, all, false);
  else text = textFromHtml(html);
  return { subject, html, text, fromName: source.mt_from_name?.trim() || null, replyTo: source.mt_from_email?.trim() || null };
}

function escapedVars(vars: MailVars): MailVars {
  return Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, escapeHtml(v ?? '')]));
}

/**
 * The built-in template of a name (emails/<name>.html with its subject comment, in the common layout, and
 * emails/<name>.txt), in the same shape as an account's template, so one renderer serves both and the editor can
 * start from it.
 */
export function builtinTemplate(name: MailTemplateName, locale: MailLocale = 'en'): Required<Pick<MailTemplateSource, 'mt_name' | 'mt_subject' | 'mt_html' | 'mt_text'>> {
  // A Dutch built-in mail is emails/nl/<name>.html and .txt where there is one (like the platform's own mails).
  const source = read(localizedFile(`${name}.html`, locale));
  const subject = source.match(/^<!--\s*subject:\s*(.*?)\s*-->\s*/)?.[1] ?? name;
  const body = source.replace(/^<!--.*?-->\s*/, '');
  const html = read(localizedFile('layout.html', locale))
    .replace('{{{body}}}', () => body)
    .replace('{{subject}}', () => subject);
  return { mt_name: name, mt_subject: subject, mt_html: html, mt_text: read(localizedFile(`${name}.txt`, locale)) };
}

export type { MailLocale } from './templates.js';

/** The account's template of that name, else the built-in one. Runs on `db` (the caller's transaction, if any). */
export async function templateFor(db: Knex | Knex.Transaction, accountId: string, name: MailTemplateName, locale: MailLocale = 'en'): Promise<MailTemplateSource> {
  // A template in the trash is as good as none: the built-in one is sent.
  const own = await db('mail_templates').where({ mt_accountid: accountId, mt_name: name }).whereNull('mt_deleted_at').first();
  return own ? withBuiltinBody(own, locale) : builtinTemplate(name, locale);
}

/**
 * A product mail's template saved without any body (only a subject) is sent with the built-in body under its own
 * subject and sender: otherwise it would arrive as an empty message without its link. Other templates are as stored.
 */
export function withBuiltinBody(template: MailTemplateSource, locale: MailLocale = 'en'): MailTemplateSource {
  if (!isMailTemplateName(template.mt_name) || template.mt_html?.trim() || template.mt_text?.trim()) return template;
  const builtin = builtinTemplate(template.mt_name, locale);
  return { ...template, mt_html: builtin.mt_html, mt_text: builtin.mt_text };
}

/** Variables every account mail gets (COMMON_MAIL_VARIABLES). */
export function commonVars(app: AppContext, account: { a_name: string }): MailVars {
  return { product: 'Leadstage', account_name: account.a_name, support_email: app.config.supportEmail, privacy_url: app.config.privacyUrl };
}

/** English role names for mails (the built-in templates are English). */
const ROLE_NAMES: Record<Role, string> = { root: 'root', superadmin: 'superadmin', admin: 'admin', member: 'member' };
export const roleName = (role: string) => ROLE_NAMES[role as Role] ?? role;

/** A date and time in mails: "14 December 2026 at 10:00 UTC". */
export const mailDateTime = (d: Date | string) => `${new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(d))} UTC`;

/** Sample values for a preview or a test mail: what the product would fill in, with made-up people. */
export function sampleVars(
  app: AppContext,
  account: { a_name: string },
  caller: { u_first_name?: string | null; u_last_name?: string | null; u_email: string },
  name?: string | null,
): MailVars {
  const callerName = [caller.u_first_name, caller.u_last_name].filter(Boolean).join(' ') || caller.u_email;
  return {
    ...commonVars(app, account),
    first_name: 'Alex',
    last_name: 'Sample',
    email: 'alex.sample@example.com',
    role: roleName('member'),
    inviter_name: callerName,
    sender_name: callerName,
    link: `${app.config.publicUrl}/${name === 'handoff' ? 'handoffs' : name === 'meeting_request' ? 'meetings' : 'invite'}/sample-link`,
    expires_at: mailDateTime(new Date(Date.now() + 7 * 86400_000)),
    lead_first_name: 'Sam',
    lead_last_name: 'Jansen',
    lead_email: 'sam.jansen@example.com',
    event_title: 'Sample Expo',
    event_start_date: '2026-12-01',
    event_end_date: '2026-12-03',
    message: 'Could you follow up on this lead this week?',
    visitor_first_name: 'Vera',
    visitor_last_name: 'Visitor',
    visitor_email: 'vera.visitor@example.com',
    host_name: callerName,
    meeting_start: '1 December 2026 at 10:00',
    meeting_end: '1 December 2026 at 10:30',
    time_zone: 'Europe/Amsterdam',
    location: 'Hall 3, stand 12',
  };
}

/** Only the variables a template of this name gets (so a preview shows what the real mail would). */
export function varsFor(name: string | null | undefined, vars: MailVars): MailVars {
  const allowed = new Set(mailTemplateVariables(name ?? ''));
  return Object.fromEntries(Object.entries(vars).filter(([k]) => allowed.has(k)));
}

/**
 * Sends one of the product's account mails (invite, handoff, registration) with the account's template of that name,
 * else the built-in one. `db` is the caller's transaction, so a mail that cannot be sent rolls the work back.
 */
export async function sendAccountMail(
  app: AppContext,
  db: Knex | Knex.Transaction,
  account: { a_id: string; a_name: string },
  name: MailTemplateName,
  to: string,
  vars: MailVars,
): Promise<SentMail> {
  const template = await templateFor(db, account.a_id, name);
  const mail = renderAccountTemplate(template, varsFor(name, { ...commonVars(app, account), ...vars }));
  return app.mailer.sendMail({
    to,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    fromName: mail.fromName,
    replyTo: mail.replyTo,
    label: name,
    link: vars.link ?? undefined,
  });
}

export { isMailTemplateName };
