import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../paths.js';

const EMAILS_DIR = path.join(PROJECT_ROOT, 'emails');

/**
 * Templates a preview may ask for; each has emails/<name>.html and emails/<name>.txt (English), and may have a Dutch
 * emails/nl/<name>.html and .txt (with emails/nl/layout.html).
 */
export const TEMPLATES = ['signup', 'resetpassword', 'account_exists', 'conversation_message', 'conversation_reply'] as const;
export type TemplateName = (typeof TEMPLATES)[number];

export function isTemplate(name: string): name is TemplateName {
  return (TEMPLATES as readonly string[]).includes(name);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** {{name}} is escaped for HTML, {{{name}}} is inserted as is (only used for the layout's body). */
function fill(template: string, vars: Record<string, string>, html: boolean): string {
  return template.replace(/\{\{\{(\w+)\}\}\}/g, (_, k) => vars[k] ?? '').replace(/\{\{(\w+)\}\}/g, (_, k) => (html ? escapeHtml(vars[k] ?? '') : (vars[k] ?? '')));
}

const cache = new Map<string, string>();
/** A file of emails/ (kept in memory in production). */
export function read(file: string): string {
  let text = cache.get(file);
  if (text === undefined) {
    text = fs.readFileSync(path.join(EMAILS_DIR, file), 'utf8');
    if (process.env.NODE_ENV === 'production') cache.set(file, text);
  }
  return text;
}

export type MailLocale = 'en' | 'nl';

/** The file of the locale's folder (emails/nl/<file>) when there is one, else the English one (emails/<file>). */
export function localizedFile(file: string, locale: MailLocale): string {
  if (locale !== 'en' && (cache.has(`${locale}/${file}`) || fs.existsSync(path.join(EMAILS_DIR, locale, file)))) return `${locale}/${file}`;
  return file;
}

function readLocalized(file: string, locale: MailLocale): string {
  return read(localizedFile(file, locale));
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

export function renderTemplate(name: TemplateName, vars: Record<string, string>, locale: MailLocale = 'en'): RenderedMail {
  const source = readLocalized(`${name}.html`, locale);
  const subjectMatch = source.match(/^<!--\s*subject:\s*(.*?)\s*-->\s*/);
  const subject = fill(subjectMatch?.[1] ?? name, vars, false);
  const body = fill(source.replace(/^<!--.*?-->\s*/, ''), vars, true);
  const html = fill(readLocalized('layout.html', locale), { ...vars, subject, body }, true);
  const text = fill(readLocalized(`${name}.txt`, locale), vars, false);
  return { subject, html, text };
}
