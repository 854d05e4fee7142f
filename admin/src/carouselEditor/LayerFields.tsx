import { useEffect, useId, useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useGetList, useTranslate } from 'react-admin';
import { COLOUR_RE } from '../../../resources/define';
import type { FieldMeta } from '../../../resources/types';
import { useDeclaration } from '../generated/declarations';
import { fieldLabelKey, titleField, titleOf } from '../generated/rules';
import { SEARCH_ABOVE } from '../generated/inputs';
import { AssetPicker } from '../assets/AssetPicker';
import { layersDeclaration, type LayerType, type Row } from './layerModel';

export interface LayerFieldProps {
  field: string;
  meta: FieldMeta;
  value: unknown;
  /** The layer's type (which assets its picker offers). */
  type: LayerType;
  onChange: (value: unknown, extra?: { asset?: Row }) => void;
  /** A message key. */
  error?: string;
  disabled?: boolean;
}

/** The most records a reference select loads (carousels, collections, forms, form styles of one account). */
const REFERENCE_PAGE = 200;

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const orNull = (v: string) => (v === '' ? null : v);

/** The records of a referenced resource, by their title (shared by the inspector and the canvas' labels). */
export function useReferenceRecords(reference: string | undefined) {
  const target = useDeclaration(reference ?? '');
  const sortField = target ? titleField(target) : 'id';
  const sortable = !!target?.fields?.[sortField]?.sort;
  const { data = [], isPending } = useGetList<Row & { id: string }>(
    reference ?? 'none',
    { pagination: { page: 1, perPage: REFERENCE_PAGE }, sort: sortable ? { field: sortField, order: 'ASC' } : { field: 'id', order: 'ASC' }, filter: {} },
    { enabled: !!reference },
  );
  const options = data.map((r) => ({ id: String(r.id), label: target ? titleOf(target, r) : String(r.id) }));
  return { options, isPending };
}

/** One field of a layer by its kind in the declaration, as a controlled input (the canvas changes values too). */
export function LayerField(props: LayerFieldProps) {
  const translate = useTranslate();
  const { field, meta } = props;
  const label = translate(fieldLabelKey(layersDeclaration, field), { _: field });
  const error = props.error ? translate(props.error, { _: props.error, min: meta.min, max: meta.max }) : undefined;
  switch (meta.kind) {
    case 'number':
      return <NumberField {...props} label={label} errorText={error} />;
    case 'boolean':
      return (
        <FormControlLabel
          sx={{ display: 'flex', mr: 0 }}
          control={<Switch checked={!!props.value} disabled={props.disabled} onChange={(e) => props.onChange(e.target.checked)} name={field} />}
          label={label}
        />
      );
    case 'colour':
      return <ColourField {...props} label={label} errorText={error} />;
    case 'reference':
      return <ReferenceField {...props} label={label} errorText={error} />;
    case 'asset':
      return (
        <AssetPicker
          label={label}
          value={(props.value as string | null) ?? null}
          kinds={props.type === 'video' ? ['video'] : props.type === 'image' ? ['image'] : undefined}
          onChange={(id, asset) => props.onChange(id, { asset: (asset ?? undefined) as Record<string, unknown> | undefined })}
          disabled={props.disabled}
          error={!!error}
          helperText={error}
        />
      );
    default:
      return (
        <TextField
          size="small"
          fullWidth
          name={field}
          label={label}
          type={meta.kind === 'url' ? 'url' : 'text'}
          value={text(props.value)}
          disabled={props.disabled}
          error={!!error}
          helperText={error}
          required={meta.required}
          onChange={(e) => props.onChange(orNull(e.target.value))}
        />
      );
  }
}

type Labelled = LayerFieldProps & { label: string; errorText?: string };

/**
 * A whole number as typed: the text stays as it is while it is being typed (an empty box, a lone minus), and the
 * value follows whenever the text is a number; a change from elsewhere (a drag) shows at once.
 */
function NumberField({ field, meta, value, onChange, disabled, label, errorText }: Labelled) {
  const translate = useTranslate();
  const [draft, setDraft] = useState(text(value));
  const [focused, setFocused] = useState(false);
  useEffect(() => {
    if (!focused) setDraft(text(value));
  }, [value, focused]);
  const typed = draft.trim().replace(',', '.');
  const notNumber = typed !== '' && !Number.isFinite(Number(typed));
  const shownError = notNumber ? translate('error_invalid_value') : errorText;
  return (
    <TextField
      size="small"
      fullWidth
      name={field}
      label={label}
      value={draft}
      disabled={disabled}
      error={!!shownError}
      helperText={shownError}
      slotProps={{ htmlInput: { inputMode: 'numeric', 'aria-invalid': !!shownError || undefined } }}
      onFocus={() => setFocused(true)}
      onBlur={() => {
        setFocused(false);
        setDraft(text(value));
      }}
      onChange={(e) => {
        const next = e.target.value;
        setDraft(next);
        const t = next.trim().replace(',', '.');
        if (t === '') onChange(meta.default !== undefined ? meta.default : null);
        else if (Number.isFinite(Number(t))) onChange(Number(t));
      }}
    />
  );
}

function ColourField({ field, value, onChange, disabled, label, errorText }: Labelled) {
  const translate = useTranslate();
  const v = text(value);
  const swatch = COLOUR_RE.test(v) ? v.toLowerCase() : '#000000';
  return (
    <TextField
      size="small"
      fullWidth
      name={field}
      label={label}
      value={v}
      disabled={disabled}
      error={!!errorText}
      helperText={errorText ?? translate('ls.generated.colour_hint')}
      onChange={(e) => onChange(orNull(e.target.value))}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <Box
                component="input"
                type="color"
                value={swatch}
                disabled={disabled}
                aria-label={translate('ls.generated.colour_picker')}
                onChange={(e: React.ChangeEvent<HTMLInputElement>) => onChange(e.target.value)}
                sx={{ width: 24, height: 24, p: 0, border: 0, bgcolor: 'transparent', cursor: 'pointer' }}
              />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

/** A record of another resource of the account: a select, or a search above 15 records (spec 9). */
function ReferenceField({ field, meta, value, onChange, disabled, label, errorText }: Labelled) {
  const translate = useTranslate();
  const { options, isPending } = useReferenceRecords(meta.reference);
  const id = useId();
  const current = text(value);
  if (options.length > SEARCH_ABOVE) {
    const chosen = options.find((o) => o.id === current) ?? null;
    return (
      <Autocomplete
        id={id}
        size="small"
        options={options}
        value={chosen}
        disabled={disabled}
        loading={isPending}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        onChange={(_, o) => onChange(o ? o.id : null)}
        renderInput={(params) => <TextField {...params} name={field} label={label} required={meta.required} error={!!errorText} helperText={errorText} />}
      />
    );
  }
  return (
    <TextField
      select
      size="small"
      fullWidth
      name={field}
      label={label}
      value={options.some((o) => o.id === current) ? current : ''}
      disabled={disabled || isPending}
      required={meta.required}
      error={!!errorText}
      helperText={errorText}
      onChange={(e) => onChange(orNull(e.target.value))}
    >
      {!meta.required ? (
        <MenuItem value="">
          <em>{translate('ls.carouselEditor.none')}</em>
        </MenuItem>
      ) : null}
      {options.map((o) => (
        <MenuItem key={o.id} value={o.id}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
