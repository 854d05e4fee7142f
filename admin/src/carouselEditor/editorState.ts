/**
 * The carousel editor's state and its undo history, without React (a reducer): the carousel, its variants, slides in
 * order and every slide's layers per variant, which slide, variant and layer are chosen, and the history of layer
 * edits. Every layer edit is one `change` of one group (a slide in a variant) from one list of layers to another; undo
 * and redo put a list back, and the editor saves whatever list is shown (layerModel.diffLayers).
 */
import { groupKey, layerOf, parseGroup, sameLayers, type Layer, type Row } from './layerModel';

export interface CarouselGraph {
  carousel: Row;
  variants: Row[];
  slides: (Row & { layers?: Record<string, Row[]> })[];
  assets?: Record<string, Row>;
}

/** One undoable edit: a group's layers before and after, and what was selected either side. */
export interface HistoryEntry {
  group: string;
  before: Layer[];
  after: Layer[];
  selectedBefore: string | null;
  selectedAfter: string | null;
  /** Edits with the same tag in quick succession are one step (arrow-key nudges, typing in a field). */
  merge?: string;
  at: number;
}

export interface EditorState {
  carousel: Row;
  variants: Row[];
  /** In order, without their layers. */
  slides: Row[];
  /** By group (slide|variant), each list in z-order: first = bottom. */
  layers: Record<string, Layer[]>;
  assets: Record<string, Row>;
  slideId: string | null;
  variantId: string | null;
  /** The selected layer's key. */
  selected: string | null;
  undo: HistoryEntry[];
  redo: HistoryEntry[];
}

/** Edits with the same merge tag closer together than this are one undo step. */
export const MERGE_WITHIN_MS = 1200;
/** The history keeps this many steps. */
export const HISTORY_LIMIT = 200;

export type EditorAction =
  | { type: 'loaded'; graph: CarouselGraph }
  | { type: 'selectSlide'; slideId: string }
  | { type: 'selectVariant'; variantId: string }
  | { type: 'select'; key: string | null }
  | { type: 'change'; group: string; layers: Layer[]; selected?: string | null; merge?: string; at: number }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'slides'; slides: Row[] }
  | { type: 'slideSaved'; slide: Row }
  | { type: 'slideRemoved'; slideId: string }
  | { type: 'variantSaved'; variant: Row }
  | { type: 'variantRemoved'; variantId: string }
  | { type: 'asset'; asset: Row };

export const emptyState: EditorState = { carousel: {}, variants: [], slides: [], layers: {}, assets: {}, slideId: null, variantId: null, selected: null, undo: [], redo: [] };

/** Variants in the graph's order: smallest screen first. */
export function sortVariants(list: Row[]): Row[] {
  return [...list].sort((a, b) => Number(a.v_width) - Number(b.v_width) || Number(a.v_height) - Number(b.v_height) || String(a.v_id).localeCompare(String(b.v_id)));
}

/** The editor's state from GET /carousels/{id}/graph, keeping the chosen slide and variant when they still exist. */
export function fromGraph(graph: CarouselGraph, previous?: Pick<EditorState, 'slideId' | 'variantId'>): EditorState {
  const layers: Record<string, Layer[]> = {};
  const slides = graph.slides.map((s) => {
    const { layers: byVariant, ...slide } = s;
    for (const [variantId, list] of Object.entries(byVariant ?? {})) layers[groupKey(String(s.sl_id), variantId)] = list.map(layerOf);
    return slide as Row;
  });
  const variants = sortVariants(graph.variants);
  const slideId = previous?.slideId && slides.some((s) => s.sl_id === previous.slideId) ? previous.slideId : ((slides[0]?.sl_id as string | undefined) ?? null);
  const variantId = previous?.variantId && variants.some((v) => v.v_id === previous.variantId) ? previous.variantId : ((variants[0]?.v_id as string | undefined) ?? null);
  return { ...emptyState, carousel: graph.carousel, variants, slides, layers, assets: graph.assets ?? {}, slideId, variantId };
}

/** The group now on the canvas (null without a slide or a variant). */
export const currentGroup = (s: Pick<EditorState, 'slideId' | 'variantId'>): string | null => (s.slideId && s.variantId ? groupKey(s.slideId, s.variantId) : null);

export const layersOf = (s: EditorState, group: string | null): Layer[] => (group ? (s.layers[group] ?? []) : []);

/** History without the steps of groups that are gone (a deleted slide or variant cannot be undone into). */
const prune = (list: HistoryEntry[], keep: (group: string) => boolean) => list.filter((e) => keep(e.group));

function applyEntry(state: EditorState, entry: HistoryEntry, direction: 'undo' | 'redo'): EditorState {
  const { slideId, variantId } = parseGroup(entry.group);
  return {
    ...state,
    layers: { ...state.layers, [entry.group]: direction === 'undo' ? entry.before : entry.after },
    selected: direction === 'undo' ? entry.selectedBefore : entry.selectedAfter,
    // undo shows where it happened
    slideId,
    variantId,
  };
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case 'loaded':
      return fromGraph(action.graph, state);
    case 'selectSlide':
      return state.slideId === action.slideId ? state : { ...state, slideId: action.slideId, selected: null };
    case 'selectVariant':
      return state.variantId === action.variantId ? state : { ...state, variantId: action.variantId, selected: null };
    case 'select':
      return state.selected === action.key ? state : { ...state, selected: action.key };
    case 'change': {
      const before = state.layers[action.group] ?? [];
      const selected = action.selected === undefined ? state.selected : action.selected;
      if (sameLayers(before, action.layers)) return selected === state.selected ? state : { ...state, selected };
      const last = state.undo[state.undo.length - 1];
      const merging = !!action.merge && last?.merge === action.merge && last.group === action.group && action.at - last.at < MERGE_WITHIN_MS && sameLayers(last.after, before);
      const entry: HistoryEntry = merging
        ? { ...last, after: action.layers, selectedAfter: selected, at: action.at }
        : { group: action.group, before, after: action.layers, selectedBefore: state.selected, selectedAfter: selected, merge: action.merge, at: action.at };
      const undo = merging ? [...state.undo.slice(0, -1), entry] : [...state.undo, entry].slice(-HISTORY_LIMIT);
      return { ...state, layers: { ...state.layers, [action.group]: action.layers }, selected, undo, redo: [] };
    }
    case 'undo': {
      const entry = state.undo[state.undo.length - 1];
      if (!entry) return state;
      return { ...applyEntry(state, entry, 'undo'), undo: state.undo.slice(0, -1), redo: [...state.redo, entry] };
    }
    case 'redo': {
      const entry = state.redo[state.redo.length - 1];
      if (!entry) return state;
      return { ...applyEntry(state, entry, 'redo'), undo: [...state.undo, entry], redo: state.redo.slice(0, -1) };
    }
    case 'slides':
      return { ...state, slides: action.slides };
    case 'slideSaved': {
      // (the data provider's record carries its key as `id` too)
      const id = action.slide.sl_id ?? action.slide.id;
      const saved = { ...action.slide, sl_id: id };
      const exists = state.slides.some((s) => s.sl_id === id);
      const slides = exists ? state.slides.map((s) => (s.sl_id === id ? { ...s, ...saved } : s)) : [...state.slides, saved];
      return { ...state, slides, slideId: exists ? state.slideId : String(id), selected: exists ? state.selected : null };
    }
    case 'slideRemoved': {
      const index = state.slides.findIndex((s) => s.sl_id === action.slideId);
      const slides = state.slides.filter((s) => s.sl_id !== action.slideId);
      const keep = (group: string) => parseGroup(group).slideId !== action.slideId;
      const layers = Object.fromEntries(Object.entries(state.layers).filter(([g]) => keep(g)));
      const slideId = state.slideId === action.slideId ? ((slides[Math.min(index, slides.length - 1)]?.sl_id as string | undefined) ?? null) : state.slideId;
      return {
        ...state,
        slides,
        layers,
        slideId,
        selected: state.slideId === action.slideId ? null : state.selected,
        undo: prune(state.undo, keep),
        redo: prune(state.redo, keep),
      };
    }
    case 'variantSaved': {
      const id = action.variant.v_id ?? action.variant.id;
      const saved = { ...action.variant, v_id: id };
      const exists = state.variants.some((v) => v.v_id === id);
      const variants = sortVariants(exists ? state.variants.map((v) => (v.v_id === id ? { ...v, ...saved } : v)) : [...state.variants, saved]);
      return { ...state, variants, variantId: exists ? state.variantId : String(id), selected: exists ? state.selected : null };
    }
    case 'variantRemoved': {
      const variants = state.variants.filter((v) => v.v_id !== action.variantId);
      const keep = (group: string) => parseGroup(group).variantId !== action.variantId;
      const layers = Object.fromEntries(Object.entries(state.layers).filter(([g]) => keep(g)));
      const variantId = state.variantId === action.variantId ? ((variants[0]?.v_id as string | undefined) ?? null) : state.variantId;
      return {
        ...state,
        variants,
        layers,
        variantId,
        selected: state.variantId === action.variantId ? null : state.selected,
        undo: prune(state.undo, keep),
        redo: prune(state.redo, keep),
      };
    }
    case 'asset':
      return { ...state, assets: { ...state.assets, [String(action.asset.as_id ?? action.asset.id)]: action.asset } };
  }
}
