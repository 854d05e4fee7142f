import { useState, type ReactNode } from 'react';
import Chip from '@mui/material/Chip';
import MuiAutocomplete from '@mui/material/Autocomplete';
import MuiTextField from '@mui/material/TextField';
import { normaliseTag } from '../../../resources/tags';

export interface TagsBoxProps {
  source: string;
  name: string;
  label: ReactNode;
  value: string[];
  most: number;
  disabled?: boolean;
  error: boolean;
  helperText: ReactNode;
  onChange: (tags: string[]) => void;
  onBlur: () => void;
}

/**
 * The chips box of a tags field (TagsInput in inputs.tsx holds the form field and loads this with MUI's Autocomplete
 * on first use): type a tag, Enter or comma adds it; Backspace or a chip's cross removes one. What is typed is made an
 * identifier (lower case, "-" for spaces), a tag once, at most `most`.
 */
export default function TagsBox({ source, name, label, value, most, disabled, error, helperText, onChange, onBlur }: TagsBoxProps) {
  const [text, setText] = useState('');
  const add = (raw: string) => {
    const tags = raw
      .split(/[,;\n]/)
      .map(normaliseTag)
      .filter(Boolean);
    const next = [...value];
    for (const t of tags) if (!next.includes(t) && next.length < most) next.push(t);
    if (next.length !== value.length) onChange(next);
    setText('');
  };
  return (
    <MuiAutocomplete<string, true, false, true>
      multiple
      freeSolo
      options={[]}
      value={value}
      inputValue={text}
      disabled={disabled}
      onInputChange={(_, v, reason) => {
        if (reason === 'input' && /[,;]/.test(v)) add(v);
        else if (reason !== 'reset') setText(v);
      }}
      onChange={(_, next, reason) => {
        if (reason === 'createOption') add(String(next[next.length - 1] ?? ''));
        else onChange([...new Set((next as string[]).map(normaliseTag).filter(Boolean))]);
      }}
      onBlur={() => {
        if (text.trim()) add(text);
        onBlur();
      }}
      renderValue={(tags, getItemProps) =>
        tags.map((tag, index) => {
          const { key, ...chip } = getItemProps({ index });
          return <Chip key={key} {...chip} label={tag} size="small" />;
        })
      }
      renderInput={(params) => (
        <MuiTextField
          {...params}
          name={name}
          label={label}
          error={error}
          helperText={helperText}
          slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': `tags-input-${source}` } }}
        />
      )}
      sx={{ minWidth: 200 }}
      fullWidth
    />
  );
}
