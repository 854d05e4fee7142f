import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, Notification, TestMemoryRouter, useRouterProvider, type AuthProvider, type DataProvider, type I18nProvider } from 'react-admin';
import { ACCOUNT_RESOURCES } from '../../resources/index';
import { ResourceRoutes } from '../../admin/src/generated/ResourceRoutes';
import { permissionsFor } from '../../admin/src/generated/access';
import { ConsoleContext } from '../../admin/src/console/ConsoleContext';
import { CONSOLE_SCREENS } from '../../admin/src/console/screens';
import { setSession, type Session } from '../../admin/src/providers/session';
import { canInAccount } from '../../admin/src/permissions';
import { ACCOUNT, consoleI18n, sessionAs, type Row } from '../helpers/consoleScreens';

/**
 * The toolbar every generated list gets (platform-and-flows.md 1 and 2): the Views menu, the column chooser, Export,
 * bulk selection with "select all N matching", bulk update and delete, and Copy as cURL by permission. The sponsors
 * example (test/fixtures/sponsors) joins the registry with its tier and shown flag marked `bulk`.
 */
vi.mock('../../resources/registry', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../resources/registry')>();
  const { sponsors } = await import('../fixtures/sponsors/sponsors');
  const withBulk = {
    ...sponsors,
    fields: { ...sponsors.fields, sp_tier: { ...sponsors.fields.sp_tier, bulk: true }, sp_is_enabled: { ...sponsors.fields.sp_is_enabled, bulk: true } },
  };
  return { ...real, ACCOUNT_RESOURCES: [...real.ACCOUNT_RESOURCES, withBulk], RESOURCES: [...real.RESOURCES, withBulk] };
});

let i18nProvider: I18nProvider;
beforeAll(async () => {
  i18nProvider = await consoleI18n();
});
afterEach(() => {
  cleanup();
  setSession(null);
  vi.unstubAllGlobals();
  localStorage.removeItem('RaStore.sponsors.datatable');
  localStorage.removeItem('RaStore.sponsors.datatable_columnRanks');
});

const SPONSORS: Row[] = Array.from({ length: 30 }, (_, i) => ({
  id: `sp-${i + 1}`,
  sp_id: `sp-${i + 1}`,
  sp_title: `Sponsor ${String(i + 1).padStart(2, '0')}`,
  sp_website: `https://s${i + 1}.example.com`,
  sp_tier: i % 2 ? 'gold' : 'silver',
  sp_is_enabled: true,
  sp_eventid: null,
  sp_logo_assetid: null,
}));

const view = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  vw_id: id,
  vw_resource: 'sponsors',
  vw_title: `View ${id}`,
  vw_filter: {},
  vw_sort: null,
  vw_columns: null,
  vw_shared: false,
  vw_ownerid: 'u-me',
  ...extra,
});

type Call = { method: string; resource: string; params: Record<string, unknown> };

/** An in-memory provider with paging, equality filters and sorting (the list's total beyond one page). */
function pagedData(tables: Record<string, Row[]>) {
  const calls: Call[] = [];
  const provider: DataProvider = {
    async getList(resource, params) {
      calls.push({ method: 'getList', resource, params: params as never });
      const { q: _q, ...equal } = (params.filter ?? {}) as Record<string, unknown>;
      let rows = (tables[resource] ?? []).filter((r) => Object.entries(equal).every(([k, v]) => r[k] === v));
      const { field, order } = params.sort ?? { field: 'id', order: 'ASC' };
      rows = [...rows].sort((a, b) => String(a[field]).localeCompare(String(b[field])) * (order === 'DESC' ? -1 : 1));
      const { page, perPage } = params.pagination ?? { page: 1, perPage: 25 };
      return { data: rows.slice((page - 1) * perPage, page * perPage) as never[], total: rows.length };
    },
    async getOne(resource, params) {
      return { data: { ...(tables[resource] ?? []).find((r) => r.id === params.id)! } as never };
    },
    async getMany(resource, params) {
      return { data: (tables[resource] ?? []).filter((r) => params.ids.includes(r.id)) as never[] };
    },
    async getManyReference() {
      return { data: [], total: 0 };
    },
    async create(resource, params) {
      calls.push({ method: 'create', resource, params: params as never });
      return { data: { ...params.data, id: 'new-view' } as never };
    },
    async update(resource, params) {
      calls.push({ method: 'update', resource, params: params as never });
      return { data: { ...params.previousData, ...params.data } as never };
    },
    async updateMany() {
      return { data: [] };
    },
    async delete(resource, params) {
      calls.push({ method: 'delete', resource, params: params as never });
      return { data: params.previousData as never };
    },
    async deleteMany() {
      return { data: [] };
    },
  };
  return { provider, calls };
}

type FetchCall = { method: string; path: string; body?: unknown };

/** fetch for the calls outside the data provider (bulk): `answer` decides the response. */
function serveFetch(answer: (call: FetchCall) => Response = () => Response.json({ count: 2 })) {
  const fetched: FetchCall[] = [];
  document.cookie = 'ls.csrf-token=tok';
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = { method: init.method ?? 'GET', path: String(url).replace(/^\/api\/1/, ''), body: init.body ? JSON.parse(String(init.body)) : undefined };
      fetched.push(call);
      return answer(call);
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

function mount(session: Session, tables: Record<string, Row[]>, at = '/sponsors') {
  setSession(session);
  const data = pagedData(tables);
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
  return data;
}

/** The column headers' texts (the checkbox column has none). */
const headers = () => [...document.querySelectorAll('table thead th')].map((h) => h.textContent?.trim() ?? '').filter(Boolean);
const lastList = (calls: Call[], resource = 'sponsors') => calls.filter((c) => c.method === 'getList' && c.resource === resource).at(-1)!.params;

describe('the views menu', () => {
  it('applies a view (filter, sort, columns) and saves the list as it is as a new view, shared with the update bit', async () => {
    const data = mount(sessionAs('root', 'root'), {
      sponsors: SPONSORS,
      views: [view('v1', { vw_title: 'Gold by title', vw_filter: { sp_tier: 'gold' }, vw_sort: ['sp_title', 'DESC'], vw_columns: ['sp_title', 'sp_tier'] })],
    });
    fireEvent.click(await screen.findByTestId('views-button', {}, { timeout: 15_000 }));
    fireEvent.click(await screen.findByRole('menuitem', { name: /Gold by title/ }));
    await waitFor(() => expect(lastList(data.calls)).toMatchObject({ filter: { sp_tier: 'gold' }, sort: { field: 'sp_title', order: 'DESC' } }));
    await waitFor(() => expect(headers()).toEqual(['Name', 'Tier']));
    expect(screen.getByTestId('views-button').textContent).toContain('Gold by title');

    fireEvent.click(screen.getByTestId('views-button'));
    fireEvent.click(await screen.findByTestId('view-save-new'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByTestId('view-title'), { target: { value: 'My gold' } });
    fireEvent.click(within(dialog).getByTestId('view-shared').querySelector('input')!);
    fireEvent.click(within(dialog).getByTestId('view-dialog-save'));
    await waitFor(() => expect(data.calls.find((c) => c.method === 'create' && c.resource === 'views')).toBeTruthy());
    expect(data.calls.find((c) => c.method === 'create')!.params.data).toEqual({
      vw_resource: 'sponsors',
      vw_title: 'My gold',
      vw_shared: true,
      vw_filter: { sp_tier: 'gold' },
      vw_sort: ['sp_title', 'DESC'],
      vw_columns: ['sp_title', 'sp_tier'],
    });
  });

  it('the shared checkbox only with the update bit; rename, share and delete (confirmed) only on an own view', async () => {
    const data = mount(sessionAs('member', 'member'), {
      sponsors: SPONSORS,
      views: [view('mine', { vw_title: 'Mine' }), view('theirs', { vw_title: 'Theirs', vw_shared: true, vw_ownerid: 'u-other' })],
    });
    fireEvent.click(await screen.findByTestId('views-button', {}, { timeout: 15_000 }));
    expect(await screen.findByText('Shared with you')).toBeTruthy();
    fireEvent.click(await screen.findByRole('menuitem', { name: /Theirs/ }));
    fireEvent.click(screen.getByTestId('views-button'));
    await screen.findByTestId('view-save-new');
    expect(screen.queryByTestId('view-rename')).toBeNull(); // not the caller's
    expect(screen.queryByTestId('view-delete')).toBeNull();
    fireEvent.click(screen.getByTestId('view-save-new'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByTestId('view-shared')).toBeNull(); // a member may not change sponsors
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByTestId('views-button'));
    fireEvent.click(await screen.findByRole('menuitem', { name: /Mine/ }));
    fireEvent.click(screen.getByTestId('views-button'));
    expect(screen.queryByTestId('view-share')).toBeNull(); // sharing needs the update bit
    fireEvent.click(await screen.findByTestId('view-rename'));
    const rename = await screen.findByRole('dialog');
    fireEvent.change(within(rename).getByTestId('view-title'), { target: { value: 'Renamed' } });
    fireEvent.click(within(rename).getByTestId('view-dialog-save'));
    await waitFor(() => expect(data.calls.find((c) => c.method === 'update')?.params).toMatchObject({ id: 'mine', data: { vw_title: 'Renamed' } }));

    fireEvent.click(screen.getByTestId('views-button'));
    fireEvent.click(await screen.findByTestId('view-delete'));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText('Delete the view “Mine”?')).toBeTruthy();
    expect(data.calls.some((c) => c.method === 'delete')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(data.calls.find((c) => c.method === 'delete')?.params).toMatchObject({ id: 'mine' }));
  });
});

describe('columns, export and cURL', () => {
  it('the column chooser hides a column, and a saved view keeps the choice', async () => {
    const data = mount(sessionAs('root', 'root'), { sponsors: SPONSORS, views: [] });
    await waitFor(() => expect(headers()).toContain('Website'), { timeout: 15_000 });
    fireEvent.click(screen.getByTestId('columns-button'));
    const toggle = await screen.findByRole('switch', { name: 'Website' }).catch(() => screen.findByLabelText('Website'));
    fireEvent.click(toggle);
    await waitFor(() => expect(headers()).not.toContain('Website'));
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    fireEvent.click(screen.getByTestId('views-button'));
    fireEvent.click(await screen.findByTestId('view-save-new'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByTestId('view-title'), { target: { value: 'No website' } });
    fireEvent.click(within(dialog).getByTestId('view-dialog-save'));
    await waitFor(() => expect(data.calls.find((c) => c.method === 'create')).toBeTruthy());
    expect((data.calls.find((c) => c.method === 'create')!.params.data as Record<string, unknown>).vw_columns).toEqual(['sp_title', 'sp_tier', 'sp_is_enabled', 'sp_eventid']);
  });

  it('Export links to export.csv with the current filter, sort and language', async () => {
    const filter = { sp_tier: 'gold' };
    mount(sessionAs('member', 'member'), { sponsors: SPONSORS, views: [] }, `/sponsors?filter=${encodeURIComponent(JSON.stringify(filter))}&sort=sp_title&order=DESC`);
    const link = await screen.findByTestId('list-export', {}, { timeout: 15_000 });
    await waitFor(() => expect(link.getAttribute('href')).toContain('filter='));
    const href = link.getAttribute('href')!;
    const url = new URL(href, 'http://x');
    expect(url.pathname).toBe(`/api/1/accounts/${ACCOUNT}/sponsors/export.csv`);
    expect(JSON.parse(url.searchParams.get('filter')!)).toEqual(filter);
    expect(JSON.parse(url.searchParams.get('sort')!)).toEqual(['sp_title', 'DESC']);
    expect(url.searchParams.get('lang')).toBe('en');
  });

  it('Copy as cURL only with app_general export_curl: the list request with its filter, sort and range', async () => {
    mount(sessionAs('member', 'member'), { sponsors: SPONSORS, views: [] });
    await screen.findByTestId('list-export', {}, { timeout: 15_000 });
    expect(screen.queryByTestId('copy-curl')).toBeNull(); // members: app_general 7, no export_curl
    cleanup();
    const copied: string[] = [];
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: async (t: string) => void copied.push(t) } });
    mount(sessionAs('member', 'superadmin'), { sponsors: SPONSORS, views: [] }, `/sponsors?filter=${encodeURIComponent(JSON.stringify({ q: "O'Brien" }))}`);
    fireEvent.click(await screen.findByTestId('copy-curl', {}, { timeout: 15_000 }));
    await waitFor(() => expect(copied).toHaveLength(1));
    const query = `filter=${encodeURIComponent('{"q":"O\'Brien"}')}&sort=${encodeURIComponent('["sp_title","ASC"]')}&range=${encodeURIComponent('[0,24]')}`;
    expect(copied[0]).toBe(`curl -H "Authorization: Bearer $LEADSTAGE_TOKEN" '${window.location.origin}/api/1/accounts/${ACCOUNT}/sponsors?${query.replace(/'/g, `'\\''`)}'`);
  });
});

describe('bulk selection', () => {
  const tickPage = async () => {
    const all = await screen.findByRole('checkbox', { name: 'Select all' }, { timeout: 15_000 });
    fireEvent.click(all);
  };

  it('a whole page ticked offers "select all N matching"; delete then sends the filter after a confirmation with the count', async () => {
    const fetched = serveFetch(() => Response.json({ count: 30 }));
    mount(sessionAs('root', 'root'), { sponsors: SPONSORS, views: [] });
    await tickPage();
    fireEvent.click(await screen.findByTestId('select-all-matching'));
    expect((await screen.findByTestId('all-matching-selected')).textContent).toBe('All 30 matching records are selected');
    fireEvent.click(screen.getByTestId('bulk-delete'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Delete 30 records?')).toBeTruthy();
    expect(fetched).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete 30' }));
    await waitFor(() =>
      expect(fetched.find((c) => c.path.endsWith('/sponsors/bulk'))).toEqual({
        method: 'POST',
        path: `/accounts/${ACCOUNT}/sponsors/bulk`,
        body: { action: 'delete', filter: {} },
      }),
    );
    expect(await screen.findByText('30 records deleted.')).toBeTruthy();
  });

  it('bulk update: the bulk fields in a dialog, only what was filled in sent with the ticked ids; a refusal shows its reasons', async () => {
    const fetched = serveFetch(() =>
      Response.json({ code: 'bulk_refused', message: 'Some rows were refused', reasons: [{ id: 'sp-2', message: 'Gold needs a logo' }] }, { status: 400 }),
    );
    mount(sessionAs('root', 'root'), { sponsors: SPONSORS, views: [] });
    await waitFor(() => expect(document.querySelectorAll('tbody .select-item input').length).toBe(25), { timeout: 15_000 });
    const rows = [...document.querySelectorAll<HTMLInputElement>('tbody .select-item input')];
    fireEvent.click(rows[0]);
    fireEvent.click(rows[1]);
    expect(screen.queryByTestId('select-all-matching')).toBeNull(); // not a whole page
    fireEvent.click(await screen.findByTestId('bulk-update'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Change 2 records')).toBeTruthy();
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: /Tier/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Gold' }));
    fireEvent.click(within(dialog).getByTestId('bulk-update-save'));
    await waitFor(() => expect(fetched.find((c) => c.path.endsWith('/sponsors/bulk'))).toBeTruthy());
    expect(fetched.find((c) => c.path.endsWith('/sponsors/bulk'))!.body).toEqual({ action: 'update', ids: ['sp-1', 'sp-2'], changes: { sp_tier: 'gold' } });
    expect((await screen.findByTestId('bulk-refused')).textContent).toContain('sp-2: Gold needs a logo');
  });
});

describe('bulk selection on a phone (below 600 px: a simple list without a checkbox column)', () => {
  /** A 375 px screen as MUI's useMediaQuery sees it: `down('sm')` matches. */
  const asPhone = () =>
    vi.stubGlobal(
      'matchMedia',
      vi.fn((query: string) => ({
        matches: /max-width:\s*599\.95px/.test(query),
        media: query,
        onchange: null,
        addListener: () => undefined,
        removeListener: () => undefined,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        dispatchEvent: () => false,
      })),
    );

  it('"Select" turns the rows into labelled checkboxes; the bar at the foot counts them and "Done" ends it, unticking all', async () => {
    asPhone();
    serveFetch();
    mount(sessionAs('root', 'root'), { sponsors: SPONSORS, views: [] });
    const toggle = await screen.findByTestId('select-mode', {}, { timeout: 15_000 });
    // not in select mode: no checkboxes, no bar (the table's select-all is not there either)
    await screen.findByText('Sponsor 01');
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    expect(screen.queryByTestId('phone-bulk-bar')).toBeNull();
    expect(toggle.getAttribute('aria-pressed')).toBe('false');

    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    const bar = await screen.findByRole('region', { name: 'Actions on the selected rows' });
    expect(within(bar).getByRole('status').textContent).toBe('0 selected');
    // nothing ticked: the actions wait
    expect((within(bar).getByTestId('bulk-update') as HTMLButtonElement).disabled).toBe(true);
    expect((within(bar).getByTestId('bulk-delete') as HTMLButtonElement).disabled).toBe(true);
    // a checkbox per row, named by the row's text (its title first), and one for the page
    const rows = within(screen.getByRole('list', { name: 'Rows to select' })).getAllByRole('checkbox');
    expect(rows).toHaveLength(25);
    expect(screen.getByRole('checkbox', { name: /^Sponsor 02/ })).toBe(rows[1]);
    // the whole row is the checkbox's label: a tap on its text ticks it; Space on the focused box too
    fireEvent.click(screen.getByText('Sponsor 01'));
    expect((rows[0] as HTMLInputElement).checked).toBe(true);
    rows[1].focus();
    expect(document.activeElement).toBe(rows[1]);
    fireEvent.click(rows[1]);
    expect(within(bar).getByRole('status').textContent).toBe('2 selected');
    expect((within(bar).getByTestId('bulk-update') as HTMLButtonElement).disabled).toBe(false);

    fireEvent.click(within(bar).getByTestId('select-mode-done'));
    await waitFor(() => expect(screen.queryByTestId('phone-bulk-bar')).toBeNull());
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    // back in select mode, nothing is still ticked
    fireEvent.click(toggle);
    expect((await screen.findByRole('status')).textContent).toBe('0 selected');
  }, 90_000);

  it('"select all 30 matching" in the bar sends the filter with the same dialog as the desktop; unticking a row ends it', async () => {
    asPhone();
    const fetched = serveFetch(() => Response.json({ count: 30 }));
    mount(sessionAs('root', 'root'), { sponsors: SPONSORS, views: [] });
    fireEvent.click(await screen.findByTestId('select-mode', {}, { timeout: 15_000 }));
    const bar = await screen.findByTestId('phone-bulk-bar');
    fireEvent.click(await within(bar).findByRole('button', { name: 'Select all 30 matching' }));
    expect(within(bar).getByRole('status').textContent).toBe('All 30 matching records are selected');
    // the page's rows show ticked
    expect(
      within(screen.getByRole('list', { name: 'Rows to select' }))
        .getAllByRole('checkbox')
        .every((c) => (c as HTMLInputElement).checked),
    ).toBe(true);
    // unticking one row is a choice of rows again
    fireEvent.click(screen.getByRole('checkbox', { name: /^Sponsor 03/ }));
    expect(within(bar).getByRole('status').textContent).toBe('24 selected');
    fireEvent.click(screen.getByRole('checkbox', { name: /^Sponsor 03/ }));
    fireEvent.click(within(bar).getByRole('button', { name: 'Select all 30 matching' }));

    fireEvent.click(within(bar).getByTestId('bulk-update'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Change 30 records')).toBeTruthy();
    expect(within(dialog).getByText(/This is all 30 records the current search and filters match/)).toBeTruthy();
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: /Tier/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Gold' }));
    expect(fetched.filter((c) => c.path.endsWith('/sponsors/bulk'))).toHaveLength(0);
    fireEvent.click(within(dialog).getByTestId('bulk-update-save'));
    await waitFor(() => expect(fetched.find((c) => c.path.endsWith('/sponsors/bulk'))?.body).toEqual({ action: 'update', filter: {}, changes: { sp_tier: 'gold' } }));
    expect(await screen.findByText('30 records changed.')).toBeTruthy();
    // done: the selection is cleared, select mode stays for the next choice
    await waitFor(() => expect(within(bar).getByRole('status').textContent).toBe('0 selected'));
  }, 90_000);

  it('a member without the update and delete bits gets no "Select" on a phone', async () => {
    asPhone();
    serveFetch();
    mount(sessionAs('member', 'member', { member: { account_sponsors: 1 } }), { sponsors: SPONSORS, views: [] });
    await screen.findByText('Sponsor 01', {}, { timeout: 15_000 });
    expect(screen.queryByTestId('select-mode')).toBeNull();
  });
});
