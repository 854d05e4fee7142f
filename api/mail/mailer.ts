import fs from 'node:fs';
import path from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { Config } from '../config.js';
import { renderTemplate, type MailLocale, type TemplateName } from './templates.js';

export interface SentMail {
  to: string;
  subject: string;
  file?: string;
}

/** A message already rendered (an account's template): the sender's name and reply address are the account's. */
export interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Display name of the sender; the address stays MAIL_FROM's (relays and DMARC accept only that). */
  fromName?: string | null;
  /** Where answers go (the account's own address). */
  replyTo?: string | null;
  /** What the mail is, for the outbox file name and the log (e.g. invite). */
  label: string;
  /** The link the mail carries, logged with an outbox file (development without SMTP). */
  link?: string;
  /** Files sent with it (a meeting's calendar invitation): nodemailer's attachments. */
  attachments?: MailAttachment[];
}

/** A file attached to a mail; `contentType` may carry parameters (text/calendar; method=REQUEST). */
export interface MailAttachment {
  filename: string;
  content: string | Buffer;
  contentType: string;
}

export interface Mailer {
  /** A built-in template (emails/), in `locale` where it has a translation (default English). */
  send(template: TemplateName, to: string, vars: Record<string, string>, locale?: MailLocale): Promise<SentMail>;
  sendMail(mail: OutgoingMail): Promise<SentMail>;
  /** The same mailer (transport, outbox) writing its lines through `log` (a request's: api/context.ts). */
  withLog?(log: (m: string) => void): Mailer;
}

/** MAIL_FROM ("Name <address>" or "address") as nodemailer's {name, address}. */
export function parseMailbox(mailbox: string): { name: string; address: string } {
  const m = mailbox.match(/^\s*(.*?)\s*<([^<>]+)>\s*$/);
  return m ? { name: m[1].replace(/^"|"$/g, ''), address: m[2] } : { name: '', address: mailbox.trim() };
}

/** Common variables of every template. */
export function mailVars(config: Config): Record<string, string> {
  return { product: 'Leadstage', support_email: config.supportEmail, privacy_url: config.privacyUrl };
}

/**
 * nodemailer; without SMTP_URL each message is written to data/outbox/ as an .eml file
 * (and its link logged), so a fresh install can verify and reset without a mail server.
 */
export function createMailer(config: Config, log: (m: string) => void): Mailer {
  const outbox = path.join(config.dataDir, 'outbox');
  const outboxPartial = path.join(config.dataDir, 'outbox.partial');
  const transport = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let seq = 0;
  const sender = parseMailbox(config.mailFrom);
  async function deliver(log: (m: string) => void, label: string, message: SendMailOptions & { to: string; subject: string }, link?: string): Promise<SentMail> {
    const info = await transport.sendMail(message);
    if (config.smtpUrl) return { to: message.to, subject: message.subject };
    const safeTo = message.to.replace(/[^a-z0-9@._-]/gi, '_');
    const safeLabel = label.replace(/[^a-z0-9_-]/gi, '_');
    const file = path.join(outbox, `${Date.now()}-${String(++seq).padStart(4, '0')}-${safeLabel}-${safeTo}.eml`);
    // asynchronous, and the folders made only when they are missing: a busy disk must not hold up every other request.
    // Written beside the outbox, then renamed into it: a reader of the outbox (a queued mail is written while others
    // poll for it) never sees half a file.
    const partial = path.join(outboxPartial, path.basename(file));
    const write = () => fs.promises.writeFile(partial, (info as unknown as { message: Buffer }).message);
    await write().catch(async (e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
      await fs.promises.mkdir(outboxPartial, { recursive: true });
      await write();
    });
    await fs.promises.rename(partial, file).catch(async (e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
      await fs.promises.mkdir(outbox, { recursive: true });
      await fs.promises.rename(partial, file);
    });
    log(`mail: ${label} to ${message.to} written to ${path.relative(process.cwd(), file)}${link ? ` (link: ${link})` : ''}`);
    return { to: message.to, subject: message.subject, file };
  }
  const mailer = (log: (m: string) => void): Mailer => ({
    async send(template, to, vars, locale) {
      const mail = renderTemplate(template, { ...mailVars(config), ...vars }, locale);
      return deliver(log, template, { from: config.mailFrom, to, subject: mail.subject, html: mail.html, text: mail.text }, vars.link);
    },
    async sendMail(mail) {
      const from = { name: mail.fromName?.trim() || sender.name, address: sender.address };
      return deliver(
        log,
        mail.label,
        { from, replyTo: mail.replyTo || undefined, to: mail.to, subject: mail.subject, html: mail.html, text: mail.text, attachments: mail.attachments },
        mail.link,
      );
    },
    withLog: mailer,
  });
  return mailer(log);
}
