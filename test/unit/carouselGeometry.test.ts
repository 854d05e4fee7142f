import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  centredRect,
  fitScale,
  HANDLES,
  MIN_SIDE,
  moveRect,
  nearestSnap,
  normalizeRect,
  nudgeRect,
  resizeRect,
  snapMove,
  snapTargets,
  toCanvas,
  type Handle,
  type Rect,
} from '../../admin/src/carouselEditor/geometry';
import { CANVAS_MAX } from '../../resources/carousels';

/** The carousel editor's geometry (admin/src/carouselEditor/geometry.ts): scale, snapping, resizing by handle, nudging. */

const HD = { width: 1920, height: 1080 };
const box: Rect = { x: 100, y: 200, width: 400, height: 300 };

describe('scale to fit', () => {
  it('fits the canvas into the room by its tighter side', () => {
    expect(fitScale(HD, { width: 640, height: 1000 })).toBeCloseTo(1 / 3);
    expect(fitScale(HD, { width: 4000, height: 540 })).toBeCloseTo(0.5);
    expect(fitScale({ width: 1080, height: 1920 }, { width: 600, height: 480 })).toBeCloseTo(0.25);
  });
  it('does not blow a small canvas up beyond the maximum', () => {
    expect(fitScale({ width: 100, height: 100 }, { width: 800, height: 800 })).toBe(2);
    expect(fitScale({ width: 100, height: 100 }, { width: 800, height: 800 }, 1)).toBe(1);
  });
  it('answers 1 for a size it cannot use', () => {
    expect(fitScale({ width: 0, height: 100 }, { width: 800, height: 800 })).toBe(1);
    expect(fitScale(HD, { width: 0, height: 0 })).toBe(1);
  });
  it('turns screen pixels into canvas pixels', () => {
    expect(toCanvas(30, 1 / 3)).toBeCloseTo(90);
    expect(toCanvas(30, 2)).toBe(15);
  });
});

describe('snapping', () => {
  const targets = snapTargets(HD, [{ x: 1000, y: 100, width: 200, height: 100 }]);

  it("offers the canvas edges and centre lines and every other layer's edges and centres", () => {
    expect(targets.x).toEqual([0, 960, 1920, 1000, 1100, 1200]);
    expect(targets.y).toEqual([0, 540, 1080, 100, 150, 200]);
  });

  it('moves the nearest edge or centre onto a target within the threshold', () => {
    // left edge 4 px from the canvas edge
    expect(snapMove({ x: 4, y: 700, width: 100, height: 100 }, targets, 6).rect).toMatchObject({ x: 0, y: 700 });
    // centre (957) 3 px off the canvas' centre line
    expect(snapMove({ x: 907, y: 700, width: 100, height: 100 }, targets, 6).rect.x).toBe(910);
    // right edge 5 px before the other layer's left edge
    expect(snapMove({ x: 895, y: 700, width: 100, height: 100 }, targets, 6).rect.x).toBe(900);
    // bottom edge onto the other layer's top
    expect(snapMove({ x: 300, y: 3, width: 100, height: 95 }, targets, 6).rect.y).toBe(5);
  });

  it('leaves a layer alone when nothing is within the threshold, and shows no guide', () => {
    const out = snapMove({ x: 300, y: 700, width: 100, height: 100 }, targets, 6);
    expect(out.rect).toMatchObject({ x: 300, y: 700 });
    expect(out.guides).toEqual([]);
  });

  it('shows a guide at every target that lines up after snapping', () => {
    const out = snapMove({ x: 2, y: 538 - 50, width: 960, height: 100 }, targets, 6);
    expect(out.rect).toMatchObject({ x: 0, y: 490 });
    // left on the canvas edge and right on the centre line: both guides; the middle on the canvas' centre line
    expect(out.guides).toEqual(
      expect.arrayContaining([
        { axis: 'x', pos: 0 },
        { axis: 'x', pos: 960 },
        { axis: 'y', pos: 540 },
      ]),
    );
  });

  it('takes the nearest of several candidates', () => {
    expect(nearestSnap([10, 50], [14, 49], 6)).toEqual({ shift: -1, at: [49] });
    expect(nearestSnap([10], [20], 6)).toEqual({ shift: 0, at: [] });
  });

  it('moves by whole pixels, snapping only when asked', () => {
    expect(moveRect(box, 10.4, -20.6, null, 6).rect).toEqual({ x: 110, y: 179, width: 400, height: 300 });
    const t = snapTargets(HD, []);
    expect(moveRect(box, -97, 0, t, 6).rect.x).toBe(0);
    expect(moveRect(box, -97, 0, null, 6).rect.x).toBe(3);
  });
});

describe('resizing with the eight handles', () => {
  const cases: [Handle, number, number, Rect][] = [
    ['nw', -10, -20, { x: 90, y: 180, width: 410, height: 320 }],
    ['n', 50, -20, { x: 100, y: 180, width: 400, height: 320 }],
    ['ne', 10, 20, { x: 100, y: 220, width: 410, height: 280 }],
    ['e', 30, 99, { x: 100, y: 200, width: 430, height: 300 }],
    ['se', -50, 40, { x: 100, y: 200, width: 350, height: 340 }],
    ['s', 99, -100, { x: 100, y: 200, width: 400, height: 200 }],
    ['sw', 25, 5, { x: 125, y: 200, width: 375, height: 305 }],
    ['w', -100, 77, { x: 0, y: 200, width: 500, height: 300 }],
  ];
  it.each(cases)('%s moves its own edges and keeps the opposite ones', (handle, dx, dy, expected) => {
    expect(resizeRect(box, handle, dx, dy).rect).toEqual(expected);
  });

  it('stops at the smallest side instead of flipping', () => {
    expect(resizeRect(box, 'e', -1000, 0).rect).toEqual({ x: 100, y: 200, width: MIN_SIDE, height: 300 });
    expect(resizeRect(box, 'nw', 1000, 1000).rect).toEqual({ x: 500 - MIN_SIDE, y: 500 - MIN_SIDE, width: MIN_SIDE, height: MIN_SIDE });
  });

  it('keeps the proportions from a corner with Shift, anchored at the opposite corner', () => {
    expect(resizeRect(box, 'se', 200, 10, { keepAspect: true }).rect).toEqual({ x: 100, y: 200, width: 600, height: 450 });
    const nw = resizeRect(box, 'nw', 10, -150, { keepAspect: true }).rect;
    expect(nw).toEqual({ x: -100, y: 50, width: 600, height: 450 });
    // an edge handle ignores it
    expect(resizeRect(box, 'e', 100, 0, { keepAspect: true }).rect).toEqual({ x: 100, y: 200, width: 500, height: 300 });
  });

  it('snaps only the moving edges, with guides', () => {
    const targets = snapTargets(HD, []);
    const out = resizeRect(box, 'se', 1417, 578, { targets, threshold: 6 });
    expect(out.rect).toEqual({ x: 100, y: 200, width: 1820, height: 880 });
    expect(out.guides).toEqual([
      { axis: 'x', pos: 1920 },
      { axis: 'y', pos: 1080 },
    ]);
    // the left edge does not move to 0 although it is near
    expect(resizeRect({ ...box, x: 3 }, 'e', 0, 0, { targets, threshold: 6 }).rect.x).toBe(3);
  });

  it("whatever the pointer does, a resized layer has whole pixels within the API's bounds and keeps its fixed edges", () => {
    fc.assert(
      fc.property(fc.constantFrom(...HANDLES), fc.double({ min: -20000, max: 20000, noNaN: true }), fc.double({ min: -20000, max: 20000, noNaN: true }), (handle, dx, dy) => {
        const r = resizeRect(box, handle, dx, dy).rect;
        for (const v of [r.x, r.y, r.width, r.height]) expect(Number.isInteger(v)).toBe(true);
        expect(r.width).toBeGreaterThanOrEqual(1);
        expect(r.height).toBeGreaterThanOrEqual(1);
        expect(r.width).toBeLessThanOrEqual(CANVAS_MAX);
        expect(Math.abs(r.x)).toBeLessThanOrEqual(CANVAS_MAX);
        if (!handle.includes('w') && Math.abs(dx) < 5000) expect(r.x).toBe(box.x);
        if (!handle.includes('n') && Math.abs(dy) < 5000) expect(r.y).toBe(box.y);
        if (!handle.includes('e') && !handle.includes('w')) expect(r.width).toBe(box.width);
        if (!handle.includes('n') && !handle.includes('s')) expect(r.height).toBe(box.height);
      }),
    );
  });
});

describe('nudging with the arrow keys', () => {
  it('moves 1 px, or 10 px with Shift', () => {
    expect(nudgeRect(box, 'ArrowLeft', false)).toEqual({ ...box, x: 99 });
    expect(nudgeRect(box, 'ArrowRight', true)).toEqual({ ...box, x: 110 });
    expect(nudgeRect(box, 'ArrowUp', false)).toEqual({ ...box, y: 199 });
    expect(nudgeRect(box, 'ArrowDown', true)).toEqual({ ...box, y: 210 });
  });
  it('ignores other keys', () => {
    expect(nudgeRect(box, 'Enter', false)).toBeNull();
    expect(nudgeRect(box, 'a', true)).toBeNull();
  });
  it('stays within the positions the API stores', () => {
    expect(nudgeRect({ ...box, x: -CANVAS_MAX }, 'ArrowLeft', true)!.x).toBe(-CANVAS_MAX);
  });
});

describe("a new layer's place", () => {
  it("is centred at 40 % of the width, at the asset's proportions when known", () => {
    expect(centredRect(HD)).toEqual({ x: 576, y: 324, width: 768, height: 432 });
    expect(centredRect(HD, 1)).toEqual({ x: 576, y: 156, width: 768, height: 768 });
  });
  it('fits a tall asset into the canvas height', () => {
    const r = centredRect(HD, 0.25);
    expect(r.height).toBe(972);
    expect(r.width).toBe(243);
    expect(r.y).toBe(54);
  });
  it('normalizes to whole pixels (never -0)', () => {
    expect(Object.is(normalizeRect({ x: -0.2, y: 0, width: 5, height: 5 }).x, 0)).toBe(true);
    expect(normalizeRect({ x: 1.5, y: -0.4, width: 0.2, height: 20001 })).toEqual({ x: 2, y: 0, width: 1, height: CANVAS_MAX });
  });
});
