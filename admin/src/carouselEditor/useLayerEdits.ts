import { useCallback, useRef, useState, type Dispatch, type RefObject } from 'react';
import { layerName, type T } from './Canvas';
import { canvasSizeOf } from './editorView';
import { currentGroup, layersOf, type EditorAction, type EditorState } from './editorState';
import type { Rect } from './geometry';
import { imageAspect } from './imageAspect';
import { duplicateOf, newLayerValues, restacked, withRect, type Layer, type LayerType, type Row } from './layerModel';

/** Arrow-key nudges and typing in the inspector are saved once they pause this long; a drop, an add or a delete at once. */
export const NUDGE_SAVE_MS = 500;
export const FIELD_SAVE_MS = 600;

/**
 * The edits of the layers on the canvas (select, move, resize, nudge, type, add, duplicate, restack, delete): each one
 * `change` of the group shown, said aloud where the canvas does not show it, with the keyboard focus kept on the
 * canvas. A delete names the layer in `deletedToast` until the next edit.
 */
export function useLayerEdits(
  stateRef: RefObject<EditorState>,
  dispatch: Dispatch<EditorAction>,
  saveAfter: (ms: number) => void,
  announce: (text: string) => void,
  t: T,
  stageRoomRef: RefObject<HTMLDivElement | null>,
) {
  const [deletedToast, setDeletedToast] = useState<string | null>(null);
  const seq = useRef(0);

  const change = useCallback(
    (group: string, layers: Layer[], options: { selected?: string | null; merge?: string; delay?: number } = {}) => {
      saveAfter(options.delay ?? 0);
      // the toast's undo is for the delete it names, not for what came after
      setDeletedToast(null);
      dispatch({ type: 'change', group, layers, selected: options.selected, merge: options.merge, at: Date.now() });
    },
    [saveAfter, dispatch],
  );

  /** The group on the canvas and its layers, as they are now (for callbacks that must not change identity). */
  const current = useCallback(() => {
    const s = stateRef.current;
    const group = currentGroup(s);
    return { s, group, list: layersOf(s, group) };
  }, [stateRef]);

  const onSelect = useCallback((key: string | null) => dispatch({ type: 'select', key }), [dispatch]);

  const onRect = useCallback(
    (key: string, rect: Rect) => {
      const { group, list } = current();
      if (!group) return;
      change(
        group,
        list.map((l) => (l.key === key ? { ...l, values: withRect(l.values, rect) } : l)),
        { selected: key },
      );
    },
    [current, change],
  );

  const onNudge = useCallback(
    (key: string, rect: Rect) => {
      const { group, list } = current();
      if (!group) return;
      change(
        group,
        list.map((l) => (l.key === key ? { ...l, values: withRect(l.values, rect) } : l)),
        { selected: key, merge: `nudge:${key}`, delay: NUDGE_SAVE_MS },
      );
    },
    [current, change],
  );

  const onField = useCallback(
    (key: string, field: string, value: unknown, asset?: Row) => {
      const { group, list } = current();
      if (!group) return;
      if (asset) dispatch({ type: 'asset', asset });
      change(
        group,
        list.map((l) => (l.key === key ? { ...l, values: { ...l.values, [field]: value } } : l)),
        { merge: `field:${key}:${field}`, delay: FIELD_SAVE_MS },
      );
    },
    [current, change, dispatch],
  );

  const focusStage = useCallback(() => requestAnimationFrame(() => stageRoomRef.current?.querySelector<HTMLElement>('.ce-stage')?.focus({ preventScroll: true })), [stageRoomRef]);

  const onDelete = useCallback(
    (key: string) => {
      const { group, list } = current();
      const layer = list.find((l) => l.key === key);
      if (!group || !layer) return;
      change(
        group,
        list.filter((l) => l.key !== key),
        { selected: null },
      );
      const name = layerName(layer, t);
      setDeletedToast(name);
      announce(t('deleted', { name }));
      focusStage();
    },
    [current, change, announce, t, focusStage],
  );

  const newKey = () => `new-${Date.now().toString(36)}-${++seq.current}`;

  const onDuplicate = useCallback(
    (key: string) => {
      const { s, group, list } = current();
      const size = canvasSizeOf(s);
      const index = list.findIndex((l) => l.key === key);
      if (!group || !size || index < 0) return;
      const copy = duplicateOf(list[index], newKey(), size);
      change(group, [...list.slice(0, index + 1), copy, ...list.slice(index + 1)], { selected: copy.key });
      announce(t('duplicated', { name: layerName(copy, t) }));
    },
    [current, change, announce, t],
  );

  const onRestack = useCallback(
    (key: string, direction: 'forward' | 'backward') => {
      const { group, list } = current();
      if (!group) return;
      const next = restacked(list, key, direction);
      const layer = list.find((l) => l.key === key);
      change(group, next, { selected: key });
      if (layer) announce(t('stacked', { name: layerName(layer, t), position: next.length - next.findIndex((l) => l.key === key), count: next.length }));
    },
    [current, change, announce, t],
  );

  const onAdd = useCallback(
    async (type: LayerType, extra: Row, asset?: Row) => {
      if (asset) dispatch({ type: 'asset', asset });
      const aspect = type === 'image' ? await imageAspect(asset) : undefined;
      const { s, group, list } = current();
      const size = canvasSizeOf(s);
      if (!group || !size || !s.slideId || !s.variantId) return;
      const layer: Layer = { key: newKey(), values: newLayerValues(type, s.slideId, s.variantId, size, extra, aspect) };
      change(group, [...list, layer], { selected: layer.key });
      announce(t('added', { name: layerName(layer, t) }));
      requestAnimationFrame(() => stageRoomRef.current?.querySelector<HTMLElement>(`[data-layer="${layer.key}"]`)?.focus({ preventScroll: true }));
    },
    [current, change, announce, t, dispatch, stageRoomRef],
  );

  const dismissDeletedToast = useCallback(() => setDeletedToast(null), []);

  return { onSelect, onRect, onNudge, onField, onDelete, onDuplicate, onRestack, onAdd, deletedToast, dismissDeletedToast };
}
