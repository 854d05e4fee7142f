import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors.js';
import { rateLimitHitSql } from '../middleware/rateLimit.js';
import { builtinTemplate, commonVars, renderAccountTemplate, varsFor } from '../mail/accountTemplates.js';
import { enqueueMail } from '../mail/outbox.js';
import { leadFromAnswers } from './leads.js';
import { consentTextFor, type ConsentLocale } from '../../resources/consent.js';
import type { FormElementSpec } from '../../resources/answers.js';
import { buildListTree, type ListItemRow } from '../../resources/listItems.js';
import type { MailTemplateSource } from '../../resources/mailTemplates.js';

/**
 * The public registration of an event (account-console.md section 4, "Registration"): what the page may show, and a
 * registration becoming a lead. No session: the event id in the address is all a visitor has.
 *
 * Decisions where the contract is silent (README "Registration"):
 * - closed = the event is disabled, its access type is closed, its account is disabled, or its end date (UTC) has
 *   passed; before the start date registration is open (people register before an event, not only during it);
 * - no_form = no registration form, or one without elements; it wins over restricted (no code is asked for nothing);
 * - restricted: the form is sent only with the right access code (compared trimmed and case-insensitively, in
 *   constant time);
 * - the event's form style is the style whose st_eventid is the event (the most recently updated one if several).
 */
export type RegistrationState = 'open' | 'closed' | 'restricted' | 'no_form';

type Row = Record<string, unknown>;

export interface RegistrationEvent {
  ev_id: string;
  ev_accountid: string;
  ev_title: string;
  ev_start_date: string | null;
  ev_end_date: string | null;
  ev_is_enabled: boolean;
  ev_access_type: string;
  ev_access_code: string | null;
  ev_registration_formid: string | null;
  ev_consent_text: string | null;
  ev_description: string | null;
  ev_ownerid: string | null;
  a_name: string;
  a_is_enabled: boolean;
}

/** The style's fields a visitor's page draws (no custom CSS: that comes as a stylesheet; no mail; no internal title). */
export const PUBLIC_STYLE_FIELDS = [
  'st_id',
  'st_form_logo_assetid',
  'st_form_title',
  'st_form_description',
  'st_thanks_logo_assetid',
  'st_thanks_title',
  'st_thanks_description',
  'st_external_url_title',
  'st_external_url',
  'st_font_1',
  'st_font_2',
  'st_font_3',
] as const;

export interface LoadedRegistration {
  event: RegistrationEvent;
  /** The event's form style, with its mail fields (st_mail_subject, st_mail_html) for the confirmation. */
  style: Row | null;
  /** The registration form with its elements in order, each list type with its list's tree; undefined without one. */
  form?: { form: Row; elements: FormElementSpec[] };
  /** The account's `registration` mail template, if it has one. */
  mailTemplate: MailTemplateSource | null;
}

const EVENT_COLUMNS = [
  'ev_id',
  'ev_accountid',
  'ev_title',
  'ev_start_date',
  'ev_end_date',
  'ev_is_enabled',
  'ev_access_type',
  'ev_access_code',
  'ev_registration_formid',
  'ev_consent_text',
  'ev_description',
  'ev_ownerid',
];

/**
 * Everything a registration needs in one statement (one round trip on the hot path): the event with its account's
 * name and state, its form style, the registration form, its elements in order, the items of their lists, and the
 * account's registration mail template. Undefined when there is no such event.
 */
/** The registration form is not in the trash (a form in the trash registers no one: the page has no form). */
const LIVE_FORM = 'not exists (select 1 from forms where f_id = e.ev_registration_formid and f_deleted_at is not null)';
const LOAD_COLUMNS = `
  ${EVENT_COLUMNS.map((c) => `e.${c}`).join(', ')}, a.a_name, a.a_is_enabled,
    (select to_jsonb(s) from (
       select ${PUBLIC_STYLE_FIELDS.join(', ')}, st_mail_subject, st_mail_html from form_styles
        where st_accountid = e.ev_accountid and st_eventid = e.ev_id
        order by st_updated_at desc, st_id limit 1) s) as style,
    (select to_jsonb(f) from (select f_id, f_title from forms where f_accountid = e.ev_accountid and f_id = e.ev_registration_formid and f_deleted_at is null) f) as form,
    (select coalesce(jsonb_agg(to_jsonb(x) order by x.fe_order, x.fe_id), '[]'::jsonb) from (
       select fe_id, fe_name, fe_title, fe_type, fe_is_required, fe_options, fe_listid, fe_order from form_elements
        where fe_accountid = e.ev_accountid and fe_formid = e.ev_registration_formid and ${LIVE_FORM}) x) as elements,
    (select coalesce(jsonb_agg(to_jsonb(li) order by li.li_order, li.li_id), '[]'::jsonb) from (
       select li_id, li_listid, li_parentid, li_title, li_value, li_order from list_items
        where li_accountid = e.ev_accountid and li_listid in (
          select fe_listid from form_elements where fe_accountid = e.ev_accountid and fe_formid = e.ev_registration_formid and fe_listid is not null and ${LIVE_FORM})) li) as items,
    (select to_jsonb(m) from (
       select mt_name, mt_subject, mt_html, mt_text, mt_from_name, mt_from_email, mt_api_url, mt_asset_url from mail_templates
        where mt_accountid = e.ev_accountid and mt_name = 'registration' and mt_deleted_at is null) m) as mail_template`;
// An event in the trash has no registration page (404, as an unknown one).
const LOAD_SQL = `select ${LOAD_COLUMNS} from events e join accounts a on a.a_id = e.ev_accountid where e.ev_id = ? and e.ev_deleted_at is null`;

/**
 * The same, counting one hit of a per-address budget in the same statement (a registration's POST: one round trip
 * fewer). The counter is RateLimiter.hit's fixed window (rateLimitHitSql in api/middleware/rateLimit.ts), kept for an existing event only,
 * so made-up event ids leave no rows.
 */
const LOAD_AND_HIT_SQL = `
  with hit as (
    ${rateLimitHitSql('select ?, 1, now() + make_interval(secs => ?) where exists (select 1 from events where ev_id = ? and ev_deleted_at is null)')}
  )
  select ${LOAD_COLUMNS}, hit.rl_points, hit.rl_reset_at
    from events e join accounts a on a.a_id = e.ev_accountid cross join hit
   where e.ev_id = ? and e.ev_deleted_at is null`;

type LoadedRow = RegistrationEvent & {
  style: Row | null;
  form: Row | null;
  elements: (FormElementSpec & { fe_order?: number })[];
  items: (ListItemRow & { li_listid: string })[];
  mail_template: MailTemplateSource | null;
};

export async function loadRegistration(db: Knex, eventId: string): Promise<LoadedRegistration | undefined>;
export async function loadRegistration(
  db: Knex,
  eventId: string,
  hit: { key: string; windowSeconds: number },
): Promise<(LoadedRegistration & { hit: { points: number; resetAt: Date } }) | undefined>;
export async function loadRegistration(db: Knex, eventId: string, hit?: { key: string; windowSeconds: number }) {
  const { rows } = hit ? await db.raw(LOAD_AND_HIT_SQL, [hit.key, hit.windowSeconds, eventId, eventId]) : await db.raw(LOAD_SQL, [eventId]);
  const row = rows[0] as (LoadedRow & { rl_points?: unknown; rl_reset_at?: unknown }) | undefined;
  if (!row) return undefined;
  const { style, form, elements, items, mail_template, rl_points, rl_reset_at, ...event } = row;
  let graph: LoadedRegistration['form'];
  if (form) {
    const byList = new Map<string, ListItemRow[]>();
    for (const item of items) {
      const list = byList.get(item.li_listid) ?? [];
      list.push(item);
      byList.set(item.li_listid, list);
    }
    const trees = new Map([...byList].map(([id, rows]) => [id, buildListTree(rows)]));
    graph = {
      form,
      elements: elements.map(({ fe_order: _, ...el }) => (el.fe_listid ? { ...el, items: trees.get(el.fe_listid) ?? [] } : el)),
    };
  }
  const loaded: LoadedRegistration = { event, style: style ?? null, form: graph, mailTemplate: mail_template ?? null };
  return hit ? { ...loaded, hit: { points: Number(rl_points), resetAt: new Date(rl_reset_at as string) } } : loaded;
}

/** The custom CSS of the event's form style ('' when it has none); null when the event has no style, undefined when there is no such event. */
export async function eventStyleCss(db: Knex, eventId: string): Promise<string | null | undefined> {
  const { rows } = await db.raw(
    `select s.st_id, s.st_custom_css from events e
       left join lateral (
         select st_id, st_custom_css from form_styles where st_accountid = e.ev_accountid and st_eventid = e.ev_id
          order by st_updated_at desc, st_id limit 1) s on true
      where e.ev_id = ? and e.ev_deleted_at is null`,
    [eventId],
  );
  if (!rows[0]) return undefined;
  return rows[0].st_id ? String(rows[0].st_custom_css ?? '') : null;
}

/** Today as YYYY-MM-DD in UTC, the day the event's dates are compared with. */
export const todayUtc = (now = new Date()) => now.toISOString().slice(0, 10);

export function isRegistrationClosed(e: RegistrationEvent, today = todayUtc()): boolean {
  return !e.a_is_enabled || !e.ev_is_enabled || e.ev_access_type === 'closed' || Boolean(e.ev_end_date && e.ev_end_date < today);
}

/** The page's state before any access code: closed, no_form, restricted or open. */
export function registrationState(e: RegistrationEvent, elementCount: number | undefined, today = todayUtc()): RegistrationState {
  if (isRegistrationClosed(e, today)) return 'closed';
  if (!elementCount) return 'no_form';
  return e.ev_access_type === 'restricted' ? 'restricted' : 'open';
}

const digest = (s: string) => crypto.createHash('sha256').update(s.trim().toLowerCase()).digest();

/** The visitor's code against the event's, trimmed, case-insensitive, in constant time. */
export function accessCodeMatches(e: RegistrationEvent, given: unknown): boolean {
  const own = e.ev_access_code?.trim();
  if (!own) return false; // a restricted event without a code lets nobody in (the console requires one)
  const code = typeof given === 'string' ? given : typeof given === 'number' ? String(given) : '';
  if (!code.trim()) return false;
  return crypto.timingSafeEqual(digest(own), digest(code));
}

export const accessCodeInvalid = () => new ApiError(403, 'access_code_invalid', 'The access code is not correct');
export const eventClosed = () => new ApiError(403, 'event_closed', 'Registration for this event is closed');
export const eventHasNoForm = () => new ApiError(409, 'event_has_no_form', 'The event manager needs to create a details form');

/** What the page gets of an element: what the renderer and validateAnswers read, nothing of the account. */
export function publicElement(el: FormElementSpec): FormElementSpec {
  const out: FormElementSpec = {
    fe_id: el.fe_id,
    fe_name: el.fe_name,
    fe_title: el.fe_title,
    fe_type: el.fe_type,
    fe_is_required: el.fe_is_required,
    fe_options: el.fe_options,
    fe_listid: el.fe_listid,
  };
  if (el.items) out.items = el.items;
  return out;
}

export function publicStyle(style: Row | null): Row | null {
  if (!style) return null;
  return Object.fromEntries(PUBLIC_STYLE_FIELDS.map((f) => [f, style[f] ?? null]));
}

export function publicEvent(e: RegistrationEvent) {
  return {
    id: e.ev_id,
    ev_id: e.ev_id,
    ev_title: e.ev_title,
    ev_start_date: e.ev_start_date,
    ev_end_date: e.ev_end_date,
    ev_access_type: e.ev_access_type,
    // the event's own opt-in text (the page falls back to the built-in one in its language)
    ev_consent_text: e.ev_consent_text?.trim() ? e.ev_consent_text : null,
    // rich text, sanitised when it was stored (api/crud/richtext.ts)
    ev_description: e.ev_description,
  };
}

export interface RegistrationInput {
  answers: unknown;
  consent_news: boolean;
  locale: ConsentLocale;
}

/**
 * Stores a registration as a lead in one statement: a new lead, or, for an e-mail already registered for the event
 * (any case), that lead updated (answers, names, consent, capture time), race-safe on the unique index
 * leads_registration_email_unique. The owner is the event's owner while that user is still a member of the account.
 * Registering again brings a lead in the trash back (the person asked anew).
 */
export async function upsertRegistration(
  db: Knex,
  e: RegistrationEvent,
  lead: ReturnType<typeof leadFromAnswers>,
  input: Omit<RegistrationInput, 'answers'>,
): Promise<{ ld_id: string; inserted: boolean; consentText: string }> {
  const consentText = consentTextFor(e, input.locale);
  const { rows } = await db.raw(
    `insert into leads (ld_accountid, ld_eventid, ld_email, ld_first_name, ld_last_name, ld_ownerid, ld_answers, ld_source,
                        ld_consent_news, ld_consent_text, ld_captured_at)
     values (?, ?, ?, ?, ?, (select au_userid from account_users where au_accountid = ? and au_userid = ?), ?::jsonb, 'registration', ?, ?, now())
     on conflict (ld_eventid, lower(ld_email)) where ld_source = 'registration' and ld_email is not null
     do update set ld_email = excluded.ld_email, ld_first_name = excluded.ld_first_name, ld_last_name = excluded.ld_last_name,
                   ld_answers = excluded.ld_answers, ld_consent_news = excluded.ld_consent_news,
                   ld_consent_text = excluded.ld_consent_text, ld_captured_at = excluded.ld_captured_at, ld_updated_at = now(),
                   ld_deleted_at = null
     returning ld_id, (xmax = 0) as inserted`,
    [
      e.ev_accountid,
      e.ev_id,
      lead.ld_email ?? null,
      lead.ld_first_name ?? null,
      lead.ld_last_name ?? null,
      e.ev_accountid,
      e.ev_ownerid,
      JSON.stringify(lead.answers),
      input.consent_news,
      consentText,
    ],
  );
  return { ld_id: String(rows[0].ld_id), inserted: Boolean(rows[0].inserted), consentText };
}

/**
 * The confirmation mail's source: the form style's st_mail_subject / st_mail_html where set (its text part made from
 * its HTML), the rest from the account's `registration` template, else the built-in one.
 */
export function confirmationSource(loaded: Pick<LoadedRegistration, 'style' | 'mailTemplate'>): MailTemplateSource {
  const { style } = loaded;
  const template = loaded.mailTemplate ?? builtinRegistration();
  const subject = typeof style?.st_mail_subject === 'string' ? style.st_mail_subject.trim() : '';
  const html = typeof style?.st_mail_html === 'string' ? style.st_mail_html.trim() : '';
  if (!subject && !html) return template;
  return { ...template, mt_subject: subject || template.mt_subject, mt_html: html || template.mt_html, mt_text: html ? null : template.mt_text };
}

/** The built-in registration mail (emails/registration.*), made once per process in production (the files are cached there too). */
let builtin: MailTemplateSource | undefined;
function builtinRegistration(): MailTemplateSource {
  if (builtin) return builtin;
  const made = builtinTemplate('registration');
  if (process.env.NODE_ENV === 'production') builtin = made;
  return made;
}

/**
 * Puts the confirmation to the registrant on the job queue (api/mail/outbox.ts): a worker sends it, and retries with
 * backoff while the relay fails. Never throws: the registration is stored already, so a mail that cannot even be
 * queued (a template that does not render, the database gone) is logged (with the lead id, not the address) and the
 * visitor still gets the thanks page. True when the mail is queued.
 */
export async function sendConfirmation(
  app: AppContext,
  loaded: LoadedRegistration,
  to: string,
  lead: { ld_id: string; ld_first_name?: string | null; ld_last_name?: string | null },
): Promise<boolean> {
  const e = loaded.event;
  try {
    const source = confirmationSource(loaded);
    const vars = varsFor('registration', {
      ...commonVars(app, { a_name: e.a_name }),
      first_name: lead.ld_first_name ?? '',
      last_name: lead.ld_last_name ?? '',
      email: to,
      event_title: e.ev_title,
      event_start_date: e.ev_start_date ?? '',
      event_end_date: e.ev_end_date ?? '',
    });
    const mail = renderAccountTemplate(source, vars);
    await enqueueMail(app, { to, subject: mail.subject, html: mail.html, text: mail.text, fromName: mail.fromName, replyTo: mail.replyTo, label: 'registration' });
    return true;
  } catch (err) {
    app.log(`registration ${lead.ld_id}: the confirmation mail could not be queued`, err);
    return false;
  }
}
