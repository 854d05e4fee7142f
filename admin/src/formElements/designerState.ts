/** The form designer's state (no React): the elements as drafts in the order shown, the selected one, and loading. */
import {
  clearedBy,
  draftOf,
  fieldsOf,
  newDraft,
  optionErrorsCleared,
  sameFields,
  suggestName,
  type Draft,
  type DraftFields,
  type ElementRecord,
  type ElementType,
  type ErrorField,
  type OptionDraft,
} from './designerModel';

export interface State {
  status: 'loading' | 'ready' | 'failed';
  drafts: Draft[];
  selected: string | null;
  /** Numbers the keys of new elements. */
  seq: number;
}

export type Action =
  | { type: 'loading' }
  | { type: 'loaded'; records: ElementRecord[] }
  | { type: 'failed' }
  | { type: 'add'; elementType: ElementType; title: string }
  | { type: 'select'; key: string | null }
  | { type: 'edit'; key: string; patch: Partial<DraftFields> }
  | { type: 'option'; key: string; option: keyof OptionDraft; value: OptionDraft[keyof OptionDraft] }
  | { type: 'errors'; key: string; errors: Record<string, string> }
  | { type: 'saving'; key: string }
  | { type: 'saved'; key: string; record: ElementRecord; sent: DraftFields }
  | { type: 'discard'; key: string }
  | { type: 'remove'; key: string }
  | { type: 'order'; keys: string[] };

const without = (errors: Record<string, string>, fields: ErrorField[]) => {
  if (!fields.some((f) => f in errors)) return errors;
  const out = { ...errors };
  for (const f of fields) delete out[f];
  return out;
};

export function reducer(state: State, action: Action): State {
  const update = (key: string, change: (d: Draft) => Draft): State => ({ ...state, drafts: state.drafts.map((d) => (d.key === key ? change(d) : d)) });
  switch (action.type) {
    case 'loading':
      return { ...state, status: 'loading' };
    case 'loaded': {
      const drafts = action.records.map((r) => draftOf(r));
      const selected = state.selected && drafts.some((d) => d.key === state.selected) ? state.selected : (drafts[0]?.key ?? null);
      return { ...state, status: 'ready', drafts, selected };
    }
    case 'failed':
      return { ...state, status: 'failed' };
    case 'add': {
      const key = `new-${state.seq + 1}`;
      const draft = newDraft(
        key,
        action.elementType,
        action.title,
        state.drafts.map((d) => d.name),
      );
      return { ...state, seq: state.seq + 1, drafts: [...state.drafts, draft], selected: key };
    }
    case 'select':
      return state.selected === action.key ? state : { ...state, selected: action.key };
    case 'edit':
      return update(action.key, (d) => {
        const next: Draft = { ...d, ...action.patch, errors: without(d.errors, clearedBy(action.patch)) };
        if ('name' in action.patch) next.nameTouched = true;
        else if ('title' in action.patch && !d.id && !d.nameTouched) {
          next.name = suggestName(
            next.title,
            state.drafts.filter((o) => o.key !== d.key).map((o) => o.name),
          );
        }
        return next;
      });
    case 'option':
      return update(action.key, (d) => ({ ...d, options: { ...d.options, [action.option]: action.value }, errors: without(d.errors, optionErrorsCleared(action.option)) }));
    case 'errors':
      return update(action.key, (d) => ({ ...d, errors: action.errors, saving: false }));
    case 'saving':
      return update(action.key, (d) => ({ ...d, saving: true, errors: {} }));
    case 'saved':
      return update(action.key, (d) => {
        const stored = draftOf(action.record, d.key);
        // typed on while it was saving: keep that, it is simply not saved yet
        return sameFields(d, action.sent) ? stored : { ...d, id: stored.id, stored: stored.stored, nameTouched: true, saving: false, errors: {} };
      });
    case 'discard':
      return update(action.key, (d) => (d.stored ? { ...d, ...fieldsOf(d.stored), errors: {} } : d));
    case 'remove': {
      const index = state.drafts.findIndex((d) => d.key === action.key);
      const drafts = state.drafts.filter((d) => d.key !== action.key);
      const selected = state.selected === action.key ? (drafts[Math.min(index, drafts.length - 1)]?.key ?? null) : state.selected;
      return { ...state, drafts, selected };
    }
    case 'order': {
      const byKey = new Map(state.drafts.map((d) => [d.key, d]));
      const ordered = action.keys.map((k) => byKey.get(k)).filter((d): d is Draft => Boolean(d));
      // anything not named (added meanwhile) stays at the end
      const named = new Set(action.keys);
      return { ...state, drafts: [...ordered, ...state.drafts.filter((d) => !named.has(d.key))] };
    }
  }
}

export const initialState: State = { status: 'loading', drafts: [], selected: null, seq: 0 };
