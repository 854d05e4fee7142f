import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { BooleanInput, DateInput, DateTimeInput, FieldTitle, LoadingInput, NullableBooleanInput, NumberInput, TextInput, useTranslate } from 'react-admin';
import type { FieldKind, FieldMeta, ResourceDeclaration } from '../../../resources/types';
import type { FormMode } from './rules';
import { ColourInput, EnumInput, JsonInput, ReferenceInput, SecretInput, TagsInput } from './inputs';
import {
  BooleanCell,
  ColourCell,
  DateCell,
  DateTimeCell,
  EnumCell,
  JsonCell,
  MonoCell,
  NumberCell,
  ReferenceCell,
  RichTextCell,
  SecretCell,
  TagsCell,
  TextCell,
  UrlCell,
  type CellProps,
} from './cells';

/** What an input of the table gets: the field, its metadata and declaration, and the form's mode. */
export interface FieldInputProps {
  source: string;
  meta: FieldMeta;
  decl: ResourceDeclaration;
  mode: FormMode;
  label?: string;
  disabled?: boolean;
  helperText?: ReactNode;
  /** In a list's filter bar. */
  alwaysOn?: boolean;
  /** reference: values not offered (e.g. forms an event has already); the current value stays. */
  exclude?: readonly unknown[];
}

/** How one kind of field is edited, shown in a list (and read-only in a form), and filtered. */
export interface KindUi {
  Input: ComponentType<FieldInputProps>;
  Cell: ComponentType<CellProps>;
  /** The list filter for a `filter: true` field (equality); none where equality means nothing (rich text). */
  Filter?: ComponentType<FieldInputProps>;
  /** Takes the form's full width (long texts). */
  wide?: boolean;
  /** Right-aligned in a list. */
  numeric?: boolean;
}

function PlainText({ source, label, disabled, helperText, meta, type, alwaysOn }: FieldInputProps & { type?: string }) {
  return <TextInput source={source} label={label} type={type} disabled={disabled} helperText={helperText} isRequired={meta.required} alwaysOn={alwaysOn} fullWidth />;
}

function LongText({ source, label, disabled, helperText, meta }: FieldInputProps) {
  return <TextInput source={source} label={label} disabled={disabled} helperText={helperText} isRequired={meta.required} multiline minRows={3} maxRows={16} fullWidth />;
}

function IdentifierText(props: FieldInputProps) {
  const translate = useTranslate();
  return <PlainText {...props} helperText={props.helperText ?? translate('ls.generated.identifier_hint', { _: 'Lower-case letters, digits, - and _, starting with a letter' })} />;
}

function NumberField({ source, label, disabled, helperText, meta }: FieldInputProps) {
  const translate = useTranslate();
  const bounds =
    meta.min !== undefined && meta.max !== undefined ? translate('ls.generated.number_between', { min: meta.min, max: meta.max, _: `${meta.min} – ${meta.max}` }) : undefined;
  return (
    <NumberInput
      source={source}
      label={label}
      disabled={disabled}
      isRequired={meta.required}
      min={meta.min}
      max={meta.max}
      step={meta.integer ? 1 : 'any'}
      helperText={helperText ?? bounds}
      fullWidth
    />
  );
}

function Switch({ source, label, disabled, helperText }: FieldInputProps) {
  return <BooleanInput source={source} label={label} disabled={disabled} helperText={helperText ?? false} />;
}

function BooleanFilter({ source, label, alwaysOn }: FieldInputProps) {
  return <NullableBooleanInput source={source} label={label} alwaysOn={alwaysOn} />;
}

function DateField({ source, label, disabled, helperText, meta }: FieldInputProps) {
  return <DateInput source={source} label={label} disabled={disabled} helperText={helperText} isRequired={meta.required} fullWidth />;
}

const toIso = (v: unknown) => (v instanceof Date ? v.toISOString() : v === '' ? null : v);
function DateTimeField({ source, label, disabled, helperText, meta }: FieldInputProps) {
  return <DateTimeInput source={source} label={label} disabled={disabled} helperText={helperText} isRequired={meta.required} parse={toIso} fullWidth />;
}

function UrlText(props: FieldInputProps) {
  return <PlainText {...props} type="url" />;
}

function EmailText(props: FieldInputProps) {
  return <PlainText {...props} type="email" />;
}

/* The asset picker and cell (thumbnails, the picker's dialog) load with the first form or list that has an asset field. */
const LazyAssetInput = lazy(() => import('../assets/AssetPicker').then((m) => ({ default: m.AssetInput })));
const LazyAssetCell = lazy(() => import('../assets/assetCells').then((m) => ({ default: m.AssetCell })));

function AssetInput(props: FieldInputProps) {
  return (
    <Suspense fallback={<LoadingInput label={<FieldTitle label={props.label} source={props.source} resource={props.decl.name} />} fullWidth />}>
      <LazyAssetInput {...props} />
    </Suspense>
  );
}

function AssetCell(props: CellProps) {
  return (
    <Suspense fallback={<MonoCell {...props} />}>
      <LazyAssetCell {...props} />
    </Suspense>
  );
}

/* The rich text editor (Tiptap) loads with the first form that has a richtext field. */
const LazyRichText = lazy(() => import('./RichText').then((m) => ({ default: m.RichTextField })));

function RichTextInput(props: FieldInputProps) {
  return (
    <Suspense fallback={<LoadingInput label={<FieldTitle label={props.label} source={props.source} resource={props.decl.name} />} fullWidth />}>
      <LazyRichText {...props} />
    </Suspense>
  );
}

/**
 * The one table "field kind → input / list column / filter" (STYLE.md "Screens from declarations"; react-admin's
 * guessers keep theirs as editFieldTypes/listFieldTypes). Generated and hand-written screens both draw fields from it.
 */
export const KINDS: Record<FieldKind, KindUi> = {
  text: { Input: PlainText, Cell: TextCell, Filter: PlainText },
  longtext: { Input: LongText, Cell: TextCell, Filter: PlainText, wide: true },
  richtext: { Input: RichTextInput, Cell: RichTextCell, wide: true },
  number: { Input: NumberField, Cell: NumberCell, Filter: NumberField, numeric: true },
  boolean: { Input: Switch, Cell: BooleanCell, Filter: BooleanFilter },
  date: { Input: DateField, Cell: DateCell, Filter: DateField },
  datetime: { Input: DateTimeField, Cell: DateTimeCell, Filter: DateTimeField },
  colour: { Input: ColourInput, Cell: ColourCell, Filter: PlainText },
  url: { Input: UrlText, Cell: UrlCell, Filter: PlainText },
  email: { Input: EmailText, Cell: TextCell, Filter: PlainText },
  identifier: { Input: IdentifierText, Cell: MonoCell, Filter: PlainText },
  enum: { Input: EnumInput, Cell: EnumCell, Filter: EnumInput },
  reference: { Input: ReferenceInput, Cell: ReferenceCell, Filter: ReferenceInput },
  asset: { Input: AssetInput, Cell: AssetCell, Filter: PlainText },
  secret: { Input: SecretInput, Cell: SecretCell, Filter: PlainText, wide: true },
  json: { Input: JsonInput, Cell: JsonCell, Filter: PlainText, wide: true },
  // The filter picks tags a row holds any of (filter.<field>: [...]).
  tags: { Input: TagsInput, Cell: TagsCell, Filter: TagsInput, wide: true },
};

export const kindOf = (meta: FieldMeta): KindUi => KINDS[meta.kind];
