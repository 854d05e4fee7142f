import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import InvitePage from '../../admin/src/public/InvitePage';
import { publicRoute } from '../../admin/src/navigation';
import { clearSession } from '../../admin/src/providers/session';
import { LOCALE_STORE_KEY } from '../../admin/src/i18n/locale';

type Call = { method: string; path: string; body?: unknown };
type Reply = { status: number; body?: unknown };

const INVITE = {
  account: { a_id: 'acc-1', a_name: 'Acme Events' },
  iv_email: 'nina@example.com',
  iv_first_name: 'Nina',
  iv_last_name: null,
  iv_role: 'admin',
  user_exists: false,
  settings: { passwordMinLength: 12 },
};
const SESSION = (email: string) => ({
  code: 'ok',
  user: { id: 'u1', u_id: 'u1', u_email: email, u_role: 'member' },
  permissions: {},
  accounts: [],
  settings: { passwordMinLength: 12 },
});

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
  clearSession();
  localStorage.clear();
  window.history.replaceState(null, '', '/invite/the-token');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const helper = (name: string) => (document.getElementById(`${name}-helper-text`)?.textContent ?? '').replace(/\u200b/g, '').trim();
const posted = (path: string) => calls.filter((c) => c.method === 'POST' && c.path === path);

describe('the invitation page /invite/{token}', () => {
  it('is a public route of its own', () => {
    expect(publicRoute('/invite/abc_DEF-1')).toEqual({ page: 'invite', token: 'abc_DEF-1' });
    expect(publicRoute('/invite/abc/')).toEqual({ page: 'invite', token: 'abc' });
    expect(publicRoute('/invite/')).toBeUndefined();
  });

  it('a new user: shows the account and address, checks the password rules of spec 5, joins and goes to the console', async () => {
    serve({
      'GET /invite/the-token': { status: 200, body: INVITE },
      'GET /auth/me': { status: 401, body: { code: 'not_logged_in' } },
      'POST /invite/accept': { status: 200, body: { ...SESSION('nina@example.com'), account_id: 'acc-1' } },
    });
    render(<InvitePage token="the-token" />);
    expect(await screen.findByRole('heading', { name: 'Join Acme Events' })).toBeTruthy();
    expect(screen.getByText('You are invited to join Acme Events as Admin.')).toBeTruthy();
    expect(screen.getByTestId('invite-email').textContent).toBe('nina@example.com');
    const first = screen.getByLabelText(/First name/) as HTMLInputElement;
    expect(first.value).toBe('Nina');
    expect(document.activeElement).toBe(first);
    const password = screen.getByLabelText(/^Password/) as HTMLInputElement;
    const confirm = screen.getByLabelText(/Confirm the password/) as HTMLInputElement;
    const submit = screen.getByRole('button', { name: 'Create my user and join' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    expect(helper('u_password')).toBe('At least 12 characters.');

    const user = userEvent.setup();
    await user.type(password, 'short');
    await user.click(confirm);
    expect(helper('u_password')).toBe('Invalid password, please use 12 characters.');
    await user.clear(password);
    await user.type(password, 'long-enough-password');
    await user.type(confirm, 'something-else');
    await user.tab();
    expect(helper('u_password_confirm')).toBe('Passwords do not match');
    expect(helper('u_password')).toBe('Passwords do not match');
    expect(submit.disabled).toBe(true);

    await user.type(screen.getByLabelText(/Last name/), 'Newton');
    await user.clear(confirm);
    // Keyboard only: Enter in the last field submits.
    await user.type(confirm, 'long-enough-password{Enter}');
    await waitFor(() => expect(window.location.pathname).toBe('/console/acc-1'));
    expect(posted('/invite/accept')[0].body).toEqual({
      token: 'the-token',
      u_first_name: 'Nina',
      u_last_name: 'Newton',
      u_password: 'long-enough-password',
      u_password_confirm: 'long-enough-password',
    });
  });

  it('an invalid link says "Failed to validate the invite"', async () => {
    serve({
      'GET /invite/the-token': { status: 400, body: { code: 'invite_invalid', message: 'Failed to validate the invite' } },
      'GET /auth/me': { status: 401, body: { code: 'not_logged_in' } },
    });
    render(<InvitePage token="the-token" />);
    const box = await screen.findByTestId('invite-invalid');
    expect(box.textContent).toContain('Failed to validate the invite');
    expect(screen.queryByLabelText(/Password/)).toBeNull();
  });

  it('a link that turns out used on submit shows the invalid state; other failures stay on the form with their text', async () => {
    let answer: Reply = { status: 502, body: { code: 'http_error', message: 'Bad gateway' } };
    serve({
      'GET /invite/the-token': { status: 200, body: INVITE },
      'GET /auth/me': { status: 401, body: { code: 'not_logged_in' } },
      'POST /invite/accept': () => answer,
    });
    render(<InvitePage token="the-token" />);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Password/), 'long-enough-password');
    await user.type(screen.getByLabelText(/Confirm the password/), 'long-enough-password');
    await user.click(screen.getByRole('button', { name: 'Create my user and join' }));
    expect((await screen.findByTestId('invite-failure')).textContent).toBe('Something went wrong');
    answer = { status: 400, body: { code: 'invite_invalid', message: 'Failed to validate the invite' } };
    await user.click(screen.getByRole('button', { name: 'Create my user and join' }));
    expect((await screen.findByTestId('invite-invalid')).textContent).toContain('Failed to validate the invite');
  });

  it('an existing user signs in with the invited address (pre-filled), then the invitation is accepted', async () => {
    serve({
      'GET /invite/the-token': { status: 200, body: { ...INVITE, user_exists: true } },
      'GET /auth/me': { status: 401, body: { code: 'not_logged_in' } },
      'POST /auth/web': { status: 200, body: SESSION('nina@example.com') },
      'POST /invite/accept': { status: 200, body: { ...SESSION('nina@example.com'), account_id: 'acc-1' } },
    });
    render(<InvitePage token="the-token" />);
    expect(await screen.findByText('You already have a user with nina@example.com. Sign in with it to accept the invitation.')).toBeTruthy();
    const email = screen.getByLabelText(/E-mail/) as HTMLInputElement;
    expect(email.value).toBe('nina@example.com');
    const password = screen.getByLabelText(/Password/) as HTMLInputElement;
    expect(document.activeElement).toBe(password);
    const user = userEvent.setup();
    await user.type(password, 'her-password{Enter}');
    await waitFor(() => expect(window.location.pathname).toBe('/console/acc-1'));
    expect(posted('/auth/web')[0].body).toEqual({ u_email: 'nina@example.com', u_password: 'her-password' });
    expect(posted('/invite/accept')[0].body).toEqual({ token: 'the-token' });
  });

  it('signed in as the invited address: one button accepts; signed in as someone else: sign out first', async () => {
    serve({
      'GET /invite/the-token': { status: 200, body: { ...INVITE, user_exists: true } },
      'GET /auth/me': { status: 200, body: SESSION('someone@example.com') },
      'GET /auth/logout': { status: 200, body: { code: 'ok' } },
    });
    render(<InvitePage token="the-token" />);
    expect(await screen.findByText('You are signed in as someone@example.com, but this invitation is for nina@example.com.')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Sign out and sign in as nina@example.com' }));
    expect(await screen.findByLabelText(/Password/)).toBeTruthy();
    expect(calls.some((c) => c.path === '/auth/logout')).toBe(true);
    cleanup();

    serve({
      'GET /invite/the-token': { status: 200, body: { ...INVITE, user_exists: true } },
      'GET /auth/me': { status: 200, body: SESSION('Nina@Example.com') },
      'POST /invite/accept': { status: 200, body: { ...SESSION('nina@example.com'), account_id: 'acc-1' } },
    });
    render(<InvitePage token="the-token" />);
    expect(await screen.findByText('You are signed in as Nina@Example.com.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Accept the invitation' }));
    await waitFor(() => expect(window.location.pathname).toBe('/console/acc-1'));
  });

  it('speaks Dutch when Dutch was chosen', async () => {
    localStorage.setItem(LOCALE_STORE_KEY, JSON.stringify('nl'));
    serve({ 'GET /invite/the-token': { status: 200, body: INVITE }, 'GET /auth/me': { status: 401, body: { code: 'not_logged_in' } } });
    render(<InvitePage token="the-token" />);
    expect(await screen.findByRole('heading', { name: 'Word lid van Acme Events' })).toBeTruthy();
    expect(screen.getByText('Je bent uitgenodigd om lid te worden van Acme Events als Beheerder.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Maak mijn gebruiker aan en word lid' })).toBeTruthy();
  });
});
