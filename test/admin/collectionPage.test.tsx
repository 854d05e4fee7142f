import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PublicFormApp } from '../../admin/src/publicForm/PublicFormApp';
import { collectionToken, layerOf, type CollectionAsset, type CollectionInfo } from '../../admin/src/publicForm/collection';
import { formatSize } from '../../admin/src/publicForm/CollectionPage';
import { PUBLIC_TEXTS } from '../../admin/src/publicForm/texts';
import { CONSOLE_MESSAGES } from '../../resources/consoleMessages';
import consoleNl from '../../admin/src/i18n/console/nl';
import { element } from '../helpers/formElements';

/**
 * A collection's public page in jsdom with a fake API behind fetch: the assets to view and download, the download form
 * of the showing layer first (the answers posted with the layer and the CSRF header, then the downloads), the no-event
 * notice, the API's field errors.
 */
const TOKEN = 'Qx3vU9-abcdEFGH_ijklmn';
const LAYER = '0b7e4f6e-2c1d-4c61-9d55-0c0f4e1a2b3c';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.cookie = 'ls.csrf-token=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  document.head.querySelectorAll('link').forEach((l) => l.remove());
});

const asset = (over: Partial<CollectionAsset>): CollectionAsset => ({
  as_id: over.as_id ?? 'a1',
  as_title: 'File',
  as_type: 'application/pdf',
  kind: 'pdf',
  as_size: 1000,
  as_version: 1,
  url: '/storage/assets/x/2026/11/a1?v=1',
  thumbnail_url: null,
  download_url: '/storage/assets/x/2026/11/a1?v=1&download',
  ...over,
});
const open: CollectionAsset[] = [
  asset({ as_id: 'p1', as_title: 'Price list', kind: 'pdf', as_size: 1_468_006, url: '/s/p1?v=2', download_url: '/s/p1?v=2&download' }),
  asset({ as_id: 'i1', as_title: 'Stand photo', kind: 'image', as_type: 'image/png', as_size: 52_000, url: '/s/i1?v=1', download_url: '/s/i1?v=1&download' }),
  asset({ as_id: 'v1', as_title: 'Demo clip', kind: 'video', as_type: 'video/mp4', url: '/s/v1?v=1', thumbnail_url: '/s/v1-thumb', download_url: '/s/v1?v=1&download' }),
];
const locked = open.map((a) => ({ ...a, download_url: null, url: a.kind === 'pdf' ? null : a.url }));
const elements = [element('text', 'email', { fe_title: 'E-mail', fe_is_required: true }), element('text', 'company', { fe_title: 'Company' })];
const info = (over: Partial<CollectionInfo> = {}): CollectionInfo => ({
  collection: { co_title: 'Expo brochures' },
  assets: open,
  locked: false,
  form: null,
  can_submit: true,
  style: null,
  style_assets: {},
  stylesheet: null,
  consent_text: 'x',
  event: null,
  ...over,
});
const gated = (over: Partial<CollectionInfo> = {}) =>
  info({
    assets: locked,
    locked: true,
    form: { f_id: 'f', f_title: 'Download', elements },
    style: { st_id: 's', st_form_title: 'Get the brochures', st_form_logo_assetid: 'logo', st_thanks_title: 'Enjoy the brochures' },
    style_assets: { logo: '/s/logo?v=1' },
    stylesheet: `/api/1/c/${TOKEN}/style.css?l=${LAYER}`,
    event: { ev_title: 'Expo', ev_consent_text: 'Send me Expo news' },
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

const renderAt = (search = '?lang=en') => render(<PublicFormApp pathname={`/c/${TOKEN}`} search={search} />);

describe("a collection's page", () => {
  it('reads the token and the layer from the address; sizes as people read them; its words in both languages', () => {
    expect(collectionToken(`/c/${TOKEN}`)).toBe(TOKEN);
    expect(collectionToken('/c/short')).toBeUndefined();
    expect(layerOf(`?l=${LAYER.toUpperCase()}`)).toBe(LAYER);
    expect(layerOf('?l=nope')).toBeUndefined();
    expect(formatSize(1_468_006, 'en')).toBe('1.4 MB');
    expect(formatSize(1_468_006, 'nl')).toBe('1,4 MB');
    expect(formatSize(52_000, 'en')).toBe('51 KB');
    expect(formatSize(900, 'en')).toBe('900 B');
    expect(PUBLIC_TEXTS.en.page.error_download_has_no_event).toBe(CONSOLE_MESSAGES.error_download_has_no_event);
    expect(PUBLIC_TEXTS.nl.page.error_download_has_no_event).toBe(consoleNl.error_download_has_no_event);
  });

  it('without a form: the title, every asset in order with its kind and size, the image and video shown, a download link each and Open for a PDF', async () => {
    const calls = fakeApi(() => ({ status: 200, body: info() }));
    renderAt();
    expect(await screen.findByRole('heading', { level: 1, name: 'Expo brochures' })).toBeTruthy();
    expect(calls.map((c) => c.url)).toEqual([`/api/1/c/${TOKEN}`]);
    const items = screen.getAllByRole('listitem');
    expect(items.map((li) => within(li).getByRole('heading', { level: 3 }).textContent)).toEqual(['Price list', 'Stand photo', 'Demo clip']);
    expect(within(items[0]).getByText('PDF · 1.4 MB')).toBeTruthy();
    expect(within(items[0]).getByRole('link', { name: 'Download Price list' }).getAttribute('href')).toBe('/s/p1?v=2&download');
    expect(
      within(items[0])
        .getByRole('link', { name: /^Open Price list/ })
        .getAttribute('target'),
    ).toBe('_blank');
    expect(within(items[1]).getByRole('img', { name: 'Stand photo' }).getAttribute('src')).toBe('/s/i1?v=1');
    const video = items[2].querySelector('video')!;
    expect(video.getAttribute('src')).toBe('/s/v1?v=1');
    expect(video.getAttribute('poster')).toBe('/s/v1-thumb');
    expect(video.hasAttribute('controls')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Send and download' })).toBeNull();
    // The title is set by an effect, which a loaded machine may run after the heading has rendered.
    await waitFor(() => expect(document.title).toBe('Expo brochures'));
  });

  it('an empty collection says so; an unknown one says the page does not exist (Dutch)', async () => {
    fakeApi(() => ({ status: 200, body: info({ assets: [] }) }));
    const first = renderAt();
    await screen.findByText('There is nothing in this collection yet.');
    first.unmount();
    fakeApi(() => ({ status: 404, body: { code: 'not_found' } }));
    renderAt('?lang=nl');
    await screen.findByText('Deze pagina bestaat niet.');
  });

  it('behind a form: the style first, the assets below without download links; sent with the layer and the CSRF header, then the downloads', async () => {
    document.cookie = 'ls.csrf-token=tok%3D1; path=/';
    let sent = false;
    const calls = fakeApi((call) => {
      if (call.method === 'POST') {
        sent = true;
        return { status: 201, body: { id: 'lead-1', ld_id: 'lead-1', download_token: 't', expires_at: '2030-01-01T00:00:00Z' } };
      }
      return { status: 200, body: sent ? info({ style: gated().style, style_assets: gated().style_assets, stylesheet: gated().stylesheet }) : gated() };
    });
    const user = userEvent.setup();
    renderAt(`?l=${LAYER}&lang=en`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Get the brochures' })).toBeTruthy();
    expect(document.querySelector('link[rel="stylesheet"]')?.getAttribute('href')).toBe(`/api/1/c/${TOKEN}/style.css?l=${LAYER}`);
    expect(screen.getByRole('img', { name: 'Logo' }).getAttribute('src')).toBe('/s/logo?v=1');
    expect(screen.queryByRole('link', { name: /^Download/ })).toBeNull();
    expect(screen.getAllByText('Send the form above to download')).toHaveLength(3);
    expect(screen.getByRole('img', { name: 'Stand photo' })).toBeTruthy(); // images still show while locked

    await user.click(screen.getByRole('button', { name: 'Send and download' }));
    expect(screen.getByText('Please check the fields marked below.')).toBeTruthy(); // checked in the page first
    await user.type(screen.getByRole('textbox', { name: /E-mail/ }), 'vera@example.com');
    await user.click(screen.getByRole('checkbox', { name: 'Send me Expo news' }));
    await user.click(screen.getByRole('button', { name: 'Send and download' }));
    await screen.findByText('Enjoy the brochures');
    expect(screen.getByRole('heading', { level: 1, name: 'Expo brochures' })).toBeTruthy();
    expect(screen.getAllByRole('link', { name: /^Download/ }).map((a) => a.getAttribute('href'))).toEqual(['/s/p1?v=2&download', '/s/i1?v=1&download', '/s/v1?v=1&download']);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: 'Files' })));
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([`GET /api/1/c/${TOKEN}?l=${LAYER}`, `POST /api/1/c/${TOKEN}/leads`, `GET /api/1/c/${TOKEN}?l=${LAYER}`]);
    expect(calls[1].headers['X-CSRF-Token']).toBe('tok=1');
    expect(calls[1].body).toEqual({ l: LAYER, answers: { email: 'vera@example.com', company: '' }, consent_news: true, website: '', lang: 'en' });
  });

  it("the API's refusals: field errors under their fields, the limit above the form; no event: the notice instead of the form", async () => {
    let refusal: { status: number; body: unknown } = { status: 400, body: { code: 'lead_incomplete', fields: { company: 'error_required' } } };
    fakeApi((call) => (call.method === 'POST' ? refusal : { status: 200, body: gated() }));
    const user = userEvent.setup();
    const first = renderAt(`?l=${LAYER}&lang=en`);
    await user.type(await screen.findByRole('textbox', { name: /E-mail/ }), 'a@example.com');
    await user.click(screen.getByRole('button', { name: 'Send and download' }));
    await screen.findByText('Please complete all mandatory fields');
    expect(screen.getByText('This field is required').closest('[data-name]')?.getAttribute('data-name')).toBe('company');
    refusal = { status: 429, body: { code: 'too_many_attempts' } };
    await user.click(screen.getByRole('button', { name: 'Send and download' }));
    await screen.findByText('Too many attempts, please wait a few minutes and try again');
    first.unmount();

    fakeApi(() => ({ status: 200, body: gated({ can_submit: false }) }));
    renderAt(`?l=${LAYER}&lang=nl`);
    await screen.findByText('Downloads zijn nog niet beschikbaar: de evenementbeheerder moet het downloadformulier nog aan een evenement koppelen');
    expect(screen.queryByRole('button', { name: 'Versturen en downloaden' })).toBeNull();
    expect(screen.getAllByText('Verstuur het formulier hierboven om te downloaden')).toHaveLength(3);
  });
});
