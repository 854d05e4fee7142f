import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, Notification, type I18nProvider } from 'react-admin';
import { MemoryRouter } from 'react-router';
import { MeetingDayGrid } from '../../admin/src/meetings/MeetingDayGrid';
import { buildDayGrid, dayIn, type GridMeeting, type GridSlot } from '../../admin/src/meetings/dayGrid';
import { consoleI18n } from '../helpers/consoleScreens';

type Call = { method: string; path: string; query: URLSearchParams; body?: unknown };
type Reply = { status: number; body?: unknown };

const slot = (id: string, start: string, minutes: number, host: string | null, capacity = 1): GridSlot => ({
  id,
  ms_id: id,
  ms_start: start,
  ms_end: new Date(Date.parse(start) + minutes * 60_000).toISOString(),
  ms_location: 'Stand 12',
  ms_capacity: capacity,
  ms_hostid: host,
});
const meeting = (id: string, slotId: string, status: GridMeeting['mg_status'], first: string, extra: Partial<GridMeeting> = {}): GridMeeting => ({
  id,
  mg_id: id,
  mg_slotid: slotId,
  mg_leadid: `ld-${id}`,
  mg_hostid: 'u-hanna',
  mg_status: status,
  mg_message: null,
  mg_expires_at: null,
  ld_first_name: first,
  ld_last_name: 'Visitor',
  ld_email: `${first.toLowerCase()}@example.com`,
  ...extra,
});

/** 5 March 2030 in New York (UTC-5): 09:00 local is 14:00Z. */
const SLOTS: GridSlot[] = [
  slot('s1', '2030-03-05T14:00:00.000Z', 30, 'u-hanna'),
  slot('s2', '2030-03-05T14:30:00.000Z', 30, 'u-hanna'),
  slot('s3', '2030-03-05T15:00:00.000Z', 30, 'u-hanna'),
  slot('s4', '2030-03-05T14:00:00.000Z', 30, null, 3),
  // 23:30 local on the 4th (04:30Z on the 5th): another day in New York.
  slot('s5', '2030-03-05T04:30:00.000Z', 30, 'u-hanna'),
];
const MEETINGS: GridMeeting[] = [
  meeting('m1', 's1', 'requested', 'Vera', { mg_message: 'About the range' }),
  meeting('m2', 's2', 'accepted', 'Piet'),
  meeting('m3', 's3', 'declined', 'Anna'),
  meeting('m4', 's4', 'accepted', 'Kees', { mg_hostid: null }),
  // A request that lapsed holds no place.
  meeting('m5', 's3', 'requested', 'Lotte', { mg_expires_at: '2020-01-01T00:00:00.000Z' }),
];
const MEMBERS = [{ id: 'au-1', au_userid: 'u-hanna', u_first_name: 'Hanna', u_last_name: 'Host', u_email: 'hanna@example.com' }];

let calls: Call[] = [];
function serve(routes: Record<string, Reply | ((body: unknown, query: URLSearchParams) => Reply)>) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const u = new URL(String(url), 'http://x');
      const path = u.pathname.replace(/^\/api\/1/, '');
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, path, query: u.searchParams, body });
      const route = routes[`${method} ${path}`];
      const reply = typeof route === 'function' ? route(body, u.searchParams) : (route ?? { status: 404, body: { code: 'not_found' } });
      return new Response(reply.body === undefined ? '' : JSON.stringify(reply.body), { status: reply.status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
}

let i18nProvider: I18nProvider;
beforeAll(async () => {
  i18nProvider = await consoleI18n();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function mount(day = '2030-03-05') {
  render(
    <MemoryRouter initialEntries={[`/events/ev-1?tab=meetings&day=${day}`]}>
      <AdminContext i18nProvider={i18nProvider}>
        <MeetingDayGrid accountId="acc-1" eventId="ev-1" />
        <Notification />
      </AdminContext>
    </MemoryRouter>,
  );
  return userEvent.setup();
}

const baseRoutes = (meetings: GridMeeting[] = MEETINGS) => ({
  'GET /accounts/acc-1/settings': { status: 200, body: { ls_timezone: 'America/New_York' } },
  'GET /accounts/acc-1/members': { status: 200, body: MEMBERS },
  'GET /accounts/acc-1/meeting-slots': { status: 200, body: SLOTS },
  'GET /accounts/acc-1/meetings': { status: 200, body: meetings },
});

describe('the day grid of meetings', () => {
  it('buildDayGrid: the day in the zone, a row per start time, a column per host (any host last), the state of each slot', () => {
    expect(dayIn('2030-03-05T04:30:00Z', 'America/New_York')).toBe('2030-03-04');
    const grid = buildDayGrid(SLOTS, MEETINGS, '2030-03-05', 'America/New_York', Date.parse('2030-03-01T00:00:00Z'));
    expect(grid.columns).toEqual(['u-hanna', '']);
    expect(grid.rows.map((r) => r.key)).toEqual(['09:00', '09:30', '10:00']);
    expect(grid.cells.get('09:00|u-hanna')).toMatchObject({ state: 'requested', free: 0 });
    expect(grid.cells.get('09:30|u-hanna')).toMatchObject({ state: 'accepted', free: 0 });
    expect(grid.cells.get('10:00|u-hanna')).toMatchObject({ state: 'free', free: 1 });
    expect(grid.cells.get('09:00|')).toMatchObject({ state: 'accepted', free: 2 });
    expect(grid.cells.has('09:30|')).toBe(false);
    expect(buildDayGrid(SLOTS, MEETINGS, '2030-03-04', 'America/New_York').rows.map((r) => r.key)).toEqual(['23:30']);
  });

  it("shows the day's slots in the account's zone by time and host, free / requested / accepted with the visitors' names", async () => {
    serve(baseRoutes());
    mount();
    const grid = await screen.findByTestId('meeting-grid');
    await waitFor(() => expect(within(grid).getAllByTestId('meeting-slot')).toHaveLength(4));
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Time', 'Hanna Host', 'Any host']);
    expect(
      within(grid)
        .getAllByRole('rowheader')
        .map((h) => h.textContent),
    ).toEqual(['09:00', '09:30', '10:00']);
    const cells = within(grid).getAllByTestId('meeting-slot');
    expect(cells.map((c) => `${c.getAttribute('data-start')} ${c.getAttribute('data-state')}`)).toEqual(['09:00 requested', '09:00 accepted', '09:30 accepted', '10:00 free']);
    expect(cells[0].textContent).toContain('09:00–09:30');
    expect(cells[0].textContent).toContain('Vera Visitor');
    expect(cells[1].textContent).toContain('2 of 3 free');
    expect(cells[1].textContent).toContain('Kees Visitor');
    expect(cells[3].textContent).toContain('Free');
    expect(screen.getByText(/Times in America\/New York/)).toBeTruthy();
    expect((screen.getByTestId('meeting-grid-day') as HTMLInputElement).value).toBe('2030-03-05');
    // The slots asked for: the event's, in a window around the day.
    const asked = calls.find((c) => c.path === '/accounts/acc-1/meeting-slots')!;
    expect(JSON.parse(asked.query.get('filter')!)).toEqual({ ms_eventid: 'ev-1', ms_start_from: '2030-03-04T00:00:00.000Z', ms_start_to: '2030-03-07T00:00:00.000Z' });
    expect(JSON.parse(calls.find((c) => c.path === '/accounts/acc-1/meetings')!.query.get('filter')!)).toEqual({ mg_eventid: 'ev-1' });
  });

  it('a meeting opens by keyboard; its moves are a PUT of mg_status; the grid reloads', async () => {
    let stored = MEETINGS;
    serve({
      ...baseRoutes(),
      'GET /accounts/acc-1/meetings': () => ({ status: 200, body: stored }),
      'PUT /accounts/acc-1/meetings/m1': (body) => {
        stored = stored.map((m) => (m.mg_id === 'm1' ? { ...m, mg_status: (body as { mg_status: GridMeeting['mg_status'] }).mg_status } : m));
        return { status: 200, body: stored[0] };
      },
    });
    const user = mount();
    const chip = await screen.findByRole('button', { name: 'Vera Visitor, Requested: open' });
    chip.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Vera Visitor' });
    expect(within(dialog).getByTestId('meeting-dialog-status').textContent).toBe('Requested');
    expect(within(dialog).getByText('About the range')).toBeTruthy();
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Accept', 'Decline', 'Cancel meeting', 'Close']);
    await user.click(within(dialog).getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((c) => c.method === 'PUT').map((c) => [c.path, c.body])).toEqual([['/accounts/acc-1/meetings/m1', { mg_status: 'accepted' }]]);
    await waitFor(() => expect(screen.getAllByTestId('meeting-slot')[0].getAttribute('data-state')).toBe('accepted'));
    // A declined meeting is final: no moves.
    await user.click(screen.getByRole('button', { name: 'Anna Visitor, Declined: open' }));
    const closed = await screen.findByRole('dialog', { name: 'Anna Visitor' });
    expect(within(closed).getByText('This meeting is closed; its status no longer changes.')).toBeTruthy();
    expect(
      within(closed)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Close']);
  });

  it('the day picker moves the day (previous / next); a day without slots says so', async () => {
    serve({
      ...baseRoutes(),
      'GET /accounts/acc-1/meeting-slots': (_b, q) => ({ status: 200, body: JSON.parse(q.get('filter')!).ms_start_from.startsWith('2030-03-05') ? [] : SLOTS }),
    });
    const user = mount();
    await waitFor(() => expect(screen.getAllByTestId('meeting-slot')).toHaveLength(4));
    await user.click(screen.getByRole('button', { name: 'Next day' }));
    expect(await screen.findByTestId('meeting-grid-empty')).toBeTruthy();
    expect((screen.getByTestId('meeting-grid-day') as HTMLInputElement).value).toBe('2030-03-06');
    await user.click(screen.getByRole('button', { name: 'Previous day' }));
    await user.click(screen.getByRole('button', { name: 'Previous day' }));
    expect((screen.getByTestId('meeting-grid-day') as HTMLInputElement).value).toBe('2030-03-04');
    await waitFor(() => expect(screen.getAllByTestId('meeting-slot')).toHaveLength(1));
    expect(screen.getAllByRole('rowheader').map((h) => h.textContent)).toEqual(['23:30']);
  });

  it('generates a day of slots through the dialog: the body, field errors under the inputs, a conflict in words', async () => {
    let answer: Reply = { status: 400, body: { code: 'validation_failed', message: 'x', fields: { to: 'error_time_range_invalid' } } };
    serve({ ...baseRoutes(), 'POST /accounts/acc-1/meeting-slots/generate': () => answer });
    const user = mount();
    await user.click(await screen.findByRole('button', { name: 'Generate slots' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generate a day of slots' });
    const input = (name: string) => dialog.querySelector(`input[name=${name}]`) as HTMLInputElement;
    await user.clear(input('minutes'));
    await user.type(input('minutes'), '20');
    await user.type(input('ms_location'), 'Hall 3');
    await user.click(within(dialog).getByRole('button', { name: 'Generate' }));
    expect(await within(dialog).findByText('The end time must be after the start time')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { ms_eventid: 'ev-1', date: '2030-03-05', from: '09:00', to: '17:00', minutes: 20, gap_minutes: 0, ms_location: 'Hall 3', ms_capacity: 1, ms_hostid: null },
    ]);
    answer = { status: 409, body: { code: 'slot_overlaps', message: 'x' } };
    await user.click(within(dialog).getByRole('button', { name: 'Generate' }));
    expect((await within(dialog).findByTestId('generate-failure')).textContent).toBe('This time overlaps another slot of the same host');
    answer = { status: 201, body: [SLOTS[0], SLOTS[1]] };
    await user.click(within(dialog).getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('2 slots generated.')).toBeTruthy();
  });
});
