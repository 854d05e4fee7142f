import type { ChangeEvent } from 'react';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';

/**
 * An outlined text field built from MUI's parts. MUI's TextField also carries Select, Menu and Popover, which the
 * public pages never use; this keeps them out of the sign-in page's JavaScript.
 */
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
  const helper = props.error ?? props.helperText ?? ' ';
  return (
    <FormControl fullWidth margin="dense" variant="outlined" error={!!props.error} required={props.required} disabled={props.disabled}>
      <InputLabel htmlFor={id}>{props.label}</InputLabel>
      <OutlinedInput
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        label={props.label + (props.required ? ' *' : '')}
        value={props.value}
        onChange={props.onChange}
        onBlur={props.onBlur}
        autoComplete={props.autoComplete}
        autoFocus={props.autoFocus}
        inputProps={{ 'aria-describedby': `${id}-helper-text`, 'aria-invalid': !!props.error }}
      />
      <FormHelperText id={`${id}-helper-text`} role={props.error ? 'alert' : undefined}>
        {helper}
      </FormHelperText>
    </FormControl>
  );
}
