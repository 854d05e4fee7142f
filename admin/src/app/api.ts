import { accountPath, accountUrl } from '../providers/accountPath';
import { api, API_URL, ApiRequestError, isCsrfError, refreshCsrf, withCsrf } from '../providers/http';
import type { FormElementSpec } from '../../../resources/answers';
import type { LeadBody, Transport, TransportAnswer } from './queue';

/**
 * The capture app's calls: the same session and CSRF header as the admin (providers/http.ts), the routes of
 * account-console.md (leads, lead files, badge scan, handoffs, members, the event graph) and the app's own
 * (/app/events, /profile).
 */
export { ApiRequestError };

export interface SessionUser {
  u_id: string;
  u_email: string;
  u_first_name: string | null;
  u_last_name: string | null;
  u_role: string;
}

export interface AppAccount {
  id: string;
  a_id: string;
  a_name: string;
  role: string;
  permissions: Record<string, number>;
}

export interface AppEvent {
  id: string;
  ev_id: string;
  ev_accountid: string;
  ev_title: string;
  ev_name: string;
  ev_start_date: string | null;
  ev_end_date: string | null;
  ev_consent_text: string | null;
  a_id: string;
  a_name: string;
}

export interface AppEvents {
  today: string;
  accounts: AppAccount[];
  events: AppEvent[];
}

export interface FormGraph {
  form: { f_id: string; f_title: string; f_name: string };
  elements: FormElementSpec[];
}

export interface EventGraph {
  event: Record<string, unknown> & { ev_id: string; ev_title: string; ev_consent_text?: string | null };
  forms: FormGraph[];
}

export interface Lead {
  id: string;
  ld_id: string;
  ld_eventid: string;
  ld_email: string | null;
  ld_first_name: string | null;
  ld_last_name: string | null;
  ld_ownerid: string | null;
  ld_answers: Record<string, unknown>;
  ld_front_fileid: string | null;
  ld_back_fileid: string | null;
  ld_transcription_status: 'none' | 'pending' | 'postponed' | 'done';
  ld_source: string;
  ld_captured_at: string;
  ld_badge_code?: string | null;
  ld_rating?: number | null;
  ld_tags?: string[];
  ld_notes?: string | null;
  ld_memo_fileid?: string | null;
  ld_memo_url?: string | null;
}

export interface Member {
  au_userid: string;
  u_email: string;
  u_first_name: string | null;
  u_last_name: string | null;
}

export interface Profile {
  u_id: string;
  u_email: string;
  u_first_name: string | null;
  u_last_name: string | null;
  has_picture: boolean;
  picture_url: string | null;
}

/** The signed-in user, or null without a session. Network failures throw (the app then works from its cache). */
export async function currentUser(): Promise<SessionUser | null> {
  try {
    const me = await api<{ user: SessionUser }>('/auth/me');
    return me.user;
  } catch (e) {
    if (e instanceof ApiRequestError && e.status === 401) return null;
    throw e;
  }
}

export async function signIn(email: string, password: string): Promise<SessionUser> {
  const res = await api<{ user: SessionUser }>('/auth/web', { method: 'POST', body: { u_email: email, u_password: password } });
  return res.user;
}

export const signOut = () => api('/auth/logout', { method: 'POST' });

export const appEvents = () => api<AppEvents>('/app/events');

export const eventGraph = (accountId: string, eventId: string) => api<EventGraph>(accountPath(accountId, 'events', eventId, 'graph'));

/** POST /events/{id}/scan {code} → answers by data name (504 badge_scan_timeout when the provider is slow). */
export const scanBadge = (accountId: string, eventId: string, code: string) =>
  api<{ answers: Record<string, unknown> }>(accountPath(accountId, 'events', eventId, 'scan'), { method: 'POST', body: { code } });

export interface LeadQuery {
  ownerId: string;
  q?: string;
  status?: string;
  eventId?: string;
  from?: string;
  to?: string;
  sort: [string, 'ASC' | 'DESC'];
  start: number;
  count: number;
}

/** One page of leads (ra-data-simple-rest: filter, sort, range as JSON; the total from Content-Range). */
export async function listLeads(accountId: string, query: LeadQuery): Promise<{ leads: Lead[]; total: number }> {
  const filter: Record<string, string> = { ld_ownerid: query.ownerId };
  if (query.q?.trim()) filter.q = query.q.trim();
  if (query.status) filter.ld_transcription_status = query.status;
  if (query.eventId) filter.ld_eventid = query.eventId;
  if (query.from) filter.captured_from = query.from;
  if (query.to) filter.captured_to = query.to;
  const params = new URLSearchParams({
    filter: JSON.stringify(filter),
    sort: JSON.stringify(query.sort),
    range: JSON.stringify([query.start, query.start + query.count - 1]),
  });
  const res = await fetch(`${accountUrl(accountId, 'leads')}?${params}`, { credentials: 'include', headers: withCsrf() });
  const body = await res.json().catch(() => undefined);
  if (!res.ok) throw new ApiRequestError(res.status, body ?? { code: 'http_error' });
  const range = res.headers.get('Content-Range') ?? '';
  const total = Number(range.split('/')[1] ?? NaN);
  return { leads: body as Lead[], total: Number.isFinite(total) ? total : (body as Lead[]).length };
}

export const getLead = (accountId: string, id: string) => api<Lead>(accountPath(accountId, 'leads', id));

/** Transcription of a card: the answers typed from the photo, status done. */
export const saveTranscription = (accountId: string, id: string, answers: Record<string, unknown>) =>
  api<Lead>(accountPath(accountId, 'leads', id), { method: 'PUT', body: { ld_answers: answers, ld_transcription_status: 'done' } });

export const members = (accountId: string) => api<Member[]>(accountPath(accountId, 'members'));

export const handOff = (accountId: string, leadId: string, toUserId: string, message: string) =>
  api(accountPath(accountId, 'handoffs'), { method: 'POST', body: { ho_leadid: leadId, ho_to_userid: toUserId, ho_message: message } });

/** A free slot of an event, as the public booking page lists it (GET /meet/{eventId}). */
export interface FreeSlot {
  ms_id: string;
  ms_start: string;
  ms_end: string;
  ms_location: string | null;
  ms_hostid: string | null;
  free: number;
  host: { u_first_name: string | null; u_last_name: string | null } | null;
}

/** A meeting of a lead (GET …/meetings, with the slot's times and the host's names). */
export interface LeadMeeting {
  mg_id: string;
  mg_status: 'requested' | 'accepted' | 'declined' | 'cancelled' | 'done' | 'no_show';
  ms_start: string;
  ms_end: string;
  ms_location: string | null;
  host_first_name?: string | null;
  host_last_name?: string | null;
}

/** The event's free slots to come and the account's time zone (the booking page's call: free places counted there). */
export const freeSlots = (eventId: string) => api<{ time_zone: string; slots: FreeSlot[] }>(`/meet/${encodeURIComponent(eventId)}`);

export const leadMeetings = (accountId: string, leadId: string) =>
  api<LeadMeeting[]>(
    `${accountPath(accountId, 'meetings')}?${new URLSearchParams({ filter: JSON.stringify({ mg_leadid: leadId }), sort: JSON.stringify(['mg_created_at', 'DESC']), range: '[0,99]' })}`,
  );

/** Books a slot for the lead (the console's POST …/meetings; 409 slot_full when it was taken meanwhile). */
export const bookMeeting = (accountId: string, body: { mg_eventid: string; mg_slotid: string; mg_leadid: string; mg_status: 'requested' | 'accepted' }) =>
  api<LeadMeeting>(accountPath(accountId, 'meetings'), { method: 'POST', body });

export const leadFileUrl = (accountId: string, fileId: string) => accountUrl(accountId, 'lead-files', fileId);

export const profile = () => api<Profile>('/profile');

async function sendBytes(url: string, method: 'PUT', blob: Blob): Promise<Response> {
  const call = () => fetch(url, { method, credentials: 'include', headers: withCsrf({ 'Content-Type': blob.type || 'application/octet-stream' }), body: blob });
  let res = await call();
  if (res.status === 403) {
    const body = await res
      .clone()
      .json()
      .catch(() => undefined);
    if (isCsrfError(403, body)) {
      await refreshCsrf();
      res = await call();
    }
  }
  return res;
}

export async function putProfilePicture(blob: Blob): Promise<Profile> {
  const res = await sendBytes(`${API_URL}/profile/picture`, 'PUT', blob);
  const body = await res.json().catch(() => undefined);
  if (!res.ok) throw new ApiRequestError(res.status, body ?? { code: 'http_error' });
  return body as Profile;
}

export const removeProfilePicture = () => api<Profile>('/profile/picture', { method: 'DELETE' });

async function answer(res: Response): Promise<TransportAnswer> {
  return { status: res.status, body: await res.json().catch(() => undefined) };
}

/** The queue's way out: PUT each photo's bytes under its id, POST the lead; network failures throw. */
export const transport: Transport = {
  async putFile(accountId, id, blob) {
    return answer(await sendBytes(leadFileUrl(accountId, id), 'PUT', blob));
  },
  async postLead(accountId: string, body: LeadBody) {
    try {
      return { status: 201, body: await api(accountPath(accountId, 'leads'), { method: 'POST', body }) };
    } catch (e) {
      if (e instanceof ApiRequestError) return { status: e.status, body: e.body };
      throw e;
    }
  },
  async putLead(accountId: string, leadId: string, changes: Record<string, unknown>) {
    try {
      return { status: 200, body: await api(accountPath(accountId, 'leads', leadId), { method: 'PUT', body: changes }) };
    } catch (e) {
      if (e instanceof ApiRequestError) return { status: e.status, body: e.body };
      throw e;
    }
  },
};
