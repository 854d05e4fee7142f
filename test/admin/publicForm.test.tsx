import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import userEvent from '@testing-library/user-event';
import { PublicFormPage } from '../../admin/src/publicForm/PublicFormPage';
import { RichText } from '../../admin/src/publicForm/RichText';
import { PublicFormApp } from '../../admin/src/publicForm/PublicFormApp';
import { previewRoute, stylesheetUrl } from '../../admin/src/publicForm/preview';
import { pageTexts, safeHttpUrl, type PublicFormData, type PublicFormStyle } from '../../admin/src/publicForm/model';
import { pickLocale, PUBLIC_TEXTS } from '../../admin/src/publicForm/texts';
import { textKey, TEXT_KEYS } from '../../admin/src/renderer/texts';
import { BUILTIN_CONSENT_TEXT } from '../../resources/consent';
import entryEn from '../../admin/src/i18n/en';
import entryNl from '../../admin/src/i18n/nl';
import consoleEn from '../../admin/src/i18n/console/en';
import consoleNl from '../../admin/src/i18n/console/nl';
import { mergeDeep } from '../../admin/src/i18n';

// Error texts from the entry catalogue, the renderer's words from the console's.
const en = mergeDeep(entryEn as unknown as Record<string, unknown>, consoleEn as unknown as Record<string, unknown>);
const nl = mergeDeep(entryNl as unknown as Record<string, unknown>, consoleNl as unknown as Record<string, unknown>);
import { lookup, type Messages } from '../../admin/src/i18n/tiny';
import { element, everyType } from '../helpers/formElements';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.head.querySelectorAll('link').forEach((l) => l.remove());
});

const CUSTOM_CSS = '.ls-public-title { color: rgb(170, 0, 85); } </style><script>window.pwned = 1</script>';
const STYLESHEET = '/api/1/accounts/a/form-styles/s/style.css';

const style: PublicFormStyle & { st_custom_css: string } = {
  st_id: 's',
  st_form_logo_assetid: '0b7e4f6e-2c1d-4c61-9d55-0c0f4e1a2b3c',
  st_form_title: 'Join the Spring Expo',
  st_form_description: '<p>Tell us who you are.<br />We will send your <strong>badge</strong>.</p>',
  st_thanks_logo_assetid: null,
  st_thanks_title: 'See you at the Expo',
  st_thanks_description: '<p>Your badge is on its way.</p>',
  st_external_url_title: 'Plan your visit',
  st_external_url: 'https://expo.example.com/plan',
  st_custom_css: CUSTOM_CSS,
};

const elements = [
  element('text', 'first_name', { fe_title: 'First name', fe_is_required: true }),
  element('text', 'email', { fe_title: 'E-mail', fe_is_required: true }),
  element('textarea', 'notes', { fe_title: 'Notes' }),
];
const data: PublicFormData = { style, form: { elements }, event: { ev_title: 'Spring Expo', ev_consent_text: 'Yes, send me the Expo newsletter.' } };

/** No <style> element anywhere holds the custom CSS, and no text of the page does. */
function expectCssNotInlined() {
  const styles = [...document.querySelectorAll('style')].map((s) => s.textContent ?? '');
  expect(styles.some((s) => s.includes('rgb(170, 0, 85)'))).toBe(false);
  expect(document.documentElement.outerHTML).not.toContain('rgb(170, 0, 85)');
  expect(document.querySelector('script:not([src])')).toBeNull();
}

describe('the public form page', () => {
  it('form view: logo placeholder, title, description, the form with required marks, the opt-in with its text, a submit button; custom CSS only as a stylesheet link', () => {
    render(<PublicFormPage data={data} locale="en" stylesheetHref={STYLESHEET} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Join the Spring Expo' })).toBeTruthy();
    // the description is rich text: its paragraph, line break and bold drawn as such
    const description = document.querySelector('.ls-public-description') as HTMLElement;
    expect(description.innerHTML).toBe('<p>Tell us who you are.<br>We will send your <strong>badge</strong>.</p>');
    expect(screen.getByRole('img', { name: 'Logo' }).getAttribute('data-asset-id')).toBe(style.st_form_logo_assetid);
    expect(screen.getByText('Fields marked * are required.')).toBeTruthy();
    const first = screen.getByRole('textbox', { name: /First name/ });
    expect(first.getAttribute('aria-required') === 'true' || (first as HTMLInputElement).required).toBe(true);
    expect(screen.getByRole('textbox', { name: /Notes/ })).toBeTruthy();
    const optIn = screen.getByRole('group', { name: 'News and updates' });
    const box = within(optIn).getByRole('checkbox', { name: 'Yes, send me the Expo newsletter.' }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    expect(screen.getByRole('button', { name: 'Register' })).toBeTruthy();
    // the honeypot is neither in the tab order nor spoken
    const honeypot = document.querySelector('input[name="website"]') as HTMLInputElement;
    expect(honeypot.tabIndex).toBe(-1);
    expect(honeypot.closest('[aria-hidden="true"]')).not.toBeNull();

    const links = [...document.querySelectorAll('link[rel="stylesheet"]')];
    expect(links.map((l) => l.getAttribute('href'))).toEqual([STYLESHEET]);
    expectCssNotInlined();
    expect(screen.queryByText('Plan your visit')).toBeNull();
    expect(document.title).toBe('Join the Spring Expo');
  });

  it('thanks view: title, description and the external link, in a new window and said so; the stylesheet link too', () => {
    render(<PublicFormPage data={data} view="thanks" locale="en" stylesheetHref={STYLESHEET} />);
    expect(screen.getByRole('heading', { level: 1, name: 'See you at the Expo' })).toBeTruthy();
    expect(screen.getByText('Your badge is on its way.')).toBeTruthy();
    const link = screen.getByRole('link', { name: /Plan your visit/ });
    expect(link.getAttribute('href')).toBe('https://expo.example.com/plan');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(link.textContent).toContain('(opens in a new window)');
    expect(screen.queryByRole('img', { name: 'Logo' })).toBeNull(); // the thanks page has no logo in this style
    expect(screen.queryByRole('button', { name: 'Register' })).toBeNull();
    expect(document.querySelector(`link[rel="stylesheet"][href="${STYLESHEET}"]`)).not.toBeNull();
    expectCssNotInlined();
  });

  it('falls back to the event title, the built-in opt-in text and its own words; a non-http link is not drawn', () => {
    const bare: PublicFormData = {
      style: { st_external_url: 'javascript:alert(1)', st_external_url_title: 'Click' },
      form: { elements },
      event: { ev_title: 'Autumn Fair', ev_consent_text: '  ' },
    };
    const { unmount } = render(<PublicFormPage data={bare} locale="en" />);
    expect(screen.getByRole('heading', { level: 1, name: 'Autumn Fair' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: BUILTIN_CONSENT_TEXT.en })).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
    expect(document.querySelector('link[rel="stylesheet"]')).toBeNull();
    unmount();
    render(<PublicFormPage data={bare} view="thanks" locale="nl" />);
    expect(screen.getByRole('heading', { level: 1, name: 'Bedankt!' })).toBeTruthy();
    expect(screen.queryByRole('link')).toBeNull();
    expect(safeHttpUrl('https://x.example/a')).toBe('https://x.example/a');
    expect(safeHttpUrl('data:text/html,hi')).toBeUndefined();
    expect(pageTexts({ style: null, form: null }, { formTitle: 'F', thanksTitle: 'T' }).formTitle).toBe('F');
  });

  it('in Dutch: its own words, the renderer words and the built-in opt-in text', () => {
    render(<PublicFormPage data={{ ...data, event: null }} locale="nl" />);
    expect(screen.getByText('Velden met * zijn verplicht.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Inschrijven' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: BUILTIN_CONSENT_TEXT.nl })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Nieuws en updates' })).toBeTruthy();
  });

  it('a submit with missing required answers shows each error, the summary and focuses the first field; a complete one (preview) shows the thanks page', async () => {
    const user = userEvent.setup();
    render(<PublicFormPage data={data} locale="en" preview />);
    expect(screen.getByRole('note').textContent).toBe('Preview: nothing is sent from this page.');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getByText('Please check the fields marked below.')).toBeTruthy();
    expect(screen.getAllByText('This field is required')).toHaveLength(2);
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: /First name/ }));
    await user.type(screen.getByRole('textbox', { name: /First name/ }), 'Ada');
    await user.type(screen.getByRole('textbox', { name: /E-mail/ }), 'not-an-address');
    await user.keyboard('{Enter}'); // Enter in a field submits, as on any form
    expect(screen.getByText('Please enter a valid email')).toBeTruthy();
    await user.clear(screen.getByRole('textbox', { name: /E-mail/ }));
    await user.type(screen.getByRole('textbox', { name: /E-mail/ }), 'ada@example.com{Enter}');
    const thanks = await screen.findByRole('heading', { level: 1, name: 'See you at the Expo' });
    expect(document.activeElement).toBe(thanks);
  });

  it('keeps what is typed before its effects have run (a fast typist, or a busy phone, between the first paint and the effects)', () => {
    // Types in the first field as soon as it is in the page: in a layout effect, which runs before the page's own
    // effects, as a keystroke can on a slow device (CI's browser did once: the preview lost "Ada").
    function TypesEarly() {
      useLayoutEffect(() => {
        fireEvent.change(screen.getByRole('textbox', { name: /First name/ }), { target: { value: 'Ada' } });
      }, []);
      return null;
    }
    render(
      <>
        <PublicFormPage data={data} locale="en" preview />
        <TypesEarly />
      </>,
    );
    expect((screen.getByRole('textbox', { name: /First name/ }) as HTMLInputElement).value).toBe('Ada');
  });

  it('sends answers, the opt-in and the honeypot through onSubmit, then thanks', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn().mockResolvedValue(undefined);
    render(<PublicFormPage data={data} locale="en" onSubmit={onSubmit} />);
    await user.type(screen.getByRole('textbox', { name: /First name/ }), 'Ada');
    await user.type(screen.getByRole('textbox', { name: /E-mail/ }), 'ada@example.com');
    await user.click(screen.getByRole('checkbox', { name: 'Yes, send me the Expo newsletter.' }));
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(onSubmit).toHaveBeenCalledWith({ answers: { first_name: 'Ada', email: 'ada@example.com', notes: '' }, consent_news: true, website: '' });
    expect(await screen.findByRole('heading', { level: 1, name: 'See you at the Expo' })).toBeTruthy();
  });

  it('draws every element type of the contract', () => {
    render(<PublicFormPage data={{ ...data, form: { elements: everyType() } }} locale="en" />);
    for (const el of everyType()) expect(document.querySelector(`[data-name="${el.fe_name}"]`), el.fe_type).not.toBeNull();
  });
});

describe('rich text on the public page', () => {
  it("the style's form description, then the event's description, above the form; neither on the thanks page", () => {
    const withEvent: PublicFormData = {
      ...data,
      event: { ...data.event, ev_description: '<h2>Programme</h2><ul><li>Keynote at <em>ten</em></li></ul><blockquote><p>Worth it</p></blockquote>' },
    };
    const { unmount } = render(<PublicFormPage data={withEvent} locale="en" />);
    const card = document.querySelector('.ls-public-form-page') as HTMLElement;
    const blocks = [...card.querySelectorAll('.ls-public-richtext')];
    expect(blocks.map((b) => b.className)).toEqual(['ls-public-description ls-public-richtext', 'ls-public-event-description ls-public-richtext']);
    expect(blocks[1].innerHTML).toBe('<h2>Programme</h2><ul><li>Keynote at <em>ten</em></li></ul><blockquote><p>Worth it</p></blockquote>');
    expect(screen.getByRole('heading', { level: 2, name: 'Programme' })).toBeTruthy();
    // both come before the form
    expect(blocks[1].compareDocumentPosition(card.querySelector('form')!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    unmount();
    render(<PublicFormPage data={withEvent} view="thanks" locale="en" />);
    expect(screen.queryByText('Programme')).toBeNull();
    expect(document.querySelector('.ls-public-description')!.innerHTML).toBe('<p>Your badge is on its way.</p>');
  });

  it('draws only the allow-list, even of HTML that never passed the API: no script, handler, style, frame or javascript: link', () => {
    const hostile =
      '<p onclick="window.__pwned = 1" style="position:fixed;inset:0" class="x">Hello <b>bold</b> <a href="javascript:window.__pwned = 2">bad</a> ' +
      '<a href="https://ok.example/" target="_self">good</a> <a href="mailto:info@example.com">mail</a></p>' +
      '<script>window.__pwned = 3</script><img src="x" onerror="window.__pwned = 4"><iframe src="https://evil.example/"></iframe>' +
      '<style>body { display: none }</style><svg><a href="javascript:x"><text>svg</text></a></svg>';
    render(<RichText html={hostile} className="ls-public-richtext" />);
    const root = document.querySelector('.ls-public-richtext') as HTMLElement;
    expect(root.innerHTML).toBe(
      '<p>Hello bold <a>bad</a> <a href="https://ok.example/" rel="noopener noreferrer" target="_blank">good</a> <a href="mailto:info@example.com" rel="noopener noreferrer">mail</a></p>',
    );
    expect(document.querySelector('script, img, iframe, style, svg, [onclick], [style]')).toBeNull();
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('nothing for an empty value', () => {
    for (const html of [null, undefined, '', '   ']) {
      const { container, unmount } = render(<RichText html={html} className="ls-public-richtext" />);
      expect(container.innerHTML).toBe('');
      unmount();
    }
  });
});

describe('the preview page (PublicFormApp)', () => {
  const A = '11111111-1111-4111-8111-111111111111';
  const S = '22222222-2222-4222-8222-222222222222';
  const E = '33333333-3333-4333-8333-333333333333';
  const F = '44444444-4444-4444-8444-444444444444';
  const G = '55555555-5555-4555-8555-555555555555';

  function stubApi(overrides: Record<string, { status: number; body?: unknown }> = {}) {
    const routes: Record<string, { status: number; body?: unknown }> = {
      [`/api/1/accounts/${A}/form-styles/${S}`]: { status: 200, body: { ...style, st_id: S, st_eventid: E } },
      [`/api/1/accounts/${A}/events/${E}`]: { status: 200, body: { ev_id: E, ev_title: 'Spring Expo', ev_consent_text: 'Expo news, please.', ev_registration_formid: F } },
      [`/api/1/accounts/${A}/forms/${F}/graph`]: { status: 200, body: { form: { f_id: F }, elements } },
      [`/api/1/accounts/${A}/forms/${G}/graph`]: { status: 200, body: { form: { f_id: G }, elements: [element('text', 'company', { fe_title: 'Company' })] } },
      ...overrides,
    };
    const fetcher = vi.fn(async (url: string, _init?: RequestInit) => {
      const r = routes[url] ?? { status: 404, body: { code: 'not_found' } };
      return new Response(JSON.stringify(r.body ?? {}), { status: r.status, headers: { 'Content-Type': 'application/json' } });
    });
    vi.stubGlobal('fetch', fetcher);
    return fetcher;
  }

  it("loads the style, its event and the event's registration form, and links the style's stylesheet", async () => {
    const fetcher = stubApi();
    render(<PublicFormApp pathname={`/preview/form-styles/${A}/${S}`} search="?lang=en&v=3" />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Join the Spring Expo' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: /First name/ })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Expo news, please.' })).toBeTruthy();
    expect(document.querySelector('link[rel="stylesheet"]')?.getAttribute('href')).toBe(`/api/1/accounts/${A}/form-styles/${S}/style.css?v=3`);
    expectCssNotInlined();
    expect(fetcher.mock.calls.every(([, init]) => init?.credentials === 'same-origin')).toBe(true);
  });

  it('?form= picks another form and ?view=thanks the thanks page', async () => {
    stubApi();
    const { unmount } = render(<PublicFormApp pathname={`/preview/form-styles/${A}/${S}`} search={`?form=${G}&lang=en`} />);
    expect(await screen.findByRole('textbox', { name: 'Company' })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: /First name/ })).toBeNull();
    unmount();
    render(<PublicFormApp pathname={`/preview/form-styles/${A}/${S}`} search="?view=thanks&lang=en" />);
    expect(await screen.findByRole('heading', { level: 1, name: 'See you at the Expo' })).toBeTruthy();
  });

  it('without a form says so; without a session, access or style says why', async () => {
    stubApi({ [`/api/1/accounts/${A}/events/${E}`]: { status: 403, body: { code: 'forbidden' } } });
    const { unmount } = render(<PublicFormApp pathname={`/preview/form-styles/${A}/${S}`} search="?lang=en" />);
    expect(await screen.findByText('There is no form to show. Choose a form for the preview.')).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: BUILTIN_CONSENT_TEXT.en })).toBeTruthy();
    unmount();
    for (const [status, text] of [
      [401, 'Sign in to the console to see this preview.'],
      [403, 'You do not have access to this form style.'],
      [404, 'This page does not exist.'],
      [500, 'The page could not be loaded. Please try again.'],
    ] as const) {
      stubApi({ [`/api/1/accounts/${A}/form-styles/${S}`]: { status } });
      const r = render(<PublicFormApp pathname={`/preview/form-styles/${A}/${S}`} search="?lang=en" />);
      expect(await screen.findByRole('alert')).toHaveProperty('textContent', text);
      r.unmount();
    }
    render(<PublicFormApp pathname="/preview/form-styles/x/y" search="" />);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/does not exist|bestaat niet/));
  });

  it('reads its address and language', () => {
    expect(previewRoute(`/preview/form-styles/${A}/${S}`, `?form=${F.toUpperCase()}&view=thanks&v=7`)).toEqual({
      accountId: A,
      styleId: S,
      formId: F,
      view: 'thanks',
      version: '7',
    });
    expect(previewRoute(`/preview/form-styles/${A}/${S}`, '?form=nope&view=other&v=<x>')).toEqual({
      accountId: A,
      styleId: S,
      formId: undefined,
      view: 'form',
      version: undefined,
    });
    expect(previewRoute(`/register/${A}`, '')).toBeUndefined();
    expect(stylesheetUrl(A, S)).toBe(`/api/1/accounts/${A}/form-styles/${S}/style.css`);
    expect(pickLocale('?lang=nl', '"en"', ['en-GB'])).toBe('nl');
    expect(pickLocale('', '"nl"', ['en-GB'])).toBe('nl');
    expect(pickLocale('', null, ['fr-FR', 'nl-BE'])).toBe('nl');
    expect(pickLocale('', 'garbage', ['fr-FR'])).toBe('en');
  });
});

describe('the public page texts', () => {
  it('has every word in English and Dutch; error texts and renderer words equal the admin catalogues', () => {
    expect(Object.keys(PUBLIC_TEXTS.nl.page).sort()).toEqual(Object.keys(PUBLIC_TEXTS.en.page).sort());
    for (const [locale, messages] of [
      ['en', en],
      ['nl', nl],
    ] as const) {
      const texts = PUBLIC_TEXTS[locale];
      for (const key of ['error_required', 'error_invalid_value', 'error_too_long', 'error_email_invalid'] as const) {
        expect(texts.page[key], `${locale} ${key}`).toBe(lookup(messages as unknown as Messages, key));
      }
      for (const key of TEXT_KEYS) expect(texts.renderer[key], `${locale} ${key}`).toBe(lookup(messages as unknown as Messages, textKey(key)));
    }
    // words Dutch shares with English
    const same = new Set(['logo', 'collection_title', 'kind_video', 'kind_audio', 'kind_pdf']);
    for (const key of Object.keys(PUBLIC_TEXTS.en.page) as (keyof typeof PUBLIC_TEXTS.en.page)[]) {
      if (!same.has(key)) expect(PUBLIC_TEXTS.nl.page[key], key).not.toBe(PUBLIC_TEXTS.en.page[key]);
    }
  });
});
