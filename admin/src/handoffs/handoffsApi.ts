import { accountPath } from '../providers/accountPath';
import { api } from '../providers/http';

/** A handoff as GET /accounts/{a}/handoffs answers it (with the names of the lead, the representative and the sender). */
export interface HandoffRecord {
  id: string;
  ho_id: string;
  ho_leadid: string;
  ho_to_userid: string;
  ho_message: string | null;
  ho_status: 'pending' | 'accepted' | 'not_available';
  ho_created_by: string | null;
  ho_created_at: string;
  ho_decided_at: string | null;
  to_first_name: string | null;
  to_last_name: string | null;
  to_email: string | null;
  sender_first_name: string | null;
  sender_last_name: string | null;
  sender_email: string | null;
}

export interface MemberOption {
  au_userid: string;
  u_email: string;
  u_first_name: string | null;
  u_last_name: string | null;
}

const list = (params: Record<string, unknown>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`)
    .join('&');

/** Query keys: the history of one lead (the dialog refreshes it after a send). */
export const historyKey = (accountId: string, leadId: string) => ['console', accountId, 'handoffs', 'lead', leadId];

/** A lead's handoffs, newest first (at most 100: a lead is handed off a few times, not hundreds). */
export const fetchHistory = (accountId: string, leadId: string) =>
  api<HandoffRecord[]>(`${accountPath(accountId, 'handoffs')}?${list({ filter: { ho_leadid: leadId }, sort: ['ho_created_at', 'DESC'], range: [0, 99] })}`);

/** Members matching a search (prefix of e-mail, first or last name, on the server), at most 50. */
export const searchMembers = (accountId: string, q: string) =>
  api<MemberOption[]>(`${accountPath(accountId, 'members')}?${list({ filter: q.trim() ? { q: q.trim() } : {}, sort: ['u_email', 'ASC'], range: [0, 49] })}`);

export const createHandoff = (accountId: string, body: { ho_leadid: string; ho_to_userid: string; ho_message: string }) =>
  api<HandoffRecord>(accountPath(accountId, 'handoffs'), { method: 'POST', body });

export const personName = (first: string | null | undefined, last: string | null | undefined, email: string | null | undefined) =>
  [first, last].filter((v) => v && v.trim()).join(' ') || email || '';
