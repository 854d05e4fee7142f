import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, testDataProvider, type I18nProvider } from 'react-admin';
import { ApiTokens } from '../../admin/src/profile/ApiTokens';
import { setSession, type Session } from '../../admin/src/providers/session';
import { addReactAdminTexts, i18nReady } from '../../admin/src/i18n';
import { grantsOf } from '../../resources/permissions';

let i18nProvider: I18nProvider;
beforeAll(async () => {
  localStorage.setItem('RaStore.locale', JSON.stringify('en'));
  i18nProvider = await i18nReady();
  await addReactAdminTexts();
});

const DAY = 24 * 3600 * 1000;
const ACME = '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';
const BETA = '2c5f39cb-3ab2-4e4c-b4a6-fa2ac6b8744c';
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A platform member: admin in Acme (export_curl), member in Beta (none by the default grants). */
const session = (roles: { acme: 'admin' | 'member'; beta: 'member' }): Session => ({
  code: 'ok',
  user: { id: 'u', u_id: 'u', u_first_name: 'Ada', u_last_name: 'L', u_email: 'ada@example.com', u_role: 'member', u_is_verified: true, u_is_enabled: true },
  permissions: grantsOf('member'),
  roleGrants: { admin: grantsOf('admin'), member: grantsOf('member') },
  accounts: [
    { a_id: ACME, a_name: 'Acme', a_admin_url: null, a_is_enabled: true, au_role: roles.acme },
    { a_id: BETA, a_name: 'Beta', a_admin_url: null, a_is_enabled: true, au_role: roles.beta },
  ],
  settings: { passwordMinLength: 4 },
});

const existing = {
  id: 't1',
  tk_id: 't1',
  tk_title: 'Nightly export',
  tk_accountid: ACME,
  a_name: 'Acme',
  tk_role: 'member',
  tk_expires_at: new Date(Date.now() + 30 * DAY).toISOString(),
  tk_last_used_at: null,
  tk_created_at: new Date().toISOString(),
};

let tokens: Record<string, unknown>[];
let postAnswer: () => Response;
let sent: { method: string; url: string; body: unknown }[];

beforeEach(() => {
  sent = [];
  tokens = [existing];
  postAnswer = () => json(201, { ...existing, id: 't2', tk_id: 't2', tk_title: 'CI', tk_role: 'admin', token: 'lst_SECRETsecretSECRETsecretSECRETsecretSECRET1' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      sent.push({ method, url, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (url === '/api/1/auth/tokens' && method === 'GET') return json(200, tokens);
      if (url === '/api/1/auth/tokens' && method === 'POST') return postAnswer();
      if (url.startsWith('/api/1/auth/tokens/') && method === 'DELETE') {
        tokens = tokens.filter((t) => !url.endsWith(`/${t.tk_id as string}`));
        return json(200, { code: 'ok' });
      }
      return json(404, { code: 'not_found' });
    }),
  );
  setSession(session({ acme: 'admin', beta: 'member' }));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function show() {
  render(
    <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider}>
      <ApiTokens />
    </AdminContext>,
  );
}

describe('profile: API tokens', () => {
  it('lists the tokens: name, account, role, expiry, last use', async () => {
    show();
    const row = await screen.findByTestId('api-token-row');
    const cells = within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    // the name's cell also holds the account, shown there on a phone instead of in its own column
    expect(cells.slice(0, 3)).toEqual(['Nightly exportAcme', 'Acme', 'Member']);
    expect(cells[3]).toMatch(/\d/);
    expect(cells[4]).toBe('Never');
  });

  it('offers only accounts with export_curl and roles up to the own one', async () => {
    const user = userEvent.setup();
    show();
    await user.click(await screen.findByRole('button', { name: 'New token' }));
    const dialog = await screen.findByRole('dialog', { name: 'New API token' });
    await user.click(within(dialog).getByRole('combobox', { name: /Account/ }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Acme']);
    await user.keyboard('{Escape}');
    await user.click(within(dialog).getByRole('combobox', { name: /Role/ }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Admin', 'Member']);
  });

  it('creates a token and shows its secret once, with a copy button and the warning', async () => {
    const user = userEvent.setup();
    show();
    await user.click(await screen.findByRole('button', { name: 'New token' }));
    const dialog = await screen.findByRole('dialog', { name: 'New API token' });
    // the title is required: nothing is sent without one
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));
    expect(await within(dialog).findByText('Please enter a title')).toBeTruthy();
    expect(sent.filter((c) => c.method === 'POST')).toEqual([]);

    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'CI');
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));
    const secretDialog = await screen.findByRole('dialog', { name: 'Your new API token' });
    expect((within(secretDialog).getByTestId('api-token-secret') as HTMLInputElement).value).toBe('lst_SECRETsecretSECRETsecretSECRETsecretSECRET1');
    expect(within(secretDialog).getByText(/you will not see it again/)).toBeTruthy();
    expect(within(secretDialog).getByTestId('copy-button')).toBeTruthy();

    const post = sent.find((c) => c.method === 'POST')!;
    const body = post.body as Record<string, string>;
    expect(body).toMatchObject({ tk_title: 'CI', tk_accountid: ACME, tk_role: 'member' });
    // 90 days by default
    expect(Math.abs(new Date(body.tk_expires_at).getTime() - (Date.now() + 90 * DAY))).toBeLessThan(60_000);

    await user.click(within(secretDialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByTestId('api-token-secret')).toBeNull());
    // the list was asked again after the creation
    expect(sent.filter((c) => c.method === 'GET').length).toBeGreaterThanOrEqual(2);
  });

  it("shows the API's field error (role above own)", async () => {
    postAnswer = () => json(403, { code: 'forbidden', message: 'You cannot grant a role above your own', fields: { tk_role: 'error_role_above_own' } });
    const user = userEvent.setup();
    show();
    await user.click(await screen.findByRole('button', { name: 'New token' }));
    const dialog = await screen.findByRole('dialog', { name: 'New API token' });
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'CI');
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));
    expect(await within(dialog).findAllByText('You cannot grant a role above your own')).not.toHaveLength(0);
    expect(screen.queryByTestId('api-token-secret')).toBeNull();
  });

  it('revokes a token after confirmation', async () => {
    const user = userEvent.setup();
    show();
    await user.click(await screen.findByRole('button', { name: 'Revoke Nightly export' }));
    const confirm = await screen.findByRole('dialog');
    expect(confirm.textContent).toContain('Revoke the token "Nightly export"?');
    expect(confirm.textContent).toContain('stop working at once');
    expect(sent.filter((c) => c.method === 'DELETE')).toEqual([]);
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(sent.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/api/1/auth/tokens/t1']));
    expect(await screen.findByTestId('api-tokens-empty')).toBeTruthy();
  });

  it('without export_curl in any account: no new token, and why', async () => {
    setSession(session({ acme: 'member', beta: 'member' }));
    show();
    expect(((await screen.findByRole('button', { name: 'New token' })) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(/only for accounts where your role may export calls/)).toBeTruthy();
  });
});
