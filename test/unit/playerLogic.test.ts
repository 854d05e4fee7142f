import { describe, expect, it } from 'vitest';
import {
  assetIdsOf,
  chooseVariant,
  collectionQrUrl,
  colour,
  fitCanvas,
  homePosition,
  mediaUrl,
  previewPosition,
  relocate,
  slideDuration,
  standbyPosition,
  step,
  type Position,
} from '../../admin/src/player/logic';
import { qrMatrix, qrPath, QUIET_ZONE } from '../../admin/src/player/qr';
import { iframeSandbox } from '../../admin/src/player/render';
import { PLAYER_TEXTS, playerLocale } from '../../admin/src/player/texts';
import type { Carousel, Manifest, Slide, Variant } from '../../admin/src/player/types';

/** The player's pure decisions (admin/src/player/logic.ts and friends): no DOM, no timers. */

let n = 0;
function variant(name: string, width: number, height: number, extra: Partial<Variant> = {}): Variant {
  return {
    v_id: `v-${name}-${++n}`,
    v_name: name,
    v_title: name,
    v_x: 0,
    v_y: 0,
    v_width: width,
    v_height: height,
    v_bgcolor: null,
    v_autoplay: true,
    v_default_duration_ms: 8000,
    v_infinite: true,
    v_screensaver_timeout_s: null,
    v_navigation_enabled: false,
    v_next_assetid: null,
    v_next_x: null,
    v_next_y: null,
    v_prev_assetid: null,
    v_prev_x: null,
    v_prev_y: null,
    v_home_assetid: null,
    v_home_x: null,
    v_home_y: null,
    ...extra,
  };
}
const slide = (id: string, extra: Partial<Slide> = {}): Slide => ({
  sl_id: id,
  sl_name: null,
  sl_title: id,
  sl_subtitle: null,
  sl_order: 0,
  sl_duration_ms: null,
  sl_bgcolor: null,
  layers: {},
  ...extra,
});
const carousel = (id: string, slides: string[], v: Variant = variant('hd', 1920, 1080)): Carousel => ({
  c_id: id,
  c_name: id,
  c_title: id,
  variants: [v],
  slides: slides.map((s) => slide(s)),
});

function manifest(carousels: Carousel[], group: string[], standby: string | null = null): Manifest {
  return {
    code: 'ABCDEFGH',
    code_title: null,
    account_id: 'acc',
    group: { cg_id: 'g', cg_title: 'G' },
    carousel_ids: group,
    standby_carouselid: standby,
    carousels: Object.fromEntries(carousels.map((c) => [c.c_id, c])),
    assets: {},
    collections: {},
    local_server_url: null,
  };
}

describe('chooseVariant', () => {
  const hd = variant('hd', 1920, 1080);
  const uhd = variant('uhd', 3840, 2160);
  const portrait = variant('portrait', 1080, 1920);
  const square = variant('square', 1000, 1000);
  const all = [hd, uhd, portrait, square];

  it('picks the closest shape: landscape, portrait, square', () => {
    expect(chooseVariant(all, { width: 1280, height: 720 })?.v_name).toBe('hd');
    expect(chooseVariant(all, { width: 720, height: 1280 })?.v_name).toBe('portrait');
    expect(chooseVariant(all, { width: 900, height: 880 })?.v_name).toBe('square');
    // 16:10 is nearer 16:9 than 1:1
    expect(chooseVariant(all, { width: 1280, height: 800 })?.v_name).toBe('hd');
  });

  it('among the same shape, the closest size', () => {
    expect(chooseVariant(all, { width: 3840, height: 2160 })?.v_name).toBe('uhd');
    expect(chooseVariant(all, { width: 3200, height: 1800 })?.v_name).toBe('uhd');
    expect(chooseVariant(all, { width: 2560, height: 1440 })?.v_name).toBe('hd'); // nearer on a log scale: 1.8× vs 2.25× the pixels
    expect(chooseVariant(all, { width: 1920, height: 1080 })?.v_name).toBe('hd');
    // the order of the list does not matter
    expect(chooseVariant([uhd, hd], { width: 1920, height: 1080 })?.v_name).toBe('hd');
  });

  it('?variant= wins when the carousel has it, else the best fit', () => {
    expect(chooseVariant(all, { width: 1920, height: 1080 }, 'portrait')?.v_name).toBe('portrait');
    expect(chooseVariant(all, { width: 1920, height: 1080 }, 'nope')?.v_name).toBe('hd');
    expect(chooseVariant([], { width: 1920, height: 1080 })).toBeUndefined();
  });
});

describe('fitCanvas', () => {
  it('letterboxes: scaled whole, centred', () => {
    expect(fitCanvas({ width: 1920, height: 1080 }, { width: 1280, height: 860 })).toEqual({ scale: 1280 / 1920, left: 0, top: (860 - 720) / 2 });
    expect(fitCanvas({ width: 1080, height: 1920 }, { width: 1920, height: 1080 })).toEqual({ scale: 1080 / 1920, left: (1920 - 1080 * (1080 / 1920)) / 2, top: 0 });
    expect(fitCanvas({ width: 100, height: 100 }, { width: 300, height: 200 })).toEqual({ scale: 2, left: 50, top: 0 });
  });
});

describe('slideDuration', () => {
  const v = { v_default_duration_ms: 6000 };
  it("the slide's own, else a video played once, else the variant's default", () => {
    expect(slideDuration({ sl_duration_ms: 2500 }, v, 12_000)).toBe(2500);
    expect(slideDuration({ sl_duration_ms: null }, v, 12_345.2)).toBe(12_346);
    expect(slideDuration({ sl_duration_ms: null }, v, null)).toBe(6000);
    // a stream without a known length (Infinity, NaN) does not count
    expect(slideDuration({ sl_duration_ms: null }, v, Infinity)).toBe(6000);
    expect(slideDuration({ sl_duration_ms: null }, v, Number.NaN)).toBe(6000);
    expect(slideDuration({ sl_duration_ms: 0 }, { v_default_duration_ms: 0 })).toBe(8000);
  });
});

describe('step: what plays next', () => {
  const vOf = (c: Carousel) => c.variants[0];
  const a = carousel('a', ['a1', 'a2']);
  const b = carousel('b', ['b1']);
  const empty = carousel('e', []);
  const s = carousel('s', ['s1', 's2'], variant('hd', 1920, 1080, { v_infinite: false }));
  const m = manifest([a, b, empty, s], ['a', 'e', 'b'], 's');
  const at = (mode: Position['mode'], carouselId: string, index: number): Position => ({ mode, carouselId, index });

  it('within a carousel, then the next carousel of the group (empty ones skipped), then round again when infinite', () => {
    expect(homePosition(m)).toEqual(at('group', 'a', 0));
    expect(step(m, at('group', 'a', 0), 1, vOf)).toEqual(at('group', 'a', 1));
    expect(step(m, at('group', 'a', 1), 1, vOf)).toEqual(at('group', 'b', 0));
    expect(step(m, at('group', 'b', 0), 1, vOf)).toEqual(at('group', 'a', 0));
  });

  it("the group's last carousel not infinite: it stops there", () => {
    const last = carousel('z', ['z1'], variant('hd', 1920, 1080, { v_infinite: false }));
    const m2 = manifest([a, last], ['a', 'z']);
    expect(step(m2, at('group', 'a', 1), 1, vOf)).toEqual(at('group', 'z', 0));
    expect(step(m2, at('group', 'z', 0), 1, vOf)).toBeUndefined();
  });

  it('backwards: the previous slide, the previous carousel’s last slide, round when infinite', () => {
    expect(step(m, at('group', 'a', 1), -1, vOf)).toEqual(at('group', 'a', 0));
    expect(step(m, at('group', 'b', 0), -1, vOf)).toEqual(at('group', 'a', 1));
    expect(step(m, at('group', 'a', 0), -1, vOf)).toEqual(at('group', 'b', 0));
  });

  it('standby and hotspot carousels play on their own: loop when infinite, else stop on the last slide', () => {
    expect(standbyPosition(m)).toEqual(at('standby', 's', 0));
    expect(step(m, at('standby', 's', 0), 1, vOf)).toEqual(at('standby', 's', 1));
    expect(step(m, at('standby', 's', 1), 1, vOf)).toBeUndefined();
    expect(step(m, at('hotspot', 'a', 1), 1, vOf)).toEqual(at('hotspot', 'a', 0));
    expect(standbyPosition(manifest([a], ['a'], 'gone'))).toBeUndefined();
    expect(standbyPosition(manifest([a, empty], ['a'], 'e'))).toBeUndefined();
  });

  it('a group with nothing to play has no home', () => {
    expect(homePosition(manifest([empty], ['e']))).toBeUndefined();
    expect(homePosition(manifest([], []))).toBeUndefined();
  });

  it('relocate: the same slide in a newer manifest, else the carousel’s first, else home', () => {
    const a2 = { ...a, slides: [slide('new'), slide('a2')] };
    const newer = manifest([a2, b, s], ['a', 'b'], 's');
    expect(relocate(newer, at('group', 'a', 1), 'a2')).toEqual(at('group', 'a', 1));
    expect(relocate(newer, at('group', 'a', 0), 'a1')).toEqual(at('group', 'a', 0));
    const withoutA = manifest([b, s], ['b'], 's');
    expect(relocate(withoutA, at('group', 'a', 1), 'a2')).toEqual(at('group', 'b', 0));
    expect(relocate(withoutA, at('standby', 'x', 0), 'x1')).toEqual(at('standby', 's', 0));
    // a carousel taken out of the group no longer plays as part of it
    const aOutOfGroup = manifest([a, b], ['b']);
    expect(relocate(aOutOfGroup, at('group', 'a', 1), 'a2')).toEqual(at('group', 'b', 0));
  });

  it('previewPosition: the slide named, else the first', () => {
    const one = { ...manifest([a], ['a']), code: null, group: null, preview: true };
    expect(previewPosition(one, 'a2')).toEqual(at('group', 'a', 1));
    expect(previewPosition(one, 'zz')).toEqual(at('group', 'a', 0));
    expect(previewPosition(one, null)).toEqual(at('group', 'a', 0));
    expect(previewPosition(manifest([empty], ['e']), null)).toBeUndefined();
  });
});

describe('media and links', () => {
  const asset = { as_id: '0b5c7d5e-1f1e-4b57-9d2a-6b0c3d4e5f60', as_version: 3, url: '/storage/assets/a/2026/11/f?v=3' };
  it("the local media server's URL scheme (<local>/<as_id>?v=<as_version>), else the origin's", () => {
    expect(mediaUrl(asset, null)).toBe(asset.url);
    expect(mediaUrl(asset, 'http://10.0.0.5:8080/')).toBe(`http://10.0.0.5:8080/${asset.as_id}?v=3`);
    expect(mediaUrl(asset, 'https://media.local/leadstage')).toBe(`https://media.local/leadstage/${asset.as_id}?v=3`);
  });

  it('the collection QR link carries the layer', () => {
    expect(collectionQrUrl('https://leads.example.com', '/c/AbC_123', 'layer-1')).toBe('https://leads.example.com/c/AbC_123?l=layer-1');
  });

  it('colours: #rrggbb or the fallback', () => {
    expect(colour('#12abEF', '#000000')).toBe('#12abEF');
    expect(colour('red', '#000000')).toBe('#000000');
    expect(colour(null, '#ffffff')).toBe('#ffffff');
  });

  it('every asset a manifest shows, once, buttons included; unknown ids left out', () => {
    const v = variant('hd', 1920, 1080, { v_next_assetid: 'btn' });
    const c: Carousel = {
      c_id: 'c',
      c_name: 'c',
      c_title: 'c',
      variants: [v],
      slides: [slide('s', { layers: { [v.v_id]: [{ ly_assetid: 'img' } as never, { ly_assetid: 'img' } as never, { ly_assetid: 'gone' } as never] } })],
    };
    const m = { ...manifest([c], ['c']), assets: { img: {} as never, btn: {} as never } };
    expect(assetIdsOf(m).sort()).toEqual(['btn', 'img']);
  });

  it("iframes: scripts always; their own origin only for another site's page; never top navigation or popups", () => {
    expect(iframeSandbox('https://example.org/page', 'https://leads.example.com')).toBe('allow-scripts allow-forms allow-same-origin');
    expect(iframeSandbox('https://leads.example.com/c/x', 'https://leads.example.com')).toBe('allow-scripts allow-forms');
    expect(iframeSandbox('::not a url', 'https://leads.example.com')).toBe('allow-scripts allow-forms');
    for (const src of ['https://example.org', 'https://leads.example.com/x']) expect(iframeSandbox(src, 'https://leads.example.com')).not.toMatch(/top-navigation|popups/);
  });
});

describe('QR code path', () => {
  it('draws exactly the dark modules, offset by the quiet zone', () => {
    const { size, dark } = qrMatrix('https://leads.example.com/c/token?l=layer');
    expect(size).toBeGreaterThanOrEqual(21);
    const d = qrPath(size, dark);
    // rebuild the matrix from the path's rectangles
    const drawn = new Set<string>();
    for (const m of d.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
      const [x, y, w] = [Number(m[1]) - QUIET_ZONE, Number(m[2]) - QUIET_ZONE, Number(m[3])];
      for (let i = 0; i < w; i++) drawn.add(`${y},${x + i}`);
    }
    let darkCount = 0;
    for (let r = 0; r < size; r++)
      for (let c = 0; c < size; c++)
        if (dark(r, c)) {
          darkCount++;
          expect(drawn.has(`${r},${c}`)).toBe(true);
        }
    expect(drawn.size).toBe(darkCount);
  });
});

describe('texts', () => {
  it('English and Dutch have the same keys, none empty', () => {
    expect(Object.keys(PLAYER_TEXTS.nl).sort()).toEqual(Object.keys(PLAYER_TEXTS.en).sort());
    for (const t of [...Object.values(PLAYER_TEXTS.en), ...Object.values(PLAYER_TEXTS.nl)]) expect(t.trim()).not.toBe('');
  });
  it("the screen's first English or Dutch language", () => {
    expect(playerLocale(['nl-BE', 'en'])).toBe('nl');
    expect(playerLocale(['fr-FR', 'nl'])).toBe('nl');
    expect(playerLocale(['en-GB', 'nl'])).toBe('en');
    expect(playerLocale(['de'])).toBe('en');
    expect(playerLocale([])).toBe('en');
  });
});
