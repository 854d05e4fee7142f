import type { Carousel, Manifest, Schedule, Slide, Variant } from './types';

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

const WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const WEEKDAY_INDEX: Record<string, number> = { Mon: 0, Tue: 1, Wed: 2, Thu: 3, Fri: 4, Sat: 5, Sun: 6 };
const clockFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The wall clock in a time zone at an instant: the day of the week (0 = Monday) and the minutes since midnight. Intl
 * knows the zone's rules, so a DST change day has 23 or 25 hours and a window follows the local clock across it. An
 * unknown zone falls back to Europe/Amsterdam (the setting's default).
 */
export function localClock(now: Date, timeZone: string | undefined): { day: number; minutes: number } {
  const zone = timeZone || 'Europe/Amsterdam';
  let f = clockFormats.get(zone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    } catch {
      return localClock(now, 'Europe/Amsterdam');
    }
    clockFormats.set(zone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(now).map((p) => [p.type, p.value]));
  return { day: WEEKDAY_INDEX[parts.weekday] ?? 0, minutes: (Number(parts.hour) % 24) * 60 + Number(parts.minute) };
}

const minutesOf = (hhmm: string) => {
  const m = /^(\d\d):(\d\d)$/.exec(hhmm);
  return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
};

/**
 * Whether a window is open at a local time: from ≤ now < to on a listed day; a window whose end is not after its start
 * crosses midnight (open from `from` on a listed day until `to` the next day); from = to is the whole listed day.
 */
export function windowOpen(s: Pick<Schedule, 'days' | 'from' | 'to'>, clock: { day: number; minutes: number }): boolean {
  const from = minutesOf(s.from);
  const to = minutesOf(s.to);
  if (Number.isNaN(from) || Number.isNaN(to)) return false;
  const on = (day: number) => s.days.includes(WEEK[(day + 7) % 7]);
  if (from === to) return on(clock.day);
  if (from < to) return on(clock.day) && clock.minutes >= from && clock.minutes < to;
  return (on(clock.day) && clock.minutes >= from) || (on(clock.day - 1) && clock.minutes < to);
}

const playableIn = (manifest: Manifest) => (id: string) => (manifest.carousels[id]?.slides.length ?? 0) > 0;

/**
 * What the group plays at an instant: the carousels whose window is open (by their order, those with slides), else
 * the group's plain list. Empty: nothing (the player falls back to standby).
 */
export function groupSequence(manifest: Manifest, now: Date = new Date()): string[] {
  const playable = playableIn(manifest);
  const schedules = manifest.schedules ?? [];
  if (schedules.length) {
    const clock = localClock(now, manifest.timezone);
    const open = [...schedules]
      .sort((a, b) => a.order - b.order)
      .filter((s) => windowOpen(s, clock))
      .map((s) => s.carousel_id)
      .filter(playable);
    if (open.length) return [...new Set(open)];
  }
  return manifest.carousel_ids.filter(playable);
}

/** The carousels a mode steps through: the group's at this instant (groupSequence), or the one carousel playing. */
export function sequenceOf(manifest: Manifest, pos: Pick<Position, 'mode' | 'carouselId'>, now: Date = new Date()): string[] {
  if (pos.mode === 'group') return groupSequence(manifest, now);
  return playableIn(manifest)(pos.carouselId) ? [pos.carouselId] : [];
}

/**
 * Home: the first slide of what the group plays now (its open windows, else its list), else the standby carousel, else
 * undefined (nothing to play).
 */
export function homePosition(manifest: Manifest, now: Date = new Date()): Position | undefined {
  const first = groupSequence(manifest, now)[0];
  return first ? { mode: 'group', carouselId: first, index: 0 } : standbyPosition(manifest);
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
export function step(manifest: Manifest, pos: Position, dir: 1 | -1, variantOf: (c: Carousel) => Variant | undefined, now: Date = new Date()): Position | undefined {
  const carousel = manifest.carousels[pos.carouselId];
  if (!carousel || !carousel.slides.length) return undefined;
  const index = pos.index + dir;
  if (index >= 0 && index < carousel.slides.length) return { ...pos, index };
  const sequence = sequenceOf(manifest, pos, now);
  // A carousel whose window closed (or one the standby fallback plays): the group's current sequence from its start.
  if (!sequence.length) return pos.mode === 'group' && standbyPosition(manifest) ? { ...standbyPosition(manifest)!, index: 0 } : undefined;
  const at = sequence.indexOf(pos.carouselId);
  if (at < 0) return { mode: pos.mode, carouselId: sequence[0], index: 0 };
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
export function relocate(manifest: Manifest, pos: Position, slideId: string | undefined, now: Date = new Date()): Position | undefined {
  const carousel = manifest.carousels[pos.carouselId];
  const inPlay = carousel && carousel.slides.length && (pos.mode !== 'group' || groupSequence(manifest, now).includes(pos.carouselId));
  if (inPlay) {
    const index = carousel.slides.findIndex((s) => s.sl_id === slideId);
    return { ...pos, index: index >= 0 ? index : 0 };
  }
  if (pos.mode === 'standby') return standbyPosition(manifest) ?? homePosition(manifest, now);
  return homePosition(manifest, now);
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
