import { z } from 'zod';
import { IDENTIFIER_RE, TAGS_MAX, writableFields } from '../../resources/define.js';
import { RICHTEXT_TAGS, richTextMax } from '../../resources/richtext.js';
import type { FieldMeta, ResourceDeclaration } from '../../resources/types.js';

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) as a plain object. */
export type JsonSchema = Record<string, unknown>;

/**
 * The JSON Schema of what a zod schema accepts (its input side: a transform's output type is not what a client
 * sends). Refinements and preprocessing that JSON Schema cannot say are left out rather than refused, so every
 * declaration converts; what they check is said by the field's format, pattern or description instead (fieldSchema).
 */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete out.$schema;
  return out;
}

const UUID: JsonSchema = { type: 'string', format: 'uuid' };
const nullable = (s: JsonSchema): JsonSchema => ({ anyOf: [s, { type: 'null' }] });

/** One field's value as JSON Schema, from its metadata (kind, bounds, options, pattern). */
export function fieldSchema(meta: FieldMeta): JsonSchema {
  const max = (fallback: number) => ({ maxLength: meta.max ?? fallback });
  switch (meta.kind) {
    case 'text':
      return { type: 'string', ...max(500) };
    case 'longtext':
      return { type: 'string', ...max(100_000) };
    case 'richtext':
      return {
        type: 'string',
        contentMediaType: 'text/html',
        description: `HTML, sanitised on write to ${RICHTEXT_TAGS.join(', ')} (a[href] http(s)/mailto only); at most ${richTextMax(meta.max)} bytes of UTF-8`,
      };
    case 'secret':
      return { type: 'string', ...max(2000), writeOnly: true };
    case 'identifier':
      return { type: 'string', pattern: IDENTIFIER_RE.source };
    case 'email':
      return { type: 'string', format: 'email', maxLength: 254 };
    case 'url':
      return { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2048 };
    case 'colour':
      return { type: 'string', pattern: '^#[0-9a-fA-F]{6}$' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'enum':
      return { type: 'string', enum: [...(meta.options ?? [])] };
    case 'reference':
    case 'asset':
      return { ...UUID, ...(meta.reference ? { description: `id of ${meta.reference}` } : {}) };
    case 'number':
      return { type: meta.integer ? 'integer' : 'number', ...(meta.min !== undefined ? { minimum: meta.min } : {}), ...(meta.max !== undefined ? { maximum: meta.max } : {}) };
    case 'boolean':
      return { type: 'boolean' };
    case 'json':
      return { type: 'object' };
    case 'tags':
      return { type: 'array', items: { type: 'string', pattern: IDENTIFIER_RE.source }, uniqueItems: true, maxItems: meta.max ?? TAGS_MAX };
  }
}

/** A field's schema with its default and description (label key, read-only), as it appears in a body or a record. */
function describedField(meta: FieldMeta, nullableValue: boolean): JsonSchema {
  const base = fieldSchema(meta);
  const value = nullableValue ? nullable(base) : base;
  return { ...value, ...(meta.default !== undefined ? { default: meta.default } : {}) };
}

/**
 * The body of a create or update: the declaration's zod schema as JSON Schema; for a declaration with field metadata
 * each field's format, pattern and default come from it, and `required` is what a create must name (a required field
 * with no default and no value the server fills). An update names any subset.
 */
export function bodySchemaOf(decl: ResourceDeclaration, mode: 'create' | 'update'): JsonSchema {
  const schema = jsonSchemaOf(decl[mode]);
  if (!decl.fields) return schema;
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required: string[] = [];
  for (const [name, meta] of writableFields(decl.fields, mode)) {
    if (!(name in properties)) continue;
    properties[name] = describedField(meta, !meta.required);
    if (mode === 'create' && meta.required && meta.default === undefined && !meta.filled) required.push(name);
  }
  const out: JsonSchema = { ...schema, type: 'object', properties };
  delete out.required;
  if (required.length) out.required = required;
  return out;
}

/**
 * A record as the API answers it: every field (a secret only as `<field>_set`), the keys and times, and `id` (its
 * primary key again, for ra-data-simple-rest). A declaration without field metadata: its create schema's fields.
 */
export function recordSchemaOf(decl: ResourceDeclaration): JsonSchema {
  const properties: Record<string, JsonSchema> = { id: { ...UUID, description: `equal to ${decl.primaryKey}` }, [decl.primaryKey]: UUID };
  if (decl.accountKey) properties[decl.accountKey] = UUID;
  const hidden = new Set(decl.hidden ?? []);
  if (decl.fields) {
    const prefix = decl.primaryKey.replace(/_id$/, '');
    for (const [name, meta] of Object.entries(decl.fields)) {
      if (meta.kind === 'secret') properties[`${name}_set`] = { type: 'boolean', description: `whether ${name} is set (the secret itself is never sent)` };
      else if (!hidden.has(name)) properties[name] = { ...describedField(meta, !meta.required), ...(meta.readOnly ? { readOnly: true } : {}) };
    }
    for (const at of ['created_at', 'updated_at']) properties[`${prefix}_${at}`] ??= { type: 'string', format: 'date-time', readOnly: true };
  } else {
    const create = jsonSchemaOf(decl.create).properties as Record<string, JsonSchema> | undefined;
    for (const [name, s] of Object.entries(create ?? {})) if (!hidden.has(name) && !/password/.test(name)) properties[name] = s;
  }
  return { type: 'object', properties, additionalProperties: true };
}

/** The list's `filter` object: q (prefix search), equality on the filterable fields (a value or a list), ranges, ids. */
export function filterSchemaOf(decl: ResourceDeclaration): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    id: { type: 'array', items: UUID, description: 'only these records' },
  };
  if (decl.search.length) properties.q = { type: 'string', description: `case-insensitive prefix of ${decl.search.join(', ')}` };
  for (const name of decl.filterable) {
    const meta = decl.fields?.[name];
    if (meta?.kind === 'tags') {
      const tag = { type: 'string', pattern: IDENTIFIER_RE.source };
      properties[name] = { anyOf: [tag, { type: 'array', items: tag }], description: `records whose ${name} hold any of these` };
      continue;
    }
    const value = meta ? fieldSchema(meta) : { type: 'string' };
    properties[name] = { anyOf: [value, { type: 'array', items: value }] };
  }
  for (const r of decl.ranges ?? []) {
    const bound: JsonSchema =
      r.kind === 'number'
        ? { anyOf: [{ type: 'number' }, { type: 'string', pattern: '^-?[0-9]+(\\.[0-9]+)?$' }], description: 'a number' }
        : { type: 'string', description: r.kind === 'date' ? 'YYYY-MM-DD' : 'YYYY-MM-DD (that whole day, UTC) or an ISO 8601 time' };
    properties[r.from] = { ...bound, description: `${r.field} from (inclusive): ${bound.description}` };
    properties[r.to] = { ...bound, description: `${r.field} to (inclusive): ${bound.description}` };
  }
  return { type: 'object', properties, additionalProperties: false };
}
