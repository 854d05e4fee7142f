import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, type I18nProvider } from 'react-admin';
import { SortableList } from '../../admin/src/layout/SortableList';
import { moveItem } from '../../admin/src/layout/sortable';
import { ranksAbove, rolesUpTo } from '../../admin/src/members/roles';
import { setSession } from '../../admin/src/providers/session';
import { ACCOUNT, consoleI18n, mountConsole, sessionAs, type Row } from '../helpers/consoleScreens';

let i18nProvider: I18nProvider;
beforeAll(async () => {
  i18nProvider = await consoleI18n();
});
afterEach(() => {
  cleanup();
  setSession(null);
});

const nina: Row = {
  id: 'm-nina',
  au_userid: 'u-nina',
  au_role: 'member',
  au_external_id: null,
  u_email: 'nina@example.com',
  u_first_name: 'Nina',
  u_last_name: 'Visser',
  u_is_verified: true,
};
const boss: Row = {
  id: 'm-boss',
  au_userid: 'u-boss',
  au_role: 'root',
  au_external_id: null,
  u_email: 'boss@example.com',
  u_first_name: 'Bo',
  u_last_name: 'Ss',
  u_is_verified: false,
};
const input = (name: string) => document.querySelector(`[name="${name}"]`) as HTMLInputElement | null;
/** The options of a react-admin SelectInput, by its input's name. */
async function optionsOf(user: ReturnType<typeof userEvent.setup>, name: string): Promise<string[]> {
  const control = input(name)!.closest('.MuiFormControl-root') as HTMLElement;
  await user.click(within(control).getByRole('combobox'));
  const options = (await screen.findAllByRole('option')).map((o) => o.textContent ?? '');
  await user.keyboard('{Escape}');
  return options.filter((o) => o !== '—' && o.trim() !== '');
}

describe('role rules of the console', () => {
  it('never offers a role above your own, and knows who ranks above you', () => {
    expect(rolesUpTo('root')).toEqual(['root', 'superadmin', 'admin', 'member']);
    expect(rolesUpTo('superadmin')).toEqual(['superadmin', 'admin', 'member']);
    expect(rolesUpTo('member')).toEqual(['member']);
    expect(rolesUpTo(undefined)).toEqual([]);
    expect(ranksAbove('root', 'superadmin')).toBe(true);
    expect(ranksAbove('admin', 'superadmin')).toBe(false);
  });
});

describe('member edit', () => {
  it('a superadmin without set_role sees the role but cannot change it, and cannot change the user fields without account_users update', async () => {
    const session = sessionAs('member', 'superadmin', { superadmin: { account_users: 1 } });
    mountConsole(session, `/members/${nina.id}`, { members: [nina] }, i18nProvider);
    await waitFor(() => expect(input('u_email')?.value).toBe('nina@example.com'));
    expect(input('u_email')!.disabled).toBe(true);
    expect(input('u_first_name')!.disabled).toBe(true);
    expect(screen.getAllByText("Changing a user's e-mail and names needs the right to edit users.").length).toBe(3);
    expect(input('au_role')!.closest('.MuiFormControl-root')!.querySelector('[role=combobox]')!.getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByText('Only someone who may set roles changes this; new people join as member.')).toBeTruthy();
    // the external id is the membership's own: editable; verified is shown, not edited; the user picker is not shown
    expect(input('au_external_id')!.disabled).toBe(false);
    expect(screen.getByTestId('readonly-u_is_verified')).toBeTruthy();
    expect(input('au_userid')).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove' })).toBeTruthy();
  });

  it('with set_role, a superadmin may pick any role up to superadmin, never root; saving sends the role', async () => {
    const session = sessionAs('member', 'superadmin', { superadmin: { account_members: 31 } });
    const { user, data } = mountConsole(session, `/members/${nina.id}`, { members: [nina] }, i18nProvider);
    await waitFor(() => expect(input('u_email')?.value).toBe('nina@example.com'));
    expect(await optionsOf(user, 'au_role')).toEqual(['Superadmin', 'Admin', 'Member']);
    // the user's own fields: editable with account_users update (the superadmin's default grants)
    expect(input('u_email')!.disabled).toBe(false);
    const control = input('au_role')!.closest('.MuiFormControl-root') as HTMLElement;
    await user.click(within(control).getByRole('combobox'));
    await user.click(await screen.findByRole('option', { name: 'Admin' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(data.calls.find((c) => c.method === 'update')).toBeTruthy());
    expect((data.calls.find((c) => c.method === 'update')!.params as { data: Row }).data).toMatchObject({ au_role: 'admin', u_email: 'nina@example.com' });
  });

  it('a member ranked above you is shown, not changed or removed', async () => {
    mountConsole(sessionAs('member', 'superadmin'), `/members/${boss.id}`, { members: [boss] }, i18nProvider);
    await screen.findByTestId('member-above');
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove' })).toBeNull();
    expect(input('au_role')!.closest('.MuiFormControl-root')!.textContent).toContain('Root');
  });

  it('only a root user adds an existing user; anyone else is pointed to the invites', async () => {
    mountConsole(sessionAs('member', 'superadmin'), '/members/new', { members: [] }, i18nProvider);
    await screen.findByText('Members join through invitations');
    expect((await screen.findByRole('link', { name: 'Invite' })).getAttribute('href')).toBe(`/console/${ACCOUNT}/invites/new`);
    cleanup();
    mountConsole(
      sessionAs('root', 'root'),
      '/members/new',
      { members: [], unlinkedUsers: [{ id: 'u-new', u_email: 'new@example.com', u_first_name: 'New', u_last_name: 'Person' }] },
      i18nProvider,
    );
    await waitFor(() => expect(input('au_userid')).not.toBeNull());
    expect(input('u_email')).toBeNull(); // the user's own fields are the user's, not set here
  });
});

describe('invite edit', () => {
  const pending: Row = {
    id: 'i-1',
    iv_email: 'omar@example.com',
    iv_first_name: 'Omar',
    iv_last_name: null,
    iv_role: 'member',
    iv_status: 'expired',
    iv_expires_at: '2026-01-01T10:00:00Z',
    iv_invited_by: 'u-me',
  };
  it('an expired invite can be sent again and revoked (confirmed); the sender is named', async () => {
    const { user, data } = mountConsole(sessionAs('root', 'root'), `/invites/${pending.id}`, { invites: [pending], members: [] }, i18nProvider);
    await screen.findByRole('button', { name: 'Send the invitation to omar@example.com again' });
    expect(screen.getByTestId('readonly-iv_invited_by').textContent).toContain('Me Myself (you)');
    expect(screen.getByTestId('invite-status').textContent).toBe('Expired');
    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    await screen.findByText('Revoke the invitation to omar@example.com?');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(data.calls.some((c) => c.method === 'delete' && c.resource === 'invites')).toBe(true));
  });

  it('an accepted invite is read-only: no save, resend or revoke', async () => {
    mountConsole(sessionAs('root', 'root'), `/invites/${pending.id}`, { invites: [{ ...pending, iv_status: 'accepted' }], members: [] }, i18nProvider);
    await screen.findByTestId('invite-closed');
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Revoke' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Send the invitation/ })).toBeNull();
    expect(screen.getByTestId('cancel').textContent).toBe('Back');
  });
});

describe('sortable list', () => {
  const items = [
    { id: 'a', title: 'Alpha' },
    { id: 'b', title: 'Bravo' },
    { id: 'c', title: 'Charlie' },
  ];
  function mountList(onCommit: (ids: string[]) => Promise<void>) {
    const commits: string[][] = [];
    render(
      <AdminContext i18nProvider={i18nProvider}>
        <SortableList
          items={items}
          nameOf={(i) => i.title}
          canMove
          label="Things"
          onCommit={(ids) => {
            commits.push(ids);
            return onCommit(ids);
          }}
          renderRow={(i) => <span data-testid="title">{i.title}</span>}
        />
      </AdminContext>,
    );
    const titles = () => screen.getAllByTestId('title').map((t) => t.textContent);
    const announced = () => screen.getByTestId('sortable-announcer').textContent;
    return { commits, titles, announced, user: userEvent.setup() };
  }

  it('moves a row by keyboard: Space lifts, arrows move, Space drops as one commit; Escape puts it back', async () => {
    const { commits, titles, announced, user } = mountList(async () => undefined);
    screen.getByRole('button', { name: 'Move Charlie' }).focus();
    await user.keyboard(' ');
    expect(announced()).toBe('Charlie picked up, position 3 of 3. Arrows move it, Space drops it, Escape cancels.');
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(titles()).toEqual(['Charlie', 'Alpha', 'Bravo']);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Charlie' }));
    expect(commits).toEqual([]);
    await user.keyboard(' ');
    expect(commits).toEqual([['c', 'a', 'b']]);

    screen.getByRole('button', { name: 'Move Alpha' }).focus();
    await user.keyboard(' {ArrowDown}{Escape}');
    expect(commits).toHaveLength(1);
    expect(announced()).toBe('Move cancelled; Alpha is back at position 2.');
  });

  it('Alt+arrow moves one place at once; a refused order puts the previous one back and says why', async () => {
    let refuse = false;
    const { commits, titles, announced, user } = mountList(async () => {
      if (refuse) throw new Error('The order could not be saved; reload and try again');
    });
    screen.getByRole('button', { name: 'Move Alpha' }).focus();
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    expect(commits).toEqual([['b', 'a', 'c']]);
    await waitFor(() => expect(announced()).toContain('The new order is saved'));
    refuse = true;
    screen.getByRole('button', { name: 'Move Charlie' }).focus();
    await act(async () => {
      await user.keyboard('{Alt>}{ArrowUp}{/Alt}');
    });
    // (the stored order the parent passes is still a, b, c: the list shows it again after the refusal)
    await waitFor(() => expect(titles()).toEqual(['Alpha', 'Bravo', 'Charlie']));
    expect(announced()).toBe('The new order could not be saved; the previous order is back. The order could not be saved; reload and try again');
  });

  it('moveItem moves one item to an index of the list as it is', () => {
    expect(moveItem(['a', 'b', 'c', 'd'], 3, 0)).toEqual(['d', 'a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveItem(['a', 'b'], 1, 9)).toEqual(['a', 'b']);
  });
});

describe('a screen the caller may not open', () => {
  it('a member opening invites, a new mail template or an invite gets "access denied" and no request (so no 403 toast)', async () => {
    const invite: Row = { id: 'i-1', iv_email: 'omar@example.com', iv_status: 'pending', iv_role: 'member' };
    for (const at of ['/invites', '/mail-templates/new', '/invites/i-1', '/form-styles']) {
      const { data } = mountConsole(sessionAs('member', 'member'), at, { invites: [invite], 'mail-templates': [], 'form-styles': [] }, i18nProvider);
      await screen.findByTestId('access-denied');
      // a moment for anything still on its way
      await act(() => new Promise((r) => setTimeout(r, 300)));
      expect(
        data.reads.filter((r) => /invites|mail-templates|form-styles/.test(r)),
        at,
      ).toEqual([]);
      expect(screen.queryByRole('alert'), at).toBeNull();
      cleanup();
    }
    // the same screens open for an admin of the account
    const { data } = mountConsole(sessionAs('member', 'admin'), '/invites', { invites: [invite] }, i18nProvider);
    await screen.findByText('omar@example.com');
    expect(data.reads).toContain('getList invites');
    expect(screen.queryByTestId('access-denied')).toBeNull();
  }, 90_000);
});
