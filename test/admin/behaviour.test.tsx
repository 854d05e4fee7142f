import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ErrorScreen } from '../../admin/src/layout/ErrorScreen';
import { DelayedProgress } from '../../admin/src/layout/DelayedProgress';
import { CopyButton } from '../../admin/src/layout/CopyButton';
import { resourcePath } from '../../admin/src/providers/dataProvider';
import { adminAccounts, canEntry, canInAccount, RESOURCE_GROUPS } from '../../admin/src/permissions';
import { publicRoute } from '../../admin/src/navigation';
import { grantsOf } from '../../resources/permissions';
import type { Session } from '../../admin/src/providers/session';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const session = (role: 'root' | 'superadmin' | 'member', accounts: Session['accounts'] = []): Session => ({
  code: 'ok',
  user: { id: 'u', u_id: 'u', u_first_name: '', u_last_name: '', u_email: 'u@example.com', u_role: role, u_is_verified: true, u_is_enabled: true },
  permissions: grantsOf(role),
  // as GET /auth/me sends it: the grants of the own role and of every membership role
  roleGrants: Object.fromEntries([role, ...accounts.map((a) => a.au_role)].map((r) => [r, grantsOf(r)])),
  accounts,
  settings: { passwordMinLength: 12 },
});

describe('router fallback', () => {
  it('says "Unexpected Application Error!" and offers a way back', () => {
    render(<ErrorScreen error={new Error('chunk failed to load')} />);
    expect(screen.getByRole('heading').textContent).toBe('Unexpected Application Error!');
    expect(screen.getByTestId('route-error-detail').textContent).toBe('chunk failed to load');
    expect(screen.getByRole('link', { name: 'Back to start' }).getAttribute('href')).toBe('/');
  });
});

describe('activity indicator and copy button timings (spec 9)', () => {
  it('the activity indicator appears only after 100 ms', () => {
    vi.useFakeTimers();
    render(<DelayedProgress bar />);
    expect(screen.queryByTestId('activity-indicator')).toBeNull();
    act(() => vi.advanceTimersByTime(99));
    expect(screen.queryByTestId('activity-indicator')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByTestId('activity-indicator')).toBeTruthy();
  });

  it('a copy button shows "copied" for 2 seconds', async () => {
    vi.useFakeTimers();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<CopyButton value="abc-123" />);
    const button = screen.getByTestId('copy-button');
    await act(async () => {
      fireEvent.click(button);
    });
    expect(writeText).toHaveBeenCalledWith('abc-123');
    // No i18n provider here: react-admin shows the keys.
    expect(button.textContent).toContain('ls.common.copied');
    act(() => vi.advanceTimersByTime(1999));
    expect(button.textContent).toContain('ls.common.copied');
    act(() => vi.advanceTimersByTime(1));
    expect(button.textContent).toContain('ls.common.copy');
    expect(button.textContent).not.toContain('copied');
  });
});

describe('data provider paths', () => {
  it('maps members and the picker to their account', () => {
    expect(resourcePath('accounts')).toBe('accounts');
    expect(resourcePath('accountUsers', { accountId: 'a1' })).toBe('accounts/a1/users');
    expect(resourcePath('unlinkedUsers', { accountId: 'a1' })).toBe('accounts/a1/users/unlinked');
    expect(() => resourcePath('accountUsers')).toThrow(/accountId/);
  });
});

describe('permissions in the admin (the shared can())', () => {
  it('guards each admin resource by the group its declaration names', () => {
    expect(RESOURCE_GROUPS).toEqual({ accounts: 'entry_accounts', users: 'entry_users', accountUsers: 'entry_account_users', media: 'entry_files', emails: 'entry_users' });
  });

  it('gates menu items, actions and the CSV import like the table in spec 6', () => {
    const root = session('root');
    const sup = session('superadmin');
    const member = session('member');
    expect(['accounts', 'users', 'media'].map((r) => canEntry(root, r, 'list'))).toEqual([true, true, true]);
    expect(['accounts', 'users', 'media'].map((r) => canEntry(sup, r, 'list'))).toEqual([true, false, false]);
    expect(['accounts', 'users', 'media'].map((r) => canEntry(member, r, 'list'))).toEqual([true, false, false]);
    expect(canEntry(member, 'accounts', 'create')).toBe(false);
    expect(canEntry(member, 'accounts', 'edit')).toBe(false);
    expect(canEntry(sup, 'accounts', 'delete')).toBe(true);
    expect(canEntry(sup, 'accountUsers', 'list')).toBe(false);
    expect(canEntry(root, 'users', 'change_password')).toBe(true);
    expect(canEntry(root, 'users', 'import')).toBe(true);
    expect(canEntry(sup, 'users', 'import')).toBe(false);
    expect(canEntry(null, 'accounts', 'list')).toBe(false);
  });

  it('uses the grants from the session (the database), not only the built-in table', () => {
    const custom = { ...session('superadmin'), permissions: { ...grantsOf('superadmin'), entry_users: 1 } };
    expect(canEntry(custom, 'users', 'list')).toBe(true);
    expect(canEntry(custom, 'users', 'create')).toBe(false);
  });

  it('sets member roles only with account_members set_role in that account', () => {
    const membership = (role: 'root' | 'superadmin' | 'member') => ({ a_id: 'acc', a_name: 'Acme', a_admin_url: null, a_is_enabled: true, au_role: role });
    expect(canInAccount(session('root'), 'acc', 'account_members', 'set_role')).toBe(true);
    expect(canInAccount(session('superadmin', [membership('superadmin')]), 'acc', 'account_members', 'set_role')).toBe(false);
    expect(canInAccount(session('member', [membership('root')]), 'acc', 'account_members', 'set_role')).toBe(true);
    expect(canInAccount(session('member'), 'acc', 'account_members', 'read')).toBe(false);
    // the stored grants decide, not the code's defaults: ops gave superadmin set_role
    const custom = session('member', [membership('superadmin')]);
    custom.roleGrants = { ...custom.roleGrants, superadmin: { ...grantsOf('superadmin'), account_members: 31 } };
    expect(canInAccount(custom, 'acc', 'account_members', 'set_role')).toBe(true);
  });

  it('offers on the selection page only accounts where the membership role is root or superadmin', () => {
    const s = session('member', [
      { a_id: '1', a_name: 'A', a_admin_url: null, a_is_enabled: true, au_role: 'superadmin' },
      { a_id: '2', a_name: 'B', a_admin_url: null, a_is_enabled: true, au_role: 'member' },
      { a_id: '3', a_name: 'C', a_admin_url: null, a_is_enabled: true, au_role: 'root' },
    ]);
    expect(adminAccounts(s).map((a) => a.a_name)).toEqual(['A', 'C']);
  });
});

describe('public routes', () => {
  it('recognises exactly the public paths of spec 2', () => {
    expect(publicRoute('/')).toEqual({ page: 'home' });
    expect(publicRoute('/login')).toEqual({ page: 'login' });
    expect(publicRoute('/logout')).toEqual({ page: 'logout' });
    expect(publicRoute('/users/verify/abc%20def')).toEqual({ page: 'verify', token: 'abc def' });
    expect(publicRoute('/users/resetpassword')).toEqual({ page: 'resetpassword' });
    expect(publicRoute('/users/new')).toBeUndefined();
    expect(publicRoute('/accounts/selection')).toBeUndefined();
    expect(publicRoute('/users/verify')).toBeUndefined();
  });
});
