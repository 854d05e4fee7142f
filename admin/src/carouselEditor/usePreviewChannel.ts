import { useCallback, useEffect, useRef, type RefObject } from 'react';
import type { EditorState } from './editorState';

/** The message the player's preview page listens for: show this slide, read the carousel again. */
export const PREVIEW_MESSAGE = 'leadstage-preview';

/**
 * The editor's side of the preview frame's postMessage channel: `tellPreview` has the player reload and show the
 * slide being edited (after every save, a slide's edit or a new order), and a change of slide is told at once.
 */
export function usePreviewChannel(stateRef: RefObject<Pick<EditorState, 'slideId'>>, slideId: string | null) {
  const previewRef = useRef<HTMLIFrameElement>(null);

  const tellPreview = useCallback(() => {
    const win = previewRef.current?.contentWindow;
    const slide = stateRef.current.slideId;
    if (!win || !slide) return;
    try {
      win.postMessage({ type: PREVIEW_MESSAGE, slideId: slide, reload: true }, window.location.origin);
    } catch {
      /* the frame is elsewhere (not loaded yet): it reads the slide from its address */
    }
  }, [stateRef]);

  useEffect(() => {
    if (slideId) tellPreview();
  }, [slideId, tellPreview]);

  return { previewRef, tellPreview };
}
