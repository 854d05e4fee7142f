import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import MeetingPage from '../../admin/src/public/MeetingPage';
import { MEETING_TEXTS } from '../../admin/src/public/meetingTexts';
import { publicRoute } from '../../admin/src/navigation';
import { LOCALE_STORE_KEY } from '../../admin/src/i18n/locale';
import { CONSOLE_MESSAGES } from '../../resources/consoleMessages';
import consoleNl from '../../admin/src/i18n/console/nl';

type Call = { method: string; path: string; body?: unknown };
type Reply = { status: number; body?: unknown };

/** 09:30Z on 1 December is 10:30 in Amsterdam and 04:30 in New York. */
const MEETING = {
  mg_id: 'mg-1',
  mg_status: 'requested',
  mg_message: 'About the new range.\nTen minutes is enough.',
  mg_expires_at: '2026-11-28T08:00:00.000Z',
  mg_decided_at: null,
  mg_created_at: '2026-11-26T08:00:00.000Z',
  slot: { ms_id: 'ms-1', ms_start: '2026-12-01T09:30:00.000Z', ms_end: '2026-12-01T10:00:00.000Z', ms_location: 'Hall 3, stand 12' },
  event: { ev_id: 'ev-1', ev_title: 'Harbour Expo', ev_start_date: '2026-12-01', ev_end_date: '2026-12-03' },
  visitor: { ld_id: 'ld-1', ld_email: 'vera@example.com', ld_first_name: 'Vera', ld_last_name: 'Visitor' },
  host: { u_id: 'u-1', u_first_name: 'Hanna', u_last_name: 'Host' },
  account: { a_id: 'acc-1', a_name: 'Acme Events' },
  time_zone: 'Europe/Amsterdam',
};

let calls: Call[] = [];
/** The fake API: answers by "METHOD /path" (without /api/1). */
function serve(routes: Record<string, Reply | ((body: unknown) => Reply)>) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const path = String(url).replace(/^\/api\/1/, '');
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, path, body });
      if (method !== 'GET') document.cookie = 'ls.csrf-token=tok';
      const route = routes[`${method} ${path}`];
      const reply = typeof route === 'function' ? route(body) : (route ?? { status: 404, body: { code: 'not_found' } });
      return new Response(reply.body === undefined ? '' : JSON.stringify(reply.body), { status: reply.status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
}

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(LOCALE_STORE_KEY, JSON.stringify('en'));
  window.history.replaceState(null, '', '/meetings/the-token');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const posted = () => calls.filter((c) => c.method === 'POST' && c.path === '/meeting/accept').map((c) => c.body);

describe("the host's meeting page /meetings/{token}", () => {
  it('is a public route of its own', () => {
    expect(publicRoute('/meetings/abc_DEF-1')).toEqual({ page: 'meeting', token: 'abc_DEF-1' });
    expect(publicRoute('/meetings/abc/')).toEqual({ page: 'meeting', token: 'abc' });
    expect(publicRoute('/meetings/')).toBeUndefined();
    expect(publicRoute('/meetings')).toBeUndefined();
  });

  it("shows the slot in the account's time zone, the place, visitor, event, host and message; Accept posts the decision and shows the done state", async () => {
    serve({
      'GET /meeting/the-token': { status: 200, body: MEETING },
      'POST /meeting/accept': { status: 200, body: { ...MEETING, mg_status: 'accepted', mg_decided_at: '2026-11-26T09:15:00.000Z' } },
    });
    render(<MeetingPage token="the-token" />);
    expect(await screen.findByRole('heading', { name: 'A visitor asks for a meeting' })).toBeTruthy();
    expect(screen.getByText('Someone would like to meet Acme Events at Harbour Expo.')).toBeTruthy();
    expect(screen.getByTestId('meeting-when').textContent).toBe('Tuesday, 1 December 202610:30 – 11:00Times in Europe/Amsterdam');
    expect(screen.getByTestId('meeting-where').textContent).toBe('Hall 3, stand 12');
    expect(screen.getByTestId('meeting-visitor').textContent).toBe('Vera Visitorvera@example.com');
    expect(screen.getByRole('link', { name: 'vera@example.com' }).getAttribute('href')).toBe('mailto:vera@example.com');
    expect(screen.getByTestId('meeting-event').textContent).toBe('Harbour Expo2026-12-01 – 2026-12-03');
    expect(screen.getByTestId('meeting-host').textContent).toBe('Hanna Host');
    expect(screen.getByTestId('meeting-message').textContent).toBe('About the new range.\nTen minutes is enough.');
    expect(screen.getByText('Unanswered, the request lapses on 28 November 2026 at 09:00 and the time is free again.')).toBeTruthy();
    expect(document.title).toBe('Meeting request · Leadstage');

    await userEvent.setup().click(screen.getByRole('button', { name: 'Accept' }));
    const result = await screen.findByTestId('meeting-result');
    expect(result.getAttribute('data-status')).toBe('accepted');
    expect(result.textContent).toContain('You accepted this meeting');
    expect(result.textContent).toContain('Vera Visitor gets a confirmation with a calendar invitation.');
    expect(result.textContent).toContain('Answered on 26 November 2026 at 10:15');
    expect(document.activeElement).toBe(result);
    expect(screen.getByRole('link', { name: 'Open the meetings in the console' }).getAttribute('href')).toBe('/console/acc-1/events/ev-1?tab=meetings');
    expect(screen.queryByRole('button', { name: 'Accept' })).toBeNull();
    expect(posted()).toEqual([{ token: 'the-token', decision: 'accepted' }]);
  });

  it('another zone moves the times; Decline posts declined; a slot without a host names the account', async () => {
    serve({
      'GET /meeting/the-token': { status: 200, body: { ...MEETING, time_zone: 'America/New_York', host: null } },
      'POST /meeting/accept': { status: 200, body: { ...MEETING, mg_status: 'declined', mg_decided_at: '2026-11-26T09:15:00.000Z' } },
    });
    render(<MeetingPage token="the-token" />);
    expect((await screen.findByTestId('meeting-when')).textContent).toBe('Tuesday, 1 December 202604:30 – 05:00Times in America/New York');
    expect(screen.getByTestId('meeting-host').textContent).toBe('Any member of Acme Events');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Decline' }));
    const result = await screen.findByTestId('meeting-result');
    expect(result.textContent).toContain('You declined this meeting');
    expect(result.textContent).toContain('Vera Visitor is told and can pick another time.');
    expect(posted()).toEqual([{ token: 'the-token', decision: 'declined' }]);
  });

  it('a meeting answered or closed earlier shows its status without buttons', async () => {
    serve({ 'GET /meeting/the-token': { status: 200, body: { ...MEETING, mg_status: 'cancelled', mg_message: null } } });
    render(<MeetingPage token="the-token" />);
    expect((await screen.findByTestId('meeting-result')).textContent).toContain('This meeting is cancelled');
    expect(screen.queryByRole('button', { name: 'Accept' })).toBeNull();
    expect(screen.queryByTestId('meeting-message')).toBeNull();
  });

  it('an unknown or used link says meeting_invalid; other failures keep the buttons with their text', async () => {
    serve({ 'GET /meeting/the-token': { status: 400, body: { code: 'meeting_invalid', message: 'x' } } });
    render(<MeetingPage token="the-token" />);
    const invalid = await screen.findByTestId('meeting-invalid');
    expect(invalid.textContent).toContain('This meeting link is unknown or has already been used');
    expect(screen.getByRole('link', { name: 'Go to sign-in' }).getAttribute('href')).toBe('/login');
    cleanup();

    let answer: Reply = { status: 429, body: { code: 'too_many_attempts', message: 'Too many attempts' } };
    serve({ 'GET /meeting/the-token': { status: 200, body: MEETING }, 'POST /meeting/accept': () => answer });
    render(<MeetingPage token="the-token" />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Accept' }));
    expect((await screen.findByTestId('meeting-failure')).textContent).toMatch(/Too many/);
    expect((screen.getByRole('button', { name: 'Accept' }) as HTMLButtonElement).disabled).toBe(false);
    answer = { status: 400, body: { code: 'meeting_invalid', message: 'x' } };
    await user.click(screen.getByRole('button', { name: 'Accept' }));
    expect((await screen.findByTestId('meeting-invalid')).textContent).toContain('This meeting link is unknown or has already been used');
  });

  it('in Dutch', async () => {
    localStorage.setItem(LOCALE_STORE_KEY, JSON.stringify('nl'));
    serve({ 'GET /meeting/the-token': { status: 200, body: { ...MEETING, visitor: { ...MEETING.visitor, ld_first_name: null, ld_last_name: null } } } });
    render(<MeetingPage token="the-token" />);
    expect(await screen.findByRole('heading', { name: 'Een bezoeker vraagt een afspraak' })).toBeTruthy();
    expect(screen.getByTestId('meeting-when').textContent).toBe('dinsdag 1 december 202610:30 – 11:00Tijden in Europe/Amsterdam');
    expect(screen.getByTestId('meeting-visitor').textContent).toBe('Geen naam opgegevenvera@example.com');
    expect(screen.getByRole('button', { name: 'Accepteren' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Afwijzen' })).toBeTruthy();
    await waitFor(() => expect(document.documentElement.lang).toBe('nl'));
  });

  it('its texts: English and Dutch have the same keys, none empty; the error texts equal the console API messages', () => {
    expect(Object.keys(MEETING_TEXTS.nl).sort()).toEqual(Object.keys(MEETING_TEXTS.en).sort());
    for (const lang of ['en', 'nl'] as const) for (const [k, v] of Object.entries(MEETING_TEXTS[lang])) expect(v, `${lang}.${k}`).toMatch(/\S/);
    expect(MEETING_TEXTS.en.error_meeting_invalid).toBe(CONSOLE_MESSAGES.error_meeting_invalid);
    expect(MEETING_TEXTS.en.error_meeting_decision_invalid).toBe(CONSOLE_MESSAGES.error_meeting_decision_invalid);
    expect(MEETING_TEXTS.nl.error_meeting_invalid).toBe(consoleNl.error_meeting_invalid);
    expect(MEETING_TEXTS.nl.error_meeting_decision_invalid).toBe(consoleNl.error_meeting_decision_invalid);
  });
});
