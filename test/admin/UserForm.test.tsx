import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, RecordContextProvider, ResourceContextProvider, SaveContextProvider, testDataProvider, type I18nProvider } from 'react-admin';
import { UserForm } from '../../admin/src/users/UserForm';
import { addReactAdminTexts, i18nReady } from '../../admin/src/i18n';
import { grantsOf } from '../../resources/permissions';
import type { Session } from '../../admin/src/providers/session';

let i18nProvider: I18nProvider;
beforeAll(async () => {
  localStorage.setItem('RaStore.locale', JSON.stringify('en'));
  i18nProvider = await i18nReady();
  await addReactAdminTexts();
});
afterEach(cleanup);

function session(role: 'root' | 'superadmin', passwordMinLength = 12, grants?: Record<string, number>): Session {
  return {
    code: 'ok',
    user: { id: 'me', u_id: 'me', u_first_name: 'Me', u_last_name: '', u_email: 'me@example.com', u_role: role, u_is_verified: true, u_is_enabled: true },
    permissions: grants ?? grantsOf(role),
    accounts: [],
    settings: { passwordMinLength },
  };
}

const existing = {
  id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  u_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  u_first_name: 'Ada',
  u_last_name: 'Lovelace',
  u_email: 'ada@example.com',
  u_role: 'member',
  u_is_verified: true,
  u_is_enabled: true,
};

function setup({ isNew, s }: { isNew: boolean; s: Session }) {
  const save = vi.fn();
  render(
    <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider}>
      <ResourceContextProvider value="users">
        <SaveContextProvider value={{ save, saving: false, mutationMode: 'pessimistic' }}>
          <RecordContextProvider value={isNew ? undefined : existing}>
            <UserForm isNew={isNew} session={s} />
          </RecordContextProvider>
        </SaveContextProvider>
      </ResourceContextProvider>
    </AdminContext>,
  );
  const user = userEvent.setup();
  const input = (name: string) => document.querySelector(`input[name="${name}"]`) as HTMLInputElement | null;
  /** The text under an input (react-admin generates the ids, so go through the form control). */
  const helper = (name: string) => (input(name)?.closest('.MuiFormControl-root')?.querySelector('.MuiFormHelperText-root')?.textContent ?? '').replace(/\u200b/g, '').trim();
  const submit = () => user.click(screen.getByRole('button', { name: 'Save' }));
  return { save, user, input, helper, submit };
}

describe("user form's password rules (spec 5)", () => {
  it('creating: password and confirmation are required, with the configured minimum length', async () => {
    const { user, input, helper, submit, save } = setup({ isNew: true, s: session('root', 12) });
    await user.type(input('u_email')!, 'new@example.com');
    await submit();
    await waitFor(() => expect(helper('u_password')).toBe('Invalid password, please use 12 characters.'));
    expect(save).not.toHaveBeenCalled();

    await user.type(input('u_password')!, 'long-enough-pass');
    await user.type(input('u_password_confirm')!, 'something-else!!');
    await submit();
    // A mismatch shows on both fields.
    await waitFor(() => expect(helper('u_password_confirm')).toBe('Passwords do not match'));
    expect(helper('u_password')).toBe('Passwords do not match');
    expect(save).not.toHaveBeenCalled();

    await user.clear(input('u_password_confirm')!);
    await user.type(input('u_password_confirm')!, 'long-enough-pass');
    await submit();
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    expect(save.mock.calls[0][0]).toMatchObject({ u_email: 'new@example.com', u_password: 'long-enough-pass', u_password_confirm: 'long-enough-pass' });
  });

  it('the minimum follows the server setting', async () => {
    const { user, input, helper, submit } = setup({ isNew: true, s: session('root', 8) });
    await user.type(input('u_email')!, 'new@example.com');
    await user.type(input('u_password')!, 'short');
    await user.type(input('u_password_confirm')!, 'short');
    await submit();
    await waitFor(() => expect(helper('u_password')).toBe('Invalid password, please use 8 characters.'));
  });

  it('editing: the password is optional; leaving both empty saves', async () => {
    const { submit, save, user, input } = setup({ isNew: false, s: session('root') });
    expect(screen.getByTestId('password-fields')).toBeTruthy();
    await user.clear(input('u_last_name')!);
    await user.type(input('u_last_name')!, 'Byron');
    await submit();
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    expect(save.mock.calls[0][0]).toMatchObject({ u_last_name: 'Byron' });
  });

  it('editing: when either password field is filled, both rules apply', async () => {
    const { user, input, helper, submit, save } = setup({ isNew: false, s: session('root') });
    await user.type(input('u_password_confirm')!, 'only-the-confirmation');
    await submit();
    await waitFor(() => expect(helper('u_password')).toBe('Invalid password, please use 12 characters.'));
    expect(helper('u_password_confirm')).toBe('Passwords do not match');
    expect(save).not.toHaveBeenCalled();
  });

  it('editing: the password fields appear only with entry_users change_password', async () => {
    // The same role with entry_users 15 (read, create, update, delete) but not change_password (16).
    const grants = { ...grantsOf('root'), entry_users: 15 };
    const { input } = setup({ isNew: false, s: session('root', 12, grants) });
    expect(input('u_email')).not.toBeNull();
    expect(screen.queryByTestId('password-fields')).toBeNull();
    expect(input('u_password')).toBeNull();
  });

  it('an invalid e-mail shows its message under u_email', async () => {
    const { user, input, helper, submit } = setup({ isNew: true, s: session('root') });
    await user.type(input('u_email')!, 'nope');
    await submit();
    await waitFor(() => expect(helper('u_email')).toBe('Please enter a valid email'));
  });
});
