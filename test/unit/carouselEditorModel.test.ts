import { describe, expect, it } from 'vitest';
import {
  changedFields,
  diffLayers,
  duplicateOf,
  groupKey,
  inspectorFields,
  layerErrors,
  layerOf,
  LAYER_FIELDS,
  newLayerValues,
  rectOf,
  requiredFieldsOf,
  restacked,
  type Layer,
  type LayerOp,
} from '../../admin/src/carouselEditor/layerModel';
import { editorReducer, fromGraph, MERGE_WITHIN_MS, type EditorState } from '../../admin/src/carouselEditor/editorState';
import { SaveQueue } from '../../admin/src/carouselEditor/saveQueue';

/**
 * The carousel editor's model without React: layers read from the layers declaration, the calls that store a change
 * (diffLayers), the undo history (editorState) and the save queue that keeps failed calls for a retry.
 */

const SLIDE = '10000000-0000-4000-8000-000000000001';
const SLIDE2 = '10000000-0000-4000-8000-000000000002';
const VARIANT = '20000000-0000-4000-8000-000000000001';
const ASSET = '30000000-0000-4000-8000-000000000001';
const CAROUSEL = '40000000-0000-4000-8000-000000000001';
const G = groupKey(SLIDE, VARIANT);
const HD = { width: 1920, height: 1080 };

const layer = (key: string, extra: Record<string, unknown> = {}): Layer => ({
  key,
  values: { ...newLayerValues('image', SLIDE, VARIANT, HD, { ly_assetid: ASSET }), ...extra },
});

describe('layers from the declaration', () => {
  it('hold every field the API takes on create but the order', () => {
    expect(LAYER_FIELDS).toContain('ly_slideid');
    expect(LAYER_FIELDS).toContain('ly_qr_fg');
    expect(LAYER_FIELDS).not.toContain('ly_order');
    const l = layerOf({ ly_id: 'abc', ly_order: 3, ly_accountid: 'x', ly_type: 'hotspot', ly_x: 5, ly_created_at: 'now' });
    expect(l.key).toBe('abc');
    expect(l.values).not.toHaveProperty('ly_order');
    expect(l.values).not.toHaveProperty('ly_accountid');
    expect(l.values.ly_x).toBe(5);
  });

  it('show each type its own fields (showWhen), with title, position and size for all', () => {
    const names = (type: Parameters<typeof inspectorFields>[0]) => inspectorFields(type).map(([f]) => f);
    expect(names('image')).toEqual(['ly_title', 'ly_assetid', 'ly_x', 'ly_y', 'ly_width', 'ly_height']);
    expect(names('video')).toEqual(['ly_title', 'ly_assetid', 'ly_x', 'ly_y', 'ly_width', 'ly_height', 'ly_muted', 'ly_loop', 'ly_autoplay', 'ly_pausable']);
    expect(names('iframe')).toEqual(['ly_title', 'ly_x', 'ly_y', 'ly_width', 'ly_height', 'ly_iframe_url']);
    expect(names('hotspot')).toEqual(['ly_title', 'ly_x', 'ly_y', 'ly_width', 'ly_height', 'ly_hotspot_carouselid']);
    expect(names('collectionqr')).toEqual([
      'ly_title',
      'ly_x',
      'ly_y',
      'ly_width',
      'ly_height',
      'ly_collectionid',
      'ly_download_formid',
      'ly_form_styleid',
      'ly_qr_fg',
      'ly_qr_bg',
    ]);
  });

  it("ask a new layer for what its type needs, by the declaration's rule", () => {
    expect(requiredFieldsOf('image')).toEqual(['ly_assetid']);
    expect(requiredFieldsOf('video')).toEqual(['ly_assetid']);
    expect(requiredFieldsOf('iframe')).toEqual(['ly_iframe_url']);
    expect(requiredFieldsOf('hotspot')).toEqual(['ly_hotspot_carouselid']);
    expect(requiredFieldsOf('collectionqr')).toEqual(['ly_collectionid']);
  });

  it("check a layer with the declaration's schema and rule", () => {
    expect(layerErrors(layer('a').values)).toEqual({});
    expect(layerErrors({ ...layer('a').values, ly_assetid: null })).toEqual({ ly_assetid: 'error_required' });
    expect(layerErrors({ ...layer('a').values, ly_width: 0 })).toHaveProperty('ly_width');
    expect(layerErrors({ ...layer('a').values, ly_x: 1.5 })).toHaveProperty('ly_x');
    const iframe = newLayerValues('iframe', SLIDE, VARIANT, HD, { ly_iframe_url: 'javascript:alert(1)' });
    expect(layerErrors(iframe)).toHaveProperty('ly_iframe_url');
    expect(layerErrors({ ...iframe, ly_iframe_url: 'https://example.com/' })).toEqual({});
  });

  it("start a new layer with the declaration's defaults, centred", () => {
    const v = newLayerValues('video', SLIDE, VARIANT, HD, { ly_assetid: ASSET });
    expect(v).toMatchObject({ ly_type: 'video', ly_muted: true, ly_loop: false, ly_autoplay: true, ly_pausable: false, ly_x: 576, ly_width: 768, ly_height: 432 });
    expect(newLayerValues('collectionqr', SLIDE, VARIANT, HD, { ly_collectionid: ASSET })).toMatchObject({ ly_width: 480, ly_height: 480 });
  });

  it('read a layer without a stored size as the rest of the canvas', () => {
    expect(rectOf({ ly_x: 100, ly_y: 80, ly_width: null, ly_height: null }, HD)).toEqual({ x: 100, y: 80, width: 1820, height: 1000 });
  });

  it("duplicate a layer shifted, back up and left at the canvas' edge", () => {
    const copy = duplicateOf(layer('a', { ly_x: 10, ly_y: 10 }), 'b', HD);
    expect(copy).toMatchObject({ key: 'b', values: { ly_x: 30, ly_y: 30, ly_assetid: ASSET } });
    expect(duplicateOf(layer('a', { ly_x: 1900, ly_y: 1000, ly_width: 20, ly_height: 80 }), 'c', HD).values).toMatchObject({ ly_x: 1880, ly_y: 980 });
  });

  it('restack one place, to the front or to the back, and not past the ends', () => {
    const list = ['a', 'b', 'c'].map((k) => layer(k));
    const keys = (l: Layer[]) => l.map((x) => x.key).join('');
    expect(keys(restacked(list, 'a', 'forward'))).toBe('bac');
    expect(keys(restacked(list, 'c', 'forward'))).toBe('abc');
    expect(keys(restacked(list, 'b', 'backward'))).toBe('bac');
    expect(keys(restacked(list, 'a', 'front'))).toBe('bca');
    expect(keys(restacked(list, 'c', 'back'))).toBe('cab');
  });
});

describe('the calls that store a change (diffLayers)', () => {
  const a = layer('a');
  const b = layer('b', { ly_x: 5 });

  it('nothing for no change', () => {
    expect(diffLayers(G, [a, b], [a, { ...b, values: { ...b.values } }])).toEqual([]);
  });
  it('an update with only the changed fields', () => {
    expect(diffLayers(G, [a, b], [a, { ...b, values: { ...b.values, ly_x: 50, ly_width: 10 } }])).toEqual([{ kind: 'update', key: 'b', patch: { ly_x: 50, ly_width: 10 } }]);
    expect(changedFields(a.values, { ...a.values, ly_slideid: SLIDE2, ly_title: 'T' })).toEqual({ ly_title: 'T' });
  });
  it('a create for a new layer on top, with no reorder', () => {
    const ops = diffLayers(G, [a], [a, b]);
    expect(ops).toEqual([{ kind: 'create', key: 'b', values: expect.objectContaining({ ly_slideid: SLIDE, ly_variantid: VARIANT, ly_type: 'image', ly_x: 5 }) }]);
  });
  it('a create then a reorder for a layer put back below others (undoing a delete)', () => {
    expect(diffLayers(G, [b], [a, b])).toEqual([
      { kind: 'create', key: 'a', values: expect.any(Object) },
      { kind: 'order', slideId: SLIDE, variantId: VARIANT, keys: ['a', 'b'] },
    ]);
  });
  it('a delete, and a reorder only when the order changed', () => {
    expect(diffLayers(G, [a, b], [b])).toEqual([{ kind: 'delete', key: 'a' }]);
    expect(diffLayers(G, [a, b], [b, a])).toEqual([{ kind: 'order', slideId: SLIDE, variantId: VARIANT, keys: ['b', 'a'] }]);
  });
});

describe('the undo history', () => {
  const graph = {
    carousel: { c_id: CAROUSEL, c_title: 'Lobby', c_name: 'lobby' },
    variants: [
      { v_id: 'v-big', v_title: 'Big', v_width: 3840, v_height: 2160 },
      { v_id: VARIANT, v_title: 'HD', v_width: 1920, v_height: 1080 },
    ],
    slides: [
      {
        sl_id: SLIDE,
        sl_title: 'One',
        layers: { [VARIANT]: [{ ly_id: 'a', ly_type: 'image', ly_assetid: ASSET, ly_x: 0, ly_y: 0, ly_width: 10, ly_height: 10, ly_slideid: SLIDE, ly_variantid: VARIANT }] },
      },
      { sl_id: SLIDE2, sl_title: 'Two' },
    ],
    assets: {},
  };
  const start = (): EditorState => ({ ...fromGraph(graph), variantId: VARIANT });
  const moved = (s: EditorState, x: number) => s.layers[G].map((l) => ({ ...l, values: { ...l.values, ly_x: x } }));

  it('reads the graph: smallest variant first, the first slide chosen, layers by slide and variant', () => {
    const s = fromGraph(graph);
    expect(s.variants.map((v) => v.v_id)).toEqual([VARIANT, 'v-big']);
    expect(s.variantId).toBe(VARIANT);
    expect(s.slideId).toBe(SLIDE);
    expect(s.layers[G].map((l) => l.key)).toEqual(['a']);
    expect(s.slides[0]).not.toHaveProperty('layers');
  });

  it('undoes and redoes a change, and a new change clears what could be redone', () => {
    let s = start();
    s = editorReducer(s, { type: 'change', group: G, layers: moved(s, 100), selected: 'a', at: 1 });
    s = editorReducer(s, { type: 'change', group: G, layers: moved(s, 200), at: 10_000 });
    expect(s.undo).toHaveLength(2);
    s = editorReducer(s, { type: 'undo' });
    expect(s.layers[G][0].values.ly_x).toBe(100);
    s = editorReducer(s, { type: 'undo' });
    expect(s.layers[G][0].values.ly_x).toBe(0);
    expect(s.selected).toBeNull();
    s = editorReducer(s, { type: 'redo' });
    expect(s.layers[G][0].values.ly_x).toBe(100);
    expect(s.selected).toBe('a');
    s = editorReducer(s, { type: 'change', group: G, layers: moved(s, 300), at: 20_000 });
    expect(s.redo).toEqual([]);
    expect(editorReducer(s, { type: 'redo' })).toBe(s);
  });

  it('merges quick edits with the same tag into one step (nudges, typing)', () => {
    let s = start();
    s = editorReducer(s, { type: 'change', group: G, layers: moved(s, 1), merge: 'nudge:a', at: 1000 });
    s = editorReducer(s, { type: 'change', group: G, layers: moved(s, 2), merge: 'nudge:a', at: 1000 + MERGE_WITHIN_MS - 1 });
    s = editorReducer(s, { type: 'change', group: G, layers: moved(s, 3), merge: 'nudge:a', at: 1000 + 2 * MERGE_WITHIN_MS - 2 });
    expect(s.undo).toHaveLength(1);
    s = editorReducer(s, { type: 'change', group: G, layers: moved(s, 4), merge: 'nudge:a', at: 10_000 });
    expect(s.undo).toHaveLength(2);
    s = editorReducer(editorReducer(s, { type: 'undo' }), { type: 'undo' });
    expect(s.layers[G][0].values.ly_x).toBe(0);
  });

  it('shows where an undone change happened', () => {
    let s = start();
    s = editorReducer(s, { type: 'change', group: G, layers: moved(s, 5), at: 1 });
    s = editorReducer(s, { type: 'selectSlide', slideId: SLIDE2 });
    s = editorReducer(s, { type: 'selectVariant', variantId: 'v-big' });
    s = editorReducer(s, { type: 'undo' });
    expect([s.slideId, s.variantId]).toEqual([SLIDE, VARIANT]);
  });

  it('forgets the steps of a deleted slide or variant', () => {
    let s = start();
    s = editorReducer(s, { type: 'change', group: G, layers: moved(s, 5), at: 1 });
    s = editorReducer(s, { type: 'slideRemoved', slideId: SLIDE });
    expect(s.undo).toEqual([]);
    expect(s.layers[G]).toBeUndefined();
    expect(s.slideId).toBe(SLIDE2);
    let t = start();
    t = editorReducer(t, { type: 'change', group: G, layers: moved(t, 5), at: 1 });
    t = editorReducer(t, { type: 'variantRemoved', variantId: VARIANT });
    expect(t.undo).toEqual([]);
    expect(t.variantId).toBe('v-big');
  });

  it('adds a saved slide and chooses it; a saved variant keeps the smallest-first order', () => {
    let s = start();
    s = editorReducer(s, { type: 'slideSaved', slide: { sl_id: 'new', sl_title: 'Three' } });
    expect(s.slides.map((x) => x.sl_id)).toEqual([SLIDE, SLIDE2, 'new']);
    expect(s.slideId).toBe('new');
    s = editorReducer(s, { type: 'variantSaved', variant: { v_id: 'v-small', v_width: 800, v_height: 600 } });
    expect(s.variants.map((v) => v.v_id)).toEqual(['v-small', VARIANT, 'v-big']);
  });
});

describe('the save queue', () => {
  const create: LayerOp = { kind: 'create', key: 'n1', values: {} };
  const move: LayerOp = { kind: 'update', key: 'n1', patch: { ly_x: 5 } };

  it("runs calls one at a time in order, mapping a new layer's key to its id", async () => {
    const log: string[] = [];
    const q = new SaveQueue(async (op, ids) => {
      log.push(`${op.kind}:${ids.get(op.kind === 'order' ? '' : op.key) ?? '-'}`);
      await new Promise((r) => setTimeout(r, 5));
      if (op.kind === 'create') ids.set(op.key, 'id-1');
    });
    q.push([create]);
    q.push([move]);
    expect(await q.idle()).toBe(true);
    expect(log).toEqual(['create:-', 'update:id-1']);
  });

  it('stops at a failed call, keeps it and what waits behind it, and goes on after a retry', async () => {
    let fail = true;
    const done: string[] = [];
    const states: boolean[] = [];
    let saved = 0;
    const q = new SaveQueue(
      async (op) => {
        if (fail && op.kind === 'update') throw new Error('offline');
        done.push(op.kind);
      },
      (s) => states.push(!!s.failed),
      () => saved++,
    );
    q.push([create, move, { kind: 'delete', key: 'n1' }]);
    expect(await q.idle()).toBe(false);
    expect(done).toEqual(['create']);
    expect(q.state).toMatchObject({ pending: 2, failed: { op: move } });
    expect(saved).toBe(0);
    fail = false;
    q.retry();
    expect(await q.idle()).toBe(true);
    expect(done).toEqual(['create', 'update', 'delete']);
    expect(q.state).toEqual({ busy: false, pending: 0, failed: null });
    expect(saved).toBe(1);
    expect(states).toContain(true);
  });

  it('forgets everything on reset', async () => {
    const q = new SaveQueue(async () => {
      throw new Error('down');
    });
    q.known(['a']);
    q.push([move]);
    await q.idle();
    q.reset();
    expect(q.state).toEqual({ busy: false, pending: 0, failed: null });
    expect(q.ids.size).toBe(0);
  });
});
