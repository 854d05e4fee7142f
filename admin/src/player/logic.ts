import type { Carousel, Manifest, Slide, Variant } from './types';

/**
 * The player's decisions that need no DOM: which variant fits the screen, where the canvas sits, how long a slide
 * shows, and which slide comes next. Unit-tested in test/unit/playerLogic.test.ts.
 */

export interface Size {
  width: number;
  height: number;
}

/**
 * The variant that fits a screen best: the one named by `wanted` (?variant=) when the carousel has it; else the closest
 * aspect ratio (a 16:9 layout on a 16:9 screen, a portrait one on a portrait totem), then among equal shapes the
 * closest size (a 4K layout on a 4K screen, a Full HD one on Full HD). Distances are ratios on a log scale, so twice too
 * wide is as far as half as wide. Undefined only for a carousel without variants.
 */
export function chooseVariant(variants: Variant[], screen: Size, wanted?: string | null): Variant | undefined {
  if (wanted) {
    const named = variants.find((v) => v.v_name === wanted);
    if (named) return named;
  }
  const aspect = screen.width / Math.max(1, screen.height);
  const area = screen.width * screen.height;
  let best: Variant | undefined;
  let bestScore = Infinity;
  for (const v of variants) {
    const shape = Math.abs(Math.log(v.v_width / v.v_height / aspect));
    const size = Math.abs(Math.log((v.v_width * v.v_height) / Math.max(1, area)));
    // Shape first: a size difference matters only between layouts of (nearly) the same shape.
    const score = shape * 100 + size;
    if (score < bestScore - 1e-9) {
      best = v;
      bestScore = score;
    }
  }
  return best;
}

/** Where the variant's canvas goes in the window: scaled to fit whole, centred, the rest letterboxed. */
export function fitCanvas(canvas: Size, screen: Size): { scale: number; left: number; top: number } {
  const scale = Math.min(screen.width / canvas.width, screen.height / canvas.height);
  return { scale, left: (screen.width - canvas.width * scale) / 2, top: (screen.height - canvas.height * scale) / 2 };
}

/**
 * How long a slide shows: its own duration; without one, the length of a video that plays once from the start (when
 * the browser knows it), else the variant's default.
 */
export function slideDuration(slide: Pick<Slide, 'sl_duration_ms'>, variant: Pick<Variant, 'v_default_duration_ms'>, videoMs?: number | null): number {
  if (slide.sl_duration_ms && slide.sl_duration_ms > 0) return slide.sl_duration_ms;
  if (videoMs && Number.isFinite(videoMs) && videoMs > 0) return Math.ceil(videoMs);
  return variant.v_default_duration_ms > 0 ? variant.v_default_duration_ms : 8000;
}

/**
 * What is playing: the group's carousels one after another, the standby carousel (after the screensaver timeout), or
 * a carousel a hotspot opened.
 */
export type Mode = 'group' | 'standby' | 'hotspot';

export interface Position {
  mode: Mode;
  carouselId: string;
  index: number;
}

/** The carousels a mode steps through: the group's in order (those with slides), or the one carousel playing. */
export function sequenceOf(manifest: Manifest, pos: Pick<Position, 'mode' | 'carouselId'>): string[] {
  const playable = (id: string) => (manifest.carousels[id]?.slides.length ?? 0) > 0;
  if (pos.mode === 'group') return manifest.carousel_ids.filter(playable);
  return playable(pos.carouselId) ? [pos.carouselId] : [];
}

/** The first slide of the group (home), or undefined when the group has nothing to play. */
export function homePosition(manifest: Manifest): Position | undefined {
  const first = sequenceOf(manifest, { mode: 'group', carouselId: '' })[0];
  return first ? { mode: 'group', carouselId: first, index: 0 } : undefined;
}

/** The first slide of the standby carousel, when the group has one with slides. */
export function standbyPosition(manifest: Manifest): Position | undefined {
  const id = manifest.standby_carouselid;
  return id && (manifest.carousels[id]?.slides.length ?? 0) > 0 ? { mode: 'standby', carouselId: id, index: 0 } : undefined;
}

/**
 * The slide after (step 1) or before (step -1) a position, or undefined to stay (the end of a carousel that does not
 * loop). Within the group, the last slide of a carousel leads to the next carousel; after the group's last carousel it
 * goes back to the first when that last carousel's variant is infinite, else it stops there. The standby carousel and a
 * carousel opened by a hotspot loop on themselves when infinite. Backwards mirrors it.
 */
export function step(manifest: Manifest, pos: Position, dir: 1 | -1, variantOf: (c: Carousel) => Variant | undefined): Position | undefined {
  const carousel = manifest.carousels[pos.carouselId];
  if (!carousel || !carousel.slides.length) return undefined;
  const index = pos.index + dir;
  if (index >= 0 && index < carousel.slides.length) return { ...pos, index };
  const sequence = sequenceOf(manifest, pos);
  const at = sequence.indexOf(pos.carouselId);
  const infinite = variantOf(carousel)?.v_infinite ?? true;
  let nextAt = at + dir;
  if (nextAt < 0 || nextAt >= sequence.length) {
    if (!infinite) return undefined;
    nextAt = (nextAt + sequence.length) % sequence.length;
  }
  const nextId = sequence[nextAt];
  const next = manifest.carousels[nextId];
  if (!next) return undefined;
  return { mode: pos.mode, carouselId: nextId, index: dir === 1 ? 0 : next.slides.length - 1 };
}

/**
 * The same place in a newer manifest: the slide with the same id in the same carousel, else the carousel's first slide,
 * else home. Used when a new manifest takes over at a slide boundary.
 */
export function relocate(manifest: Manifest, pos: Position, slideId: string | undefined): Position | undefined {
  const carousel = manifest.carousels[pos.carouselId];
  const inPlay = carousel && carousel.slides.length && (pos.mode !== 'group' || manifest.carousel_ids.includes(pos.carouselId));
  if (inPlay) {
    const index = carousel.slides.findIndex((s) => s.sl_id === slideId);
    return { ...pos, index: index >= 0 ? index : 0 };
  }
  if (pos.mode === 'standby') return standbyPosition(manifest) ?? homePosition(manifest);
  return homePosition(manifest);
}

/** The slide a preview shows: the one named, else the first. */
export function previewPosition(manifest: Manifest, slideId: string | null): Position | undefined {
  const carouselId = manifest.carousel_ids[0];
  const carousel = carouselId ? manifest.carousels[carouselId] : undefined;
  if (!carousel || !carousel.slides.length) return undefined;
  const index = slideId ? carousel.slides.findIndex((s) => s.sl_id === slideId) : 0;
  return { mode: 'group', carouselId, index: Math.max(0, index) };
}

/** Every asset id a variant's slides and buttons show, in the order they play (for preloading and offline caching). */
export function assetIdsOf(manifest: Manifest): string[] {
  const out = new Set<string>();
  for (const c of Object.values(manifest.carousels)) {
    for (const v of c.variants) for (const b of ['next', 'prev', 'home'] as const) if (v[`v_${b}_assetid`]) out.add(v[`v_${b}_assetid`]!);
    for (const s of c.slides) for (const list of Object.values(s.layers)) for (const l of list) if (l.ly_assetid) out.add(l.ly_assetid);
  }
  return [...out].filter((id) => manifest.assets[id]);
}

/** The URL a collection QR code carries: the collection page, with the layer so the page finds its download form. */
export function collectionQrUrl(origin: string, collectionUrl: string, layerId: string): string {
  const url = new URL(collectionUrl, origin);
  url.searchParams.set('l', layerId);
  return url.href;
}

/** A media URL from the local media server (media:sync serves <local>/<as_id>?v=<as_version>), or the origin's. */
export function mediaUrl(asset: { as_id: string; as_version: number; url: string }, localBase: string | null): string {
  if (!localBase) return asset.url;
  return `${localBase.replace(/\/+$/, '')}/${encodeURIComponent(asset.as_id)}?v=${asset.as_version}`;
}

/** A colour of the manifest (#rrggbb, checked by the API) or the fallback. */
export function colour(value: string | null | undefined, fallback: string): string {
  return value && /^#[0-9a-fA-F]{6}$/.test(value) ? value : fallback;
}
