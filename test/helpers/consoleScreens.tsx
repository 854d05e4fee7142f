import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, Notification, TestMemoryRouter, useRouterProvider, type AuthProvider, type DataProvider, type I18nProvider } from 'react-admin';
import { ACCOUNT_RESOURCES } from '../../resources/index';
import { grantsOf } from '../../resources/permissions';
import { ResourceRoutes } from '../../admin/src/generated/ResourceRoutes';
import { permissionsFor } from '../../admin/src/generated/access';
import { ConsoleContext } from '../../admin/src/console/ConsoleContext';
import { CONSOLE_SCREENS } from '../../admin/src/console/screens';
import TranscriptionQueue from '../../admin/src/leads/TranscriptionQueue';
import { setSession, type Session } from '../../admin/src/providers/session';
import { addConsoleTexts, addReactAdminTexts, i18nReady } from '../../admin/src/i18n';
import { canInAccount } from '../../admin/src/permissions';

/**
 * One account's console screens in jsdom (the hand-written ones in place) over an in-memory data provider: what
 * test/admin/consoleScreens and leadScreens mount.
 */
export const ACCOUNT = '3f0c3a7e-6b1d-4c2e-9f3a-0a1b2c3d4e5f';
export type Row = Record<string, unknown> & { id: string };

/** A signed-in user with a role in the account; `grants` changes what a role may (as ops can in the database). */
export function sessionAs(userRole: 'root' | 'member', accountRole: Session['accounts'][number]['au_role'], grants: Record<string, Record<string, number>> = {}): Session {
  const roles = ['root', 'superadmin', 'admin', 'member'] as const;
  return {
    code: 'ok',
    user: { id: 'u-me', u_id: 'u-me', u_first_name: 'Me', u_last_name: 'Myself', u_email: 'me@example.com', u_role: userRole, u_is_verified: true, u_is_enabled: true },
    permissions: grantsOf(userRole),
    roleGrants: Object.fromEntries(roles.map((r) => [r, { ...grantsOf(r), ...grants[r] }])),
    accounts: [{ a_id: ACCOUNT, a_name: 'Acme', a_admin_url: null, a_is_enabled: true, au_role: accountRole }],
    settings: { passwordMinLength: 12 },
  };
}

export function memoryData(tables: Record<string, Row[]>) {
  const calls: { method: string; resource: string; params: unknown }[] = [];
  /** The reads asked for, as `method resource` (a screen the caller may not open asks for none). */
  const reads: string[] = [];
  const provider: DataProvider = {
    async getList(resource, params) {
      reads.push(`getList ${resource}`);
      const rows = (tables[resource] ?? []).filter((r) => Object.entries(params.filter ?? {}).every(([k, v]) => k === 'q' || (Array.isArray(v) ? v.includes(r[k]) : r[k] === v)));
      // A page of them, like the API (the total is every match).
      const { page = 1, perPage = rows.length } = params.pagination ?? {};
      return { data: rows.slice((page - 1) * perPage, page * perPage) as never[], total: rows.length };
    },
    async getOne(resource, params) {
      reads.push(`getOne ${resource}`);
      return { data: { ...(tables[resource] ?? []).find((r) => r.id === params.id)! } as never };
    },
    async getMany(resource, params) {
      reads.push(`getMany ${resource}`);
      return { data: (tables[resource] ?? []).filter((r) => params.ids.includes(r.id)) as never[] };
    },
    async getManyReference() {
      return { data: [], total: 0 };
    },
    async create(resource, params) {
      calls.push({ method: 'create', resource, params });
      return { data: { ...params.data, id: 'new' } as never };
    },
    async update(resource, params) {
      calls.push({ method: 'update', resource, params });
      return { data: { ...params.previousData, ...params.data } as never };
    },
    async updateMany() {
      return { data: [] };
    },
    async delete(resource, params) {
      calls.push({ method: 'delete', resource, params });
      return { data: params.previousData as never };
    },
    async deleteMany() {
      return { data: [] };
    },
  };
  return { provider, calls, reads };
}

function ConsoleTestRoutes() {
  const { Routes, Route } = useRouterProvider();
  return (
    <Routes>
      <Route path="/transcription" element={<TranscriptionQueue />} />
      <Route path="/:resource/*" element={<ResourceRoutes declarations={ACCOUNT_RESOURCES} screens={CONSOLE_SCREENS} />} />
    </Routes>
  );
}

/** One account's console screens (the hand-written ones in place), for a caller with `session`, at `at`. */
export function mountConsole(session: Session, at: string, tables: Record<string, Row[]>, i18nProvider: I18nProvider) {
  setSession(session);
  const role = session.user.u_role === 'root' ? 'root' : session.accounts[0].au_role;
  const data = memoryData(tables);
  const authProvider: AuthProvider = {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getPermissions: async () => undefined,
    canAccess: async ({ resource, action }) => {
      const decl = ACCOUNT_RESOURCES.find((d) => d.name === resource);
      return !!decl && permissionsFor(action).some((p) => canInAccount(session, ACCOUNT, decl.group, p));
    },
  };
  render(
    <TestMemoryRouter initialEntries={[at]}>
      <AdminContext dataProvider={data.provider} authProvider={authProvider} i18nProvider={i18nProvider}>
        <ConsoleContext.Provider value={{ accountId: ACCOUNT, role }}>
          <ConsoleTestRoutes />
          <Notification />
        </ConsoleContext.Provider>
      </AdminContext>
    </TestMemoryRouter>,
  );
  return { data, user: userEvent.setup() };
}

/** English with react-admin's and the console's texts, as a console screen has them; answers react-admin's i18nProvider. */
export async function consoleI18n(): Promise<I18nProvider> {
  localStorage.setItem('RaStore.locale', JSON.stringify('en'));
  const provider = await i18nReady();
  await addReactAdminTexts();
  await addConsoleTexts();
  return provider;
}
