/** The parts of an OpenAPI 3.1 document the developer page reads (the API's own document, api/openapi/). */
export type Schema = {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  anyOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  $ref?: string;
  default?: unknown;
  description?: string;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
};
type Media = Record<string, { schema?: Schema }>;
export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
  content?: Media;
}
export interface Operation {
  tags?: string[];
  summary?: string;
  description?: string;
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Media };
  responses?: Record<string, { description?: string; $ref?: string; content?: Media }>;
  security?: Record<string, string[]>[];
}
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema>; responses?: Record<string, { description?: string }> };
}

export interface Entry {
  method: string;
  path: string;
  op: Operation;
}
export interface Group {
  tag: string;
  description?: string;
  entries: Entry[];
}

const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete'];

/** The operations grouped by tag (tags in the document's order), each group by path then method; `query` narrows. */
export function groupsOf(doc: OpenApiDocument, query = ''): Group[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const groups = new Map<string, Group>((doc.tags ?? []).map((t) => [t.name, { tag: t.name, description: t.description, entries: [] }]));
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = op.tags?.[0] ?? 'api';
      const text = `${method} ${path} ${op.summary ?? ''} ${tag}`.toLowerCase();
      if (!words.every((w) => text.includes(w))) continue;
      if (!groups.has(tag)) groups.set(tag, { tag, entries: [] });
      groups.get(tag)!.entries.push({ method, path, op });
    }
  }
  for (const g of groups.values()) g.entries.sort((a, b) => a.path.localeCompare(b.path) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method));
  return [...groups.values()].filter((g) => g.entries.length);
}

/** A schema in a few words: "string (date) | null", "one of: open, closed", "events", "array of uuid". */
export function typeText(schema: Schema | undefined): string {
  if (!schema) return '';
  if (schema.$ref) return schema.$ref.split('/').pop() ?? schema.$ref;
  if (schema.anyOf) return schema.anyOf.map(typeText).join(' | ');
  if (schema.enum) return `one of: ${schema.enum.map(String).join(', ')}`;
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any');
  if (type === 'array') return `array of ${typeText(schema.items) || 'any'}`;
  return schema.format ? `${type} (${schema.format})` : type;
}

/** The fields of a body or record schema (a $ref to a component resolved): name, type, required, default. */
export function fieldsOf(doc: OpenApiDocument, schema: Schema | undefined): { name: string; type: string; required: boolean; note: string }[] {
  const resolved = schema?.$ref ? doc.components?.schemas?.[schema.$ref.split('/').pop()!] : schema;
  if (!resolved?.properties) return [];
  const required = new Set(resolved.required ?? []);
  return Object.entries(resolved.properties).map(([name, s]) => {
    const notes = [
      s.description,
      s.default !== undefined ? `default ${JSON.stringify(s.default)}` : '',
      s.maxLength !== undefined ? `≤ ${s.maxLength} characters` : '',
      s.pattern ? `pattern ${s.pattern}` : '',
    ];
    return { name, type: typeText(s), required: required.has(name), note: notes.filter(Boolean).join('; ') };
  });
}

/** The JSON schema of a body or parameter's content, whatever its media type. */
export const contentSchema = (content: Media | undefined): { media: string; schema?: Schema } | undefined => {
  const [media, value] = Object.entries(content ?? {})[0] ?? [];
  return media ? { media, schema: value?.schema } : undefined;
};

/** A path with the console's account filled in, ready to call. */
export const withAccount = (path: string, accountId: string) => path.replace('{accountId}', accountId);
