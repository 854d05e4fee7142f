import { writableFields } from '../../../resources/define';
import type { FieldMeta, ResourceDeclaration } from '../../../resources/types';
import { issuesByField, type ValidationMessage } from '../layout/zod';

/**
 * What a generated form shows and sends, from the declaration alone (no React here, so it is tested on its own):
 * which fields appear, when a `showWhen` field counts, the body a save sends, and the validation a save must pass
 * (the declaration's own zod schema, then its rule across fields on the whole record).
 */
export type FormMode = 'create' | 'update';
type Row = Record<string, unknown>;

/** The fields a form shows for a mode: never formHidden; read-only ones only when editing (as text). */
export function formFields(decl: ResourceDeclaration, mode: FormMode): [string, FieldMeta][] {
  return Object.entries(decl.fields ?? {}).filter(([, m]) => !m.formHidden && (mode === 'update' || !m.readOnly));
}

/** Shown as text instead of an input: read-only fields, and create-only ones once the record exists. */
export function isReadOnlyIn(meta: FieldMeta, mode: FormMode): boolean {
  return !!meta.readOnly || (mode === 'update' && !!meta.createOnly);
}

/** A `showWhen` field counts only while the other field has one of the listed values. */
export function isShown(meta: FieldMeta, values: Row): boolean {
  return !meta.showWhen || meta.showWhen.values.includes(values[meta.showWhen.field]);
}

/** A JSON field's form value (the stored object, or the text being typed) as a value; throws on bad JSON. */
export function parseJsonValue(value: unknown): Row | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return value as Row;
  if (value.trim() === '') return null;
  const parsed: unknown = JSON.parse(value);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
  return parsed as Row;
}

/** The JSON text shown for a stored object. */
export const formatJsonValue = (value: unknown): string => (value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/**
 * The body a save sends: only what the mode may write (never read-only, create-only only on create, never what the
 * form hides), JSON text parsed, a field hidden by `showWhen` cleared, and a secret only when replaced or cleared
 * (left alone: not sent, so the stored one stays). `jsonErrors` collects JSON fields that do not parse.
 */
export function bodyFor(decl: ResourceDeclaration, mode: FormMode, values: Row, jsonErrors: string[] = []): Row {
  const body: Row = {};
  for (const [field, meta] of writableFields(decl.fields ?? {}, mode)) {
    if (meta.formHidden) continue;
    const value = values[field];
    if (!isShown(meta, values)) {
      if (value !== undefined || mode === 'update') body[field] = null;
      continue;
    }
    if (meta.kind === 'secret') {
      if (value === undefined || value === '') continue;
      body[field] = value;
    } else if (meta.kind === 'json') {
      try {
        body[field] = parseJsonValue(value);
      } catch {
        jsonErrors.push(field);
        body[field] = value;
      }
    } else if (value !== undefined) body[field] = value;
  }
  return body;
}

/**
 * The form's validation: the declaration's create or update schema on the body a save would send, a JSON field that
 * does not parse, then `decl.check` on the whole record (stored values merged with the change) for fields that have
 * no error yet. Answers react-admin's {field: {message, args}} with message keys (translated where shown).
 */
export function validateRecord(decl: ResourceDeclaration, mode: FormMode, values: Row, record?: Row): Record<string, ValidationMessage> {
  const jsonErrors: string[] = [];
  const body = bodyFor(decl, mode, values, jsonErrors);
  const schema = mode === 'create' ? decl.create : decl.update;
  const errors: Record<string, ValidationMessage> = {};
  for (const [field, messages] of Object.entries(issuesByField(schema, body))) errors[field] = { message: messages[0], args: {} };
  for (const field of jsonErrors) errors[field] = { message: 'error_json_invalid', args: {} };
  if (decl.check) {
    const parsed = schema.safeParse(body);
    const merged = { ...(record ?? {}), ...(parsed.success ? (parsed.data as Row) : body) };
    for (const [field, message] of Object.entries(decl.check(merged) ?? {})) {
      const meta = decl.fields?.[field];
      if (errors[field] || (meta && !isShown(meta, values))) continue;
      errors[field] = { message, args: {} };
    }
  }
  return errors;
}

/** Default values of a new record: each field's declared default; switches start off. */
export function createDefaults(decl: ResourceDeclaration): Row {
  const out: Row = {};
  for (const [field, meta] of formFields(decl, 'create')) {
    if (meta.default !== undefined) out[field] = meta.default;
    else if (meta.kind === 'boolean') out[field] = false;
  }
  return out;
}

/** The field a record is shown by (its title). */
export const titleField = (decl: ResourceDeclaration): string => decl.title ?? decl.search[0] ?? decl.primaryKey;

/** A record's title in words (for toasts, confirmations and pickers). */
export function titleOf(decl: ResourceDeclaration, record: Row | undefined): string {
  const represented = record && decl.represent ? decl.represent(record) : '';
  if (represented) return represented;
  const value = record?.[titleField(decl)];
  return value === undefined || value === null || value === '' ? String(record?.id ?? '') : String(value);
}

/** The i18n key of a field's label and of an enum option's label. */
export const fieldLabelKey = (decl: ResourceDeclaration, field: string) => decl.fields?.[field]?.label ?? `resources.${decl.name}.fields.${field}`;
export const optionLabelKey = (decl: ResourceDeclaration, field: string, value: string) => `resources.${decl.name}.options.${field}.${value}`;
