import { memo, useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { emptyAnswer, FormRenderer, type AnswerValue, type RendererTexts } from '../renderer';
import { booleanDefault } from '../../../resources/answers';
import type { PreviewSpec } from './designerModel';
import { cssEscape } from './ElementList';

export interface DesignerPreviewProps {
  /** The elements as they are now, saved or not (one object per unchanged element: see specOf). */
  elements: readonly PreviewSpec[];
  /** The selected element's id (fe_id of the spec): outlined, and scrolled to when the selection changes. */
  selectedId: string | null;
  texts: RendererTexts;
  locale: string;
  colorScheme: 'light' | 'dark';
}

/**
 * The live preview: the shared FormRenderer over the designer's current elements. Each element's spec is one object
 * until that element changes (specOf), and the renderer's element components are memoised on it, so an edit redraws
 * one element. Edits of one element are drawn at once; structural changes go through useDeferredValue.
 */
export const DesignerPreview = memo(function DesignerPreview({ elements, selectedId, texts, locale, colorScheme }: DesignerPreviewProps) {
  const deferred = useDeferredValue(elements);
  // An edit of one element that keeps its type and list (its title, data name, required mark or options) redraws only
  // that element: cheap enough to show in the same frame as the keystroke. Anything else (a new type or list, an
  // added, deleted or moved element) waits for the deferred render, which React may interrupt.
  const shown = deferred === elements || oneElementEdited(deferred, elements) ? elements : deferred;
  const rootRef = useRef<HTMLDivElement>(null);
  const selectedName = shown.find((e) => e.fe_id === selectedId)?.fe_name;
  // The selected element is marked with an attribute on its node (not a stylesheet, which would restyle the whole
  // preview), again after each preview render since its node may have been replaced.
  useLayoutEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    const node = selectedName ? root.querySelector<HTMLElement>(`.ls-form > [data-name="${cssEscape(selectedName)}"]`) : null;
    const marked = root.querySelector<HTMLElement>('[data-fd-selected]');
    if (marked && marked !== node) marked.removeAttribute('data-fd-selected');
    if (node && !node.hasAttribute('data-fd-selected')) node.setAttribute('data-fd-selected', '');
  });
  // Scroll to the element when another one is selected (not on every keystroke), after the selection has been
  // painted: scrolling lays out the preview, which should not hold up the editor.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        const node = rootRef.current?.querySelector<HTMLElement>('[data-fd-selected]');
        const panel = rootRef.current?.closest<HTMLElement>('.fd-panel');
        if (!node || !panel || typeof node.scrollIntoView !== 'function') return;
        // only when its top is out of view (under the panel's sticky heading, or below the panel)
        const head = panel.querySelector<HTMLElement>('.fd-preview-head')?.getBoundingClientRect().bottom ?? panel.getBoundingClientRect().top;
        const top = node.getBoundingClientRect().top;
        if (top < head || top > Math.min(panel.getBoundingClientRect().bottom, window.innerHeight) - 48) node.scrollIntoView({ block: 'start' });
      });
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [selectedId]);
  return (
    <div ref={rootRef} className="fd-preview">
      <PreviewBody elements={shown} texts={texts} locale={locale} colorScheme={colorScheme} />
    </div>
  );
});

/** The same elements in the same order, one of them changed but not in its type or list items. */
function oneElementEdited(before: readonly PreviewSpec[], after: readonly PreviewSpec[]): boolean {
  if (before.length !== after.length) return false;
  let changed = 0;
  for (let i = 0; i < after.length; i++) {
    const a = before[i];
    const b = after[i];
    if (a === b) continue;
    if (++changed > 1 || a.fe_id !== b.fe_id || a.fe_type !== b.fe_type || a.items !== b.items) return false;
  }
  return true;
}

const defaults = new WeakMap<PreviewSpec, AnswerValue>();
/** A blank answer per spec object, kept, so an unchanged element gets the same value and is not redrawn. */
function defaultOf(spec: PreviewSpec): AnswerValue {
  let value = defaults.get(spec);
  if (value === undefined) {
    value = spec.fe_type === 'toggle' || spec.fe_type === 'checkbox' ? booleanDefault(spec) : emptyAnswer(spec);
    defaults.set(spec, value);
  }
  return value;
}

const PreviewBody = memo(function PreviewBody({ elements, texts, locale, colorScheme }: Omit<DesignerPreviewProps, 'selectedId'>) {
  // answers given in the preview, per element and type (a changed type starts blank again); never stored
  const [answers, setAnswers] = useState<Record<string, { type: string; value: AnswerValue }>>({});
  const byName = useRef(new Map<string, PreviewSpec>());
  const values = useMemo(() => {
    const out: Record<string, unknown> = {};
    const names = new Map<string, PreviewSpec>();
    for (const el of elements) {
      names.set(el.fe_name, el);
      const given = answers[el.fe_id];
      out[el.fe_name] = given && given.type === el.fe_type ? given.value : defaultOf(el);
    }
    byName.current = names;
    return out;
  }, [elements, answers]);
  const onChange = useCallback((name: string, value: AnswerValue) => {
    const el = byName.current.get(name);
    if (el) setAnswers((prev) => ({ ...prev, [el.fe_id]: { type: el.fe_type, value } }));
  }, []);
  return <FormRenderer elements={elements} values={values} onChange={onChange} texts={texts} locale={locale} colorScheme={colorScheme} idPrefix="fd-preview" />;
});
