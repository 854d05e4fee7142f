/**
 * The player's manifest as GET /api/1/play/{code} answers it (api/services/player.ts), and the preview manifest of one
 * carousel (GET /api/1/accounts/{a}/carousels/{id}/manifest: the same shape, `code` and `group` null, `preview` true).
 */
export interface Asset {
  as_id: string;
  as_name: string;
  as_title: string;
  as_type: string;
  as_size: number;
  as_sha256: string;
  as_version: number;
  /** Same-origin, carrying the version: /storage/assets/…/<fileId>?v=<as_version> (never serves two contents). */
  url: string;
  thumbnail_url: string | null;
  kind: 'image' | 'video' | 'audio' | 'pdf' | 'font' | 'other';
}

export type LayerType = 'image' | 'video' | 'iframe' | 'hotspot' | 'collectionqr';

export interface Layer {
  ly_id: string;
  ly_title: string | null;
  ly_type: LayerType;
  ly_assetid: string | null;
  ly_x: number;
  ly_y: number;
  ly_width: number | null;
  ly_height: number | null;
  ly_iframe_url: string | null;
  ly_collectionid: string | null;
  ly_download_formid: string | null;
  ly_form_styleid: string | null;
  ly_qr_fg: string | null;
  ly_qr_bg: string | null;
  ly_hotspot_carouselid: string | null;
  ly_muted: boolean;
  ly_loop: boolean;
  ly_autoplay: boolean;
  ly_pausable: boolean;
}

export interface Slide {
  sl_id: string;
  sl_name: string | null;
  sl_title: string;
  sl_subtitle: string | null;
  sl_order: number;
  sl_duration_ms: number | null;
  sl_bgcolor: string | null;
  /** Per variant id, in z-order. */
  layers: Record<string, Layer[]>;
}

export type NavButton = 'next' | 'prev' | 'home';

export interface Variant {
  v_id: string;
  v_name: string;
  v_title: string;
  v_x: number;
  v_y: number;
  v_width: number;
  v_height: number;
  v_bgcolor: string | null;
  v_autoplay: boolean;
  v_default_duration_ms: number;
  v_infinite: boolean;
  v_screensaver_timeout_s: number | null;
  v_navigation_enabled: boolean;
  v_next_assetid: string | null;
  v_next_x: number | null;
  v_next_y: number | null;
  v_prev_assetid: string | null;
  v_prev_x: number | null;
  v_prev_y: number | null;
  v_home_assetid: string | null;
  v_home_x: number | null;
  v_home_y: number | null;
}

export interface Carousel {
  c_id: string;
  c_name: string;
  c_title: string;
  variants: Variant[];
  slides: Slide[];
}

export interface Manifest {
  code: string | null;
  code_title: string | null;
  account_id: string;
  group: { cg_id: string; cg_title: string } | null;
  preview?: boolean;
  carousel_ids: string[];
  standby_carouselid: string | null;
  carousels: Record<string, Carousel>;
  assets: Record<string, Asset>;
  collections: Record<string, { co_id: string; co_title: string; url: string }>;
  local_server_url: string | null;
  /** Dayparting (platform-and-flows.md 7): the account's IANA zone and every window of the group (absent in a preview). */
  timezone?: string;
  schedules?: Schedule[];
}

/** A carousel the group plays on `days` from `from` to `to` (HH:MM local; to <= from crosses midnight, equal: all day). */
export interface Schedule {
  carousel_id: string;
  days: string[];
  from: string;
  to: string;
  order: number;
}

/** What the player reports (POST /api/1/play/{code}/events). */
export type PlayEventKind = 'play' | 'hotspot' | 'qr';
export interface PlayEvent {
  id: string;
  kind: PlayEventKind;
  at: string;
  carousel_id: string | null;
  slide_id: string | null;
}
