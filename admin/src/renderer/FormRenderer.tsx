import { useCallback, useId, useLayoutEffect, useMemo, useRef, type ComponentType } from 'react';
import type { AnswerValue, ElementType, FormElementSpec } from '../../../resources/answers';
import { ChipsMultipleElement, ChipsSingleElement } from './ChipsElement';
import { CheckElement } from './CheckElement';
import { DaysElement } from './DaysElement';
import type { ElementProps } from './Field';
import { PickerElement } from './PickerElement';
import { ReadOnlyAnswer } from './ReadOnlyAnswer';
import { SelectElement } from './SelectElement';
import { SliderElement } from './SliderElement';
import { TextElement } from './TextElement';
import { DEFAULT_TEXTS, type RendererTexts } from './texts';
import { TreeElement } from './TreeElement';
import './renderer.css';

/** The component of each element type: the one table from type to widget. */
export const ELEMENT_COMPONENTS: Record<ElementType, ComponentType<ElementProps>> = {
  text: TextElement,
  textarea: TextElement,
  date_selector_days: DaysElement,
  choice_chips_single: ChipsSingleElement,
  choice_chips_multiple: ChipsMultipleElement,
  checkbox: CheckElement,
  checkbox_tree: TreeElement,
  radio_tree: TreeElement,
  selectbox: SelectElement,
  toggle: CheckElement,
  slider: SliderElement,
  picker: PickerElement,
};

export interface FormRendererProps {
  /** The form's elements in order; list types carry their list as `items`. */
  elements: readonly FormElementSpec[];
  /** Answers by data name (fe_name); start from defaultAnswers(elements). */
  values: Readonly<Record<string, unknown>>;
  /** A new answer for one element: string, string[], boolean or number by type (see AnswerByType). */
  onChange?: (name: string, value: AnswerValue) => void;
  /** Error texts by data name, already translated; shown under the element and announced. */
  errors?: Readonly<Record<string, string | undefined>>;
  /** Draw the answers as text instead of inputs. */
  readOnly?: boolean;
  /** The renderer's words (English defaults for those missing). */
  texts?: Partial<RendererTexts>;
  /** Prefix of the element ids (default: a React id), e.g. to keep two renderers on a page apart. */
  idPrefix?: string;
  /** Month and weekday names and number formats (default en-GB). */
  locale?: string;
  /** light or dark colours, or (default) the system's. */
  colorScheme?: 'auto' | 'light' | 'dark';
  className?: string;
}

const componentOf = (type: string): ComponentType<ElementProps> | undefined => (Object.hasOwn(ELEMENT_COMPONENTS, type) ? ELEMENT_COMPONENTS[type as ElementType] : undefined);

/**
 * Draws a form's elements with plain React and one CSS file (custom properties --ls-form-*, so a form style can
 * theme it). Shared by the form designer's preview, the public registration page and the capture app.
 */
export function FormRenderer({ elements, values, onChange, errors, readOnly = false, texts, idPrefix, locale = 'en-GB', colorScheme = 'auto', className }: FormRendererProps) {
  const reactId = useId();
  const prefix = idPrefix ?? `ls-form${reactId.replace(/[^a-zA-Z0-9_-]/g, '')}`;
  // keyed by content, so a texts object written inline does not redraw every element
  const textsKey = JSON.stringify(texts ?? {});
  const allTexts = useMemo<RendererTexts>(() => ({ ...DEFAULT_TEXTS, ...(JSON.parse(textsKey) as Partial<RendererTexts>) }), [textsKey]);
  const latest = useRef(onChange);
  useLayoutEffect(() => {
    latest.current = onChange;
  });
  // one stable callback, so an element redraws only when its own answer, error or spec changes
  const emit = useCallback((name: string, value: unknown) => latest.current?.(name, value as AnswerValue), []);

  const classes = ['ls-form', readOnly ? 'ls-form--readonly' : '', className ?? ''].filter(Boolean).join(' ');
  if (readOnly) {
    return (
      <dl className={classes} data-color-scheme={colorScheme}>
        {elements.map((el) =>
          componentOf(el.fe_type) ? (
            <div key={el.fe_id} className={`ls-form-answer ls-form-answer--${el.fe_type}`} data-name={el.fe_name}>
              <dt className="ls-form-label">{el.fe_title}</dt>
              <dd>
                <ReadOnlyAnswer el={el} value={Object.hasOwn(values, el.fe_name) ? values[el.fe_name] : undefined} texts={allTexts} locale={locale} />
              </dd>
            </div>
          ) : null,
        )}
      </dl>
    );
  }
  return (
    <div className={classes} data-color-scheme={colorScheme}>
      {elements.map((el) => {
        const Element = componentOf(el.fe_type);
        if (!Element) return null; // a type this renderer does not know yet
        return (
          <Element
            key={el.fe_id}
            el={el}
            value={Object.hasOwn(values, el.fe_name) ? values[el.fe_name] : undefined}
            emit={emit}
            error={errors?.[el.fe_name] || undefined}
            id={`${prefix}-${el.fe_name}`}
            texts={allTexts}
            locale={locale}
          />
        );
      })}
    </div>
  );
}
