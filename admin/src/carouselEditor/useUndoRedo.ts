import { useCallback, type Dispatch, type RefObject } from 'react';
import type { T } from './Canvas';
import type { EditorAction, EditorState } from './editorState';

/** Undo and redo of the session's layer edits (the history is the reducer's): said aloud, and saved at once. */
export function useUndoRedo(stateRef: RefObject<EditorState>, dispatch: Dispatch<EditorAction>, saveAfter: (ms: number) => void, announce: (text: string) => void, t: T) {
  const undo = useCallback(() => {
    if (!stateRef.current.undo.length) return;
    saveAfter(0);
    dispatch({ type: 'undo' });
    announce(t('undone'));
  }, [stateRef, dispatch, saveAfter, announce, t]);
  const redo = useCallback(() => {
    if (!stateRef.current.redo.length) return;
    saveAfter(0);
    dispatch({ type: 'redo' });
    announce(t('redone'));
  }, [stateRef, dispatch, saveAfter, announce, t]);
  return { undo, redo };
}
