import type { ReactNode } from 'react';
import type { FormElementSpec } from '../../../resources/answers';
import type { RendererTexts } from './texts';

/** What every element component gets from the FormRenderer. */
export interface ElementProps {
  el: FormElementSpec;
  value: unknown;
  /** Reports a new answer for this element (the FormRenderer adds the data name). */
  emit: (name: string, value: unknown) => void;
  /** Already translated. */
  error?: string;
  /** The control's id; the label, error and hint ids derive from it. */
  id: string;
  texts: RendererTexts;
  locale: string;
}

export const ids = (id: string) => ({ label: `${id}-label`, title: `${id}-title`, error: `${id}-error`, hint: `${id}-hint` });

/** The ids that describe a control: its hint (when there is one) and its error (when shown). */
export function describedBy(id: string, error: string | undefined, hint = false): string | undefined {
  const list = [hint ? ids(id).hint : '', error ? ids(id).error : ''].filter(Boolean);
  return list.length ? list.join(' ') : undefined;
}

/**
 * The required mark: an asterisk for the eye, the word for a screen reader where the control cannot say
 * aria-required itself (groups, buttons).
 */
export function RequiredMark({ texts, spoken }: { texts: RendererTexts; spoken: boolean }) {
  // The tooltip sits on the hidden asterisk: on the outer span it joined the label's name ("E-mailrequired").
  return (
    <span className="ls-form-required">
      <span aria-hidden="true" title={texts.required}>
        {' *'}
      </span>
      {spoken ? <span className="ls-form-sr"> ({texts.required})</span> : null}
    </span>
  );
}

export function ErrorText({ id, error }: { id: string; error?: string }) {
  if (!error) return null;
  return (
    <p id={ids(id).error} className="ls-form-error" role="alert">
      {error}
    </p>
  );
}

/** One control with a visible label above it. */
export function FieldShell({
  props,
  children,
  extra,
  spokenRequired = false,
  after,
}: {
  props: ElementProps;
  children: ReactNode;
  extra?: ReactNode;
  spokenRequired?: boolean;
  after?: ReactNode;
}) {
  const { el, id, error, texts } = props;
  return (
    <div className={`ls-form-field ls-form-field--${el.fe_type}${error ? ' ls-form-field--invalid' : ''}`} data-name={el.fe_name}>
      <div className="ls-form-label-row">
        <label id={ids(id).label} htmlFor={id} className="ls-form-label">
          {el.fe_title}
          {el.fe_is_required ? <RequiredMark texts={texts} spoken={spokenRequired} /> : null}
        </label>
        {extra}
      </div>
      {children}
      {after}
      <ErrorText id={id} error={error} />
    </div>
  );
}

/** A group of controls (chips, tree, days) under a legend. */
export function GroupShell({ props, children }: { props: ElementProps; children: ReactNode }) {
  const { el, id, error, texts } = props;
  return (
    <fieldset
      className={`ls-form-field ls-form-group ls-form-field--${el.fe_type}${error ? ' ls-form-field--invalid' : ''}`}
      data-name={el.fe_name}
      aria-describedby={describedBy(id, error)}
    >
      <legend id={ids(id).label} className="ls-form-label">
        <span id={ids(id).title}>{el.fe_title}</span>
        {el.fe_is_required ? <RequiredMark texts={texts} spoken /> : null}
      </legend>
      {children}
      <ErrorText id={id} error={error} />
    </fieldset>
  );
}
