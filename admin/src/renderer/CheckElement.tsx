import { memo } from 'react';
import { describedBy, ErrorText, ids, RequiredMark, type ElementProps } from './Field';
import { booleanDefault } from './model';

/** checkbox (one box) and toggle (the same input as a switch, role=switch); the label sits beside it. */
export const CheckElement = memo(function CheckElement(props: ElementProps) {
  const { el, value, emit, error, id, texts } = props;
  const checked = typeof value === 'boolean' ? value : booleanDefault(el);
  const isToggle = el.fe_type === 'toggle';
  return (
    <div className={`ls-form-field ls-form-field--${el.fe_type}${error ? ' ls-form-field--invalid' : ''}`} data-name={el.fe_name}>
      <div className="ls-form-check">
        <input
          id={id}
          name={el.fe_name}
          type="checkbox"
          role={isToggle ? 'switch' : undefined}
          className={isToggle ? 'ls-form-switch' : 'ls-form-checkbox'}
          checked={checked}
          aria-required={el.fe_is_required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error)}
          onChange={(e) => emit(el.fe_name, e.target.checked)}
          onKeyDown={(e) => {
            // a switch also flips on Enter (space already does, natively)
            if (isToggle && e.key === 'Enter') {
              e.preventDefault();
              emit(el.fe_name, !checked);
            }
          }}
        />
        <label id={ids(id).label} htmlFor={id} className="ls-form-label ls-form-check-label">
          {el.fe_title}
          {el.fe_is_required ? <RequiredMark texts={texts} spoken={false} /> : null}
        </label>
      </div>
      <ErrorText id={id} error={error} />
    </div>
  );
});
