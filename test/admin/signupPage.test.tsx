import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import SignupPage from '../../admin/src/public/SignupPage';
import VerifyPage, { AFTER_VERIFY_KEY as VERIFY_KEY } from '../../admin/src/public/VerifyPage';
import { AFTER_VERIFY_KEY } from '../../admin/src/public/signupTexts';
import { publicRoute } from '../../admin/src/navigation';
import { LOCALE_STORE_KEY } from '../../admin/src/i18n/locale';

type Call = { method: string; path: string; body?: unknown };
type Reply = { status: number; body?: unknown };

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
      document.cookie = 'ls.csrf-token=tok';
      const route = routes[`${method} ${path}`];
      const reply = typeof route === 'function' ? route(body) : (route ?? { status: 404, body: { code: 'not_found' } });
      return new Response(reply.body === undefined ? '' : JSON.stringify(reply.body), { status: reply.status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
}

const GUEST = { status: 200, body: { code: 'ok', token: 'g', settings: { passwordMinLength: 10 } } };
const helper = (name: string) => (document.getElementById(`${name}-helper-text`)?.textContent ?? '').replace(/\u200b/g, '').trim();
const posted = (path: string) => calls.filter((c) => c.method === 'POST' && c.path === path);

async function fill(user: ReturnType<typeof userEvent.setup>, values: Record<string, string>) {
  for (const [name, value] of Object.entries(values)) {
    const input = document.getElementById(name) as HTMLInputElement;
    await user.clear(input);
    if (value) await user.type(input, value);
  }
}

beforeEach(() => {
  localStorage.clear();
  window.history.replaceState(null, '', '/signup');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the sign-up page /signup', () => {
  it('is a public route; the verification page reads the key the sign-up page writes', () => {
    expect(publicRoute('/signup')).toEqual({ page: 'signup' });
    expect(publicRoute('/signup/')).toEqual({ page: 'signup' });
    expect(VERIFY_KEY).toBe(AFTER_VERIFY_KEY);
  });

  it("checks the fields by the server's password length before sending, then shows the server's field errors", async () => {
    serve({
      'GET /auth/guest-token': GUEST,
      'POST /auth/signup': { status: 400, body: { code: 'validation_failed', message: 'Please enter a valid email', fields: { u_email: 'error_email_invalid' } } },
    });
    const user = userEvent.setup();
    render(<SignupPage />);
    await screen.findByRole('heading', { name: 'Create an account' });
    await waitFor(() => expect(calls.some((c) => c.path === '/auth/guest-token')).toBe(true));
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    // Nothing sent: every field says what is missing.
    expect(posted('/auth/signup')).toEqual([]);
    expect(helper('u_email')).toBe('Please enter an email');
    expect(helper('u_first_name')).toBe('This field is required');
    expect(helper('u_password')).toBe('Invalid password, please use 10 characters.');
    await fill(user, { u_email: 'sam@acme.example', u_first_name: 'Sam', u_last_name: 'Lee', u_password: 'long-enough-1', u_password_confirm: 'long-enough-2' });
    expect(helper('u_password_confirm')).toBe('Passwords do not match');
    await fill(user, { u_password_confirm: 'long-enough-1' });
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(helper('u_email')).toBe('Please enter a valid email'));
    expect(posted('/auth/signup')[0].body).toEqual({
      u_email: 'sam@acme.example',
      u_first_name: 'Sam',
      u_last_name: 'Lee',
      u_password: 'long-enough-1',
      u_password_confirm: 'long-enough-1',
    });
  });

  it('422 company_has_no_account: the notice names the domain, in Dutch when the visitor chose Dutch', async () => {
    localStorage.setItem(LOCALE_STORE_KEY, JSON.stringify('nl'));
    serve({
      'GET /auth/guest-token': GUEST,
      'POST /auth/signup': { status: 422, body: { code: 'company_has_no_account', message: 'Your company has no account yet; ask your event manager for an invitation' } },
    });
    const user = userEvent.setup();
    render(<SignupPage />);
    await screen.findByRole('heading', { name: 'Account aanmaken' });
    await fill(user, { u_email: 'sam@nowhere.example', u_first_name: 'Sam', u_last_name: 'Lee', u_password: 'long-enough-1', u_password_confirm: 'long-enough-1' });
    await user.click(screen.getByRole('button', { name: 'Account aanmaken' }));
    const notice = await screen.findByTestId('signup-no-account');
    expect(notice.textContent).toContain('Geen account voor nowhere.example');
    expect(notice.textContent).toContain('Je bedrijf heeft nog geen account; vraag je evenementmanager om een uitnodiging');
  });

  it('201: "activation sent" with the address, resend through the resend-activation call; from the app it remembers the way back', async () => {
    window.history.replaceState(null, '', '/signup?from=app');
    serve({
      'GET /auth/guest-token': GUEST,
      'POST /auth/signup': { status: 201, body: { code: 'activation_sent' } },
      'POST /auth/resend-activation': { status: 200, body: { code: 'ok' } },
    });
    const user = userEvent.setup();
    render(<SignupPage />);
    await screen.findByRole('heading', { name: 'Create an account' });
    await fill(user, { u_email: ' sam@acme.example ', u_first_name: 'Sam', u_last_name: 'Lee', u_password: 'long-enough-1', u_password_confirm: 'long-enough-1' });
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await screen.findByRole('heading', { name: 'Activation sent' });
    expect(screen.getByText('sam@acme.example')).toBeTruthy();
    expect(localStorage.getItem(AFTER_VERIFY_KEY)).toBe('/app');
    expect(screen.getByRole('link', { name: 'Back to Leadstage Capture' }).getAttribute('href')).toBe('/app');
    await user.click(screen.getByRole('button', { name: 'Resend the activation link' }));
    await screen.findByText('If this address is still waiting for activation, a new link is on its way.');
    expect(posted('/auth/resend-activation').map((c) => c.body)).toEqual([{ u_email: 'sam@acme.example' }]);
  });

  it('the verification page: on to the capture app after a sign-up from it, else back to sign in', async () => {
    serve({ 'GET /users/verify/tok-app-0123456789': { status: 200, body: { code: 'ok', support: {} } } });
    localStorage.setItem(AFTER_VERIFY_KEY, '/app');
    render(<VerifyPage token="tok-app-0123456789" />);
    expect((await screen.findByTestId('verify-open-app')).getAttribute('href')).toBe('/app');
    cleanup();
    localStorage.clear();
    serve({ 'GET /users/verify/tok-login-0123456789': { status: 200, body: { code: 'ok', support: {} } } });
    render(<VerifyPage token="tok-login-0123456789" />);
    await screen.findByTestId('verify-success');
    expect(screen.queryByTestId('verify-open-app')).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/login');
  });
});
