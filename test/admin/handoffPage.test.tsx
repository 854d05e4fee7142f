import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import HandoffPage from '../../admin/src/public/HandoffPage';
import { HANDOFF_TEXTS } from '../../admin/src/public/handoffTexts';
import { publicRoute } from '../../admin/src/navigation';
import { LOCALE_STORE_KEY } from '../../admin/src/i18n/locale';
import { CONSOLE_MESSAGES } from '../../resources/consoleMessages';
import consoleNl from '../../admin/src/i18n/console/nl';

type Call = { method: string; path: string; body?: unknown };
type Reply = { status: number; body?: unknown };

const HANDOFF = {
  ho_id: 'ho-1',
  ho_leadid: 'lead-1',
  ho_status: 'pending',
  ho_message: 'She asked for a quote.\nCall before Friday.',
  ho_created_at: '2026-11-20T10:00:00.000Z',
  ho_decided_at: null,
  ld_first_name: 'Sanne',
  ld_last_name: 'de Boer',
  ld_email: 'sanne@example.com',
  ev_title: 'Harbour Expo',
  ev_start_date: '2026-12-01',
  ev_end_date: '2026-12-03',
  account: { a_id: 'acc-1', a_name: 'Acme Events' },
  from: { u_first_name: 'Olga', u_last_name: 'Owner', u_email: 'olga@example.com' },
  to: { u_first_name: 'Rob', u_last_name: 'Rep', u_email: 'rob@example.com' },
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
  window.history.replaceState(null, '', '/handoffs/the-token');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const posted = () => calls.filter((c) => c.method === 'POST' && c.path === '/handoff/accept').map((c) => c.body);

describe('the handoff page /handoffs/{token}', () => {
  it('is a public route of its own', () => {
    expect(publicRoute('/handoffs/abc_DEF-1')).toEqual({ page: 'handoff', token: 'abc_DEF-1' });
    expect(publicRoute('/handoffs/abc/')).toEqual({ page: 'handoff', token: 'abc' });
    expect(publicRoute('/handoffs/')).toBeUndefined();
    expect(publicRoute('/handoffs')).toBeUndefined();
  });

  it('shows the lead, the event, who offers it and the message; Accept posts the decision and shows the result', async () => {
    serve({
      'GET /handoff/the-token': { status: 200, body: HANDOFF },
      'POST /handoff/accept': { status: 200, body: { ...HANDOFF, ho_status: 'accepted', ho_decided_at: '2026-11-21T09:30:00.000Z' } },
    });
    render(<HandoffPage token="the-token" />);
    expect(await screen.findByRole('heading', { name: 'A lead for you' })).toBeTruthy();
    expect(screen.getByText('Olga Owner of Acme Events would like you to follow up on this lead.')).toBeTruthy();
    expect(screen.getByTestId('handoff-lead-name').textContent).toBe('Sanne de Boer');
    expect(screen.getByRole('link', { name: 'sanne@example.com' }).getAttribute('href')).toBe('mailto:sanne@example.com');
    expect(screen.getByTestId('handoff-event').textContent).toBe('Harbour Expo2026-12-01 – 2026-12-03');
    expect(screen.getByText('Message from Olga Owner')).toBeTruthy();
    expect(screen.getByTestId('handoff-message').textContent).toBe('She asked for a quote.\nCall before Friday.');
    expect(document.title).toBe('Lead handoff · Leadstage');

    await userEvent.setup().click(screen.getByRole('button', { name: 'Accept' }));
    const result = await screen.findByTestId('handoff-result');
    expect(result.getAttribute('data-status')).toBe('accepted');
    expect(result.textContent).toContain('You accepted this lead');
    expect(result.textContent).toContain('Sanne de Boer is now yours in Acme Events.');
    expect(result.textContent).toContain('Accepted on 21 November 2026');
    expect(document.activeElement).toBe(result);
    expect(screen.getByRole('link', { name: 'Open the lead in the console' }).getAttribute('href')).toBe('/console/acc-1/leads/lead-1');
    expect(screen.queryByRole('button', { name: 'Accept' })).toBeNull();
    expect(posted()).toEqual([{ token: 'the-token', decision: 'accepted' }]);
  });

  it('Not available: posts not_available; the owner can hand it to someone else', async () => {
    serve({
      'GET /handoff/the-token': { status: 200, body: HANDOFF },
      'POST /handoff/accept': { status: 200, body: { ...HANDOFF, ho_status: 'not_available', ho_decided_at: '2026-11-21T09:30:00.000Z' } },
    });
    render(<HandoffPage token="the-token" />);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Not available' }));
    const result = await screen.findByTestId('handoff-result');
    expect(result.textContent).toContain('You are not available for this lead');
    expect(result.textContent).toContain('Olga Owner can hand it over to someone else.');
    expect(screen.queryByRole('link', { name: 'Open the lead in the console' })).toBeNull();
    expect(posted()).toEqual([{ token: 'the-token', decision: 'not_available' }]);
  });

  it('a link already answered shows the answer, without buttons', async () => {
    serve({ 'GET /handoff/the-token': { status: 200, body: { ...HANDOFF, ho_status: 'accepted', ho_decided_at: '2026-11-21T09:30:00.000Z', ho_message: null } } });
    render(<HandoffPage token="the-token" />);
    expect((await screen.findByTestId('handoff-result')).textContent).toContain('You accepted this lead');
    expect(screen.queryByRole('button', { name: 'Accept' })).toBeNull();
    expect(screen.queryByTestId('handoff-message')).toBeNull();
  });

  it('an unknown link, and a link used meanwhile, say handoff_invalid; other failures keep the buttons with their text', async () => {
    serve({ 'GET /handoff/the-token': { status: 400, body: { code: 'handoff_invalid', message: 'x' } } });
    render(<HandoffPage token="the-token" />);
    const invalid = await screen.findByTestId('handoff-invalid');
    expect(invalid.textContent).toContain('This handoff link is unknown or has already been used');
    expect(screen.getByRole('link', { name: 'Go to sign-in' }).getAttribute('href')).toBe('/login');
    cleanup();

    let answer: Reply = { status: 429, body: { code: 'too_many_attempts', message: 'Too many attempts' } };
    serve({ 'GET /handoff/the-token': { status: 200, body: HANDOFF }, 'POST /handoff/accept': () => answer });
    render(<HandoffPage token="the-token" />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Accept' }));
    expect((await screen.findByTestId('handoff-failure')).textContent).toBe('Too many login attempts, please wait a few minutes and try again');
    expect((screen.getByRole('button', { name: 'Accept' }) as HTMLButtonElement).disabled).toBe(false);
    answer = { status: 400, body: { code: 'handoff_invalid', message: 'x' } };
    await user.click(screen.getByRole('button', { name: 'Accept' }));
    expect((await screen.findByTestId('handoff-invalid')).textContent).toContain('This handoff link is unknown or has already been used');
  });

  it('in Dutch', async () => {
    localStorage.setItem(LOCALE_STORE_KEY, JSON.stringify('nl'));
    serve({ 'GET /handoff/the-token': { status: 200, body: { ...HANDOFF, ld_first_name: null, ld_last_name: null } } });
    render(<HandoffPage token="the-token" />);
    expect(await screen.findByRole('heading', { name: 'Een lead voor jou' })).toBeTruthy();
    expect(screen.getByText('Olga Owner van Acme Events vraagt je deze lead op te volgen.')).toBeTruthy();
    expect(screen.getByTestId('handoff-lead-name').textContent).toBe('Geen naam opgegeven');
    expect(screen.getByRole('button', { name: 'Accepteren' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Niet beschikbaar' })).toBeTruthy();
    await waitFor(() => expect(document.documentElement.lang).toBe('nl'));
  });

  it('its texts: English and Dutch have the same keys, none empty; the error texts equal the console API messages', () => {
    expect(Object.keys(HANDOFF_TEXTS.nl).sort()).toEqual(Object.keys(HANDOFF_TEXTS.en).sort());
    for (const lang of ['en', 'nl'] as const) for (const [k, v] of Object.entries(HANDOFF_TEXTS[lang])) expect(v, `${lang}.${k}`).toMatch(/\S/);
    expect(HANDOFF_TEXTS.en.error_handoff_invalid).toBe(CONSOLE_MESSAGES.error_handoff_invalid);
    expect(HANDOFF_TEXTS.en.error_handoff_decision_invalid).toBe(CONSOLE_MESSAGES.error_handoff_decision_invalid);
    expect(HANDOFF_TEXTS.nl.error_handoff_invalid).toBe(consoleNl.error_handoff_invalid);
    expect(HANDOFF_TEXTS.nl.error_handoff_decision_invalid).toBe(consoleNl.error_handoff_decision_invalid);
  });
});
