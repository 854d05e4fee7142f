import { lazy, Suspense, useCallback, useMemo, useRef, useState, type ComponentProps } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import InputAdornment from '@mui/material/InputAdornment';
import Typography from '@mui/material/Typography';
import { FieldTitle, LoadingInput, PasswordInput, SelectInput, TextInput, useGetList, useInput, useRecordContext, useTranslate } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { COLOUR_RE } from '../../../resources/define';
import { formatJsonValue, optionLabelKey, titleField, titleOf } from './rules';
import { useDeclaration } from './declarations';
import { useChosenRecord } from './references';
import type { FieldInputProps } from './kinds';

/** Spec 9: a select offers a search once it has more than this many options. */
export const SEARCH_ABOVE = 15;
/** The options a reference picker loads at once (the search narrows them on the server). */
const REFERENCE_PAGE = 100;

const keep = (v: unknown) => v;

const LazyAutocomplete = lazy(() => import('./Autocomplete'));
const LazyTagsBox = lazy(() => import('./TagsBox'));

/** A search select, loaded when first needed (a list of more than 15 options). */
function AutocompleteInput(props: ComponentProps<typeof LazyAutocomplete>) {
  return (
    <Suspense fallback={<LoadingInput label={props.label} fullWidth />}>
      <LazyAutocomplete {...props} />
    </Suspense>
  );
}

/** enum: a select of the declared options, each with its translated label; a search above 15 options. */
export function EnumInput({ source, meta, decl, label, disabled, helperText, alwaysOn }: FieldInputProps) {
  const translate = useTranslate();
  const choices = (meta.options ?? []).map((value) => ({ id: value, name: translate(optionLabelKey(decl, source, value), { _: value }) }));
  const common = { source, label, choices, disabled, helperText, alwaysOn, isRequired: meta.required, fullWidth: true } as const;
  return choices.length > SEARCH_ABOVE ? <AutocompleteInput {...common} /> : <SelectInput {...common} />;
}

/**
 * reference: a picker of the referenced resource's records (in the same account: the data provider is the account's),
 * shown by their title; a plain select up to 15 records, above that a search (on the server when the resource has
 * search fields). The value is the record's id, or the declared key (e.g. a member's user id).
 */
export function ReferenceInput({ source, meta, decl, label, disabled, helperText, alwaysOn, exclude }: FieldInputProps) {
  const target = useDeclaration(meta.reference!);
  const key = meta.referenceKey ?? 'id';
  const shownBy = target ? titleField(target) : 'id';
  const serverSearch = !!target?.search.length;
  const [q, setQ] = useState('');
  const {
    data = [],
    total,
    isPending,
  } = useGetList(meta.reference!, {
    pagination: { page: 1, perPage: REFERENCE_PAGE },
    sort: target?.defaultSort ?? { field: 'id', order: 'ASC' },
    filter: serverSearch && q ? { q } : {},
  });
  // Whether to search is decided by the unfiltered size, once: typing must not turn the search back into a select.
  const size = useRef<number | undefined>(undefined);
  if (!q && total !== undefined) size.current = total;
  const searchable = (size.current ?? 0) > SEARCH_ABOVE;
  // The chosen record may lie beyond the loaded page: fetched by id, or by the key it is stored by (an API filter).
  const value = useWatch({ name: source }) as string | null | undefined;
  const chosen = useChosenRecord(meta.reference!, key, value, !isPending && !!value && !data.some((r) => r[key] === value));
  const choices = useMemo(() => {
    const all = [...data, ...chosen.filter((c) => !data.some((r) => r.id === c.id))];
    return exclude?.length ? all.filter((r) => r[key] === value || !exclude.includes(r[key])) : all;
  }, [data, chosen, exclude, key, value]);
  // Stable: react-admin's search select puts the chosen option's label back into the text whenever this changes.
  const optionText = useCallback((r: Record<string, unknown>) => (target && r ? titleOf(target, r) : String(r?.[shownBy] ?? r?.id ?? '')), [target, shownBy]);
  const common = { source, label, choices, optionValue: key, optionText, disabled, helperText, alwaysOn, isRequired: meta.required, fullWidth: true, isPending } as const;
  // Until the size is known, neither a select nor a search (one would turn into the other).
  if (size.current === undefined) return <LoadingInput label={<FieldTitle label={label} source={source} resource={decl.name} isRequired={meta.required} />} fullWidth />;
  if (searchable) return <AutocompleteInput {...common} setFilter={serverSearch ? setQ : undefined} filterToQuery={(text: string) => ({ q: text })} />;
  return <SelectInput {...common} emptyText={meta.required ? undefined : '—'} />;
}

/** colour: the #rrggbb text with a picker beside it (both edit the same value). */
export function ColourInput({ source, label, disabled, helperText, meta }: FieldInputProps) {
  const { setValue } = useFormContext();
  const translate = useTranslate();
  const value = useWatch({ name: source }) as string | null | undefined;
  const swatch = value && COLOUR_RE.test(value) ? value.toLowerCase() : '#000000';
  return (
    <TextInput
      source={source}
      label={label}
      disabled={disabled}
      isRequired={meta.required}
      helperText={helperText ?? translate('ls.generated.colour_hint', { _: '#rrggbb' })}
      fullWidth
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <Box
                component="input"
                type="color"
                value={swatch}
                disabled={disabled}
                aria-label={translate('ls.generated.colour_picker', { _: 'Pick a colour' })}
                onChange={(e: React.ChangeEvent<HTMLInputElement>) => setValue(source, e.target.value, { shouldDirty: true, shouldValidate: true })}
                sx={{ width: 28, height: 28, p: 0, border: 0, bgcolor: 'transparent', cursor: 'pointer' }}
              />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

/** json: an object as JSON text; the text is parsed on save (a bad one is an error under the input). */
export function JsonInput({ source, label, disabled, helperText, meta }: FieldInputProps) {
  const translate = useTranslate();
  return (
    <TextInput
      source={source}
      label={label}
      disabled={disabled}
      isRequired={meta.required}
      multiline
      minRows={3}
      fullWidth
      format={formatJsonValue}
      parse={keep}
      helperText={helperText ?? translate('ls.generated.json_hint', { _: 'A JSON object, e.g. {"max_length": 100}' })}
      sx={{ '& textarea': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13 } }}
    />
  );
}

type SecretMode = 'keep' | 'replace' | 'clear';

/**
 * secret: write-only. The record only says whether one is set (`<field>_set`); editing offers replace (a new value)
 * and clear; left alone, nothing is sent and the stored secret stays.
 */
export function SecretInput({ source, label, disabled, decl, meta, mode: formMode }: FieldInputProps) {
  const translate = useTranslate();
  const record = useRecordContext();
  const { setValue } = useFormContext();
  const [mode, setMode] = useState<SecretMode>('keep');
  const isSet = !!record?.[`${source}_set`];
  const set = (next: SecretMode) => {
    setMode(next);
    setValue(source, next === 'clear' ? null : next === 'replace' ? '' : undefined, { shouldDirty: true });
  };
  const hint = translate('ls.generated.secret_hint', { _: 'Stored write-only: it is never shown again.' });
  // A new record has nothing stored yet: just the field.
  if (formMode === 'create') return <PasswordInput source={source} label={label} parse={keep} disabled={disabled} autoComplete="new-password" fullWidth helperText={hint} />;
  const status = mode === 'clear' ? 'ls.generated.secret_will_clear' : isSet ? 'ls.generated.secret_set' : 'ls.generated.secret_not_set';
  return (
    <Box sx={{ width: '100%', mb: 1 }} data-testid={`secret-${source}`}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: mode === 'replace' ? 0 : 1 }}>
        <Typography variant="body2" color="text.secondary" component="span">
          <FieldTitle label={label} source={source} resource={decl.name} isRequired={meta.required} />
        </Typography>
        <Chip
          size="small"
          data-testid={`secret-${source}-status`}
          color={mode === 'clear' ? 'warning' : isSet ? 'success' : 'default'}
          variant="outlined"
          label={translate(status, { _: status })}
        />
        {!disabled && (
          <>
            {mode !== 'replace' && (
              <Button size="small" onClick={() => set('replace')}>
                {isSet ? translate('ls.generated.secret_replace', { _: 'Replace' }) : translate('ls.generated.secret_enter', { _: 'Enter one' })}
              </Button>
            )}
            {mode !== 'clear' && isSet && (
              <Button size="small" color="warning" onClick={() => set('clear')}>
                {translate('ls.generated.secret_clear', { _: 'Clear' })}
              </Button>
            )}
            {mode !== 'keep' && (
              <Button size="small" onClick={() => set('keep')}>
                {translate('ls.generated.secret_keep', { _: 'Keep the current one' })}
              </Button>
            )}
          </>
        )}
      </Box>
      {mode === 'replace' && <PasswordInput source={source} label={label} parse={keep} disabled={disabled} autoComplete="new-password" fullWidth helperText={hint} />}
    </Box>
  );
}

/**
 * tags: a chips input (type a tag, Enter or comma adds it; Backspace or a chip's cross removes one), at most the field's
 * `max` (default 20). In a list's filter bar the same input picks the tags a row may hold any of. The form field is
 * held here from the first render (a filter given in the address is the form's value at once); the chips box
 * (TagsBox.tsx, with MUI's Autocomplete, about 10 KiB gzipped) loads with the first tags field: only leads have one.
 */
export function TagsInput({ source, label, disabled, helperText, meta, alwaysOn }: FieldInputProps) {
  const translate = useTranslate();
  const { field, fieldState, isRequired } = useInput({ source, isRequired: meta.required, format: (v: unknown) => (Array.isArray(v) ? v : []) });
  const most = meta.max ?? 20;
  const error = fieldState.error?.message;
  const title = <FieldTitle label={label} source={source} isRequired={isRequired} />;
  const help = error
    ? translate(error, { _: error })
    : (helperText ?? (alwaysOn === undefined ? translate('ls.generated.tags_hint', { max: most, _: `Enter or comma adds a tag (at most ${most})` }) : undefined));
  return (
    <Suspense fallback={<LoadingInput label={title} fullWidth />}>
      <LazyTagsBox
        source={source}
        name={field.name}
        label={title}
        value={(field.value ?? []) as string[]}
        most={most}
        disabled={disabled}
        error={!!error}
        helperText={help}
        onChange={field.onChange}
        onBlur={field.onBlur}
      />
    </Suspense>
  );
}
