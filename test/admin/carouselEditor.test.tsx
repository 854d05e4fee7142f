import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, type I18nProvider } from 'react-admin';
import { CarouselEditor } from '../../admin/src/carouselEditor/CarouselEditor';
import { addConsoleTexts, addReactAdminTexts, i18nReady } from '../../admin/src/i18n';
import { setSession } from '../../admin/src/providers/session';
import { ACCOUNT, memoryData, mountConsole, sessionAs, type Row } from '../helpers/consoleScreens';

/**
 * The carousel editor (admin/src/carouselEditor) in jsdom: the editor's own calls go to a fake account API behind
 * `fetch` (the graph, layers, slide order, deletes), the generated forms of its dialogs and its pickers to an in-memory
 * data provider. What a user sees, and what the API was sent.
 */

let i18nProvider: I18nProvider;
beforeAll(async () => {
  localStorage.setItem('RaStore.locale', JSON.stringify('en'));
  i18nProvider = await i18nReady();
  await addReactAdminTexts();
  await addConsoleTexts();
});

const CAROUSEL = '4c000000-0000-4000-8000-000000000001';
const OTHER_CAROUSEL = '4c000000-0000-4000-8000-000000000002';
const HD = '5d000000-0000-4000-8000-000000000001';
const WALL = '5d000000-0000-4000-8000-000000000002';
const S1 = '6e000000-0000-4000-8000-000000000001';
const S2 = '6e000000-0000-4000-8000-000000000002';
const S3 = '6e000000-0000-4000-8000-000000000003';
const PHOTO = '7f000000-0000-4000-8000-000000000001';
const CLIP = '7f000000-0000-4000-8000-000000000002';
const BROCHURES = '8a000000-0000-4000-8000-000000000001';
const L_IMAGE = '9b000000-0000-4000-8000-000000000001';
const L_HOTSPOT = '9b000000-0000-4000-8000-000000000002';
const L_QR = '9b000000-0000-4000-8000-000000000003';
const L_WEB = '9b000000-0000-4000-8000-000000000004';
const base = `/api/1/accounts/${ACCOUNT}`;

// jsdom has no PointerEvent: a MouseEvent with a pointer id (what the canvas reads) lets fireEvent send pointer events
class TestPointerEvent extends MouseEvent {
  pointerId: number;
  constructor(type: string, init: PointerEventInit = {}) {
    super(type, init);
    this.pointerId = init.pointerId ?? 1;
  }
}

interface Call {
  method: string;
  path: string;
  body?: unknown;
}
let calls: Call[];
let override: Record<string, { status: number; body: unknown }>;
let created: number;

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function layerRow(id: string, slide: string, type: string, extra: Row | Record<string, unknown> = {}) {
  return {
    ly_id: id,
    ly_slideid: slide,
    ly_variantid: HD,
    ly_title: null,
    ly_type: type,
    ly_assetid: null,
    ly_order: 0,
    ly_x: 0,
    ly_y: 0,
    ly_width: 100,
    ly_height: 100,
    ly_iframe_url: null,
    ly_hotspot_carouselid: null,
    ly_collectionid: null,
    ly_download_formid: null,
    ly_form_styleid: null,
    ly_qr_fg: null,
    ly_qr_bg: null,
    ly_muted: true,
    ly_loop: false,
    ly_autoplay: true,
    ly_pausable: false,
    ...extra,
  };
}

function graph() {
  return {
    carousel: { c_id: CAROUSEL, c_title: 'Lobby', c_name: 'lobby' },
    variants: [
      { v_id: HD, v_carouselid: CAROUSEL, v_title: 'Landscape', v_name: 'landscape', v_width: 1920, v_height: 1080, v_bgcolor: '#102030', v_default_duration_ms: 8000 },
      { v_id: WALL, v_carouselid: CAROUSEL, v_title: 'Wall', v_name: 'wall', v_width: 3840, v_height: 1080, v_bgcolor: null, v_default_duration_ms: 8000 },
    ],
    slides: [
      {
        sl_id: S1,
        sl_carouselid: CAROUSEL,
        sl_title: 'Welcome',
        sl_subtitle: 'Hall 1',
        sl_order: 0,
        sl_duration_ms: 5000,
        layers: {
          [HD]: [
            layerRow(L_IMAGE, S1, 'image', { ly_title: 'Photo', ly_assetid: PHOTO, ly_x: 120, ly_y: 90, ly_width: 600, ly_height: 300, ly_order: 0 }),
            layerRow(L_HOTSPOT, S1, 'hotspot', { ly_hotspot_carouselid: OTHER_CAROUSEL, ly_x: 1200, ly_y: 600, ly_width: 300, ly_height: 200, ly_order: 1 }),
            layerRow(L_QR, S1, 'collectionqr', {
              ly_collectionid: BROCHURES,
              ly_qr_fg: '#112233',
              ly_qr_bg: '#ffeedd',
              ly_x: 1500,
              ly_y: 100,
              ly_width: 300,
              ly_height: 300,
              ly_order: 2,
            }),
            layerRow(L_WEB, S1, 'iframe', { ly_title: 'Site', ly_iframe_url: 'https://example.com/', ly_x: 800, ly_y: 700, ly_width: 400, ly_height: 300, ly_order: 3 }),
          ],
        },
      },
      { sl_id: S2, sl_carouselid: CAROUSEL, sl_title: 'Products', sl_subtitle: null, sl_order: 1, sl_duration_ms: null },
      { sl_id: S3, sl_carouselid: CAROUSEL, sl_title: 'Contact', sl_subtitle: null, sl_order: 2, sl_duration_ms: null },
    ],
    assets: {
      [PHOTO]: {
        id: PHOTO,
        as_id: PHOTO,
        as_title: 'Booth photo',
        as_type: 'image/png',
        kind: 'image',
        url: '/storage/a/photo.png?v=1',
        thumbnail_url: '/storage/a/photo-thumb.jpg',
      },
    },
  };
}

function fakeFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const url = new URL(String(input), 'http://localhost');
  const method = init.method ?? 'GET';
  const body = init.body ? JSON.parse(String(init.body)) : undefined;
  calls.push({ method, path: decodeURIComponent(url.pathname + url.search), body });
  const forced = override[`${method} ${url.pathname}`];
  if (forced) return Promise.resolve(json(forced.status, forced.body));
  if (url.pathname === '/api/1/auth/me') return Promise.resolve(json(200, {}));
  if (url.pathname === `${base}/carousels/${CAROUSEL}/graph`) return Promise.resolve(json(200, graph()));
  if (url.pathname === `${base}/layers` && method === 'POST') {
    created += 1;
    const id = `9b000000-0000-4000-8000-0000000005${String(created).padStart(2, '0')}`;
    return Promise.resolve(json(201, { ...body, ly_id: id, id }));
  }
  if (url.pathname === `${base}/layers/order` && method === 'PUT')
    return Promise.resolve(
      json(
        200,
        body.ids.map((id: string) => ({ ly_id: id })),
      ),
    );
  if (url.pathname === `${base}/slides/order` && method === 'PUT')
    return Promise.resolve(
      json(
        200,
        body.ids.map((id: string) => ({ sl_id: id })),
      ),
    );
  const one = /^\/api\/1\/accounts\/[^/]+\/(layers|slides|variants)\/([^/]+)$/.exec(url.pathname);
  if (one && method === 'PUT') return Promise.resolve(json(200, { ...body, [`${one[1] === 'layers' ? 'ly' : one[1] === 'slides' ? 'sl' : 'v'}_id`]: one[2] }));
  if (one && method === 'DELETE') return Promise.resolve(json(200, {}));
  return Promise.resolve(json(404, { code: 'not_found', message: `no fake for ${method} ${url.pathname}` }));
}

const tables = (): Record<string, Row[]> => ({
  carousels: [
    { id: CAROUSEL, c_id: CAROUSEL, c_title: 'Lobby', c_name: 'lobby' },
    { id: OTHER_CAROUSEL, c_id: OTHER_CAROUSEL, c_title: 'Product tour', c_name: 'tour' },
  ],
  collections: [{ id: BROCHURES, co_id: BROCHURES, co_title: 'Brochures', co_name: 'brochures' }],
  assets: [
    {
      id: PHOTO,
      as_id: PHOTO,
      as_title: 'Booth photo',
      as_name: 'booth',
      as_type: 'image/png',
      kind: 'image',
      url: '/storage/a/photo.png?v=1',
      thumbnail_url: '/storage/a/photo-thumb.jpg',
    },
    { id: CLIP, as_id: CLIP, as_title: 'Teaser clip', as_name: 'teaser', as_type: 'video/mp4', kind: 'video', url: '/storage/a/clip.mp4?v=1', thumbnail_url: null },
  ],
  forms: [],
  'form-styles': [],
  variants: graph().variants.map((v) => ({ ...v, id: v.v_id })),
  slides: graph().slides.map(({ layers, ...sl }) => ({ ...sl, id: sl.sl_id })),
});

beforeEach(() => {
  calls = [];
  override = {};
  created = 0;
  document.cookie = 'ls.csrf-token=test-token; path=/';
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
  vi.stubGlobal('PointerEvent', TestPointerEvent);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setSession(null);
});

async function renderEditor(canEdit = true) {
  const data = memoryData(tables());
  render(
    <AdminContext dataProvider={data.provider} i18nProvider={i18nProvider}>
      <CarouselEditor accountId={ACCOUNT} carouselId={CAROUSEL} canEdit={canEdit} />
    </AdminContext>,
  );
  const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
  await screen.findByTestId('ce-stage');
  const stage = () => screen.getByTestId('ce-stage');
  const box = (id: string) => stage().querySelector<HTMLElement>(`[data-layer="${id}"]`)!;
  const writes = () => calls.filter((c) => c.method !== 'GET');
  const status = () => screen.getByTestId('ce-save-status');
  const saved = () => waitFor(() => expect(status().dataset.status).toBe('saved'), { timeout: 3000 });
  const inspector = () => screen.getByTestId('ce-inspector');
  return { user, data, stage, box, writes, status, saved, inspector };
}

/** A mouse drag on the canvas (pointer events, as a browser sends them). */
function drag(target: HTMLElement, from: [number, number], to: [number, number], options: { steps?: number; altKey?: boolean; shiftKey?: boolean } = {}) {
  const steps = options.steps ?? 4;
  fireEvent.pointerDown(target, { button: 0, pointerId: 1, clientX: from[0], clientY: from[1] });
  for (let i = 1; i <= steps; i++) {
    const x = from[0] + ((to[0] - from[0]) * i) / steps;
    const y = from[1] + ((to[1] - from[1]) * i) / steps;
    fireEvent.pointerMove(target, { pointerId: 1, clientX: x, clientY: y, altKey: options.altKey, shiftKey: options.shiftKey });
  }
  fireEvent.pointerUp(target, { pointerId: 1, clientX: to[0], clientY: to[1] });
}

describe('carousel editor', () => {
  it("shows the variants, the slides in order and the first slide's layers drawn like the player, at the variant's size scaled to fit", async () => {
    const ui = await renderEditor();
    expect(screen.getAllByTestId('ce-variant').map((b) => b.textContent)).toEqual(['Landscape1920×1080', 'Wall3840×1080']);
    expect(screen.getAllByTestId('ce-slide').map((b) => b.querySelector('.ce-slide-title')!.textContent)).toEqual(['1. Welcome', '2. Products', '3. Contact']);
    expect(screen.getAllByTestId('ce-slide')[0].textContent).toContain('Hall 1 · 5 s');
    expect(screen.getAllByTestId('ce-slide')[1].textContent).toContain('8 s (default)');
    // 1920 × 1080 in the 640 × 400 room jsdom gets: one third
    expect(ui.stage().style.width).toBe('640px');
    expect(ui.stage().style.height).toBe('360px');
    expect(screen.getByTestId('ce-scale').textContent).toBe('1920 × 1080 px at 33%');
    expect(ui.box(L_IMAGE).style.left).toBe('40px');
    expect(ui.box(L_IMAGE).style.width).toBe('200px');
    const clip = ui.stage().querySelector<HTMLElement>('.ce-clip')!;
    expect(clip.style.background).toBe('rgb(16, 32, 48)');
    // the image from its thumbnail, the hotspot as a dashed area naming its carousel, the QR code in its colours, the web page labelled
    expect(clip.querySelector('img')!.getAttribute('src')).toBe('/storage/a/photo-thumb.jpg');
    await waitFor(() => expect(clip.querySelector('.ce-hotspot')!.textContent).toContain('Opens Product tour'));
    const qr = clip.querySelector<HTMLElement>('.ce-content:nth-child(3) .ce-placeholder')!;
    expect(qr.style.background).toBe('rgb(255, 238, 221)');
    expect(qr.style.color).toBe('rgb(17, 34, 51)');
    expect(clip.querySelector('.ce-iframe')!.textContent).toContain('https://example.com/');
    expect(ui.box(L_IMAGE).getAttribute('aria-label')).toBe('Photo (Image), x 120, y 90, 600 × 300');
    // the layer list: top first
    expect(screen.getAllByTestId('ce-layer-row').map((r) => r.textContent)).toEqual(['Site', 'Collection QR code', 'Hotspot', 'Photo']);
    // the live preview: the player at the slide, in the variant
    const frame = screen.getByTestId('ce-preview') as HTMLIFrameElement;
    expect(frame.getAttribute('src')).toBe(`/play/_preview/${ACCOUNT}/${CAROUSEL}?slide=${S1}&variant=landscape`);
    expect(frame.style.width).toBe('1920px');
  });

  it('drags a layer with the mouse and saves its place once, on drop', async () => {
    const ui = await renderEditor();
    const image = ui.box(L_IMAGE);
    // 30 × 15 screen pixels at 1/3 are 90 × 45 canvas pixels (Alt: no snapping)
    drag(image, [100, 100], [130, 115], { altKey: true, steps: 6 });
    expect(image.style.left).toBe('70px');
    expect(image.classList.contains('ce-box--selected')).toBe(true);
    await ui.saved();
    expect(ui.writes()).toEqual([{ method: 'PUT', path: `${base}/layers/${L_IMAGE}`, body: { ly_x: 210, ly_y: 135 } }]);
    expect(within(ui.inspector()).getByRole('textbox', { name: 'X (px)' })).toHaveProperty('value', '210');
  });

  it("snaps a dragged layer to the canvas' centre and another layer's top, and shows the guides while dragging", async () => {
    const ui = await renderEditor();
    const image = ui.box(L_IMAGE);
    // the image's centre is at 420; the canvas' centre line at 960: 540 canvas pixels = 180 screen pixels, 2 short
    fireEvent.pointerDown(image, { button: 0, pointerId: 1, clientX: 100, clientY: 100 });
    fireEvent.pointerMove(image, { pointerId: 1, clientX: 150, clientY: 100 });
    fireEvent.pointerMove(image, { pointerId: 1, clientX: 278, clientY: 100 });
    const guides = screen.getAllByTestId('ce-guide');
    expect(guides.filter((g) => g.style.left).map((g) => g.style.left)).toEqual(['320px']);
    // and its top (90) is within 6 screen pixels of the QR code's top (100): top, middle and bottom line up (both 300 high)
    expect(guides.filter((g) => g.style.top).map((g) => Math.round(parseFloat(g.style.top)))).toEqual([33, 83, 133]);
    fireEvent.pointerUp(image, { pointerId: 1, clientX: 278, clientY: 100 });
    expect(screen.queryAllByTestId('ce-guide')).toEqual([]);
    await ui.saved();
    expect(ui.writes().map((c) => c.body)).toEqual([{ ly_x: 660, ly_y: 100 }]);
  });

  it('resizes with a corner handle and with an edge handle', async () => {
    const ui = await renderEditor();
    await ui.user.click(ui.box(L_WEB));
    const handles = ui.box(L_WEB).querySelectorAll<HTMLElement>('.ce-handle');
    expect([...handles].map((h) => h.dataset.handle)).toEqual(['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w']);
    drag(ui.box(L_WEB).querySelector<HTMLElement>('[data-handle="nw"]')!, [0, 0], [-20, -10], { altKey: true });
    await ui.saved();
    expect(ui.writes().at(-1)!.body).toEqual({ ly_x: 740, ly_y: 670, ly_width: 460, ly_height: 330 });
    drag(ui.box(L_WEB).querySelector<HTMLElement>('[data-handle="e"]')!, [0, 0], [10, 50], { altKey: true });
    await waitFor(() => expect(ui.writes()).toHaveLength(2));
    expect(ui.writes().at(-1)!.body).toEqual({ ly_width: 490 });
  });

  it('nudges with the arrow keys (Shift: 10 px) and saves once the keys pause', async () => {
    const ui = await renderEditor();
    ui.box(L_IMAGE).focus();
    await ui.user.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}{Shift>}{ArrowDown}{/Shift}{ArrowLeft}');
    expect(ui.box(L_IMAGE).getAttribute('aria-label')).toBe('Photo (Image), x 122, y 100, 600 × 300');
    expect(ui.writes()).toEqual([]);
    await ui.saved();
    expect(ui.writes()).toEqual([{ method: 'PUT', path: `${base}/layers/${L_IMAGE}`, body: { ly_x: 122, ly_y: 100 } }]);
    // one undo step for the run of nudges
    await ui.user.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(ui.writes()).toHaveLength(2));
    expect(ui.writes()[1].body).toEqual({ ly_x: 120, ly_y: 90 });
  });

  it('deletes with the Delete key, undoes (the layer is created again in its place) and redoes, each through the API', async () => {
    const ui = await renderEditor();
    ui.box(L_HOTSPOT).focus();
    await ui.user.keyboard('{Delete}');
    expect(ui.box(L_HOTSPOT)).toBeNull();
    expect(screen.getByText('Hotspot deleted.', { selector: '.MuiSnackbarContent-message' })).toBeTruthy();
    await ui.saved();
    expect(ui.writes()).toEqual([{ method: 'DELETE', path: `${base}/layers/${L_HOTSPOT}`, body: undefined }]);

    await ui.user.keyboard('{Control>}z{/Control}');
    await waitFor(() => expect(ui.writes()).toHaveLength(3));
    const [, create, order] = ui.writes();
    expect(create).toMatchObject({
      method: 'POST',
      path: `${base}/layers`,
      body: { ly_type: 'hotspot', ly_slideid: S1, ly_variantid: HD, ly_hotspot_carouselid: OTHER_CAROUSEL, ly_x: 1200, ly_y: 600, ly_width: 300, ly_height: 200 },
    });
    // back in its place in the stack, under the QR code and the web page, by its new id
    const newId = '9b000000-0000-4000-8000-000000000501';
    expect(order).toEqual({ method: 'PUT', path: `${base}/layers/order`, body: { ids: [L_IMAGE, newId, L_QR, L_WEB] } });
    expect(ui.box(L_HOTSPOT)).not.toBeNull();

    await ui.user.keyboard('{Control>}{Shift>}z{/Shift}{/Control}');
    await waitFor(() => expect(ui.writes()).toHaveLength(4));
    expect(ui.writes()[3]).toEqual({ method: 'DELETE', path: `${base}/layers/${newId}`, body: undefined });
    await ui.saved();
  });

  it('duplicates a layer above it and restacks with the toolbar, through the generic order route', async () => {
    const ui = await renderEditor();
    await ui.user.click(ui.box(L_IMAGE));
    const tools = within(screen.getByRole('toolbar', { name: 'Layer tools' }));
    await ui.user.click(tools.getByRole('button', { name: 'Duplicate' }));
    await ui.saved();
    expect(ui.writes()[0]).toMatchObject({ method: 'POST', body: { ly_type: 'image', ly_assetid: PHOTO, ly_title: 'Photo', ly_x: 140, ly_y: 110, ly_width: 600, ly_height: 300 } });
    const copy = '9b000000-0000-4000-8000-000000000501';
    // the copy sits right above the original, so the API's "new on top" is put right
    expect(ui.writes()[1]).toEqual({ method: 'PUT', path: `${base}/layers/order`, body: { ids: [L_IMAGE, copy, L_HOTSPOT, L_QR, L_WEB] } });
    expect(screen.getAllByTestId('ce-layer-row').map((r) => r.getAttribute('aria-current'))).toEqual([null, null, null, 'true', null]);

    await ui.user.click(tools.getByRole('button', { name: 'Bring forward' }));
    await waitFor(() => expect(ui.writes()).toHaveLength(3));
    expect(ui.writes()[2].body).toEqual({ ids: [L_IMAGE, L_HOTSPOT, copy, L_QR, L_WEB] });
    // and by keyboard on the layer: [ sends it back
    ui.stage().querySelector<HTMLElement>('.ce-box--selected')!.focus();
    await ui.user.keyboard('[[');
    await waitFor(() => expect(ui.writes()).toHaveLength(4));
    expect(ui.writes()[3].body).toEqual({ ids: [L_IMAGE, copy, L_HOTSPOT, L_QR, L_WEB] });
    expect(screen.getByTestId('ce-announcer').textContent).toContain('is now layer 4 of 5 from the top');
  });

  it('keeps a failed save on screen, says so, and stores it on retry', async () => {
    const ui = await renderEditor();
    override[`PUT ${base}/layers/${L_IMAGE}`] = { status: 503, body: { code: 'unavailable', message: 'The service is unavailable' } };
    drag(ui.box(L_IMAGE), [100, 100], [130, 100], { altKey: true });
    await waitFor(() => expect(ui.status().dataset.status).toBe('error'));
    expect(ui.status().textContent).toContain('Not saved: The service is unavailable');
    // nothing is lost: the layer stays where it was put, and later edits wait behind the failed one
    expect(ui.box(L_IMAGE).style.left).toBe('70px');
    ui.box(L_IMAGE).focus();
    await ui.user.keyboard('{ArrowDown}');
    await new Promise((r) => setTimeout(r, 700));
    expect(ui.writes().filter((c) => c.method === 'PUT')).toHaveLength(1);
    delete override[`PUT ${base}/layers/${L_IMAGE}`];
    await ui.user.click(screen.getByRole('button', { name: 'Try again' }));
    await ui.saved();
    expect(ui.writes().map((c) => c.body)).toEqual([{ ly_x: 210 }, { ly_x: 210 }, { ly_y: 91 }]);
  });

  it('edits a layer in the inspector with the fields of its type, and does not save what the API would refuse', async () => {
    const ui = await renderEditor();
    await ui.user.click(ui.box(L_WEB));
    const fields = within(ui.inspector());
    // an iframe: title, position, size and the address; no asset, no video flags
    expect(fields.getAllByRole('textbox').map((i) => i.getAttribute('name'))).toEqual(['ly_title', 'ly_iframe_url', 'ly_x', 'ly_y', 'ly_width', 'ly_height']);
    const address = fields.getByRole('textbox', { name: 'Web page address' });
    await ui.user.clear(address);
    await ui.user.type(address, 'ftp://example.com');
    await waitFor(() => expect(ui.status().dataset.status).toBe('invalid'));
    expect(ui.box(L_WEB).getAttribute('aria-invalid')).toBe('true');
    expect(fields.getByText('Please enter a valid URL')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 800));
    expect(ui.writes()).toEqual([]);
    await ui.user.clear(address);
    await ui.user.type(address, 'https://example.org/agenda');
    await ui.saved();
    expect(ui.writes()).toEqual([{ method: 'PUT', path: `${base}/layers/${L_WEB}`, body: { ly_iframe_url: 'https://example.org/agenda' } }]);
    // numbers: the canvas follows a typed width
    const width = fields.getByRole('textbox', { name: 'Width (px)' });
    await ui.user.clear(width);
    await ui.user.type(width, '600');
    expect(ui.box(L_WEB).style.width).toBe('200px');
    await waitFor(() => expect(ui.writes()).toHaveLength(2), { timeout: 3000 });
    expect(ui.writes()[1].body).toEqual({ ly_width: 600 });
  });

  it("shows a video layer's flags and a QR layer's collection, form and colours", async () => {
    const ui = await renderEditor();
    await ui.user.click(ui.box(L_QR));
    const fields = within(ui.inspector());
    expect(fields.getAllByRole('textbox').map((i) => i.getAttribute('name'))).toEqual(['ly_title', 'ly_qr_fg', 'ly_qr_bg', 'ly_x', 'ly_y', 'ly_width', 'ly_height']);
    expect(fields.getByRole('combobox', { name: 'Collection' }).textContent).toBe('Brochures');
    expect(fields.getByRole('combobox', { name: 'Download form' })).toBeTruthy();
    expect(fields.getByRole('combobox', { name: 'Form style' })).toBeTruthy();
    expect(fields.queryByRole('switch', { name: 'Muted' })).toBeNull();
  });

  it('adds image, video, hotspot and QR layers, each after asking for what its type needs', async () => {
    const ui = await renderEditor();
    await ui.user.click(screen.getAllByTestId('ce-slide')[1]);
    expect(ui.stage().querySelectorAll('.ce-box')).toHaveLength(0);
    const add = async (type: string) => {
      await ui.user.click(screen.getByRole('button', { name: 'Add layer' }));
      await ui.user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: type }));
      return screen.findByRole('dialog', { name: `Add: ${type}` });
    };
    // an image: the asset first (Add alone asks for it)
    let dialog = await add('Image');
    await ui.user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getByText('This field is required')).toBeTruthy();
    await ui.user.click(within(dialog).getByTestId('asset-picker-open'));
    const picker = await screen.findByRole('dialog', { name: 'Asset' });
    // only images are offered for an image
    await waitFor(() =>
      expect(
        within(picker)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual([expect.stringContaining('Booth photo')]),
    );
    await ui.user.click(within(picker).getByRole('option', { name: /Booth photo/ }));
    await waitFor(() => expect(within(dialog).getByTestId('asset-picker-title').textContent).toBe('Booth photo'));
    await ui.user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(ui.stage().querySelectorAll('.ce-box')).toHaveLength(1), { timeout: 3000 });

    dialog = await add('Video');
    await ui.user.click(within(dialog).getByTestId('asset-picker-open'));
    const videos = await screen.findByRole('dialog', { name: 'Asset' });
    await waitFor(() =>
      expect(
        within(videos)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual([expect.stringContaining('Teaser clip')]),
    );
    await ui.user.click(within(videos).getByRole('option', { name: /Teaser clip/ }));
    await ui.user.click(within(dialog).getByRole('button', { name: 'Add' }));

    dialog = await add('Hotspot');
    await ui.user.click(within(dialog).getByRole('combobox', { name: 'Opens carousel' }));
    await ui.user.click(await screen.findByRole('option', { name: 'Product tour' }));
    await ui.user.click(within(dialog).getByRole('button', { name: 'Add' }));

    dialog = await add('Collection QR code');
    await ui.user.click(within(dialog).getByRole('combobox', { name: /Collection/ }));
    await ui.user.click(await screen.findByRole('option', { name: 'Brochures' }));
    await ui.user.click(within(dialog).getByRole('button', { name: 'Add' }));

    await waitFor(() => expect(ui.writes()).toHaveLength(4), { timeout: 3000 });
    await ui.saved();
    const posts = ui.writes().map((c) => c.body);
    expect(posts).toEqual([
      expect.objectContaining({ ly_type: 'image', ly_assetid: PHOTO, ly_slideid: S2, ly_variantid: HD, ly_width: 768 }),
      expect.objectContaining({ ly_type: 'video', ly_assetid: CLIP, ly_muted: true, ly_autoplay: true, ly_width: 768, ly_height: 432, ly_x: 576, ly_y: 324 }),
      expect.objectContaining({ ly_type: 'hotspot', ly_hotspot_carouselid: OTHER_CAROUSEL }),
      expect.objectContaining({ ly_type: 'collectionqr', ly_collectionid: BROCHURES, ly_width: 480, ly_height: 480 }),
    ]);
    expect(ui.writes().every((c) => c.method === 'POST')).toBe(true);
    // the last one added is selected, its fields in the inspector
    expect(within(ui.inspector()).getByRole('combobox', { name: 'Collection' }).textContent).toBe('Brochures');
  }, 60_000);

  it('reorders slides by keyboard (one PUT /slides/order), deletes a slide after a confirmation and edits one', async () => {
    const ui = await renderEditor();
    const handle = screen.getByRole('button', { name: 'Move Contact' });
    handle.focus();
    await ui.user.keyboard(' {ArrowUp}{ArrowUp} ');
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/slides/order'))).toBe(true));
    expect(ui.writes()[0]).toEqual({ method: 'PUT', path: `${base}/slides/order`, body: { ids: [S3, S1, S2] } });
    await waitFor(() => expect(screen.getAllByTestId('ce-slide').map((b) => b.querySelector('.ce-slide-title')!.textContent)).toEqual(['1. Contact', '2. Welcome', '3. Products']));

    await ui.user.click(screen.getAllByTestId('ce-slide')[2]);
    await ui.user.click(screen.getByRole('button', { name: 'Delete the slide Products' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete the slide "Products"?' });
    await ui.user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getAllByTestId('ce-slide')).toHaveLength(2));
    expect(ui.writes()[1]).toEqual({ method: 'DELETE', path: `${base}/slides/${S2}`, body: undefined });
    // the next slide is chosen; editing it opens its generated form with what is stored
    expect(screen.getAllByTestId('ce-slide')[1].getAttribute('aria-current')).toBe('true');
    await ui.user.click(screen.getByRole('button', { name: 'Edit the slide Welcome' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit the slide "Welcome"' });
    await waitFor(() => expect(within(edit).getByRole('textbox', { name: 'Subtitle' })).toHaveProperty('value', 'Hall 1'));
    await ui.user.type(within(edit).getByRole('textbox', { name: 'Subtitle' }), ', stand 4');
    await ui.user.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getAllByTestId('ce-slide')[1].textContent).toContain('Hall 1, stand 4'));
    expect(ui.data.calls.at(-1)).toMatchObject({ method: 'update', resource: 'slides', params: { id: S1, data: expect.objectContaining({ sl_subtitle: 'Hall 1, stand 4' }) } });
  });

  it('adds a slide and a variant with the generated forms of their declarations, through the data provider', async () => {
    const ui = await renderEditor();
    await ui.user.click(screen.getByRole('button', { name: 'Add' }));
    let dialog = await screen.findByRole('dialog', { name: 'New slide' });
    // the slides declaration's fields, the carousel not asked
    expect(within(dialog).queryByRole('textbox', { name: /Carousel/ })).toBeNull();
    await ui.user.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'Thanks');
    await ui.user.type(within(dialog).getByRole('spinbutton', { name: 'Duration (ms)' }), '4000');
    await ui.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New slide' })).toBeNull());
    expect(ui.data.calls.at(-1)).toMatchObject({ method: 'create', resource: 'slides', params: { data: { sl_carouselid: CAROUSEL, sl_title: 'Thanks', sl_duration_ms: 4000 } } });
    expect(screen.getAllByTestId('ce-slide').map((b) => b.querySelector('.ce-slide-title')!.textContent)).toEqual(['1. Welcome', '2. Products', '3. Contact', '4. Thanks']);
    expect(screen.getAllByTestId('ce-slide')[3].getAttribute('aria-current')).toBe('true');

    await ui.user.click(screen.getByRole('button', { name: 'Add variant' }));
    dialog = await screen.findByRole('dialog', { name: 'New variant' });
    await ui.user.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'Small');
    await ui.user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'small');
    await ui.user.type(within(dialog).getByRole('spinbutton', { name: 'Width (px)' }), '800');
    await ui.user.type(within(dialog).getByRole('spinbutton', { name: 'Height (px)' }), '600');
    await ui.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New variant' })).toBeNull());
    expect(ui.data.calls.at(-1)).toMatchObject({
      method: 'create',
      resource: 'variants',
      params: { data: { v_carouselid: CAROUSEL, v_title: 'Small', v_name: 'small', v_width: 800, v_height: 600, v_autoplay: true } },
    });
    // the new variant is chosen: a canvas of its size
    expect(screen.getAllByTestId('ce-variant').map((b) => b.getAttribute('aria-pressed'))).toEqual(['true', 'false', 'false']);
    expect(ui.stage().style.width).toBe(`${Math.round(800 * Math.min(640 / 800, 400 / 600))}px`);
  }, 30_000);

  it('deletes a variant after a confirmation and shows the next one', async () => {
    const ui = await renderEditor();
    await ui.user.click(screen.getByRole('button', { name: 'Delete the variant Landscape' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete the variant "Landscape"?' });
    await ui.user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getAllByTestId('ce-variant')).toHaveLength(1));
    expect(ui.writes()).toEqual([{ method: 'DELETE', path: `${base}/variants/${HD}`, body: undefined }]);
    expect(ui.stage().style.width).toBe('640px');
    expect(ui.stage().style.height).toBe('180px');
    expect((screen.getByTestId('ce-preview') as HTMLIFrameElement).getAttribute('src')).toContain('variant=wall');
  });

  it('tells the preview to reload after each save and when the slide changes', async () => {
    const ui = await renderEditor();
    const frame = screen.getByTestId('ce-preview') as HTMLIFrameElement;
    const post = vi.spyOn(frame.contentWindow!, 'postMessage').mockImplementation(() => undefined);
    await ui.user.click(screen.getAllByTestId('ce-slide')[2]);
    await waitFor(() => expect(post).toHaveBeenCalledWith({ type: 'leadstage-preview', slideId: S3, reload: true }, window.location.origin));
    // the address does not change with the slide (no reload of the player)
    expect(frame.getAttribute('src')).toContain(`slide=${S1}`);
    await ui.user.click(screen.getAllByTestId('ce-slide')[0]);
    post.mockClear();
    drag(ui.box(L_IMAGE), [0, 0], [30, 0], { altKey: true });
    await ui.saved();
    expect(post).toHaveBeenCalledWith({ type: 'leadstage-preview', slideId: S1, reload: true }, window.location.origin);
  });

  it('read-only: the layers and the preview, and nothing that changes them', async () => {
    const ui = await renderEditor(false);
    expect(screen.getByText('You can look at this carousel but not change it.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add layer' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add variant' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Move / })).toBeNull();
    await ui.user.click(ui.box(L_IMAGE));
    expect(ui.box(L_IMAGE).querySelectorAll('.ce-handle')).toHaveLength(0);
    drag(ui.box(L_IMAGE), [0, 0], [60, 0]);
    await ui.user.keyboard('{ArrowRight}{Delete}');
    expect(within(ui.inspector()).getByRole('textbox', { name: 'X (px)' })).toHaveProperty('disabled', true);
    await new Promise((r) => setTimeout(r, 700));
    expect(ui.writes()).toEqual([]);
    expect(ui.box(L_IMAGE).style.left).toBe('40px');
  });

  it('says when the carousel cannot be loaded, and tries again', async () => {
    override[`GET ${base}/carousels/${CAROUSEL}/graph`] = { status: 500, body: { code: 'unknown_error' } };
    const data = memoryData(tables());
    render(
      <AdminContext dataProvider={data.provider} i18nProvider={i18nProvider}>
        <CarouselEditor accountId={ACCOUNT} carouselId={CAROUSEL} canEdit />
      </AdminContext>,
    );
    await screen.findByText('The carousel could not be loaded.');
    delete override[`GET ${base}/carousels/${CAROUSEL}/graph`];
    await act(async () => screen.getByRole('button', { name: 'Try again' }).click());
    await screen.findByTestId('ce-stage');
  });
});

describe('carousel edit screen in the console', () => {
  it('is the generated form of the carousel with the editor below it', async () => {
    mountConsole(sessionAs('member', 'admin'), `/carousels/${CAROUSEL}`, tables(), i18nProvider);
    await waitFor(() => expect((document.querySelector('[name="c_title"]') as HTMLInputElement | null)?.value).toBe('Lobby'));
    expect(await screen.findByRole('heading', { name: 'Slides and layers' })).toBeTruthy();
    await screen.findByTestId('ce-stage');
    expect(screen.getByRole('button', { name: 'Add layer' })).toBeTruthy();
  });

  it('a member looks without editing', async () => {
    mountConsole(sessionAs('member', 'member'), `/carousels/${CAROUSEL}`, tables(), i18nProvider);
    await screen.findByTestId('ce-stage');
    expect(screen.queryByRole('button', { name: 'Add layer' })).toBeNull();
  });
});
