import type { ChangeEvent } from 'react';
import { styled } from '@mui/material/styles';

/**
 * A labelled text field for the public pages, styled from the MUI theme: the label above an outlined input and a
 * helper line under it (the error, announced). MUI's OutlinedInput, InputLabel, FormControl and FormHelperText
 * (with InputBase and TextareaAutosize) cost the sign-in page about 7 KB of gzipped JavaScript (README: build
 * figures). The helper line's id is `{name}-helper-text`, as MUI names it.
 */
const Root = styled('div')(({ theme }) => ({
  display: 'flex',
  flexDirection: 'column',
  margin: '8px 0 4px',
  '& label': { fontSize: '0.8125rem', fontWeight: 600, marginBottom: 4, color: theme.palette.text.secondary },
  '&.ls-field-error label': { color: theme.palette.error.main },
  '& input': {
    font: 'inherit',
    fontSize: '1rem',
    color: theme.palette.text.primary,
    background: theme.palette.background.paper,
    padding: '12px 14px',
    borderRadius: theme.shape.borderRadius,
    border: `1px solid ${theme.palette.mode === 'light' ? 'rgba(0, 0, 0, 0.23)' : 'rgba(255, 255, 255, 0.23)'}`,
    outline: 'none',
    transition: theme.transitions.create(['border-color', 'box-shadow'], { duration: theme.transitions.duration.shorter }),
    '&:hover': { borderColor: theme.palette.text.primary },
    '&:focus': { borderColor: theme.palette.primary.main, boxShadow: `0 0 0 1px ${theme.palette.primary.main}` },
    '&:disabled': { color: theme.palette.text.disabled, borderColor: theme.palette.action.disabled },
  },
  '&.ls-field-error input': { borderColor: theme.palette.error.main },
  '&.ls-field-error input:focus': { boxShadow: `0 0 0 1px ${theme.palette.error.main}` },
  '& p': { margin: '3px 14px 0', minHeight: '1.66em', fontSize: '0.75rem', lineHeight: 1.66, color: theme.palette.text.secondary },
  '&.ls-field-error p': { color: theme.palette.error.main },
}));

export function Field(props: {
  name: string;
  label: string;
  value: string;
  onChange: (e: ChangeEvent<HTMLInputElement>) => void;
  onBlur?: () => void;
  type?: string;
  autoComplete?: string;
  autoFocus?: boolean;
  required?: boolean;
  disabled?: boolean;
  error?: string;
  helperText?: string;
}) {
  const id = props.name;
  const helper = props.error ?? props.helperText ?? '';
  return (
    <Root className={props.error ? 'ls-field ls-field-error' : 'ls-field'}>
      <label htmlFor={id}>
        {props.label}
        {props.required ? ' *' : ''}
      </label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        onChange={props.onChange}
        onBlur={props.onBlur}
        autoComplete={props.autoComplete}
        autoFocus={props.autoFocus}
        required={props.required}
        disabled={props.disabled}
        aria-describedby={`${id}-helper-text`}
        aria-invalid={!!props.error}
      />
      <p id={`${id}-helper-text`} className="ls-field-helper" role={props.error ? 'alert' : undefined}>
        {helper}
      </p>
    </Root>
  );
}
