import { api, ApiRequestError } from './http';
import type { Role } from '../../../resources/permissions';

/** The signed-in user as the API describes it (POST /auth/web, GET /auth/me). */
export interface SessionUser {
  id: string;
  u_id: string;
  u_first_name: string;
  u_last_name: string;
  u_email: string;
  u_role: Role;
  u_is_verified: boolean;
  u_is_enabled: boolean;
}

/** A membership: the account's fields plus the caller's role in it. */
export interface Membership {
  a_id: string;
  a_name: string;
  a_admin_url: string | null;
  a_is_enabled: boolean;
  au_role: Role;
  [field: string]: unknown;
}

export interface Session {
  code: 'ok';
  user: SessionUser;
  /** Permission group -> granted bits for the user's own role. */
  permissions: Record<string, number>;
  /** Stored grants of every role the user holds (own role and membership roles). */
  roleGrants?: Record<string, Record<string, number>>;
  accounts: Membership[];
  settings: { passwordMinLength: number };
}

let current: Promise<Session | null> | undefined;

/** The session, asked once and then cached; `force` asks the server again. Resolves null without a session. */
export function loadSession(force = false): Promise<Session | null> {
  if (!current || force) {
    current = api<Session>('/auth/me').catch((e: unknown) => {
      if (e instanceof ApiRequestError && e.status === 401) return null;
      current = undefined; // a network failure is not an answer: ask again next time
      throw e;
    });
  }
  return current;
}

export function setSession(session: Session | null): void {
  current = Promise.resolve(session);
}

export function clearSession(): void {
  current = undefined;
}

export const fullName = (u: { u_first_name?: string | null; u_last_name?: string | null; u_email?: string | null }) =>
  [u.u_first_name, u.u_last_name].filter(Boolean).join(' ') || u.u_email || '';
