import { memo } from 'react';
import { describedBy, FieldShell, ids, type ElementProps } from './Field';
import { asString, maxLength } from './model';
import { fill } from './texts';

/** Data names that fill the lead's own fields get the browser's autofill hints. */
const AUTOCOMPLETE: Record<string, string> = { email: 'email', first_name: 'given-name', last_name: 'family-name' };

/** text (one line) and textarea; fe_options.max_length caps the input and shows a counter. */
export const TextElement = memo(function TextElement(props: ElementProps) {
  const { el, value, emit, error, id, texts } = props;
  const text = asString(value);
  const max = maxLength(el) ?? undefined;
  const common = {
    id,
    name: el.fe_name,
    value: text,
    maxLength: max,
    'aria-required': el.fe_is_required || undefined,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(id, error, max !== undefined),
    className: 'ls-form-input',
  } as const;
  const counter =
    max !== undefined ? (
      <p id={ids(id).hint} className="ls-form-hint ls-form-counter">
        {fill(texts.characters, { count: text.length, max })}
      </p>
    ) : null;
  if (el.fe_type === 'textarea') {
    return (
      <FieldShell props={props} after={counter}>
        <textarea {...common} rows={4} onChange={(e) => emit(el.fe_name, e.target.value)} />
      </FieldShell>
    );
  }
  const isEmail = el.fe_name === 'email';
  return (
    <FieldShell props={props} after={counter}>
      <input
        {...common}
        type={isEmail ? 'email' : 'text'}
        inputMode={isEmail ? 'email' : undefined}
        autoComplete={AUTOCOMPLETE[el.fe_name] ?? 'off'}
        spellCheck={isEmail ? false : undefined}
        onChange={(e) => emit(el.fe_name, e.target.value)}
      />
    </FieldShell>
  );
});
