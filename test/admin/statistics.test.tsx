import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
// The same react-router module instance as the page (react-admin's own TestMemoryRouter may resolve another copy under Vitest).
import { MemoryRouter, useLocation } from 'react-router';
import { AdminContext, testDataProvider, type I18nProvider } from 'react-admin';
import { addConsoleTexts, addReactAdminTexts, i18nReady } from '../../admin/src/i18n';
import { ConsoleContext } from '../../admin/src/console/ConsoleContext';
import { setSession, type Session } from '../../admin/src/providers/session';
import { menuPagesFor } from '../../admin/src/console/access';
import { grantsOf } from '../../resources/permissions';
import { addDays, utcDay } from '../../resources/statistics';
import type { StatRow } from '../../resources/statistics';

// The chart library draws SVG from measured sizes, which jsdom does not have; the page's part is which rows, labels and
// kind of chart it hands over (Chromium draws the real chart in test/e2e/handoff.test.ts).
vi.mock('../../admin/src/statistics/StatsChart', () => ({
  default: ({ rows, labelOf, group, measures, ariaLabel }: { rows: StatRow[]; labelOf: (r: StatRow) => string; group: string; measures: string[]; ariaLabel: string }) => (
    <div data-testid="stats-chart" data-chart={group === 'day' || group === 'week' ? 'line' : 'bar'} aria-label={ariaLabel}>
      {rows.map((r) => `${labelOf(r)}=${measures.map((m) => r[m]).join('/')}`).join('; ')}
    </div>
  ),
}));
const { default: StatisticsPage } = await import('../../admin/src/statistics/StatisticsPage');

const ACCOUNT = '3f0c3a7e-6b1d-4c2e-9f3a-0a1b2c3d4e5f';
const today = utcDay(new Date());

let i18nProvider: I18nProvider;
beforeAll(async () => {
  localStorage.setItem('RaStore.locale', JSON.stringify('en'));
  i18nProvider = await i18nReady();
  await addReactAdminTexts();
  await addConsoleTexts();
});

type Call = { path: string; params: Record<string, string> };
let calls: Call[] = [];
const EVENT_ROWS = [
  { key: 'ev-1', label: 'Harbour Expo', count: 120 },
  { key: 'ev-2', label: 'Dune Fair', count: 7 },
];

/** The fake API: the rows follow the group asked for; plays have none (the player does not report yet). */
function answer(kind: string, params: Record<string, string>) {
  const measures = kind === 'leads' ? ['count'] : ['plays', 'hotspot_taps', 'qr_shows'];
  let rows: StatRow[] = [];
  if (kind === 'leads') {
    if (params.group === 'day') {
      rows = [];
      for (let d = params.from; d <= params.to; d = addDays(d, 1)) rows.push({ key: d, label: d, count: d === params.to ? 3 : d === params.from ? 1 : 0 });
    } else if (params.group === 'event') rows = EVENT_ROWS;
    else if (params.group === 'source') rows = ['registration', 'scan', 'card', 'manual', 'download'].map((s, i) => ({ key: s, label: s, count: i }));
  }
  const totals = Object.fromEntries(measures.map((m) => [m, rows.reduce((n, r) => n + Number(r[m] ?? 0), 0)]));
  return { kind, ...params, measures, rows, totals };
}

beforeEach(() => {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const u = new URL(String(url), 'http://localhost');
      const m = /^\/api\/1\/accounts\/([^/]+)\/stats\/(leads|plays)$/.exec(u.pathname);
      if (!m || m[1] !== ACCOUNT) return new Response(JSON.stringify({ code: 'not_found' }), { status: 404 });
      const params = Object.fromEntries(u.searchParams);
      calls.push({ path: u.pathname, params });
      return new Response(JSON.stringify(answer(m[2], params)), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  setSession({
    code: 'ok',
    user: { id: 'u', u_id: 'u', u_first_name: 'U', u_last_name: '', u_email: 'u@example.com', u_role: 'member', u_is_verified: true, u_is_enabled: true },
    permissions: {},
    accounts: [{ a_id: ACCOUNT, a_name: 'Acme', a_admin_url: null, a_is_enabled: true, au_role: 'superadmin' }],
    settings: { passwordMinLength: 12 },
  } as never);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setSession(null);
});

let location = '';
function Spy() {
  const l = useLocation();
  location = l.pathname + l.search;
  return null;
}

function mount(at = '/statistics') {
  render(
    <MemoryRouter initialEntries={[at]}>
      <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider}>
        <ConsoleContext.Provider value={{ accountId: ACCOUNT, role: 'superadmin' }}>
          <StatisticsPage />
          <Spy />
        </ConsoleContext.Provider>
      </AdminContext>
    </MemoryRouter>,
  );
  return userEvent.setup();
}

const leadsCalls = () => calls.filter((c) => c.path.endsWith('/leads')).map((c) => c.params);
const tableRows = (kind = 'leads') =>
  within(screen.getByTestId(`stats-${kind}`))
    .getAllByRole('row')
    .map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));

describe('the statistics page', () => {
  it('draws the last 30 days by day: every day in the table, the line chart, the total, and "No plays yet"', async () => {
    mount();
    await screen.findByTestId('stats-table');
    const from = addDays(today, -29);
    expect(leadsCalls()).toEqual([{ from, to: today, group: 'day' }]);
    const rows = tableRows();
    expect(rows[0]).toEqual(['Day', 'Leads']);
    expect(rows).toHaveLength(1 + 30 + 1);
    const fmt = (d: string) => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${d}T00:00:00Z`));
    expect(rows[1]).toEqual([fmt(from), '1']);
    expect(rows[30]).toEqual([fmt(today), '3']);
    expect(rows[31]).toEqual(['Total', '4']);
    expect(screen.getByTestId('stats-leads-total').textContent).toBe('4 leads in this period');
    const chart = await screen.findByTestId('stats-chart');
    expect(chart.getAttribute('data-chart')).toBe('line');
    expect(chart.textContent).toContain(`${fmt(today)}=3`);
    // Plays: asked with the same period, nothing reported yet.
    expect(calls.filter((c) => c.path.endsWith('/plays')).map((c) => c.params)).toEqual([{ from, to: today, group: 'day' }]);
    expect((await screen.findByTestId('stats-no-plays')).textContent).toContain('No plays yet');
    expect(screen.queryByTestId('stats-plays-csv')).toBeNull();
    // The quick range of the default is marked.
    expect(screen.getByRole('button', { name: 'Last 30 days' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('changes the group: asks the API again, draws bars and the event titles, and keeps it in the address', async () => {
    const user = mount('/statistics?from=2026-03-01&to=2026-03-31');
    await screen.findByTestId('stats-table');
    await user.click(within(screen.getByTestId('stats-leads')).getByRole('combobox', { name: 'Group by' }));
    await user.click(await screen.findByRole('option', { name: 'Event' }));
    await waitFor(() => expect(tableRows()[1]).toEqual(['Harbour Expo', '120']));
    expect(tableRows()).toEqual([
      ['Event', 'Leads'],
      ['Harbour Expo', '120'],
      ['Dune Fair', '7'],
      ['Total', '127'],
    ]);
    expect(leadsCalls().at(-1)).toEqual({ from: '2026-03-01', to: '2026-03-31', group: 'event' });
    expect(location).toBe('/statistics?from=2026-03-01&to=2026-03-31&group=event');
    await waitFor(() => expect(screen.getByTestId('stats-chart').getAttribute('data-chart')).toBe('bar'));
    expect(screen.getByTestId('stats-chart').textContent).toBe('Harbour Expo=120; Dune Fair=7');
  });

  it('"Download CSV" is the API with the same parameters and format=csv', async () => {
    mount('/statistics?from=2026-03-01&to=2026-03-31&group=event');
    const link = await screen.findByTestId('stats-leads-csv');
    expect(link.getAttribute('href')).toBe(`/api/1/accounts/${ACCOUNT}/stats/leads?from=2026-03-01&to=2026-03-31&group=event&format=csv`);
    expect(link.hasAttribute('download')).toBe(true);
    expect(link.textContent).toBe('Download CSV');
    expect(link.getAttribute('aria-label')).toBe('Download the leads by event as CSV');
  });

  it('translates enumerations; a quick range sets the period', async () => {
    const user = mount('/statistics?from=2026-03-01&to=2026-03-31&group=source');
    await screen.findByTestId('stats-table');
    expect(tableRows().map((r) => r[0])).toEqual(['Source', 'Registration', 'Badge scan', 'Business card', 'Typed in', 'Download', 'Total']);
    await user.click(screen.getByRole('button', { name: 'Last 7 days' }));
    await waitFor(() => expect(leadsCalls().at(-1)).toEqual({ from: addDays(today, -6), to: today, group: 'source' }));
    expect((screen.getByTestId('stats-from') as HTMLInputElement).value).toBe(addDays(today, -6));
    expect((screen.getByTestId('stats-to') as HTMLInputElement).value).toBe(today);
    expect(screen.getByRole('button', { name: 'Last 7 days' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('a period that ends before it starts says so and asks nothing', async () => {
    mount('/statistics?from=2026-03-10&to=2026-03-01');
    expect(await screen.findByText('The end date cannot be before the start date', { selector: 'p' })).toBeTruthy();
    expect(calls).toEqual([]);
    expect(screen.queryByTestId('stats-table')).toBeNull();
  });
});

describe('the statistics menu item', () => {
  const as = (role: 'root' | 'superadmin' | 'admin' | 'member'): Session =>
    ({
      code: 'ok',
      user: {
        id: 'u',
        u_id: 'u',
        u_first_name: 'U',
        u_last_name: '',
        u_email: 'u@example.com',
        u_role: role === 'root' ? 'root' : 'member',
        u_is_verified: true,
        u_is_enabled: true,
      },
      permissions: grantsOf(role === 'root' ? 'root' : 'member'),
      roleGrants: { [role]: grantsOf(role) },
      accounts: role === 'root' ? [] : [{ a_id: ACCOUNT, a_name: 'Acme', a_admin_url: null, a_is_enabled: true, au_role: role }],
      settings: { passwordMinLength: 12 },
    }) as Session;
  it('shows with account_statistics read: root, superadmin and admin, not a member', () => {
    for (const role of ['root', 'superadmin', 'admin'] as const)
      expect(
        menuPagesFor(as(role), ACCOUNT).map((p) => p.name),
        role,
      ).toEqual(['statistics', 'developer']);
    expect(menuPagesFor(as('member'), ACCOUNT)).toEqual([]);
    expect(menuPagesFor(as('superadmin'), 'another-account')).toEqual([]);
  });
});
