import type { AuthProvider } from 'ra-core';
import { api, ApiRequestError } from './http';
import { clearSession, fullName, loadSession, setSession, type Session } from './session';

export interface Credentials {
  u_email: string;
  u_password: string;
}

/** POST /auth/web; resolves the session, rejects with ApiRequestError (code invalid_credentials, user_not_verified…). */
export async function login(credentials: Credentials): Promise<Session> {
  const session = await api<Session>('/auth/web', { method: 'POST', body: credentials });
  setSession(session);
  return session;
}

/** GET /auth/logout; a failure is only logged (spec 7), the local session is gone either way. */
export async function logout(): Promise<void> {
  try {
    await api('/auth/logout');
  } catch (e) {
    console.warn('logout failed', e);
  }
  clearSession();
}

const statusOf = (error: unknown): number | undefined => (error as { status?: number } | null)?.status;

/**
 * react-admin's view of the session: checkAuth asks /auth/me once and caches it, getPermissions answers the grants
 * map, canAccess asks the shared can() (resources/permissions.ts) with those grants.
 */
export const authProvider: AuthProvider = {
  async login(params: Credentials) {
    await login(params);
  },
  async logout() {
    await logout();
    return '/login';
  },
  async checkAuth() {
    const session = await loadSession();
    if (!session) throw { redirectTo: '/login', message: false };
  },
  async checkError(error: unknown) {
    const status = statusOf(error);
    if (status === 401) {
      clearSession();
      throw { redirectTo: '/login', logoutUser: true, message: 'error_not_logged_in' };
    }
    // 403 (no permission) is shown as an error where it happened; the session is still good.
  },
  async getIdentity() {
    const session = await loadSession();
    if (!session) throw new ApiRequestError(401, { code: 'not_logged_in' });
    return { id: session.user.u_id, fullName: fullName(session.user), email: session.user.u_email, role: session.user.u_role };
  },
  async getPermissions() {
    const session = await loadSession();
    return session?.permissions ?? {};
  },
  async canAccess({ resource, action }) {
    // loaded here, not with login(): the permission rules read the declarations, which the sign-in page does not need
    const { canEntry } = await import('../permissions');
    return canEntry(await loadSession(), resource, action);
  },
};
