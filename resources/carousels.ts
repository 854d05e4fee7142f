import { staffAndMembers } from './roles.js';
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
  history: true,
  trash: true,
  grants: staffAndMembers(15, 1),
  icon: 'view_carousel',
  fields: {
    c_title: { kind: 'text', required: true, list: true, sort: true },
    c_name: { kind: 'identifier', required: true, list: true, sort: true },
  },
  search: ['c_title', 'c_name'],
  unique: [{ field: 'c_name' }],
  labels: {
    en: { name_one: 'Carousel', name_other: 'Carousels', fields: { c_title: 'Title', c_name: 'Name' } },
    nl: { name_one: 'Carrousel', name_other: 'Carrousels', fields: { c_title: 'Titel', c_name: 'Naam' } },
  },
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
  history: true,
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
  labels: {
    en: {
      name_one: 'Variant',
      name_other: 'Variants',
      fields: {
        v_carouselid: 'Carousel',
        v_title: 'Title',
        v_name: 'Name',
        v_width: 'Width (px)',
        v_height: 'Height (px)',
        v_x: 'X (px)',
        v_y: 'Y (px)',
        v_bgcolor: 'Background colour',
        v_autoplay: 'Autoplay',
        v_default_duration_ms: 'Default slide duration (ms)',
        v_infinite: 'Loop forever',
        v_screensaver_timeout_s: 'Screensaver after (s)',
        v_navigation_enabled: 'Navigation buttons',
        v_next_assetid: 'Next button image',
        v_next_x: 'Next button X',
        v_next_y: 'Next button Y',
        v_prev_assetid: 'Previous button image',
        v_prev_x: 'Previous button X',
        v_prev_y: 'Previous button Y',
        v_home_assetid: 'Home button image',
        v_home_x: 'Home button X',
        v_home_y: 'Home button Y',
      },
    },
    nl: {
      name_one: 'Variant',
      name_other: 'Varianten',
      fields: {
        v_carouselid: 'Carrousel',
        v_title: 'Titel',
        v_name: 'Naam',
        v_width: 'Breedte (px)',
        v_height: 'Hoogte (px)',
        v_x: 'X (px)',
        v_y: 'Y (px)',
        v_bgcolor: 'Achtergrondkleur',
        v_autoplay: 'Automatisch afspelen',
        v_default_duration_ms: 'Standaardduur per dia (ms)',
        v_infinite: 'Eindeloos herhalen',
        v_screensaver_timeout_s: 'Schermbeveiliging na (s)',
        v_navigation_enabled: 'Navigatieknoppen',
        v_next_assetid: 'Afbeelding knop volgende',
        v_next_x: 'Knop volgende X',
        v_next_y: 'Knop volgende Y',
        v_prev_assetid: 'Afbeelding knop vorige',
        v_prev_x: 'Knop vorige X',
        v_prev_y: 'Knop vorige Y',
        v_home_assetid: 'Afbeelding knop begin',
        v_home_x: 'Knop begin X',
        v_home_y: 'Knop begin Y',
      },
    },
  },
});

export const slides = defineAccountResource({
  name: 'slides',
  table: 'slides',
  prefix: 'sl',
  group: 'account_carousels',
  history: true,
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
  labels: {
    en: {
      name_one: 'Slide',
      name_other: 'Slides',
      fields: {
        sl_carouselid: 'Carousel',
        sl_title: 'Title',
        sl_subtitle: 'Subtitle',
        sl_name: 'Name',
        sl_order: 'Order',
        sl_duration_ms: 'Duration (ms)',
        sl_bgcolor: 'Background colour',
      },
    },
    nl: {
      name_one: 'Dia',
      name_other: "Dia's",
      fields: {
        sl_carouselid: 'Carrousel',
        sl_title: 'Titel',
        sl_subtitle: 'Ondertitel',
        sl_name: 'Naam',
        sl_order: 'Volgorde',
        sl_duration_ms: 'Duur (ms)',
        sl_bgcolor: 'Achtergrondkleur',
      },
    },
  },
});

export const LAYER_TYPES = ['image', 'video', 'iframe', 'hotspot', 'collectionqr'] as const;
export type LayerType = (typeof LAYER_TYPES)[number];

export const layers = defineAccountResource({
  name: 'layers',
  table: 'layers',
  prefix: 'ly',
  group: 'account_carousels',
  history: true,
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
  labels: {
    en: {
      name_one: 'Layer',
      name_other: 'Layers',
      fields: {
        ly_slideid: 'Slide',
        ly_variantid: 'Variant',
        ly_title: 'Title',
        ly_type: 'Type',
        ly_assetid: 'Asset',
        ly_order: 'Order',
        ly_x: 'X (px)',
        ly_y: 'Y (px)',
        ly_width: 'Width (px)',
        ly_height: 'Height (px)',
        ly_iframe_url: 'Web page address',
        ly_hotspot_carouselid: 'Opens carousel',
        ly_collectionid: 'Collection',
        ly_download_formid: 'Download form',
        ly_form_styleid: 'Form style',
        ly_qr_fg: 'QR colour',
        ly_qr_bg: 'QR background',
        ly_muted: 'Muted',
        ly_loop: 'Loop',
        ly_autoplay: 'Autoplay',
        ly_pausable: 'Tap to pause',
      },
      options: {
        ly_type: {
          image: 'Image',
          video: 'Video',
          iframe: 'Web page',
          hotspot: 'Hotspot',
          collectionqr: 'Collection QR code',
        },
      },
    },
    nl: {
      name_one: 'Laag',
      name_other: 'Lagen',
      fields: {
        ly_slideid: 'Dia',
        ly_variantid: 'Variant',
        ly_title: 'Titel',
        ly_type: 'Type',
        ly_assetid: 'Asset',
        ly_order: 'Volgorde',
        ly_x: 'X (px)',
        ly_y: 'Y (px)',
        ly_width: 'Breedte (px)',
        ly_height: 'Hoogte (px)',
        ly_iframe_url: 'Adres webpagina',
        ly_hotspot_carouselid: 'Opent carrousel',
        ly_collectionid: 'Collectie',
        ly_download_formid: 'Downloadformulier',
        ly_form_styleid: 'Formulierstijl',
        ly_qr_fg: 'QR-kleur',
        ly_qr_bg: 'QR-achtergrond',
        ly_muted: 'Geluid uit',
        ly_loop: 'Herhalen',
        ly_autoplay: 'Automatisch afspelen',
        ly_pausable: 'Tik om te pauzeren',
      },
      options: {
        ly_type: {
          image: 'Afbeelding',
          video: 'Video',
          iframe: 'Webpagina',
          hotspot: 'Hotspot',
          collectionqr: 'QR-code van collectie',
        },
      },
    },
  },
});

export const carouselGroups = defineAccountResource({
  name: 'carousel-groups',
  table: 'carousel_groups',
  prefix: 'cg',
  group: 'account_carousels',
  icon: 'workspaces',
  fields: {
    cg_title: { kind: 'text', required: true, list: true, sort: true },
    cg_standby_carouselid: { kind: 'reference', reference: 'carousels', list: true },
  },
  search: ['cg_title'],
  labels: {
    en: {
      name_one: 'Carousel group',
      name_other: 'Carousel groups',
      fields: { cg_title: 'Title', cg_standby_carouselid: 'Standby carousel' },
    },
    nl: {
      name_one: 'Carrouselgroep',
      name_other: 'Carrouselgroepen',
      fields: { cg_title: 'Titel', cg_standby_carouselid: 'Stand-bycarrousel' },
    },
  },
});

/** The days of a schedule, Monday first (ISO 8601), as gs_days holds them. */
export const WEEK_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];
/** A local time of day, 00:00 to 23:59. */
export const HHMM_RE = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * Dayparting (platform-and-flows.md 7): a carousel a group plays on some days between two local times (the account's
 * ls_timezone). A window whose end is not after its start crosses midnight (22:00–02:00 is from 22:00 on a listed day
 * to 02:00 the next); from = to is the whole day. The group's screen edits them (admin/src/carouselGroups/GroupSchedules).
 * gs_days is an array of WEEK_DAYS: a tags field whose values the API's schema narrows to mon…sun (api/console/carousels.ts groupSchedulesHooks).
 */
export const groupSchedules = defineAccountResource({
  name: 'group-schedules',
  table: 'group_schedules',
  prefix: 'gs',
  group: 'account_carousels',
  history: true,
  menu: false,
  fields: {
    gs_groupid: { kind: 'reference', reference: 'carousel-groups', parent: true, required: true, createOnly: true },
    gs_carouselid: { kind: 'reference', reference: 'carousels', required: true, list: true, filter: true },
    gs_days: { kind: 'tags', max: 7, default: [], list: true, formHidden: true },
    gs_from: { kind: 'text', required: true, max: 5, list: true, sort: true },
    gs_to: { kind: 'text', required: true, max: 5, list: true },
    gs_order: { kind: 'number', integer: true, min: 0, max: 1_000_000, formHidden: true },
  },
  order: { field: 'gs_order', parent: ['gs_groupid'] },
  check(r) {
    const errors: Record<string, string> = {};
    for (const f of ['gs_from', 'gs_to']) if (typeof r[f] === 'string' && !HHMM_RE.test(r[f])) errors[f] = 'error_time_invalid';
    return errors;
  },
  labels: {
    en: {
      name_one: 'Schedule',
      name_other: 'Schedules',
      fields: { gs_groupid: 'Carousel group', gs_carouselid: 'Carousel', gs_days: 'Days', gs_from: 'From', gs_to: 'To', gs_order: 'Order' },
    },
    nl: {
      name_one: 'Planning',
      name_other: 'Planningen',
      fields: { gs_groupid: 'Carrouselgroep', gs_carouselid: 'Carrousel', gs_days: 'Dagen', gs_from: 'Van', gs_to: 'Tot', gs_order: 'Volgorde' },
    },
  },
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
  icon: 'qr_code',
  fields: {
    cc_groupid: { kind: 'reference', reference: 'carousel-groups', required: true, list: true, filter: true },
    cc_title: { kind: 'text', list: true, sort: true },
    cc_code: { kind: 'text', required: true, readOnly: true, list: true, sort: true },
    // What the player last reported (POST /play/{code}/status, platform-and-flows.md 7): kept by the server.
    cc_last_seen_at: { kind: 'datetime', readOnly: true, list: true, sort: true, formHidden: true },
    cc_player_version: { kind: 'text', readOnly: true, formHidden: true },
    cc_screen: { kind: 'text', readOnly: true, formHidden: true },
    cc_last_error: { kind: 'text', readOnly: true, formHidden: true },
  },
  search: ['cc_title', 'cc_code'],
  title: 'cc_code',
  labels: {
    en: {
      name_one: 'Code',
      name_other: 'Codes',
      fields: {
        cc_groupid: 'Carousel group',
        cc_title: 'Title',
        cc_code: 'Code',
        cc_last_seen_at: 'Status',
        cc_player_version: 'Player version',
        cc_screen: 'Screen',
        cc_last_error: 'Last error',
      },
    },
    nl: {
      name_one: 'Code',
      name_other: 'Codes',
      fields: {
        cc_groupid: 'Carrouselgroep',
        cc_title: 'Titel',
        cc_code: 'Code',
        cc_last_seen_at: 'Status',
        cc_player_version: 'Spelerversie',
        cc_screen: 'Scherm',
        cc_last_error: 'Laatste fout',
      },
    },
  },
});

/** What a player reports (POST /play/{code}/events). */
export const PLAY_EVENT_KINDS = ['play', 'hotspot', 'qr'] as const;
