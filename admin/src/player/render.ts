import { collectionQrUrl, colour } from './logic';
import { qrSvg } from './qr';
import type { Layer, Manifest, NavButton, Slide, Variant } from './types';

/**
 * A slide as DOM: a full-window sheet in the variant's background colour holding the variant's canvas (its own size
 * in pixels, scaled to fit by a transform) with the slide's layers at their positions and the navigation buttons on
 * top. Built before it shows: images are decoded (img.decode()) and videos buffered, so the transition only fades a
 * finished picture in (opacity on its own compositor layer; see player.css).
 */

export interface RenderContext {
  manifest: Manifest;
  /** The URL to show an asset from (the local media server's or the origin's); undefined for a missing asset. */
  assetUrl(assetId: string): string | undefined;
  /** The origin's URL of an asset, tried when the first one fails (the local server lost a file, say). */
  originUrl(assetId: string): string | undefined;
  origin: string;
  preview: boolean;
  onHotspot(layer: Layer): void;
  onNav(button: NavButton): void;
}

export interface BuiltSlide {
  el: HTMLElement;
  canvas: HTMLElement;
  slide: Slide;
  variant: Variant;
  /** Settles when every image is decoded and every video can play (or has failed: a slide never waits forever). */
  ready: Promise<void>;
  qrLayers: Layer[];
  /** The length of the slide's video that plays once from the start, when known. */
  videoMs(): number | null;
  /** The slide is showing: videos with autoplay start from the beginning. */
  start(): void;
  destroy(): void;
}

const READY_TIMEOUT_MS = 8000;

function withTimeout(p: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    p.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      () => {
        clearTimeout(timer);
        resolve();
      },
    );
  });
}

function box(layer: Layer, variant: Variant, natural: boolean): HTMLElement {
  const el = document.createElement('div');
  el.className = `layer layer-${layer.ly_type}`;
  el.dataset.layer = layer.ly_id;
  el.style.left = `${layer.ly_x}px`;
  el.style.top = `${layer.ly_y}px`;
  // Media without a size take their own; other layers without one reach to the canvas's edge.
  const width = layer.ly_width ?? (natural ? null : Math.max(1, variant.v_width - layer.ly_x));
  const height = layer.ly_height ?? (natural ? null : Math.max(1, variant.v_height - layer.ly_y));
  if (width !== null) el.style.width = `${width}px`;
  if (height !== null) el.style.height = `${height}px`;
  if (natural && (layer.ly_width === null || layer.ly_height === null)) el.classList.add('natural');
  return el;
}

/** An image, decoded before it shows; falls back to the origin's copy when the first URL fails. */
function image(url: string, fallback: string | undefined, alt: string): { el: HTMLImageElement; ready: Promise<void> } {
  const img = new Image();
  img.decoding = 'async';
  img.draggable = false;
  img.alt = alt;
  img.src = url;
  const ready = img.decode().catch(async () => {
    if (!fallback || fallback === url) return;
    img.src = fallback;
    await img.decode().catch(() => undefined);
  });
  return { el: img, ready };
}

/** A video, buffered enough to play before it shows (HAVE_FUTURE_DATA), following the layer's flags. */
function video(layer: Layer, url: string, fallback: string | undefined, poster: string | null, preview: boolean) {
  const el = document.createElement('video');
  el.playsInline = true;
  el.preload = 'auto';
  el.muted = layer.ly_muted;
  el.defaultMuted = layer.ly_muted;
  el.loop = layer.ly_loop;
  el.disablePictureInPicture = true;
  el.disableRemotePlayback = true;
  if (poster) el.poster = poster;
  el.src = url;
  let failedOver = false;
  const ready = new Promise<void>((resolve) => {
    const done = () => {
      el.removeEventListener('canplay', done);
      el.removeEventListener('error', failed);
      resolve();
    };
    const failed = () => {
      if (!failedOver && fallback && fallback !== url) {
        failedOver = true;
        el.src = fallback;
        el.load();
        return;
      }
      done();
    };
    if (el.readyState >= 3) resolve();
    el.addEventListener('canplay', done);
    el.addEventListener('error', failed);
  });
  el.load();
  // A pausable video pauses and resumes on a tap; one without autoplay starts on a tap.
  if (!preview && (layer.ly_pausable || !layer.ly_autoplay)) {
    el.addEventListener('click', () => {
      if (el.paused) void play(el);
      else if (layer.ly_pausable) el.pause();
    });
  }
  return { el, ready };
}

/**
 * Plays a video; where the browser refuses sound without a user gesture (a kiosk without
 * --autoplay-policy=no-user-gesture-required), it plays muted rather than not at all.
 */
async function play(el: HTMLVideoElement): Promise<void> {
  try {
    await el.play();
  } catch (e) {
    if ((e as DOMException)?.name === 'NotAllowedError' && !el.muted) {
      el.muted = true;
      await el.play().catch(() => undefined);
    }
  }
}

/**
 * An iframe layer, sandboxed: scripts run (most embeds need them) but it can never navigate the player away
 * (no allow-top-navigation), open windows over the totem (no allow-popups) or take the screen (no fullscreen).
 * allow-same-origin only for another site's page, where it gives the page its own cookies and storage (many embeds
 * break without them) and no power over the player; a page of the player's own origin runs with an opaque origin
 * instead, since scripts plus same-origin would let it lift its own sandbox and reach the player's storage.
 */
export function iframeSandbox(src: string, playerOrigin: string): string {
  let sameOrigin: boolean;
  try {
    sameOrigin = new URL(src, playerOrigin).origin === playerOrigin;
  } catch {
    sameOrigin = true;
  }
  return sameOrigin ? 'allow-scripts allow-forms' : 'allow-scripts allow-forms allow-same-origin';
}

function iframe(layer: Layer, origin: string): HTMLIFrameElement | null {
  const src = layer.ly_iframe_url;
  if (!src || !/^https?:\/\//i.test(src)) return null;
  const el = document.createElement('iframe');
  el.setAttribute('sandbox', iframeSandbox(src, origin));
  el.setAttribute('allow', 'autoplay');
  el.referrerPolicy = 'strict-origin-when-cross-origin';
  el.title = layer.ly_title ?? '';
  el.src = src;
  return el;
}

function navButtons(ctx: RenderContext, variant: Variant): { els: HTMLElement[]; ready: Promise<void>[] } {
  const els: HTMLElement[] = [];
  const ready: Promise<void>[] = [];
  if (!variant.v_navigation_enabled) return { els, ready };
  for (const b of ['prev', 'home', 'next'] as const) {
    const assetId = variant[`v_${b}_assetid`];
    const url = assetId ? ctx.assetUrl(assetId) : undefined;
    if (!assetId || !url) continue;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = `nav nav-${b}`;
    button.dataset.nav = b;
    button.setAttribute('aria-label', b);
    button.style.left = `${variant[`v_${b}_x`] ?? 0}px`;
    button.style.top = `${variant[`v_${b}_y`] ?? 0}px`;
    const img = image(url, ctx.originUrl(assetId), '');
    button.append(img.el);
    button.addEventListener('click', (e) => {
      e.stopPropagation();
      if (!ctx.preview) ctx.onNav(b);
    });
    els.push(button);
    ready.push(img.ready);
  }
  return { els, ready };
}

export function buildSlide(ctx: RenderContext, carouselId: string, slide: Slide, variant: Variant): BuiltSlide {
  const el = document.createElement('div');
  el.className = 'slide';
  el.dataset.carousel = carouselId;
  el.dataset.slide = slide.sl_id;
  el.style.backgroundColor = colour(variant.v_bgcolor, '#000000');
  const canvas = document.createElement('div');
  canvas.className = 'canvas';
  canvas.style.width = `${variant.v_width}px`;
  canvas.style.height = `${variant.v_height}px`;
  canvas.style.backgroundColor = colour(slide.sl_bgcolor, colour(variant.v_bgcolor, '#000000'));
  el.append(canvas);

  const waits: Promise<unknown>[] = [];
  const videos: { el: HTMLVideoElement; layer: Layer }[] = [];
  const qrLayers: Layer[] = [];
  for (const layer of slide.layers[variant.v_id] ?? []) {
    const asset = layer.ly_assetid ? ctx.manifest.assets[layer.ly_assetid] : undefined;
    if (layer.ly_type === 'image' && asset) {
      const url = ctx.assetUrl(asset.as_id)!;
      const wrap = box(layer, variant, true);
      const img = image(url, ctx.originUrl(asset.as_id), layer.ly_title ?? asset.as_title);
      wrap.append(img.el);
      waits.push(img.ready);
      canvas.append(wrap);
    } else if (layer.ly_type === 'video' && asset) {
      const wrap = box(layer, variant, true);
      const v = video(layer, ctx.assetUrl(asset.as_id)!, ctx.originUrl(asset.as_id), asset.thumbnail_url, ctx.preview);
      wrap.append(v.el);
      videos.push({ el: v.el, layer });
      waits.push(v.ready);
      canvas.append(wrap);
    } else if (layer.ly_type === 'iframe') {
      const frame = iframe(layer, ctx.origin);
      if (!frame) continue;
      const wrap = box(layer, variant, false);
      wrap.append(frame);
      canvas.append(wrap);
    } else if (layer.ly_type === 'hotspot' && layer.ly_hotspot_carouselid) {
      const wrap = box(layer, variant, false);
      wrap.setAttribute('role', 'button');
      wrap.setAttribute('aria-label', layer.ly_title ?? 'hotspot');
      wrap.dataset.hotspot = layer.ly_hotspot_carouselid;
      wrap.addEventListener('click', (e) => {
        e.stopPropagation();
        if (!ctx.preview) ctx.onHotspot(layer);
      });
      canvas.append(wrap);
    } else if (layer.ly_type === 'collectionqr' && layer.ly_collectionid) {
      const collection = ctx.manifest.collections[layer.ly_collectionid];
      if (!collection) continue;
      const wrap = box(layer, variant, false);
      const text = collectionQrUrl(ctx.origin, collection.url, layer.ly_id);
      wrap.dataset.qr = text;
      wrap.style.backgroundColor = colour(layer.ly_qr_bg, '#ffffff');
      wrap.append(qrSvg(text, colour(layer.ly_qr_fg, '#000000'), colour(layer.ly_qr_bg, '#ffffff')));
      canvas.append(wrap);
      qrLayers.push(layer);
    }
  }
  const nav = navButtons(ctx, variant);
  canvas.append(...nav.els);
  waits.push(...nav.ready);

  return {
    el,
    canvas,
    slide,
    variant,
    qrLayers,
    ready: withTimeout(Promise.all(waits), READY_TIMEOUT_MS),
    videoMs() {
      const once = videos.find((v) => v.layer.ly_autoplay && !v.layer.ly_loop);
      const seconds = once?.el.duration;
      return seconds && Number.isFinite(seconds) ? seconds * 1000 : null;
    },
    start() {
      if (ctx.preview) return;
      for (const v of videos) {
        if (!v.layer.ly_autoplay) continue;
        if (v.el.currentTime > 0) v.el.currentTime = 0;
        void play(v.el);
      }
    },
    destroy() {
      for (const v of videos) {
        v.el.pause();
        v.el.removeAttribute('src');
        v.el.load();
      }
      el.remove();
    },
  };
}
