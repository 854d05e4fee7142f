import { useCallback, useState, type Dispatch, type RefObject } from 'react';
import type { DesignerApi } from './designerApi';
import type { Action, State } from './designerState';
import type { T } from './ElementList';

/** Deleting an element after its dialog (an unsaved one is only dropped); `confirm` is the element asked about. */
export function useDeleteElement(
  api: DesignerApi,
  stateRef: RefObject<State>,
  dispatch: Dispatch<Action>,
  announce: (text: string) => void,
  t: T,
  failure: (e: unknown) => string,
) {
  const [confirm, setConfirm] = useState<{ key: string; busy: boolean; error?: string } | null>(null);
  const onDelete = useCallback((key: string) => setConfirm({ key, busy: false }), []);

  const confirmDelete = async () => {
    if (!confirm) return;
    const draft = stateRef.current.drafts.find((d) => d.key === confirm.key);
    if (!draft) return setConfirm(null);
    const name = draft.title.trim() || draft.name;
    if (draft.id) {
      setConfirm({ ...confirm, busy: true, error: undefined });
      try {
        await api.remove(draft.id);
      } catch (e) {
        setConfirm({ ...confirm, busy: false, error: failure(e) });
        return;
      }
    }
    setConfirm(null);
    dispatch({ type: 'remove', key: draft.key });
    announce(t('deleted_named', { name }));
  };

  return { confirm, cancel: () => setConfirm(null), onDelete, confirmDelete };
}
