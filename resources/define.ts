import { z } from 'zod';
import { isEmail, isUuid } from './fields.js';
import { RANGE_KINDS, type FieldMeta, type Fields, type RangeKind, type ResourceDeclaration } from './types.js';
import { richTextMax, utf8Bytes } from './richtext.js';
import type { AccountResource } from './records.js';

/** Contract rules shared by every account resource (account-console.md section 1). */
export const IDENTIFIER_RE = /^[a-z][a-z0-9_-]{0,62}$/;
export const COLOUR_RE = /^#[0-9a-f]{6}$/i;
export const URL_RE = /^https?:\/\/[^\s]+$/i;
export const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

export function isDate(v: string): boolean {
  if (!DATE_RE.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

const TEXT_MAX = 500;
/** A tags field's most values when its declaration names no `max`. */
export const TAGS_MAX = 20;
const LONGTEXT_MAX = 100_000;

/** The value rule of one field, without required/optional handling. */
function valueRule(meta: FieldMeta): z.ZodTypeAny {
  const str = () => z.string({ error: 'error_invalid_value' }).trim();
  switch (meta.kind) {
    case 'text':
      return str().max(meta.max ?? TEXT_MAX, { error: 'error_too_long' });
    case 'longtext':
      return z.string({ error: 'error_invalid_value' }).max(meta.max ?? LONGTEXT_MAX, { error: 'error_too_long' });
    case 'richtext':
      // The size as sent; the API sanitises after this rule (api/crud/richtext.ts) and checks the result's size again.
      return z.string({ error: 'error_invalid_value' }).refine((v) => utf8Bytes(v) <= richTextMax(meta.max), { error: 'error_too_long' });
    case 'secret':
      return z.string({ error: 'error_invalid_value' }).max(meta.max ?? 2000, { error: 'error_too_long' });
    case 'identifier':
      return str().refine((v) => IDENTIFIER_RE.test(v), { error: 'error_identifier_invalid' });
    case 'email':
      return str().max(254, { error: 'error_too_long' }).refine(isEmail, { error: 'error_email_invalid' });
    case 'url':
      return str()
        .max(2048, { error: 'error_too_long' })
        .refine((v) => URL_RE.test(v), { error: 'error_url_invalid' });
    case 'colour':
      return str()
        .refine((v) => COLOUR_RE.test(v), { error: 'error_colour_invalid' })
        .transform((v) => v.toLowerCase());
    case 'date':
      return str().refine(isDate, { error: 'error_date_invalid' });
    case 'datetime':
      return str().refine((v) => !Number.isNaN(Date.parse(v)), { error: 'error_date_invalid' });
    case 'enum':
      return z.enum(meta.options as [string, ...string[]], { error: 'error_invalid_value' });
    case 'reference':
    case 'asset':
      return z
        .string({ error: 'error_uuid_invalid' })
        .refine(isUuid, { error: 'error_uuid_invalid' })
        .transform((v) => v.toLowerCase());
    case 'number': {
      let n = z.number({ error: 'error_number_invalid' });
      if (meta.integer) n = n.int({ error: 'error_number_invalid' });
      if (meta.min !== undefined) n = n.min(meta.min, { error: 'error_number_too_small' });
      if (meta.max !== undefined) n = n.max(meta.max, { error: 'error_number_too_large' });
      return n;
    }
    case 'boolean':
      return z.boolean({ error: 'error_invalid_value' });
    case 'json':
      return z.record(z.string(), z.unknown(), { error: 'error_invalid_value' });
    case 'tags': {
      // The error lands on the field itself (not on one item's path), so a form shows it under the input.
      const most = meta.max ?? TAGS_MAX;
      return z
        .array(z.unknown(), { error: 'error_invalid_value' })
        .transform((v) => v.map((x) => (typeof x === 'string' ? x.trim() : x)))
        .refine((v) => v.every((x) => typeof x === 'string' && IDENTIFIER_RE.test(x)), { error: 'error_tag_invalid' })
        .refine((v) => v.length <= most, { error: 'error_too_many_tags' })
        .refine((v) => new Set(v).size === v.length, { error: 'error_tags_duplicate' }) as unknown as z.ZodType<string[]>;
    }
  }
}

/** Text-like kinds: '' means "no value". */
const TEXTUAL = new Set(['text', 'longtext', 'richtext', 'secret', 'identifier', 'email', 'url', 'colour', 'date', 'datetime', 'enum', 'reference', 'asset']);

/**
 * One field's rule for a create (required: present and not empty; optional: '' and null store null; default when
 * missing) or an update (missing: untouched; a required field cannot be cleared).
 */
function fieldRule(meta: FieldMeta, mode: 'create' | 'update'): z.ZodTypeAny {
  const rule = valueRule(meta);
  const requiredMessage = meta.requiredMessage ?? 'error_required';
  const empty = (v: unknown) => v === undefined || v === null || (TEXTUAL.has(meta.kind) && typeof v === 'string' && v.trim() === '');
  const pre = z.preprocess((v) => (empty(v) ? null : v), rule.nullable());
  if (meta.required) {
    const required = pre.refine((v) => v !== null, { error: requiredMessage });
    if (mode === 'update') return required.optional();
    // A required field with a default (e.g. a role) may be left out on create.
    return meta.default !== undefined ? z.preprocess((v) => (v === undefined ? meta.default : v), required) : z.preprocess((v) => (v === undefined ? null : v), required);
  }
  // A field with a default is never empty (its column is NOT NULL): clearing it sets the default.
  const withDefault = meta.default !== undefined ? z.preprocess((v) => (v !== undefined && empty(v) ? meta.default : v), pre) : pre;
  if (mode === 'update') return withDefault.optional();
  return z.preprocess((v) => (v === undefined ? (meta.default ?? null) : v), withDefault);
}

/** The writable fields of a declaration for a mode (read-only never; create-only only on create). */
export function writableFields(fields: Fields, mode: 'create' | 'update'): [string, FieldMeta][] {
  return Object.entries(fields).filter(([, m]) => !m.readOnly && (mode === 'create' || !m.createOnly));
}

/** The zod schema of a create or update, built from the field metadata; unknown keys are dropped. */
export function schemaFor(fields: Fields, mode: 'create' | 'update'): z.ZodTypeAny {
  const shape: Record<string, z.ZodTypeAny> = {};
  for (const [name, meta] of writableFields(fields, mode)) shape[name] = fieldRule(meta, mode);
  const object = z.object(shape);
  // A partial update keeps what it does not name.
  return mode === 'update' ? object.transform((v) => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined))) : object;
}

export interface AccountResourceInput {
  name: string;
  table: string;
  /** Column prefix: <p>_id, <p>_accountid, <p>_created_at, <p>_updated_at. */
  prefix: string;
  group: string;
  grants?: ResourceDeclaration['grants'];
  icon?: ResourceDeclaration['icon'];
  menu?: ResourceDeclaration['menu'];
  labels?: ResourceDeclaration['labels'];
  fields: Fields;
  search?: string[];
  defaultSort?: { field: string; order: 'ASC' | 'DESC' };
  title?: string;
  represent?: ResourceDeclaration['represent'];
  order?: ResourceDeclaration['order'];
  check?: ResourceDeclaration['check'];
  unique?: ResourceDeclaration['unique'];
  codes?: string[];
  singleton?: boolean;
  history?: boolean;
  trash?: boolean;
  exactTotalUpTo?: number;
  tieBreak?: string;
  operations?: ResourceDeclaration['operations'];
  /** Schemas, when the generated ones need more (e.g. a rule across fields that has to run in the form). */
  create?: z.ZodTypeAny;
  update?: z.ZodTypeAny;
}

/** An account-scoped resource from its fields: keys, schemas, list columns, filters and sorts follow from them. */
export function defineAccountResource<const F extends Fields, const P extends string>(input: AccountResourceInput & { fields: F; prefix: P }): AccountResource<F, P> {
  const p = input.prefix;
  const entries = Object.entries(input.fields);
  // Equality on stored HTML finds nothing a user would look for.
  for (const [n, m] of entries) if (m.kind === 'richtext' && m.filter) throw new Error(`Resource ${input.name}: rich text field ${n} cannot be a list filter`);
  for (const [n, m] of entries)
    if (m.range && !RANGE_KINDS.includes(m.kind)) throw new Error(`Resource ${input.name}: ${n} is a ${m.kind} field; only ${RANGE_KINDS.join(', ')} fields have a range filter`);
  const secrets = entries.filter(([, m]) => m.kind === 'secret').map(([n]) => n);
  const sortable = [...entries.filter(([, m]) => m.sort).map(([n]) => n), `${p}_created_at`, `${p}_updated_at`];
  if (input.order) sortable.push(input.order.field);
  const firstText = entries.find(([, m]) => m.kind === 'text' && m.required && !m.readOnly)?.[0] ?? `${p}_created_at`;
  return {
    name: input.name,
    table: input.table,
    prefix: p,
    primaryKey: `${p}_id`,
    group: input.group,
    grants: input.grants,
    icon: input.icon,
    menu: input.menu,
    labels: input.labels,
    tenancy: 'account',
    accountKey: `${p}_accountid`,
    operations: input.operations ?? { list: 'read', get: 'read', create: 'create', update: 'update', delete: 'delete' },
    create: input.create ?? schemaFor(input.fields, 'create'),
    update: input.update ?? schemaFor(input.fields, 'update'),
    search: input.search ?? [],
    sortable: [...new Set(sortable)],
    defaultSort: input.defaultSort ?? (input.order ? { field: input.order.field, order: 'ASC' } : { field: firstText, order: 'ASC' }),
    // References filter too (an API filter, not a list filter): a picker finds a record by the key it stores, e.g. an
    // event's owner among hundreds of members by au_userid.
    filterable: entries.filter(([, m]) => m.filter || m.parent || m.kind === 'reference').map(([n]) => n),
    ranges: entries.filter(([, m]) => m.range && RANGE_KINDS.includes(m.kind)).map(([n, m]) => ({ field: n, kind: m.kind as RangeKind, from: m.range!.from, to: m.range!.to })),
    listColumns: entries.filter(([, m]) => m.list).map(([n]) => n),
    hidden: secrets,
    joined: entries.some(([, m]) => m.joined) ? Object.fromEntries(entries.filter(([, m]) => m.joined).map(([n, m]) => [n, m.joined!])) : undefined,
    fields: input.fields,
    order: input.order,
    title: input.title ?? firstText,
    represent: input.represent,
    check: input.check,
    unique: input.unique,
    codes: input.codes,
    singleton: input.singleton,
    history: input.history,
    trash: input.trash,
    exactTotalUpTo: input.exactTotalUpTo,
    tieBreak: input.tieBreak,
  };
}

/**
 * A platform resource (tenancy global: the entry admin's, at /api/1/<name>, gated by an entry_* group) from its fields,
 * like an account resource in every other way: the same generic pipeline serves both (api/crud/router.ts).
 */
export function definePlatformResource<const F extends Fields, const P extends string>(input: AccountResourceInput & { fields: F; prefix: P }): AccountResource<F, P> {
  const { accountKey: _accountKey, ...declared } = defineAccountResource(input);
  return { ...declared, tenancy: 'global' };
}

/** The fields of a declaration with their metadata, in declaration order (generated screens read this). */
export function fieldsOf(decl: ResourceDeclaration): [string, FieldMeta][] {
  return Object.entries(decl.fields ?? {});
}

/** The parent field of a child resource (e.g. fe_formid of form-elements), if any. */
export function parentFieldOf(decl: ResourceDeclaration): string | undefined {
  return fieldsOf(decl).find(([, m]) => m.parent)?.[0];
}
