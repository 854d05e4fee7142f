/**
 * Layers as the editor holds them, without React: a layer is a stable key (its id once stored; a new one gets a key
 * of its own until the API gives it an id) and the values the API stores. A slide's layers in one variant are a list
 * in z-order (first = bottom). What the API must do to turn one list into another is `diffLayers`: the editor keeps
 * the list the API has been sent and sends the difference, so undo, redo and every edit save the same way.
 */
import { layers as layersDecl, LAYER_TYPES, type LayerType } from '../../../resources/carousels';
import { writableFields } from '../../../resources/define';
import type { FieldMeta } from '../../../resources/types';
import { issuesByField } from '../layout/zod';
import { centredRect, normalizeRect, type Rect, type Size } from './geometry';

export type Row = Record<string, unknown>;

export interface Layer {
  key: string;
  values: Row;
}

export { LAYER_TYPES, type LayerType };
export const layersDeclaration = layersDecl;

/** The fields a layer's values hold: what the API takes on create, but the order (the list's order is the z-order). */
export const LAYER_FIELDS: string[] = writableFields(layersDecl.fields ?? {}, 'create')
  .map(([f]) => f)
  .filter((f) => f !== 'ly_order');
/** The fields an update may change (not the slide and variant a layer belongs to). */
const UPDATE_FIELDS = new Set(writableFields(layersDecl.fields ?? {}, 'update').map(([f]) => f));

/** A slide's layers in one variant are one group; the key names both. */
export const groupKey = (slideId: string, variantId: string): string => `${slideId}|${variantId}`;
export function parseGroup(group: string): { slideId: string; variantId: string } {
  const [slideId, variantId] = group.split('|');
  return { slideId, variantId };
}

const pick = (row: Row, fields: readonly string[]): Row => Object.fromEntries(fields.map((f) => [f, row[f] ?? null]));

/** A stored layer (the graph's record) as the editor's. */
export function layerOf(record: Row): Layer {
  return { key: String(record.ly_id), values: pick(record, LAYER_FIELDS) };
}

export const typeOf = (values: Row): LayerType => values.ly_type as LayerType;

const num = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null;

/** Where a layer sits on the canvas; no width or height stored: the rest of the canvas from its corner. */
export function rectOf(values: Row, canvas: Size): Rect {
  const x = num(values.ly_x) ?? 0;
  const y = num(values.ly_y) ?? 0;
  return { x, y, width: num(values.ly_width) ?? Math.max(1, canvas.width - x), height: num(values.ly_height) ?? Math.max(1, canvas.height - y) };
}

export function withRect(values: Row, rect: Rect): Row {
  const r = normalizeRect(rect);
  return { ...values, ly_x: r.x, ly_y: r.y, ly_width: r.width, ly_height: r.height };
}

/**
 * The fields the inspector shows for a layer type, in the declaration's order: every field a form would show (not
 * the slide and variant it belongs to, not the type itself, which a layer keeps) whose `showWhen` includes the type.
 */
export function inspectorFields(type: LayerType): [string, FieldMeta][] {
  return Object.entries<FieldMeta>(layersDecl.fields).filter(
    ([field, meta]) => !meta.formHidden && !meta.parent && !meta.createOnly && field !== 'ly_type' && (!meta.showWhen || meta.showWhen.values.includes(type)),
  );
}

/** The fields a type cannot do without: what the declaration's rule reports missing on an empty layer of that type. */
export function requiredFieldsOf(type: LayerType): string[] {
  return Object.keys(layersDecl.check?.({ ly_type: type }) ?? {});
}

/** A layer's errors as message keys by field: the declaration's create schema, then its rule across fields. */
export function layerErrors(values: Row): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, messages] of Object.entries(issuesByField(layersDecl.create, pick(values, LAYER_FIELDS)))) out[field] = messages[0];
  for (const [field, message] of Object.entries(layersDecl.check?.(values) ?? {})) out[field] ??= message;
  return out;
}

/** A new layer's values: the declaration's defaults, centred on the canvas, with what the type needs (`extra`). */
export function newLayerValues(type: LayerType, slideId: string, variantId: string, canvas: Size, extra: Row = {}, aspect?: number): Row {
  const values: Row = {};
  for (const field of LAYER_FIELDS) {
    const meta = layersDecl.fields![field];
    values[field] = meta.default !== undefined ? meta.default : null;
  }
  Object.assign(values, { ly_slideid: slideId, ly_variantid: variantId, ly_type: type }, extra);
  return withRect(values, centredRect(canvas, aspect ?? (type === 'collectionqr' ? 1 : type === 'video' ? 16 / 9 : undefined), type === 'collectionqr' ? 0.25 : 0.4));
}

/** The offset of a duplicate: down and right, or up and left when that would leave the canvas. */
export const DUPLICATE_OFFSET = 20;

/** A copy of a layer under a new key, shifted so both stay visible. */
export function duplicateOf(layer: Layer, key: string, canvas: Size): Layer {
  const r = rectOf(layer.values, canvas);
  const dx = r.x + r.width + DUPLICATE_OFFSET > canvas.width ? -DUPLICATE_OFFSET : DUPLICATE_OFFSET;
  const dy = r.y + r.height + DUPLICATE_OFFSET > canvas.height ? -DUPLICATE_OFFSET : DUPLICATE_OFFSET;
  return { key, values: withRect(layer.values, { ...r, x: r.x + dx, y: r.y + dy }) };
}

const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

/** The fields of `after` that differ from `before`, as an update body (never the slide or variant). */
export function changedFields(before: Row, after: Row): Row {
  const out: Row = {};
  for (const field of LAYER_FIELDS) if (UPDATE_FIELDS.has(field) && !same(before[field], after[field])) out[field] = after[field] ?? null;
  return out;
}

export function sameLayers(a: readonly Layer[] | undefined, b: readonly Layer[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((l, i) => l.key === y[i].key && (l === y[i] || LAYER_FIELDS.every((f) => same(l.values[f], y[i].values[f]))));
}

/** One call of the API that stores part of an edit. */
export type LayerOp =
  | { kind: 'create'; key: string; values: Row }
  | { kind: 'update'; key: string; patch: Row }
  | { kind: 'delete'; key: string }
  | { kind: 'order'; slideId: string; variantId: string; keys: string[] };

/**
 * The calls that turn the API's `stored` list of one group into `target`: deletes, creates (the API puts a new layer
 * on top), updates of the fields that changed, then one reorder naming every layer when the z-order is not what
 * those calls leave.
 */
export function diffLayers(group: string, stored: readonly Layer[], target: readonly Layer[]): LayerOp[] {
  const { slideId, variantId } = parseGroup(group);
  const was = new Map(stored.map((l) => [l.key, l]));
  const now = new Set(target.map((l) => l.key));
  const ops: LayerOp[] = [];
  for (const l of stored) if (!now.has(l.key)) ops.push({ kind: 'delete', key: l.key });
  const created: string[] = [];
  for (const l of target) {
    const before = was.get(l.key);
    if (!before) {
      ops.push({ kind: 'create', key: l.key, values: pick(l.values, LAYER_FIELDS) });
      created.push(l.key);
    }
  }
  for (const l of target) {
    const before = was.get(l.key);
    if (!before) continue;
    const patch = changedFields(before.values, l.values);
    if (Object.keys(patch).length) ops.push({ kind: 'update', key: l.key, patch });
  }
  const left = [...stored.filter((l) => now.has(l.key)).map((l) => l.key), ...created];
  const wanted = target.map((l) => l.key);
  if (wanted.join() !== left.join()) ops.push({ kind: 'order', slideId, variantId, keys: wanted });
  return ops;
}

/** The list with the layer `key` one place up (toward the top) or down; unchanged at the end. */
export function restacked(list: readonly Layer[], key: string, direction: 'forward' | 'backward' | 'front' | 'back'): Layer[] {
  const i = list.findIndex((l) => l.key === key);
  if (i < 0) return [...list];
  const to = direction === 'forward' ? i + 1 : direction === 'backward' ? i - 1 : direction === 'front' ? list.length - 1 : 0;
  if (to < 0 || to >= list.length || to === i) return [...list];
  const next = [...list];
  const [moved] = next.splice(i, 1);
  next.splice(to, 0, moved);
  return next;
}
