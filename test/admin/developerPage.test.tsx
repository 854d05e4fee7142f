import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AdminContext, testDataProvider, type I18nProvider } from 'react-admin';
import knex from 'knex';
import { addConsoleTexts, addReactAdminTexts, i18nReady } from '../../admin/src/i18n';
import { ConsoleContext } from '../../admin/src/console/ConsoleContext';
import { setSession, type Session } from '../../admin/src/providers/session';
import { menuPagesFor } from '../../admin/src/console/access';
import { grantsOf } from '../../resources/permissions';
import { RESOURCES } from '../../resources/index';
import { createApp } from '../../api/app';
import { loadConfig } from '../../api/config';
import { buildOpenApi } from '../../api/openapi/document';
import { mountedRoutes } from '../../api/openapi/mountedRoutes';

const { default: DeveloperPage } = await import('../../admin/src/developer/DeveloperPage');

const ACCOUNT = '3f0c3a7e-6b1d-4c2e-9f3a-0a1b2c3d4e5f';

// The page reads the API's real document (built here from the app's routes and the registry, as the server does).
const config = loadConfig({ LOG_LEVEL: 'silent', PUBLIC_URL: 'http://localhost:3000' });
const db = knex({ client: 'pg', connection: 'postgres://openapi.invalid/none', pool: { min: 0, max: 1 } });
const { app } = createApp({ db, config, log: () => undefined });
const DOCUMENT = buildOpenApi({ routes: mountedRoutes(app).routes, resources: RESOURCES, config });
const OPERATIONS = Object.values(DOCUMENT.paths as Record<string, object>).reduce((n: number, ops) => n + Object.keys(ops).length, 0);

let i18nProvider: I18nProvider;
let answer: () => Response;
beforeAll(async () => {
  localStorage.setItem('RaStore.locale', JSON.stringify('en'));
  i18nProvider = await i18nReady();
  await addReactAdminTexts();
  await addConsoleTexts();
  return () => db.destroy();
});

const session = (role: string): Session =>
  ({
    code: 'ok',
    user: { id: 'u', u_id: 'u', u_first_name: 'U', u_last_name: '', u_email: 'u@example.com', u_role: 'member', u_is_verified: true, u_is_enabled: true },
    permissions: grantsOf('member'),
    roleGrants: { [role]: grantsOf(role) },
    accounts: [{ a_id: ACCOUNT, a_name: 'Acme', a_admin_url: null, a_is_enabled: true, au_role: role }],
    settings: { passwordMinLength: 12 },
  }) as never;

const calls: string[] = [];
beforeEach(() => {
  calls.length = 0;
  answer = () => new Response(JSON.stringify(DOCUMENT), { status: 200, headers: { 'Content-Type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      calls.push(String(url));
      return answer();
    }),
  );
  setSession(session('superadmin'));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setSession(null);
});

function mount() {
  render(
    <MemoryRouter initialEntries={['/developer']}>
      <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider}>
        <ConsoleContext.Provider value={{ accountId: ACCOUNT, role: 'superadmin' }}>
          <DeveloperPage />
        </ConsoleContext.Provider>
      </AdminContext>
    </MemoryRouter>,
  );
  return userEvent.setup();
}

describe('the developer page', () => {
  it('lists every call of the document by tag, with this account in the paths', async () => {
    mount();
    const events = await screen.findByTestId('developer-tag-events');
    expect(calls).toEqual(['/api/1/openapi.json']);
    expect(screen.getByText(`${OPERATIONS} calls`)).toBeTruthy();
    // list and create share the path: GET and POST, then the calls on one event
    const lines = within(events)
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(lines.slice(0, 2)).toEqual([`GET/api/1/accounts/${ACCOUNT}/eventsList events`, `POST/api/1/accounts/${ACCOUNT}/eventsCreate event`]);
    expect(screen.getByTestId('developer-tag-auth')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'The OpenAPI 3.1 document (JSON)' }).getAttribute('href')).toBe('/api/1/openapi.json');
  });

  it('searches paths and summaries, and says when nothing matches', async () => {
    const user = mount();
    await screen.findByTestId('developer-tag-events');
    await user.click(screen.getByTestId('developer-search'));
    await user.paste('post auth/web');
    await waitFor(() => expect(screen.queryByTestId('developer-tag-events')).toBeNull());
    const auth = screen.getByTestId('developer-tag-auth');
    expect(
      within(auth)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual([expect.stringContaining('/api/1/auth/web')]);
    expect(screen.getByText('1 call')).toBeTruthy();
    await user.clear(screen.getByTestId('developer-search'));
    await user.click(screen.getByTestId('developer-search'));
    await user.paste('zzznothing');
    expect(await screen.findByText('No call matches this search.')).toBeTruthy();
  });

  it("opens a call: who may call it, its parameters, the body's fields with the required ones marked, the responses", async () => {
    const user = mount();
    await screen.findByTestId('developer-tag-events');
    await user.click(screen.getByTestId('developer-search'));
    await user.paste('create event');
    const events = await screen.findByTestId('developer-tag-events');
    await waitFor(() => expect(within(events).getAllByRole('button')).toHaveLength(1));
    await user.click(within(events).getByRole('button'));
    expect(await within(events).findByText(/session \+ csrf or bearer/)).toBeTruthy();
    const body = within(events).getByRole('table', { name: 'Body' });
    const rows = within(body)
      .getAllByRole('row')
      .map((r) => r.querySelector('td')?.textContent)
      .filter(Boolean);
    expect(rows).toEqual(expect.arrayContaining(['ev_title *', 'ev_name *', 'ev_start_date']));
    const params = within(events).getByRole('table', { name: 'Parameters' });
    expect(within(params).getByText('accountId *')).toBeTruthy();
    const responses = within(events).getByRole('table', { name: 'Responses' });
    expect(within(responses).getByText('201')).toBeTruthy();
    expect(within(responses).getByText(/not_found: no such record/)).toBeTruthy();
  });

  it('says when the document cannot be loaded, and tries again', async () => {
    answer = () => new Response(JSON.stringify({ code: 'database_unavailable' }), { status: 503, headers: { 'Content-Type': 'application/json' } });
    const user = mount();
    expect(await screen.findByText('The API description could not be loaded.', {}, { timeout: 5000 })).toBeTruthy();
    answer = () => new Response(JSON.stringify(DOCUMENT), { status: 200, headers: { 'Content-Type': 'application/json' } });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('developer-tag-events')).toBeTruthy();
  });

  it('is in the menu for a role with app_general export_curl, not for a member', () => {
    expect(menuPagesFor(session('superadmin'), ACCOUNT).map((p) => p.name)).toContain('developer');
    expect(menuPagesFor(session('member'), ACCOUNT).map((p) => p.name)).not.toContain('developer');
  });
});
