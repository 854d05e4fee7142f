import fs from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../config.js';
import { renderTemplate, type TemplateName } from './templates.js';

export interface SentMail {
  to: string;
  subject: string;
  file?: string;
}

export interface Mailer {
  send(template: TemplateName, to: string, vars: Record<string, string>): Promise<SentMail>;
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
  const transport = config.smtpUrl
    ? nodemailer.createTransport(config.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let seq = 0;
  return {
    async send(template, to, vars) {
      const mail = renderTemplate(template, { ...mailVars(config), ...vars });
      const info = await transport.sendMail({ from: config.mailFrom, to, subject: mail.subject, html: mail.html, text: mail.text });
      if (config.smtpUrl) return { to, subject: mail.subject };
      fs.mkdirSync(outbox, { recursive: true });
      const safeTo = to.replace(/[^a-z0-9@._-]/gi, '_');
      const file = path.join(outbox, `${Date.now()}-${String(++seq).padStart(4, '0')}-${template}-${safeTo}.eml`);
      fs.writeFileSync(file, (info as unknown as { message: Buffer }).message);
      log(`mail: ${template} to ${to} written to ${path.relative(process.cwd(), file)}${vars.link ? ` (link: ${vars.link})` : ''}`);
      return { to, subject: mail.subject, file };
    },
  };
}
