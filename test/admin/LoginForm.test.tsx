import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LoginForm } from '../../admin/src/public/LoginForm';
import { ApiRequestError } from '../../admin/src/providers/http';

afterEach(cleanup);

function setup(overrides: Partial<Parameters<typeof LoginForm>[0]> = {}) {
  const props = {
    onLogin: vi.fn().mockResolvedValue(undefined),
    onSuccess: vi.fn(),
    onForgotPassword: vi.fn(),
    onResendActivation: vi.fn().mockResolvedValue(undefined),
    ...overrides,
  };
  render(<LoginForm {...props} />);
  const user = userEvent.setup();
  const email = screen.getByLabelText(/E-mail/) as HTMLInputElement;
  const password = screen.getByLabelText(/Password/) as HTMLInputElement;
  const submit = screen.getByRole('button', { name: /Sign in/ }) as HTMLButtonElement;
  const helper = (input: HTMLInputElement) => (document.getElementById(`${input.name}-helper-text`)?.textContent ?? '').replace(/\u200b/g, '').trim();
  return { props, user, email, password, submit, helper };
}

describe('login form rules (spec 5)', () => {
  it('shows no error before a field is touched, and keeps submit disabled while the form is invalid', async () => {
    const { user, email, password, submit, helper } = setup();
    expect(submit.disabled).toBe(true);
    await user.type(email, 'not-an-email');
    // still focused: not touched yet
    expect(helper(email)).toBe('');
    await user.click(password);
    expect(helper(email)).toBe('Please enter a valid email');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(submit.disabled).toBe(true);
  });

  it('shows only the first error of the first failing field', async () => {
    const { user, email, password, helper } = setup();
    await user.type(email, 'nope');
    await user.type(password, 'abc');
    await user.click(email); // both touched now
    expect(helper(email)).toBe('Please enter a valid email');
    expect(helper(password)).toBe('');
    await user.clear(email);
    await user.type(email, 'ada@example.com');
    await user.click(password);
    await user.click(email);
    expect(helper(email)).toBe('');
    expect(helper(password)).toBe('Invalid password, please use 4 characters.');
  });

  it('an empty e-mail is no error (spec 5: empty or valid); the short password still blocks the submit', async () => {
    const { user, email, password, submit, helper } = setup();
    await user.click(email);
    await user.click(password);
    expect(helper(email)).toBeFalsy();
    expect(submit.disabled).toBe(true);
    await user.type(password, 'abcd');
    expect(submit.disabled).toBe(false);
  });

  it('submits the trimmed e-mail and the password, with a loading state that disables the button', async () => {
    let resolve!: () => void;
    const onLogin = vi.fn(() => new Promise<void>((r) => (resolve = r)));
    const { user, email, password, submit, props } = setup({ onLogin });
    await user.type(email, '  ada@example.com ');
    await user.type(password, 'secret-pass');
    expect(submit.disabled).toBe(false);
    await user.click(submit);
    expect(onLogin).toHaveBeenCalledWith({ u_email: 'ada@example.com', u_password: 'secret-pass' });
    expect(submit.disabled).toBe(true);
    expect(submit.getAttribute('aria-busy')).toBe('true');
    expect(submit.textContent).toContain('Signing in…');
    resolve();
    await waitFor(() => expect(props.onSuccess).toHaveBeenCalledTimes(1));
  });

  it('shows the failure code as the translation of error_{code} above the form', async () => {
    const onLogin = vi.fn().mockRejectedValue(new ApiRequestError(401, { code: 'invalid_credentials', message: 'server text' }));
    const { user, email, password, submit, props } = setup({ onLogin });
    await user.type(email, 'ada@example.com');
    await user.type(password, 'wrong-pass');
    await user.click(submit);
    const alert = await screen.findByTestId('login-failure');
    expect(alert.textContent).toBe('The email and password combination does not match');
    expect(props.onSuccess).not.toHaveBeenCalled();
    // the form is usable again
    expect(submit.disabled).toBe(false);
  });

  it('falls back to the server text for a code without a translation', async () => {
    const onLogin = vi.fn().mockRejectedValue(new ApiRequestError(418, { code: 'teapot', message: 'I am a teapot' }));
    const { user, email, password, submit } = setup({ onLogin });
    await user.type(email, 'ada@example.com');
    await user.type(password, 'whatever');
    await user.click(submit);
    expect((await screen.findByTestId('login-failure')).textContent).toBe('I am a teapot');
  });

  it('offers an unverified user a resend of the activation link', async () => {
    const onLogin = vi.fn().mockRejectedValue(new ApiRequestError(403, { code: 'user_not_verified' }));
    const { user, email, password, submit, props } = setup({ onLogin });
    await user.type(email, 'new@example.com');
    await user.type(password, 'whatever');
    await user.click(submit);
    expect((await screen.findByTestId('login-failure')).textContent).toContain('User account not yet activated');
    await user.click(screen.getByRole('button', { name: 'Resend activation link' }));
    expect(props.onResendActivation).toHaveBeenCalledWith('new@example.com');
    expect(await screen.findByText(/a new activation link is on its way/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Resend activation link' })).toBeNull();
  });

  it('opens the forgot-password dialog with the typed address', async () => {
    const { user, email, props } = setup();
    await user.type(email, 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Forgot your password?' }));
    expect(props.onForgotPassword).toHaveBeenCalledWith('ada@example.com');
  });
});
