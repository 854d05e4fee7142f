import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, testDataProvider, type I18nProvider } from 'react-admin';
import { HandoffButton } from '../../admin/src/handoffs/HandoffDialog';
import { HandoffHistory } from '../../admin/src/handoffs/HandoffHistory';
import { addConsoleTexts, addReactAdminTexts, i18nReady } from '../../admin/src/i18n';
import { setSession, type Session } from '../../admin/src/providers/session';
import { grantsOf } from '../../resources/permissions';

const ACCOUNT = 'acc-1';
const LEAD = 'lead-1';

let i18nProvider: I18nProvider;
beforeAll(async () => {
  localStorage.setItem('RaStore.locale', JSON.stringify('en'));
  i18nProvider = await i18nReady();
  await addReactAdminTexts();
  await addConsoleTexts();
});

const MEMBERS = [
  { au_userid: 'u-rob', u_email: 'rob@example.com', u_first_name: 'Rob', u_last_name: 'Rep' },
  { au_userid: 'u-mia', u_email: 'mia@example.com', u_first_name: 'Mia', u_last_name: null },
];
const HANDOFF = (over: Record<string, unknown> = {}) => ({
  id: 'h1',
  ho_id: 'h1',
  ho_leadid: LEAD,
  ho_to_userid: 'u-rob',
  ho_message: 'Call her',
  ho_status: 'pending',
  ho_created_by: 'u-me',
  ho_created_at: '2026-11-20T10:00:00.000Z',
  ho_decided_at: null,
  to_first_name: 'Rob',
  to_last_name: 'Rep',
  to_email: 'rob@example.com',
  sender_first_name: 'Me',
  sender_last_name: 'Myself',
  sender_email: 'me@example.com',
  ...over,
});

let history: unknown[] = [];
let createReply: { status: number; body: unknown };
let calls: { method: string; path: string; query: Record<string, unknown>; body?: unknown }[] = [];

beforeEach(() => {
  history = [];
  calls = [];
  createReply = { status: 201, body: HANDOFF() };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const u = new URL(String(url), 'http://localhost');
      const method = init.method ?? 'GET';
      const query = Object.fromEntries([...u.searchParams].map(([k, v]) => [k, JSON.parse(v)]));
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      const path = u.pathname.replace('/api/1', '');
      calls.push({ method, path, query, body });
      const json = (status: number, b: unknown) => new Response(JSON.stringify(b), { status, headers: { 'Content-Type': 'application/json' } });
      if (path === `/accounts/${ACCOUNT}/members`) {
        const q = String((query.filter as { q?: string })?.q ?? '').toLowerCase();
        return json(
          200,
          MEMBERS.filter((m) => !q || m.u_email.startsWith(q) || (m.u_first_name ?? '').toLowerCase().startsWith(q)),
        );
      }
      if (path === `/accounts/${ACCOUNT}/handoffs` && method === 'GET') return json(200, history);
      if (path === `/accounts/${ACCOUNT}/handoffs` && method === 'POST') {
        if (createReply.status === 201) history = [createReply.body, ...history];
        return json(createReply.status, createReply.body);
      }
      return json(404, { code: 'not_found' });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setSession(null);
});

function sessionAs(role: 'superadmin' | 'member', grants: Record<string, number> = {}): Session {
  return {
    code: 'ok',
    user: { id: 'u-me', u_id: 'u-me', u_first_name: 'Me', u_last_name: 'Myself', u_email: 'me@example.com', u_role: 'member', u_is_verified: true, u_is_enabled: true },
    // The user's own role is member too: its grants are the session's permissions.
    permissions: role === 'member' ? { ...grantsOf('member'), ...grants } : grantsOf('member'),
    roleGrants: { [role]: { ...grantsOf(role), ...grants } },
    accounts: [{ a_id: ACCOUNT, a_name: 'Acme', a_admin_url: null, a_is_enabled: true, au_role: role }],
    settings: { passwordMinLength: 12 },
  } as Session;
}

function mount(session = sessionAs('superadmin')) {
  setSession(session);
  render(
    <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider}>
      <HandoffButton accountId={ACCOUNT} leadId={LEAD} />
      <HandoffHistory accountId={ACCOUNT} leadId={LEAD} />
    </AdminContext>,
  );
  return userEvent.setup();
}

describe('handing a lead off from the lead page', () => {
  it('picks a member found on the server, sends the message, and the history shows the new handoff', async () => {
    const user = mount();
    expect(await screen.findByText('This lead has not been handed off.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Hand off' }));
    const dialog = await screen.findByRole('dialog', { name: 'Hand off this lead' });
    await user.type(within(dialog).getByRole('combobox', { name: /Representative/ }), 'ro');
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/members') && (c.query.filter as { q?: string }).q === 'ro')).toBe(true));
    await user.click(await screen.findByRole('option', { name: 'Rob Rep · rob@example.com' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Message' }), 'Call her');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      { method: 'POST', path: `/accounts/${ACCOUNT}/handoffs`, query: {}, body: { ho_leadid: LEAD, ho_to_userid: 'u-rob', ho_message: 'Call her' } },
    ]);
    const item = await screen.findByTestId('handoff-history-item');
    expect(item.textContent).toContain('Me Myself to Rob Rep');
    expect(within(item).getByTestId('handoff-status').textContent).toBe('Waiting for an answer');
    expect(item.textContent).toContain('Call her');
    // The history was asked for this lead, newest first.
    expect(calls.find((c) => c.method === 'GET' && c.path.endsWith('/handoffs'))!.query).toEqual({ filter: { ho_leadid: LEAD }, sort: ['ho_created_at', 'DESC'], range: [0, 99] });
  });

  it('a mail that cannot be sent: the spec text in the dialog, which stays open with what was typed; no representative: asked for one', async () => {
    const user = mount();
    await user.click(await screen.findByRole('button', { name: 'Hand off' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(within(dialog).getByText('Please choose a representative')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    createReply = { status: 502, body: { code: 'handoff_notification_failed', message: 'We failed to deliver the notification to the representative' } };
    await user.click(within(dialog).getByRole('combobox', { name: /Representative/ }));
    await user.click(await screen.findByRole('option', { name: 'Mia · mia@example.com' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Message' }), 'Hello');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect((await within(dialog).findByTestId('handoff-error')).textContent).toBe('We failed to deliver the notification to the representative');
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect((within(dialog).getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe('Hello');
    expect(screen.getByText('This lead has not been handed off.')).toBeTruthy();
  });

  it('the history shows each answer with its status', async () => {
    history = [
      HANDOFF({ id: 'h2', ho_status: 'accepted', ho_decided_at: '2026-11-21T08:00:00.000Z', ho_message: null }),
      HANDOFF({ id: 'h1', ho_status: 'not_available', to_first_name: 'Mia', to_last_name: null }),
    ];
    mount();
    const items = await screen.findAllByTestId('handoff-history-item');
    expect(items.map((i) => within(i).getByTestId('handoff-status').textContent)).toEqual(['Accepted', 'Not available']);
    expect(items[0].textContent).toContain('Answered');
    expect(items[1].textContent).toContain('Me Myself to Mia');
  });

  it('follows the rights: no button without the create bit, no history without the read bit', async () => {
    mount(sessionAs('member', { account_handoffs: 1 }));
    expect(await screen.findByTestId('handoff-history')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Hand off' })).toBeNull();
    cleanup();
    mount(sessionAs('member', { account_handoffs: 0 }));
    expect(screen.queryByTestId('handoff-history')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Hand off' })).toBeNull();
  });
});
