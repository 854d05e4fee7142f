import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, Notification, TestMemoryRouter, useRouterProvider, type AuthProvider, type I18nProvider } from 'react-admin';
import { ACCOUNT_RESOURCES } from '../../resources/index';
import { ResourceRoutes } from '../../admin/src/generated/ResourceRoutes';
import { permissionsFor } from '../../admin/src/generated/access';
import { ConsoleContext } from '../../admin/src/console/ConsoleContext';
import { CONSOLE_SCREENS } from '../../admin/src/console/screens';
import { setSession, type Session } from '../../admin/src/providers/session';
import { canInAccount } from '../../admin/src/permissions';
import { ACCOUNT, consoleI18n, memoryData, mountConsole, sessionAs, type Row } from '../helpers/consoleScreens';

/**
 * The trash of a list (platform-and-flows.md section 1): a "Trash" button on every trash resource's list, the Trash view
 * at …/{resource}/trash with restore and delete for good (both confirmed, both with the delete bit), and the delete
 * confirmation of the edit page saying the record can be restored.
 */

let i18nProvider: I18nProvider;
beforeAll(async () => {
  i18nProvider = await consoleI18n();
});
afterEach(() => {
  cleanup();
  setSession(null);
  vi.unstubAllGlobals();
});

const TRASHED: Row[] = [
  { id: 'l-1', l_id: 'l-1', l_title: 'Sizes', l_name: 'sizes', l_deleted_at: '2026-11-25T10:00:00Z' },
  { id: 'l-2', l_id: 'l-2', l_title: 'Colours', l_name: 'colours', l_deleted_at: '2026-11-24T09:00:00Z' },
];

type FetchCall = { method: string; path: string };

/** fetch for the trash calls: the trash list answers `rows`; restore and purge answer the record. */
function serveFetch(rows: () => Row[], answer?: (call: FetchCall) => Response | undefined) {
  const fetched: FetchCall[] = [];
  document.cookie = 'ls.csrf-token=tok';
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = { method: init.method ?? 'GET', path: String(url).replace(/^\/api\/1/, '') };
      fetched.push(call);
      const own = answer?.(call);
      if (own) return own;
      if (call.method === 'GET' && call.path.includes('/trash?')) return Response.json(rows());
      return Response.json(TRASHED[0]);
    }),
  );
  return fetched;
}

function Routes() {
  const { Routes: R, Route } = useRouterProvider();
  return (
    <R>
      <Route path="/:resource/*" element={<ResourceRoutes declarations={ACCOUNT_RESOURCES} screens={CONSOLE_SCREENS} />} />
    </R>
  );
}

function mount(session: Session, at: string, tables: Record<string, Row[]> = {}) {
  setSession(session);
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
        <ConsoleContext.Provider value={{ accountId: ACCOUNT, role: session.accounts[0].au_role }}>
          <Routes />
          <Notification />
        </ConsoleContext.Provider>
      </AdminContext>
    </TestMemoryRouter>,
  );
}

describe('the trash of a list', () => {
  it('a trash resource’s list has a Trash button to …/trash; a list without a trash has none', async () => {
    serveFetch(() => []);
    mount(sessionAs('member', 'superadmin'), '/lists', { lists: [{ id: 'l-9', l_id: 'l-9', l_title: 'Live', l_name: 'live' }], views: [] });
    const button = await screen.findByTestId('trash-button', {}, { timeout: 15_000 });
    expect(button.textContent).toBe('Trash');
    expect(button.getAttribute('href')).toBe('/lists/trash');
    cleanup();
    mount(sessionAs('member', 'superadmin'), '/integrations', { integrations: [{ id: 'i-1', in_id: 'i-1', in_title: 'Scanner', in_name: 'scanner' }], views: [] });
    await screen.findByText('Scanner', {}, { timeout: 15_000 });
    expect(screen.queryByTestId('trash-button')).toBeNull();
  });

  it('the hand-written lists built on the generated one have it too: leads, assets', async () => {
    serveFetch(() => []);
    const lead = { id: 'ld-1', ld_id: 'ld-1', ld_eventid: 'ev-1', ld_first_name: 'Ann', ld_answers: {}, ld_source: 'manual', ld_transcription_status: 'none', ld_is_valid: true };
    mountConsole(sessionAs('member', 'admin'), '/leads', { leads: [lead], events: [{ id: 'ev-1', ev_title: 'Expo' }], members: [], views: [] }, i18nProvider);
    expect((await screen.findByTestId('trash-button', {}, { timeout: 15_000 })).getAttribute('href')).toMatch(/\/leads\/trash$/);
    cleanup();
    mountConsole(sessionAs('member', 'admin'), '/assets', { assets: [], views: [] }, i18nProvider);
    expect((await screen.findByTestId('trash-button', {}, { timeout: 15_000 })).getAttribute('href')).toMatch(/\/assets\/trash$/);
  });

  it('lists the trashed records, most recently deleted first, and restores one after a confirmation', async () => {
    let rows = TRASHED;
    const fetched = serveFetch(() => rows);
    mount(sessionAs('member', 'superadmin'), '/lists/trash');
    const found = await screen.findAllByTestId('trash-row', {}, { timeout: 15_000 });
    expect(found.map((r) => r.textContent)).toEqual([expect.stringContaining('Sizes'), expect.stringContaining('Colours')]);
    const list = fetched.find((c) => c.method === 'GET')!;
    const url = new URL(list.path, 'http://x');
    expect(url.pathname).toBe(`/accounts/${ACCOUNT}/lists/trash`);
    expect(JSON.parse(url.searchParams.get('sort')!)).toEqual(['l_deleted_at', 'DESC']);
    expect(JSON.parse(url.searchParams.get('range')!)).toEqual([0, 24]);

    fireEvent.click(within(found[0]).getByTestId('trash-restore'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Restore “Sizes”?');
    expect(fetched.filter((c) => c.method !== 'GET')).toEqual([]);
    rows = [TRASHED[1]];
    fireEvent.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(fetched.filter((c) => c.method !== 'GET')).toEqual([{ method: 'POST', path: `/accounts/${ACCOUNT}/lists/l-1/restore` }]));
    await screen.findByText('“Sizes” was restored.');
    await waitFor(() => expect(screen.getAllByTestId('trash-row')).toHaveLength(1));
  });

  it('deletes for good after a confirmation that says it cannot be undone; a refusal is shown', async () => {
    const fetched = serveFetch(
      () => TRASHED,
      (call) => (call.method === 'DELETE' ? Response.json({ code: 'reference_conflict', message: 'in use' }, { status: 409 }) : undefined),
    );
    mount(sessionAs('member', 'superadmin'), '/lists/trash');
    const found = await screen.findAllByTestId('trash-row', {}, { timeout: 15_000 });
    fireEvent.click(within(found[1]).getByTestId('trash-purge'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Delete “Colours” for good?');
    expect(dialog.textContent).toContain('cannot be undone');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete for good' }));
    await waitFor(() => expect(fetched.filter((c) => c.method === 'DELETE')).toEqual([{ method: 'DELETE', path: `/accounts/${ACCOUNT}/lists/l-2/purge` }]));
    // The refusal is shown, and the record stays listed.
    await waitFor(() => expect(document.querySelector('.MuiSnackbar-root')?.textContent ?? '').not.toBe(''));
    expect(screen.getAllByTestId('trash-row')).toHaveLength(2);
  });

  it('without the delete bit the trash is shown without restore or purge; an empty trash says so', async () => {
    serveFetch(() => TRASHED);
    // A member reads events but may not delete them.
    mount(sessionAs('member', 'member'), '/events/trash');
    await screen.findAllByTestId('trash-row', {}, { timeout: 15_000 });
    expect(screen.queryByTestId('trash-restore')).toBeNull();
    expect(screen.queryByTestId('trash-purge')).toBeNull();
    cleanup();
    serveFetch(() => []);
    mount(sessionAs('member', 'superadmin'), '/lists/trash');
    expect((await screen.findByTestId('trash-empty', {}, { timeout: 15_000 })).textContent).toBe('The trash is empty.');
  });

  it('the trash of a resource without one is not found', async () => {
    const fetched = serveFetch(() => []);
    mount(sessionAs('member', 'superadmin'), '/integrations/trash');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByTestId('trash-list')).toBeNull();
    expect(fetched.filter((c) => c.path.includes('/trash'))).toEqual([]);
  });

  it('the delete confirmation of a trash resource’s edit page says it can be restored', async () => {
    serveFetch(() => []);
    const template = { id: 'mt-1', mt_id: 'mt-1', mt_name: 'registration', mt_subject: 'Welcome', mt_html: '<p>Hi</p>', mt_text: 'Hi' };
    mount(sessionAs('member', 'superadmin'), '/mail-templates/mt-1', { 'mail-templates': [template], views: [] });
    const del = await screen.findByRole('button', { name: /^delete$/i }, { timeout: 15_000 });
    fireEvent.click(del);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('It goes to the trash, from where it can be restored');
  });
});
