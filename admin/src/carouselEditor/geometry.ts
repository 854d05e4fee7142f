/**
 * The carousel editor's geometry, in canvas pixels (the variant's own size), without React: fitting the canvas into
 * the room on screen, moving with snapping to the canvas' and other layers' edges and centres, resizing by one of
 * eight handles, and nudging by keyboard. Unit-tested in test/unit/carouselGeometry.test.ts.
 */
import { CANVAS_MAX } from '../../../resources/carousels';

export interface Size {
  width: number;
  height: number;
}

export interface Rect extends Size {
  x: number;
  y: number;
}

/** The eight resize handles, clockwise from the top left corner. */
export const HANDLES = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'] as const;
export type Handle = (typeof HANDLES)[number];

/** A line the canvas shows while something snaps to it: vertical at x = pos, or horizontal at y = pos. */
export interface Guide {
  axis: 'x' | 'y';
  pos: number;
}

/** The positions a moving or resized layer may snap to, per axis. */
export interface SnapTargets {
  x: number[];
  y: number[];
}

/** The smallest layer side the editor makes (a 1 px layer cannot be grabbed again). */
export const MIN_SIDE = 8;

/**
 * The scale at which a canvas fits the room (both sides), never above `max`: a 1920 × 1080 variant in 640 × 480
 * is drawn at 1/3.
 */
export function fitScale(canvas: Size, room: Size, max = 2): number {
  if (canvas.width <= 0 || canvas.height <= 0 || room.width <= 0 || room.height <= 0) return 1;
  return Math.min(room.width / canvas.width, room.height / canvas.height, max);
}

/** Screen pixels to canvas pixels at a scale (a pointer's movement). */
export const toCanvas = (screenPx: number, scale: number): number => (scale > 0 ? screenPx / scale : screenPx);

// (+ 0 turns a -0 from rounding into 0)
const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v)) + 0;

/** Whole pixels within what the API stores (positions ±CANVAS_MAX, sides 1…CANVAS_MAX). */
export function normalizeRect(r: Rect): Rect {
  return {
    x: clamp(Math.round(r.x), -CANVAS_MAX, CANVAS_MAX),
    y: clamp(Math.round(r.y), -CANVAS_MAX, CANVAS_MAX),
    width: clamp(Math.round(r.width), 1, CANVAS_MAX),
    height: clamp(Math.round(r.height), 1, CANVAS_MAX),
  };
}

/** The canvas' edges and centre lines, and each other layer's, to snap to. */
export function snapTargets(canvas: Size, others: readonly Rect[]): SnapTargets {
  const x = [0, canvas.width / 2, canvas.width];
  const y = [0, canvas.height / 2, canvas.height];
  for (const o of others) {
    x.push(o.x, o.x + o.width / 2, o.x + o.width);
    y.push(o.y, o.y + o.height / 2, o.y + o.height);
  }
  return { x, y };
}

/**
 * The shift that brings one of `points` onto one of `targets` when the two are within `threshold`, the nearest pair
 * winning (0 when none is that close), and every target that lines up after that shift (the guides to draw).
 */
export function nearestSnap(points: readonly number[], targets: readonly number[], threshold: number): { shift: number; at: number[] } {
  let best: number | undefined;
  for (const p of points) {
    for (const t of targets) {
      const d = t - p;
      if (Math.abs(d) <= threshold && (best === undefined || Math.abs(d) < Math.abs(best))) best = d;
    }
  }
  if (best === undefined) return { shift: 0, at: [] };
  const shift = best;
  const at = [...new Set(targets.filter((t) => points.some((p) => Math.abs(p + shift - t) < 0.5)))];
  return { shift, at };
}

const guides = (axis: 'x' | 'y', at: number[]): Guide[] => at.map((pos) => ({ axis, pos }));

/**
 * A moved layer snapped: its left edge, centre or right edge onto the nearest target within `threshold` (canvas
 * pixels), and its top, middle or bottom likewise; answers the snapped rectangle and the guides to show.
 */
export function snapMove(rect: Rect, targets: SnapTargets, threshold: number): { rect: Rect; guides: Guide[] } {
  const sx = nearestSnap([rect.x, rect.x + rect.width / 2, rect.x + rect.width], targets.x, threshold);
  const sy = nearestSnap([rect.y, rect.y + rect.height / 2, rect.y + rect.height], targets.y, threshold);
  return { rect: { ...rect, x: rect.x + sx.shift, y: rect.y + sy.shift }, guides: [...guides('x', sx.at), ...guides('y', sy.at)] };
}

/** The layer moved by (dx, dy) canvas pixels from where the drag started, snapped unless `snap` is off. */
export function moveRect(start: Rect, dx: number, dy: number, targets: SnapTargets | null, threshold: number): { rect: Rect; guides: Guide[] } {
  const moved = { ...start, x: start.x + dx, y: start.y + dy };
  const snapped = targets ? snapMove(moved, targets, threshold) : { rect: moved, guides: [] };
  return { rect: normalizeRect(snapped.rect), guides: snapped.guides };
}

/**
 * The layer resized by dragging `handle` (dx, dy) canvas pixels from where it started: the handle's edges follow the
 * pointer, the opposite ones stay; a side never gets below `min` (the handle stops rather than flipping). With
 * `keepAspect` a corner keeps the start's proportions (the larger change wins); with `targets` the moving edges snap.
 */
export function resizeRect(
  start: Rect,
  handle: Handle,
  dx: number,
  dy: number,
  options: { min?: number; keepAspect?: boolean; targets?: SnapTargets | null; threshold?: number } = {},
): { rect: Rect; guides: Guide[] } {
  const min = options.min ?? MIN_SIDE;
  const west = handle.includes('w');
  const east = handle.includes('e');
  const north = handle.includes('n');
  const south = handle.includes('s');
  let left = start.x;
  let top = start.y;
  let right = start.x + start.width;
  let bottom = start.y + start.height;
  if (west) left += dx;
  if (east) right += dx;
  if (north) top += dy;
  if (south) bottom += dy;

  const out: Guide[] = [];
  const corner = (west || east) && (north || south);
  if (options.keepAspect && corner && start.width > 0 && start.height > 0) {
    // one factor for both sides: that of the side that changed more, never making a side smaller than `min`
    const fw = (right - left) / start.width;
    const fh = (bottom - top) / start.height;
    const f = Math.max(Math.abs(fw - 1) >= Math.abs(fh - 1) ? fw : fh, min / start.width, min / start.height);
    const width = start.width * f;
    const height = start.height * f;
    left = west ? start.x + start.width - width : start.x;
    top = north ? start.y + start.height - height : start.y;
    return { rect: normalizeRect({ x: left, y: top, width, height }), guides: [] };
  }

  if (options.targets) {
    const threshold = options.threshold ?? 0;
    if (west || east) {
      const s = nearestSnap([west ? left : right], options.targets.x, threshold);
      if (west) left += s.shift;
      else right += s.shift;
      out.push(...guides('x', s.at));
    }
    if (north || south) {
      const s = nearestSnap([north ? top : bottom], options.targets.y, threshold);
      if (north) top += s.shift;
      else bottom += s.shift;
      out.push(...guides('y', s.at));
    }
  }
  // never below the minimum: the moving edge stops at the fixed one's distance
  if (right - left < min) {
    if (west) left = right - min;
    else right = left + min;
  }
  if (bottom - top < min) {
    if (north) top = bottom - min;
    else bottom = top + min;
  }
  return {
    rect: normalizeRect({ x: left, y: top, width: right - left, height: bottom - top }),
    guides: out.filter((g) => (g.axis === 'x' ? g.pos === left || g.pos === right : g.pos === top || g.pos === bottom)),
  };
}

/** The arrow keys' step: 1 px, 10 px with Shift. */
export const NUDGE = 1;
export const NUDGE_SHIFT = 10;

/** The layer moved by an arrow key (1 px, with Shift 10 px); another key leaves it as it is (answers null). */
export function nudgeRect(rect: Rect, key: string, shift: boolean): Rect | null {
  const step = shift ? NUDGE_SHIFT : NUDGE;
  const d: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
  const move = d[key];
  if (!move) return null;
  return normalizeRect({ ...rect, x: rect.x + move[0], y: rect.y + move[1] });
}

/** A new layer's place: centred on the canvas, `fraction` of its width, at `aspect` (width / height) when known. */
export function centredRect(canvas: Size, aspect?: number, fraction = 0.4): Rect {
  let width = canvas.width * fraction;
  let height = aspect && aspect > 0 ? width / aspect : canvas.height * fraction;
  if (height > canvas.height * 0.9) {
    height = canvas.height * 0.9;
    width = aspect && aspect > 0 ? height * aspect : width;
  }
  return normalizeRect({ x: (canvas.width - width) / 2, y: (canvas.height - height) / 2, width: Math.max(MIN_SIDE, width), height: Math.max(MIN_SIDE, height) });
}

/** Which cursor a handle shows. */
export const HANDLE_CURSOR: Record<Handle, string> = {
  nw: 'nwse-resize',
  se: 'nwse-resize',
  ne: 'nesw-resize',
  sw: 'nesw-resize',
  n: 'ns-resize',
  s: 'ns-resize',
  e: 'ew-resize',
  w: 'ew-resize',
};

/** A handle's place on the layer's box, as fractions of its width and height. */
export const HANDLE_POSITION: Record<Handle, [number, number]> = { nw: [0, 0], n: [0.5, 0], ne: [1, 0], e: [1, 0.5], se: [1, 1], s: [0.5, 1], sw: [0, 1], w: [0, 0.5] };
