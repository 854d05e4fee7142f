import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors.js';
import { hashToken } from './tokens.js';
import { sendAccountMail } from '../mail/accountTemplates.js';
import type { HandoffDecision } from '../../resources/handoffs.js';

type Row = Record<string, unknown>;

/** A handoff link's token: 256 random bits, base64url; only its SHA-256 is stored (ho_token_hash). */
export const newHandoffToken = () => crypto.randomBytes(32).toString('base64url');
export const handoffLink = (app: AppContext, token: string) => `${app.config.publicUrl}/handoffs/${encodeURIComponent(token)}`;

export const handoffNotificationFailed = () => new ApiError(502, 'handoff_notification_failed', 'We failed to deliver the notification to the representative');
export const handoffInvalid = () => new ApiError(400, 'handoff_invalid', 'This handoff link is unknown or has already been used', { token: 'error_handoff_invalid' });

interface Person {
  u_email: string;
  u_first_name?: string | null;
  u_last_name?: string | null;
}
const fullName = (p: Person) => [p.u_first_name, p.u_last_name].filter((v) => v && v.trim()).join(' ') || p.u_email;

/**
 * Mails the representative the handoff link with the account's `handoff` template, else the built-in one. When the mail
 * cannot be sent this throws 502 handoff_notification_failed (the caller then takes the handoff away again).
 */
export async function mailHandoff(
  app: AppContext,
  db: Knex | Knex.Transaction,
  account: { a_id: string; a_name: string },
  input: { to: Person; sender: Person; lead: Row; message: string | null; token: string },
): Promise<void> {
  const { to, sender, lead } = input;
  try {
    await sendAccountMail(app, db, account, 'handoff', to.u_email, {
      first_name: to.u_first_name || to.u_email,
      last_name: to.u_last_name ?? '',
      lead_first_name: (lead.ld_first_name as string | null) ?? '',
      lead_last_name: (lead.ld_last_name as string | null) ?? '',
      lead_email: (lead.ld_email as string | null) ?? '',
      event_title: (lead.ev_title as string | null) ?? '',
      message: input.message ?? '',
      sender_name: fullName(sender),
      link: handoffLink(app, input.token),
    });
  } catch (err) {
    app.log(`mail: handoff to ${to.u_email} failed: ${(err as Error).message}`);
    throw handoffNotificationFailed();
  }
}

const isToken = (token: unknown): token is string => typeof token === 'string' && token.length >= 16 && token.length <= 200;

/** What the handoff page shows: the lead, its event, who offers it, the message and the status. */
function handoffView(db: Knex | Knex.Transaction) {
  return (
    db('handoffs')
      .join('leads', 'ld_id', 'ho_leadid')
      .join('accounts', 'a_id', 'ho_accountid')
      .leftJoin('events', 'ev_id', 'ld_eventid')
      .leftJoin('users as sender', 'sender.u_id', 'ho_created_by')
      .join('users as rep', 'rep.u_id', 'ho_to_userid')
      // A lead in the trash (or of an event in the trash) is offered to no one.
      .whereNull('ld_deleted_at')
      .whereNull('ev_deleted_at')
      .select(
        'ho_id',
        'ho_accountid',
        'ho_leadid',
        'ho_to_userid',
        'ho_status',
        'ho_message',
        'ho_created_at',
        'ho_decided_at',
        'ld_first_name',
        'ld_last_name',
        'ld_email',
        'ev_id',
        'ev_title',
        'ev_start_date',
        'ev_end_date',
        'a_id',
        'a_name',
        'sender.u_first_name as sender_first_name',
        'sender.u_last_name as sender_last_name',
        'sender.u_email as sender_email',
        'rep.u_first_name as to_first_name',
        'rep.u_last_name as to_last_name',
        'rep.u_email as to_email',
      )
  );
}

/** GET /handoff/{token} and the accept's answer: flat contract fields, plus the account, the sender and the representative. */
export function publicHandoff(row: Row): Row {
  return {
    ho_id: row.ho_id,
    ho_leadid: row.ho_leadid,
    ho_status: row.ho_status,
    ho_message: row.ho_message,
    ho_created_at: row.ho_created_at,
    ho_decided_at: row.ho_decided_at,
    ld_first_name: row.ld_first_name,
    ld_last_name: row.ld_last_name,
    ld_email: row.ld_email,
    ev_title: row.ev_title,
    ev_start_date: row.ev_start_date,
    ev_end_date: row.ev_end_date,
    account: { a_id: row.a_id, a_name: row.a_name },
    from: { u_first_name: row.sender_first_name ?? null, u_last_name: row.sender_last_name ?? null, u_email: row.sender_email ?? null },
    to: { u_first_name: row.to_first_name, u_last_name: row.to_last_name, u_email: row.to_email },
  };
}

/** The handoff of a link's token, whatever its status; undefined for an unknown token. */
export async function findHandoff(db: Knex, token: unknown): Promise<Row | undefined> {
  if (!isToken(token)) return undefined;
  return handoffView(db).where('ho_token_hash', hashToken(token)).first();
}

/**
 * The representative's answer: a pending handoff becomes accepted or not_available, once (one conditional update, so
 * a second answer finds nothing: 400 handoff_invalid). Accepting makes the representative the lead's owner, in the
 * same transaction; a representative who is no longer a member of the account can no longer accept.
 */
export async function decideHandoff(db: Knex, token: unknown, decision: HandoffDecision): Promise<Row> {
  if (!isToken(token)) throw handoffInvalid();
  return db.transaction(async (trx) => {
    const [decided] = await trx('handoffs')
      .where({ ho_token_hash: hashToken(token), ho_status: 'pending' })
      .update({ ho_status: decision, ho_decided_at: trx.fn.now(), ho_updated_at: trx.fn.now() })
      .returning(['ho_id', 'ho_accountid', 'ho_leadid', 'ho_to_userid']);
    if (!decided) throw handoffInvalid();
    if (decision === 'accepted') {
      const member = await trx('account_users').where({ au_accountid: decided.ho_accountid, au_userid: decided.ho_to_userid }).first('au_id');
      if (!member) throw handoffInvalid();
      await trx('leads').where({ ld_id: decided.ho_leadid, ld_accountid: decided.ho_accountid }).update({ ld_ownerid: decided.ho_to_userid, ld_updated_at: trx.fn.now() });
    }
    return handoffView(trx).where('ho_id', decided.ho_id).first();
  });
}
