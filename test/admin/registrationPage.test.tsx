import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PublicFormApp } from '../../admin/src/publicForm/PublicFormApp';
import { registerEventId, submitRegistration, type RegistrationInfo } from '../../admin/src/publicForm/register';
import { PUBLIC_TEXTS } from '../../admin/src/publicForm/texts';
import { CONSOLE_MESSAGES } from '../../resources/consoleMessages';
import consoleNl from '../../admin/src/i18n/console/nl';
import { element } from '../helpers/formElements';

/**
 * The registration page in jsdom with a fake API behind fetch: the states, the access-code step, the answers posted
 * with the CSRF header (and one retry after csrf_invalid), the API's field errors under the fields.
 */
const EVENT = '0b7e4f6e-2c1d-4c61-9d55-0c0f4e1a2b3c';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.cookie = 'ls.csrf-token=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  document.head.querySelectorAll('link').forEach((l) => l.remove());
});

const elements = [element('text', 'email', { fe_title: 'E-mail', fe_is_required: true }), element('text', 'company', { fe_title: 'Company' })];
const info = (over: Partial<RegistrationInfo> = {}): RegistrationInfo => ({
  state: 'open',
  event: { id: EVENT, ev_title: 'Winter Expo', ev_start_date: null, ev_end_date: null, ev_access_type: 'open', ev_consent_text: null, ev_description: null },
  form: { f_id: 'f', f_title: 'Form', elements },
  style: { st_id: 's', st_form_title: 'Register for Winter Expo' },
  consent_text: 'x',
  ...over,
});

type Call = { url: string; method: string; headers: Record<string, string>; body?: unknown };
function fakeApi(answer: (call: Call) => { status: number; body: unknown }) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call: Call = {
        url,
        method: init.method ?? 'GET',
        headers: (init.headers ?? {}) as Record<string, string>,
        body: init.body ? JSON.parse(String(init.body)) : undefined,
      };
      calls.push(call);
      const { status, body } = answer(call);
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

const renderAt = (path: string, search = '?lang=en') => render(<PublicFormApp pathname={path} search={search} />);

describe('the registration page', () => {
  it('its words equal the API messages in English and the console catalogue in Dutch', () => {
    for (const key of ['error_event_closed', 'error_access_code_invalid', 'error_event_has_no_form', 'error_lead_incomplete'] as const) {
      expect(PUBLIC_TEXTS.en.page[key]).toBe(CONSOLE_MESSAGES[key]);
      expect(PUBLIC_TEXTS.nl.page[key]).toBe(consoleNl[key]);
    }
    expect(PUBLIC_TEXTS.en.page.error_event_has_no_form).toBe('The event manager needs to create a details form');
    expect(registerEventId(`/register/${EVENT.toUpperCase()}`)).toBe(EVENT);
    expect(registerEventId('/register/nope')).toBeUndefined();
  });

  it("the event's description (rich text from the API) is drawn above the form", async () => {
    const event = { ...info().event, ev_description: '<p>Hall 5, <strong>doors at nine</strong>.</p><ol><li>Badge</li><li>Coffee</li></ol>' };
    fakeApi(() => ({ status: 200, body: info({ event }) }));
    renderAt(`/register/${EVENT}`);
    await screen.findByRole('button', { name: 'Register' });
    const description = document.querySelector('.ls-public-event-description') as HTMLElement;
    expect(description.innerHTML).toBe('<p>Hall 5, <strong>doors at nine</strong>.</p><ol><li>Badge</li><li>Coffee</li></ol>');
    expect(description.compareDocumentPosition(document.querySelector('form.ls-public-form')!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('closed, no form and an unknown event: the message, no form', async () => {
    fakeApi(() => ({ status: 200, body: info({ state: 'closed', form: null }) }));
    const { unmount } = renderAt(`/register/${EVENT}`);
    await screen.findByText('Registration for this event is closed.');
    expect(screen.getByRole('heading', { level: 1, name: 'Register for Winter Expo' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Register' })).toBeNull();
    expect(document.querySelector('link[rel="stylesheet"]')?.getAttribute('href')).toBe(`/api/1/register/${EVENT}/style.css`);
    unmount();

    fakeApi(() => ({ status: 200, body: info({ state: 'no_form', form: null, style: null }) }));
    const second = renderAt(`/register/${EVENT}`, '?lang=nl');
    await screen.findByText('De evenementbeheerder moet nog een gegevensformulier maken');
    expect(screen.getByRole('heading', { level: 1, name: 'Winter Expo' })).toBeTruthy();
    expect(document.querySelector('link[rel="stylesheet"]')).toBeNull();
    second.unmount();

    fakeApi(() => ({ status: 404, body: { code: 'not_found', message: 'Event not found' } }));
    renderAt(`/register/${EVENT}`);
    await screen.findByText('This page does not exist.');
  });

  it('restricted: the code is asked first, a wrong one refused under the field, the right one opens the form and goes with the answers', async () => {
    document.cookie = 'ls.csrf-token=tok%3D1; path=/';
    const calls = fakeApi((call) => {
      if (call.method === 'POST') return { status: 201, body: { id: 'lead-1', ld_id: 'lead-1' } };
      if (call.url.endsWith('?access_code=nope')) return { status: 403, body: { code: 'access_code_invalid' } };
      if (call.url.includes('access_code=')) return { status: 200, body: info({ state: 'restricted' }) };
      return { status: 200, body: info({ state: 'restricted', form: null }) };
    });
    const user = userEvent.setup();
    renderAt(`/register/${EVENT}`);
    const code = await screen.findByRole('textbox', { name: 'Access code' });
    expect(screen.queryByRole('textbox', { name: /E-mail/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('This field is required')).toBeTruthy(); // nothing sent for an empty code
    await user.type(code, 'nope{Enter}');
    await screen.findByText('The access code is not correct');
    expect(code.getAttribute('aria-invalid')).toBe('true');
    await user.clear(code);
    await user.type(code, ' Partner-1 {Enter}');
    await user.type(await screen.findByRole('textbox', { name: /E-mail/ }), 'pia@example.com');
    await user.click(
      screen.getByRole('checkbox', { name: 'Yes, the organiser may send me news and information about its events by e-mail. I can withdraw this consent at any time.' }),
    );
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await screen.findByRole('heading', { level: 1, name: 'Thank you!' });
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      `GET /api/1/register/${EVENT}`,
      `GET /api/1/register/${EVENT}?access_code=nope`,
      `GET /api/1/register/${EVENT}?access_code=Partner-1`,
      `POST /api/1/register/${EVENT}`,
    ]);
    const post = calls[3];
    expect(post.headers['X-CSRF-Token']).toBe('tok=1');
    expect(post.body).toEqual({ answers: { email: 'pia@example.com', company: '' }, consent_news: true, website: '', access_code: 'Partner-1', lang: 'en' });
  });

  it("the API's lead_incomplete fields show under their fields; other refusals as a text above the form", async () => {
    let refusal: { status: number; body: unknown } = { status: 400, body: { code: 'lead_incomplete', fields: { company: 'error_required', unknown_name: 'error_required' } } };
    fakeApi((call) => (call.method === 'POST' ? refusal : { status: 200, body: info() }));
    const user = userEvent.setup();
    renderAt(`/register/${EVENT}`);
    await user.type(await screen.findByRole('textbox', { name: /E-mail/ }), 'a@example.com');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await screen.findByText('Please complete all mandatory fields');
    expect(screen.getByText('This field is required').closest('[data-name]')?.getAttribute('data-name')).toBe('company');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: /Company/ })));

    refusal = { status: 429, body: { code: 'too_many_attempts' } };
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await screen.findByText('Too many attempts, please wait a few minutes and try again');
    expect(screen.queryByText('This field is required')).toBeNull();
    refusal = { status: 500, body: { code: 'unknown_error' } };
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await screen.findByText('Your registration could not be sent. Please check your connection and try again.');
  });

  it('a 403 csrf_invalid is retried once after the page data is fetched again (a fresh cookie)', async () => {
    document.cookie = 'ls.csrf-token=old; path=/';
    let posts = 0;
    const calls = fakeApi((call) => {
      if (call.method !== 'POST') {
        document.cookie = 'ls.csrf-token=new; path=/';
        return { status: 200, body: info() };
      }
      posts += 1;
      return posts === 1 ? { status: 403, body: { code: 'csrf_invalid' } } : { status: 201, body: { id: 'l', ld_id: 'l' } };
    });
    await expect(submitRegistration(EVENT, { answers: {}, consent_news: false, website: '', lang: 'en' })).resolves.toBe('l');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.headers['X-CSRF-Token'])).toEqual(['old', 'new']);
  });
});
