import { defineAccountResource } from './define.js';

/**
 * Carousels and their parts (account-console.md: carousels, variants, slides, layers, carousel-groups, codes), all in
 * the account_carousels group. A carousel has variants (screen layouts) and ordered slides; a layer is a slide's
 * content in one variant, at a position on that variant's canvas.
 */
export const carousels = defineAccountResource({
  name: 'carousels',
  table: 'carousels',
  prefix: 'c',
  group: 'account_carousels',
  fields: {
    c_title: { kind: 'text', required: true, list: true, sort: true },
    c_name: { kind: 'identifier', required: true, list: true, sort: true },
  },
  search: ['c_title', 'c_name'],
  unique: [{ field: 'c_name' }],
});

/** A canvas is at most this many pixels on a side (an 8K screen, with room). */
export const CANVAS_MAX = 10_000;
const px = (extra: Record<string, unknown> = {}) => ({ kind: 'number' as const, integer: true, min: -CANVAS_MAX, max: CANVAS_MAX, ...extra });
const size = (extra: Record<string, unknown> = {}) => ({ kind: 'number' as const, integer: true, min: 1, max: CANVAS_MAX, ...extra });

export const NAV_BUTTONS = ['next', 'prev', 'home'] as const;
export const DEFAULT_DURATION_MS = 8000;

export const variants = defineAccountResource({
  name: 'variants',
  table: 'variants',
  prefix: 'v',
  group: 'account_carousels',
  fields: {
    v_carouselid: { kind: 'reference', reference: 'carousels', parent: true, required: true, createOnly: true },
    v_title: { kind: 'text', required: true, list: true, sort: true },
    v_name: { kind: 'identifier', required: true, list: true, sort: true },
    v_width: size({ required: true, list: true }),
    v_height: size({ required: true, list: true }),
    v_x: px({ default: 0 }),
    v_y: px({ default: 0 }),
    v_bgcolor: { kind: 'colour' },
    v_autoplay: { kind: 'boolean', default: true },
    v_default_duration_ms: { kind: 'number', integer: true, min: 500, max: 3_600_000, default: DEFAULT_DURATION_MS },
    v_infinite: { kind: 'boolean', default: true },
    v_screensaver_timeout_s: { kind: 'number', integer: true, min: 5, max: 86_400 },
    v_navigation_enabled: { kind: 'boolean', default: false },
    ...Object.fromEntries(
      NAV_BUTTONS.flatMap((b) => [
        [`v_${b}_assetid`, { kind: 'asset' as const, reference: 'assets', assetKinds: ['image'] }],
        [`v_${b}_x`, px()],
        [`v_${b}_y`, px()],
      ]),
    ),
  },
  search: ['v_title', 'v_name'],
  unique: [{ field: 'v_name', code: 'name_taken' }],
});

export const slides = defineAccountResource({
  name: 'slides',
  table: 'slides',
  prefix: 'sl',
  group: 'account_carousels',
  fields: {
    sl_carouselid: { kind: 'reference', reference: 'carousels', parent: true, required: true, createOnly: true },
    sl_title: { kind: 'text', required: true, list: true, sort: true },
    sl_subtitle: { kind: 'text' },
    sl_name: { kind: 'identifier' },
    sl_order: { kind: 'number', integer: true, min: 0, max: 1_000_000, formHidden: true },
    sl_duration_ms: { kind: 'number', integer: true, min: 500, max: 3_600_000, list: true },
    sl_bgcolor: { kind: 'colour' },
  },
  search: ['sl_title'],
  order: { field: 'sl_order', parent: ['sl_carouselid'] },
});

export const LAYER_TYPES = ['image', 'video', 'iframe', 'hotspot', 'collectionqr'] as const;
export type LayerType = (typeof LAYER_TYPES)[number];

export const layers = defineAccountResource({
  name: 'layers',
  table: 'layers',
  prefix: 'ly',
  group: 'account_carousels',
  fields: {
    ly_slideid: { kind: 'reference', reference: 'slides', parent: true, required: true, createOnly: true },
    ly_variantid: { kind: 'reference', reference: 'variants', required: true, createOnly: true, filter: true },
    ly_title: { kind: 'text', list: true },
    ly_type: { kind: 'enum', options: LAYER_TYPES, required: true, list: true, filter: true },
    ly_assetid: { kind: 'asset', reference: 'assets', assetKinds: ['image', 'video'], showWhen: { field: 'ly_type', values: ['image', 'video'] } },
    ly_order: { kind: 'number', integer: true, min: 0, max: 1_000_000, formHidden: true },
    ly_x: px({ default: 0 }),
    ly_y: px({ default: 0 }),
    ly_width: size(),
    ly_height: size(),
    ly_iframe_url: { kind: 'url', showWhen: { field: 'ly_type', values: ['iframe'] } },
    ly_hotspot_carouselid: { kind: 'reference', reference: 'carousels', showWhen: { field: 'ly_type', values: ['hotspot'] } },
    ly_collectionid: { kind: 'reference', reference: 'collections', showWhen: { field: 'ly_type', values: ['collectionqr'] } },
    ly_download_formid: { kind: 'reference', reference: 'forms', showWhen: { field: 'ly_type', values: ['collectionqr'] } },
    ly_form_styleid: { kind: 'reference', reference: 'form-styles', showWhen: { field: 'ly_type', values: ['collectionqr'] } },
    ly_qr_fg: { kind: 'colour', showWhen: { field: 'ly_type', values: ['collectionqr'] } },
    ly_qr_bg: { kind: 'colour', showWhen: { field: 'ly_type', values: ['collectionqr'] } },
    ly_muted: { kind: 'boolean', default: true, showWhen: { field: 'ly_type', values: ['video'] } },
    ly_loop: { kind: 'boolean', default: false, showWhen: { field: 'ly_type', values: ['video'] } },
    ly_autoplay: { kind: 'boolean', default: true, showWhen: { field: 'ly_type', values: ['video'] } },
    ly_pausable: { kind: 'boolean', default: false, showWhen: { field: 'ly_type', values: ['video'] } },
  },
  search: ['ly_title'],
  order: { field: 'ly_order', parent: ['ly_slideid', 'ly_variantid'] },
  codes: ['layer_variant_invalid'],
  check(r) {
    const errors: Record<string, string> = {};
    const type = r.ly_type as LayerType | undefined;
    if ((type === 'image' || type === 'video') && !r.ly_assetid) errors.ly_assetid = 'error_required';
    if (type === 'iframe' && !r.ly_iframe_url) errors.ly_iframe_url = 'error_required';
    if (type === 'hotspot' && !r.ly_hotspot_carouselid) errors.ly_hotspot_carouselid = 'error_required';
    if (type === 'collectionqr' && !r.ly_collectionid) errors.ly_collectionid = 'error_required';
    return errors;
  },
});

export const carouselGroups = defineAccountResource({
  name: 'carousel-groups',
  table: 'carousel_groups',
  prefix: 'cg',
  group: 'account_carousels',
  fields: {
    cg_title: { kind: 'text', required: true, list: true, sort: true },
    cg_standby_carouselid: { kind: 'reference', reference: 'carousels', list: true },
  },
  search: ['cg_title'],
});

/** Codes: at least 8 characters of an alphabet without look-alikes (no 0/O, 1/I/L, 2/Z, 5/S, 8/B). */
export const CODE_ALPHABET = '3469ACDEFGHJKMNPQRTUVWXY';
export const CODE_LENGTH = 10;
export const CODE_RE = new RegExp(`^[${CODE_ALPHABET}]{8,32}$`);

export const codes = defineAccountResource({
  name: 'codes',
  table: 'carousel_codes',
  prefix: 'cc',
  group: 'account_carousels',
  fields: {
    cc_groupid: { kind: 'reference', reference: 'carousel-groups', required: true, list: true, filter: true },
    cc_title: { kind: 'text', list: true, sort: true },
    cc_code: { kind: 'text', required: true, readOnly: true, list: true, sort: true },
  },
  search: ['cc_title', 'cc_code'],
  title: 'cc_code',
});

/** What a player reports (POST /play/{code}/events). */
export const PLAY_EVENT_KINDS = ['play', 'hotspot', 'qr'] as const;
