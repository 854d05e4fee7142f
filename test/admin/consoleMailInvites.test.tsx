import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, Notification, testDataProvider, type I18nProvider } from 'react-admin';
import { addConsoleTexts, addReactAdminTexts, i18nReady } from '../../admin/src/i18n';
import { MailTemplateTools, previewBody } from '../../admin/src/mailTemplates/MailTemplateTools';
import { ResendInviteButton } from '../../admin/src/invites/ResendInviteButton';
import { InviteExpiryCell } from '../../admin/src/invites/InviteStatus';
import { invites } from '../../resources/invites';

let i18nProvider: I18nProvider;
beforeAll(async () => {
  localStorage.setItem('RaStore.locale', JSON.stringify('en'));
  i18nProvider = await i18nReady();
  await addReactAdminTexts();
  await addConsoleTexts(); // these screens live in the console, which loads its texts
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

type Call = { method: string; path: string; body?: unknown };
let calls: Call[] = [];
function serve(answer: (call: Call) => { status: number; body?: unknown }) {
  calls = [];
  document.cookie = 'ls.csrf-token=tok';
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = { method: init.method ?? 'GET', path: String(url).replace(/^\/api\/1/, ''), body: init.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      const reply = answer(call);
      return new Response(reply.body === undefined ? '' : JSON.stringify(reply.body), { status: reply.status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
}

const inAdmin = (ui: React.ReactNode) =>
  render(
    <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider}>
      {ui}
      <Notification />
    </AdminContext>,
  );

describe('mail template tools: variables, live preview, test mail', () => {
  it("lists the variables of the template's name with what they hold", async () => {
    serve(() => ({ status: 200, body: { subject: '', html: '', text: '' } }));
    inAdmin(<MailTemplateTools accountId="acc" values={{ mt_name: 'invite', mt_subject: 'S' }} />);
    const list = screen.getByTestId('mt-variables');
    expect(list.textContent).toContain('{{link}}');
    expect(list.textContent).toContain('The link to follow');
    expect(list.textContent).toContain('{{inviter_name}}');
    expect(list.textContent).not.toContain('{{lead_email}}');
  });

  it('previews the unsaved values (HTML in a sandboxed frame, text on its tab) once typing settles', async () => {
    serve((c) => ({ status: 200, body: { subject: `Subject for ${(c.body as { mt_subject: string }).mt_subject}`, html: '<p>Hello <b>Alex</b></p>', text: 'Hello Alex' } }));
    const { rerender } = inAdmin(
      <MailTemplateTools accountId="acc-1" values={{ mt_name: 'invite', mt_subject: 'Hi {{first_name}}', mt_html: '<p>Hello <b>{{first_name}}</b></p>' }} />,
    );
    expect((await screen.findByTestId('mt-preview-subject')).textContent).toBe('Subject for Hi {{first_name}}');
    const frame = screen.getByTestId('mt-preview-html') as HTMLIFrameElement;
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('srcdoc')).toBe('<p>Hello <b>Alex</b></p>');
    expect(calls).toEqual([
      {
        method: 'POST',
        path: '/accounts/acc-1/mail-templates/preview',
        body: { mt_name: 'invite', mt_subject: 'Hi {{first_name}}', mt_html: '<p>Hello <b>{{first_name}}</b></p>', mt_text: '' },
      },
    ]);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: /Text/ }));
    expect(screen.getByTestId('mt-preview-text').textContent).toBe('Hello Alex');

    rerender(
      <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider}>
        <MailTemplateTools accountId="acc-1" values={{ mt_name: 'invite', mt_subject: 'Changed' }} />
      </AdminContext>,
    );
    await waitFor(() => expect(screen.getByTestId('mt-preview-subject').textContent).toBe('Subject for Changed'));
    expect(calls).toHaveLength(2);
  });

  it('leaves out a name or address that is still being typed, so the preview keeps working', () => {
    expect(previewBody({ mt_name: 'Invite X', mt_subject: 's', mt_api_url: 'https://', mt_asset_url: 'https://cdn.example.com' })).toEqual({
      mt_name: undefined,
      mt_subject: 's',
      mt_html: '',
      mt_text: '',
      mt_api_url: undefined,
      mt_asset_url: 'https://cdn.example.com',
    });
    // a new template: nothing typed yet is not a required subject being cleared (the update rule would refuse that)
    expect(previewBody({ mt_subject: ' ', mt_html: '<p>Hi</p>' })).toMatchObject({ mt_subject: undefined, mt_html: '<p>Hi</p>' });
  });

  it('asks for no preview while the template is blank, and says the preview comes once something is typed', async () => {
    serve(() => ({ status: 200, body: { subject: 's', html: '<p>h</p>', text: 't' } }));
    inAdmin(<MailTemplateTools accountId="acc" values={{ mt_name: 'invite', mt_subject: '', mt_html: ' ' }} />);
    expect(await screen.findByText('The preview shows here once the template has a subject or a body.')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 600));
    expect(calls.filter((c) => c.path.endsWith('/preview'))).toHaveLength(0);
  });

  it("shows the API's error text when the preview is refused", async () => {
    serve(() => ({ status: 400, body: { code: 'validation_failed', message: 'x', fields: { mt_subject: 'error_too_long' } } }));
    inAdmin(<MailTemplateTools accountId="acc" values={{ mt_subject: 'x'.repeat(600) }} />);
    expect(await screen.findByText('Please check the highlighted fields')).toBeTruthy();
  });

  it('sends the saved template to yourself and says where; a failure says so too', async () => {
    let fail = false;
    serve((c) =>
      c.path.endsWith('/test')
        ? fail
          ? { status: 502, body: { code: 'mail_failed', message: 'The e-mail could not be sent' } }
          : { status: 200, body: { code: 'ok', to: 'me@example.com' } }
        : { status: 200, body: { subject: 's', html: '', text: '' } },
    );
    inAdmin(<MailTemplateTools accountId="acc" templateId="tpl-1" canSendTest values={{ mt_name: 'invite', mt_subject: 's' }} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Send a test mail to myself' }));
    expect(await screen.findByText('A test mail was sent to me@example.com.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST' && c.path === '/accounts/acc/mail-templates/tpl-1/test')).toBe(true);
    fail = true;
    await user.click(screen.getByRole('button', { name: 'Send a test mail to myself' }));
    expect(await screen.findByText('The e-mail could not be sent')).toBeTruthy();
  });

  it('offers no test mail without the update bit or before the template is saved', () => {
    serve(() => ({ status: 200, body: { subject: 's', html: '', text: '' } }));
    inAdmin(<MailTemplateTools accountId="acc" templateId="tpl-1" values={{ mt_subject: 's' }} />);
    expect(screen.queryByRole('button', { name: 'Send a test mail to myself' })).toBeNull();
    cleanup();
    inAdmin(<MailTemplateTools accountId="acc" canSendTest values={{ mt_subject: 's' }} />);
    expect(screen.queryByRole('button', { name: 'Send a test mail to myself' })).toBeNull();
  });
});

describe('the expiry of an invite', () => {
  it('shows while the invite is pending or expired, and a dash once accepted or revoked', () => {
    const at = '2026-11-28T10:00:00.000Z';
    for (const [status, shown] of [
      ['pending', true],
      ['expired', true],
      ['accepted', false],
      ['revoked', false],
    ] as const) {
      const { container } = inAdmin(
        <InviteExpiryCell record={{ id: 'iv', iv_status: status, iv_expires_at: at }} source="iv_expires_at" meta={invites.fields!.iv_expires_at} decl={invites} />,
      );
      if (shown) expect(container.textContent, status).toMatch(/2026/);
      else expect(container.textContent, status).toBe('—');
      cleanup();
    }
  });
});

describe('resend of an invite', () => {
  it('is offered for pending and expired invites only, and says the previous link no longer works', async () => {
    serve(() => ({ status: 200, body: { id: 'iv-1', iv_status: 'pending' } }));
    inAdmin(<ResendInviteButton accountId="acc" invite={{ id: 'iv-1', iv_email: 'nina@example.com', iv_status: 'expired' }} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Send the invitation to nina@example.com again' }));
    expect(await screen.findByText('A new invitation was sent to nina@example.com; the previous link no longer works.')).toBeTruthy();
    expect(calls).toContainEqual({ method: 'POST', path: '/accounts/acc/invites/iv-1/resend', body: undefined });
    cleanup();
    for (const status of ['accepted', 'revoked'] as const) {
      inAdmin(<ResendInviteButton accountId="acc" invite={{ id: 'iv-2', iv_email: 'x@example.com', iv_status: status }} />);
      expect(screen.queryByRole('button')).toBeNull();
      cleanup();
    }
  });

  it("shows the API's text when the resend is refused", async () => {
    serve(() => ({ status: 502, body: { code: 'invite_failed', message: 'Failed to create invite' } }));
    inAdmin(<ResendInviteButton accountId="acc" invite={{ id: 'iv-1', iv_email: 'nina@example.com', iv_status: 'pending' }} />);
    await userEvent.setup().click(screen.getByRole('button', { name: /again/ }));
    expect(await screen.findByText('Failed to create invite')).toBeTruthy();
  });
});
