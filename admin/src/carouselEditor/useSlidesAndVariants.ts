import { useCallback, type Dispatch, type RefObject } from 'react';
import { slides as slidesDecl, variants as variantsDecl } from '../../../resources/carousels';
import { titleOf } from '../generated/rules';
import { ApiRequestError } from '../providers/http';
import type { T } from './Canvas';
import type { CarouselEditorApi } from './editorApi';
import type { EditorAction, EditorState } from './editorState';
import type { LayerType, Row } from './layerModel';
import type { SaveQueue } from './saveQueue';

/** The editor's dialogs: a slide's or a variant's fields (no id: a new one), a layer type's first fields, a delete, a reload. */
export type DialogState =
  | { kind: 'slide'; id?: string }
  | { kind: 'variant'; id?: string }
  | { kind: 'add'; type: LayerType }
  | { kind: 'deleteSlide' | 'deleteVariant'; id: string; busy: boolean; error?: string }
  | { kind: 'reload' };
export type DeleteDialog = Extract<DialogState, { kind: 'deleteSlide' | 'deleteVariant' }>;

/** The name of the slide or variant a delete dialog asks about. */
export function deletingName(s: EditorState, deleting: DeleteDialog): string {
  return deleting.kind === 'deleteSlide'
    ? titleOf(
        slidesDecl,
        s.slides.find((x) => x.sl_id === deleting.id),
      )
    : titleOf(
        variantsDecl,
        s.variants.find((x) => x.v_id === deleting.id),
      );
}

interface Deps {
  api: CarouselEditorApi;
  stateRef: RefObject<EditorState>;
  dispatch: Dispatch<EditorAction>;
  /** Sends what waits to be saved now; `queue` says when it is stored. */
  sync: () => void;
  queue: SaveQueue;
  tellPreview: () => void;
  announce: (text: string) => void;
  failure: (e: unknown) => string;
  t: T;
}

/** Slides and variants: choosing one, the slides' order, and deleting one after its dialog. */
export function useSlidesAndVariants({ api, stateRef, dispatch, sync, queue, tellPreview, announce, failure, t }: Deps) {
  const onSelectSlide = useCallback((slideId: string) => dispatch({ type: 'selectSlide', slideId }), [dispatch]);
  const onSelectVariant = useCallback((variantId: string) => dispatch({ type: 'selectVariant', variantId }), [dispatch]);

  const onOrderSlides = useCallback(
    async (ids: string[]) => {
      try {
        await api.orderSlides(ids);
      } catch (e) {
        throw new Error(failure(e), { cause: e });
      }
      const byId = new Map(stateRef.current.slides.map((s) => [String(s.sl_id), s]));
      dispatch({ type: 'slides', slides: ids.map((id) => byId.get(id)).filter((s): s is Row => Boolean(s)) });
      tellPreview();
    },
    [api, failure, tellPreview, stateRef, dispatch],
  );

  /** Deletes a slide or a variant (after what waits to be saved: its layers' calls would fail afterwards). */
  const confirmDelete = async (dialog: DeleteDialog, setDialog: (next: DialogState | null) => void) => {
    setDialog({ ...dialog, busy: true, error: undefined });
    sync();
    if (!(await queue.idle())) {
      setDialog({ ...dialog, busy: false, error: t('save_first') });
      return;
    }
    try {
      if (dialog.kind === 'deleteSlide') await api.removeSlide(dialog.id);
      else await api.removeVariant(dialog.id);
    } catch (e) {
      if (!(e instanceof ApiRequestError && e.status === 404)) {
        setDialog({ ...dialog, busy: false, error: failure(e) });
        return;
      }
    }
    const name = deletingName(stateRef.current, dialog);
    dispatch(dialog.kind === 'deleteSlide' ? { type: 'slideRemoved', slideId: dialog.id } : { type: 'variantRemoved', variantId: dialog.id });
    setDialog(null);
    announce(t('deleted', { name }));
    tellPreview();
  };

  return { onSelectSlide, onSelectVariant, onOrderSlides, confirmDelete };
}
