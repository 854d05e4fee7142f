import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, testDataProvider, type I18nProvider } from 'react-admin';
import { IntegrationTestScan } from '../../admin/src/integrations/IntegrationTestScan';
import { setSession, type Session } from '../../admin/src/providers/session';
import { useSession } from '../../admin/src/layout/useSession';
import { addConsoleTexts, addReactAdminTexts, i18nReady } from '../../admin/src/i18n';
import { grantsOf } from '../../resources/permissions';

let i18nProvider: I18nProvider;
beforeAll(async () => {
  localStorage.setItem('RaStore.locale', JSON.stringify('en'));
  i18nProvider = await i18nReady();
  await addReactAdminTexts();
  await addConsoleTexts(); // these screens live in the console, which loads its texts
});

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
let answer: Response;
let sent: { url: string; body: unknown }[];

const session = (role: 'root' | 'member'): Session => ({
  code: 'ok',
  user: { id: 'u', u_id: 'u', u_first_name: 'U', u_last_name: '', u_email: 'u@example.com', u_role: role, u_is_verified: true, u_is_enabled: true },
  permissions: grantsOf(role),
  roleGrants: { member: grantsOf('member') },
  accounts: [{ a_id: 'acc', a_name: 'Acme', a_admin_url: null, a_is_enabled: true, au_role: role }],
  settings: { passwordMinLength: 4 },
});

beforeEach(() => {
  sent = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      sent.push({ url, body: init.body ? JSON.parse(String(init.body)) : undefined });
      return answer;
    }),
  );
  setSession(session('root'));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function scan(code: string) {
  const user = userEvent.setup();
  render(
    <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider}>
      <IntegrationTestScan accountId="acc" integrationId="int-1" />
    </AdminContext>,
  );
  await user.type(await screen.findByRole('textbox', { name: 'Badge code' }), code);
  await user.click(screen.getByRole('button', { name: 'Run test scan' }));
}

describe('IntegrationTestScan', () => {
  it('posts the code to the test route and lists what the provider answered', async () => {
    answer = json(200, { answers: { email: 'ada@example.com', first_name: 'Ada', company: 'Engines' } });
    await scan(' 1001 ');
    const result = await screen.findByTestId('integration-test-result');
    expect(result.textContent).toBe('The provider answeredemailada@example.comfirst_nameAdacompanyEngines');
    // root has app_general export_curl: the server is asked for the request it sent too
    expect(sent.filter((c) => c.url.endsWith('/test'))).toEqual([{ url: '/api/1/accounts/acc/integrations/int-1/test', body: { code: '1001', show_request: true } }]);
  });

  it('"Copy as cURL" copies the request the server sent (signature included, key masked)', async () => {
    const request = {
      method: 'POST',
      url: 'https://scan.example.com/badge',
      headers: { 'Content-Type': 'application/json', 'X-Api-Key': '…6789', 'X-Signature': 'abc123' },
      body: '{"event":null,"code":"it\'s"}',
    };
    answer = json(502, { code: 'badge_scan_failed', message: 'The provider answered an error', reason: 'provider_error', provider_status: 404, request });
    await scan('1001');
    await screen.findByTestId('integration-test-error');
    // user-event's own clipboard stands in for the browser's.
    const user = userEvent.setup();
    await user.click(screen.getByTestId('copy-curl'));
    await waitFor(async () =>
      expect(await navigator.clipboard.readText()).toBe(
        `curl -X POST -H 'Content-Type: application/json' -H 'X-Api-Key: …6789' -H 'X-Signature: abc123' --data-raw '{"event":null,"code":"it'\\''s"}' 'https://scan.example.com/badge'`,
      ),
    );
  });

  it('a timeout shows the spec text; a provider error its status; an unreachable provider why', async () => {
    answer = json(504, { code: 'badge_scan_timeout', message: 'Sadly we could not retrieve any data at this time' });
    await scan('slow');
    expect((await screen.findByTestId('integration-test-error')).textContent).toBe('Sadly we could not retrieve any data at this time');
    cleanup();
    answer = json(502, { code: 'badge_scan_failed', message: 'The provider answered 401', reason: 'provider_error', provider_status: 401 });
    await scan('1001');
    expect((await screen.findByTestId('integration-test-error')).textContent).toBe(
      'The badge provider could not be reached or gave no usable answerThe provider answered with status 401.',
    );
    cleanup();
    answer = json(502, { code: 'badge_scan_failed', message: 'x', reason: 'private_address' });
    await scan('1001');
    expect((await screen.findByTestId('integration-test-error')).textContent).toContain('private network');
  });

  it('is offered with the update bit only (a member reads integrations)', async () => {
    // The probe shows once the session has loaded, so "not shown" is not just "not loaded yet".
    const Probe = () => (useSession().session ? <span data-testid="session-loaded" /> : null);
    const mount = () =>
      render(
        <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider}>
          <Probe />
          <IntegrationTestScan accountId="acc" integrationId="int-1" />
        </AdminContext>,
      );
    setSession(session('member'));
    mount();
    await screen.findByTestId('session-loaded');
    expect(screen.queryByTestId('integration-test-scan')).toBeNull();
    cleanup();
    const withUpdate = session('member');
    withUpdate.permissions = { ...grantsOf('member'), account_integrations: 1 | 4 };
    withUpdate.roleGrants = { member: withUpdate.permissions };
    setSession(withUpdate);
    mount();
    expect(await screen.findByTestId('integration-test-scan')).toBeTruthy();
  });
});
