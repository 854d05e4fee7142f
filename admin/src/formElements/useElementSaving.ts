import { useCallback, useRef, useState, type Dispatch, type RefObject } from 'react';
import type { DesignerApi } from './designerApi';
import { bodyOf, storedIds, validateDraft, type Draft, type DraftFields } from './designerModel';
import type { Action, State } from './designerState';
import type { T } from './ElementList';
import type { FieldFocus } from './useFieldFocus';

interface Deps {
  api: DesignerApi;
  formId: string;
  stateRef: RefObject<State>;
  dispatch: Dispatch<Action>;
  announce: (text: string) => void;
  focusOn: (key: string, target: FieldFocus['target']) => void;
  t: T;
  /** A failed call in words. */
  failure: (e: unknown) => string;
  /** A failed save as the editor's errors (the fields it names, else one text for the form). */
  fieldErrors: (e: unknown) => Record<string, string>;
}

/**
 * Storing what the designer shows: an element when its Save is pressed (checked first; a new one is then put where it
 * is shown), and the elements' order after a drag or a keyboard move (the previous order comes back on failure).
 */
export function useElementSaving({ api, formId, stateRef, dispatch, announce, focusOn, t, failure, fieldErrors }: Deps) {
  const [orderBusy, setOrderBusy] = useState(false);
  // a ref as well: a save reads it after its await, when this render's value may be old
  const orderBusyRef = useRef(false);

  /** Stores the order now shown; on failure the previous one comes back. */
  const commitOrder = useCallback(
    async (keys: string[], previous: string[]) => {
      const byKey = new Map(stateRef.current.drafts.map((d) => [d.key, d]));
      const ids = storedIds(keys.map((k) => byKey.get(k)).filter((d): d is Draft => Boolean(d)));
      const before = storedIds(previous.map((k) => byKey.get(k)).filter((d): d is Draft => Boolean(d)));
      if (ids.join() === before.join()) return; // only new elements moved: nothing stored changes
      orderBusyRef.current = true;
      setOrderBusy(true);
      try {
        await api.order(ids);
        announce(t('order_saved'));
      } catch (e) {
        dispatch({ type: 'order', keys: previous });
        announce(t('order_failed', { reason: failure(e) }));
      } finally {
        orderBusyRef.current = false;
        setOrderBusy(false);
      }
    },
    [api, announce, t, failure, stateRef, dispatch],
  );
  const onPreviewOrder = useCallback((keys: string[]) => dispatch({ type: 'order', keys }), [dispatch]);

  const onSave = useCallback(
    async (key: string) => {
      const { drafts } = stateRef.current;
      const draft = drafts.find((d) => d.key === key);
      if (!draft || draft.saving) return;
      const errors = validateDraft(draft, drafts, formId);
      if (Object.keys(errors).length) {
        dispatch({ type: 'errors', key, errors: errors as Record<string, string> });
        focusOn(key, 'error');
        announce(t('check_fields'));
        return;
      }
      const sent: DraftFields = { ...draft, options: { ...draft.options } };
      dispatch({ type: 'saving', key });
      try {
        const record = draft.id ? await api.update(draft.id, bodyOf(draft)) : await api.create(bodyOf(draft, formId));
        dispatch({ type: 'saved', key, record, sent });
        announce(t('saved_named', { name: record.fe_title }));
        if (!draft.id) {
          // a new element is stored last; put it where it is shown
          const keys = stateRef.current.drafts.map((d) => d.key);
          const ids = keys.map((k) => (k === key ? record.fe_id : stateRef.current.drafts.find((d) => d.key === k)?.id)).filter((id): id is string => Boolean(id));
          if (ids[ids.length - 1] !== record.fe_id && !orderBusyRef.current) {
            try {
              await api.order(ids);
            } catch (e) {
              announce(t('order_failed', { reason: failure(e) }));
            }
          }
        }
      } catch (e) {
        dispatch({ type: 'errors', key, errors: fieldErrors(e) });
        focusOn(key, 'error');
        announce(t('check_fields'));
      }
    },
    [api, announce, formId, t, failure, fieldErrors, focusOn, stateRef, dispatch],
  );

  return { orderBusy, commitOrder, onPreviewOrder, onSave };
}
