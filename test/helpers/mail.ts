import type { Mailer } from '../../api/mail/mailer.js';
import type { TestApp } from './app.js';

/** A mail of the outbox as a reader sees it: decoded headers, HTML and text parts. */
export interface ParsedMail {
  file: string;
  headers: Record<string, string>;
  subject: string;
  from: string;
  to: string;
  replyTo?: string;
  html: string;
  text: string;
  /** Parts with a file name (a meeting's .ics), decoded. */
  attachments: { filename: string; contentType: string; content: string }[];
}

function decodeBytes(s: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(s[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

const decodeQuotedPrintable = (s: string) => decodeBytes(s.replace(/=\r?\n/g, ''));

/** RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=) in a header. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, enc: string, text: string) =>
      enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeBytes(text.replace(/_/g, ' ')),
    );
}

function splitHeaders(raw: string): { headers: Record<string, string>; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? '' : raw.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { headers, body };
}

function decodePart(headers: Record<string, string>, body: string): string {
  const encoding = (headers['content-transfer-encoding'] ?? '').toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

/** The leaf parts of a MIME body, nested multiparts (mixed around alternative) walked into. */
function leafParts(headers: Record<string, string>, body: string): { headers: Record<string, string>; body: string }[] {
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = type.match(/boundary="?([^";]+)"?/)?.[1];
  if (!type.startsWith('multipart/') || !boundary) return [{ headers, body }];
  return body
    .split(`--${boundary}`)
    .slice(1)
    .filter((p) => !p.startsWith('--'))
    .map((p) => splitHeaders(p.replace(/^\r?\n/, '')))
    .flatMap((part) => leafParts(part.headers, part.body));
}

/** Parses a nodemailer .eml (single part, multipart/alternative, or multipart/mixed with attachments). */
export function parseEml(file: string, raw: string): ParsedMail {
  const { headers, body } = splitHeaders(raw);
  let html = '';
  let text = '';
  const attachments: ParsedMail['attachments'] = [];
  for (const part of leafParts(headers, body)) {
    const content = decodePart(part.headers, part.body).replace(/\r?\n$/, '');
    const type = part.headers['content-type'] ?? 'text/plain';
    const filename = `${part.headers['content-disposition'] ?? ''};${type}`.match(/(?:file)?name="?([^";]+)"?/)?.[1];
    if (filename) attachments.push({ filename, contentType: type, content });
    else if (type.startsWith('text/html')) html = content;
    else if (type.startsWith('text/plain')) text = content;
  }
  return {
    file,
    headers,
    subject: decodeWords(headers.subject ?? ''),
    from: decodeWords(headers.from ?? ''),
    to: headers.to ?? '',
    replyTo: headers['reply-to'],
    html,
    text,
    attachments,
  };
}

/** The outbox's mails to `to` (oldest first), parsed. */
export function mailsTo(t: TestApp, to: string): ParsedMail[] {
  return t
    .outbox()
    .filter((m) => m.file.toLowerCase().endsWith(`-${to.toLowerCase()}.eml`))
    .map((m) => parseEml(m.file, m.text));
}

/**
 * Sends what the job queue holds now (the mails enqueueMail queued, api/mail/outbox.ts) through the app's mailer, in
 * this process, then answers the outbox's mails to `to`: a test that expects a queued mail reads it with this.
 */
export async function deliveredMailsTo(t: TestApp, to: string): Promise<ParsedMail[]> {
  await t.context.jobs.drain();
  return mailsTo(t, to);
}

/** The link to `/invite/…` (or another path) in a parsed mail's text part. */
export function linkIn(mail: ParsedMail, path = '/invite/'): string {
  const m = mail.text.match(new RegExp(`https?://\\S*${path.replace(/\//g, '\\/')}\\S+`));
  if (!m) throw new Error(`no ${path} link in ${mail.file}:\n${mail.text}`);
  return m[0];
}

/** Runs `fn` with a mailer that fails every send (a relay that is down), then puts the real one back. */
export async function withFailingMailer(t: TestApp, fn: () => Promise<void>): Promise<void> {
  const real = t.context.mailer;
  const down = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:25'));
  const failing: Mailer = { send: down, sendMail: down };
  t.context.mailer = failing;
  try {
    await fn();
  } finally {
    t.context.mailer = real;
  }
}
