/** What the carousel editor shows, read from its state (no React). */
import { currentGroup, layersOf, type EditorState } from './editorState';
import type { Size } from './geometry';

/** The canvas' size: the chosen variant's (null without one). */
export function canvasSizeOf(s: EditorState): Size | null {
  const v = s.variants.find((x) => x.v_id === s.variantId);
  return v ? { width: Number(v.v_width), height: Number(v.v_height) } : null;
}

/** The group on the canvas, its layers, the chosen variant and slide, the selected layer and the canvas' colour. */
export function viewOf(state: EditorState) {
  const group = currentGroup(state);
  const layers = layersOf(state, group);
  const variant = state.variants.find((v) => v.v_id === state.variantId);
  const slide = state.slides.find((s) => s.sl_id === state.slideId);
  const selectedLayer = layers.find((l) => l.key === state.selected) ?? null;
  return {
    group,
    layers,
    variant,
    slide,
    size: canvasSizeOf(state),
    selectedLayer,
    selectedIndex: selectedLayer ? layers.indexOf(selectedLayer) : -1,
    background: String(slide?.sl_bgcolor || variant?.v_bgcolor || '#000000'),
  };
}
