import { mountPathOf } from '../resources.js';
import type { ResourceDeclaration } from '../../resources/types.js';
import { bodySchemaOf, filterSchemaOf, fieldSchema, recordSchemaOf, type JsonSchema } from './schemas.js';

/** An OpenAPI operation object (the parts this project writes). */
export interface Operation {
  tags: string[];
  summary: string;
  description?: string;
  operationId?: string;
  parameters?: JsonSchema[];
  requestBody?: JsonSchema;
  responses: Record<string, JsonSchema>;
  security?: Record<string, string[]>[];
}

/** Where the document keeps a resource's record schema (components.schemas). */
export const recordRef = (decl: ResourceDeclaration) => ({ $ref: `#/components/schemas/${decl.name}` });
export const errorRef = (name: 'BadRequest' | 'NotFound' | 'Conflict') => ({ $ref: `#/components/responses/${name}` });

/** An Express path (:param) as OpenAPI writes it ({param}). */
export const openApiPath = (expressPath: string) => expressPath.replace(/[:*](\w+)/g, '{$1}');

const json = (schema: JsonSchema, description: string): JsonSchema => ({ description, content: { 'application/json': { schema } } });
const jsonBody = (schema: JsonSchema): JsonSchema => ({ required: true, content: { 'application/json': { schema } } });
const jsonQuery = (name: string, schema: JsonSchema, description: string): JsonSchema => ({ name, in: 'query', description, content: { 'application/json': { schema } } });

/** The list conventions' query parameters (ra-data-simple-rest), each a JSON value. */
export function listParameters(decl: ResourceDeclaration): JsonSchema[] {
  const sortable = [...new Set(['id', decl.primaryKey, ...decl.sortable])];
  return [
    jsonQuery('filter', filterSchemaOf(decl), 'JSON object: q (prefix search), field values (one or a list), range bounds, id (a list)'),
    jsonQuery(
      'sort',
      {
        type: 'array',
        prefixItems: [
          { type: 'string', enum: sortable },
          { type: 'string', enum: ['ASC', 'DESC'] },
        ],
        minItems: 1,
        maxItems: 2,
      },
      `JSON [field, "ASC"|"DESC"]; default [${JSON.stringify(decl.defaultSort.field)}, "${decl.defaultSort.order}"]`,
    ),
    jsonQuery('range', { type: 'array', items: { type: 'integer', minimum: 0 }, minItems: 2, maxItems: 2 }, 'JSON [start, end], inclusive, at most 1,000 rows'),
  ];
}

const CONTENT_RANGE = {
  'Content-Range': { description: 'With range, sort or filter: `<resource> <start>-<end>/<total>`', schema: { type: 'string' } },
  'X-Total-Estimated': { description: "`true` when the total is the planner's estimate (very large lists)", schema: { type: 'string' } },
};

/** The fields a bulk update may change (FieldMeta `bulk`, added with the bulk capability). */
const bulkFields = (decl: ResourceDeclaration) => Object.entries(decl.fields ?? {}).filter(([, m]) => (m as { bulk?: boolean }).bulk);

/**
 * Every generic operation a declaration gets, keyed "METHOD /path" with the full OpenAPI path (/api/1/…): list, get,
 * create, update, delete, or GET/PUT on the path itself for a singleton; PUT …/order for ordered children; the
 * capabilities every list has (export.csv, bulk) and those a declaration switches on (history, trash). Only the
 * operations whose route is mounted reach the document.
 */
export function resourceOperations(decl: ResourceDeclaration): Map<string, Operation> {
  const ops = new Map<string, Operation>();
  const base = `/api/1${openApiPath(mountPathOf(decl))}`;
  const one = (decl.labels?.en.name_one ?? decl.name).toLowerCase();
  const many = (decl.labels?.en.name_other ?? decl.name).toLowerCase();
  const tags = [decl.name];
  const record = recordRef(decl);
  const add = (method: string, path: string, op: Omit<Operation, 'tags'>) => ops.set(`${method} ${path}`, { tags, ...op });
  const notFound: Record<string, JsonSchema> = { '404': errorRef('NotFound') };
  const conflict: Record<string, JsonSchema> = decl.unique?.length ? { '409': errorRef('Conflict') } : {};

  const addHistory = (item: string) => {
    if (!decl.history) return;
    const entry: JsonSchema = {
      type: 'object',
      properties: {
        h_id: { type: 'string', format: 'uuid' },
        h_at: { type: 'string', format: 'date-time' },
        h_userid: { type: ['string', 'null'], format: 'uuid' },
        h_user_label: { type: ['string', 'null'] },
        h_action: { type: 'string', enum: ['create', 'update', 'delete', 'restore'] },
        h_changes: { type: 'object', additionalProperties: { type: 'array', minItems: 2, maxItems: 2 }, description: 'field → [before, after]; secrets only "set"/"cleared"' },
      },
    };
    add('GET', `${item}/history`, { summary: `The history of one ${one}, newest first`, responses: { '200': json({ type: 'array', items: entry }, 'the entries'), ...notFound } });
    add('POST', `${item}/history/{h_id}/revert`, {
      summary: `Put one ${one}'s fields back as they were after a history entry`,
      responses: { '200': json(record, `the ${one} as saved`), '400': errorRef('BadRequest'), ...notFound, ...conflict },
    });
  };

  if (decl.singleton) {
    add('GET', base, { summary: `The account's ${one} (defaults until first saved)`, responses: { '200': json(record, `the ${one}`) } });
    add('PUT', base, {
      summary: `Save the account's ${one} (only the fields named)`,
      requestBody: jsonBody(bodySchemaOf(decl, 'update')),
      responses: { '200': json(record, `the saved ${one}`), '400': errorRef('BadRequest') },
    });
    // Its id as answered is the account's.
    addHistory(`${base}/{id}`);
    return ops;
  }
  const item = `${base}/{id}`;
  add('GET', base, {
    summary: `List ${many}`,
    description: 'Without parameters the whole list (up to LIST_MAX_ROWS); with range, sort or filter one page and Content-Range.',
    parameters: listParameters(decl),
    responses: { '200': { ...json({ type: 'array', items: record }, `the ${many}`), headers: CONTENT_RANGE }, '400': errorRef('BadRequest') },
  });
  add('GET', item, { summary: `Get one ${one}`, responses: { '200': json(record, `the ${one}`), ...notFound } });
  add('POST', base, {
    summary: `Create ${one}`,
    requestBody: jsonBody(bodySchemaOf(decl, 'create')),
    responses: { '201': json(record, `the new ${one}`), '400': errorRef('BadRequest'), ...notFound, ...conflict },
  });
  add('PUT', item, {
    summary: `Update ${one} (only the fields named)`,
    requestBody: jsonBody(bodySchemaOf(decl, 'update')),
    responses: { '200': json(record, `the ${one} as saved`), '400': errorRef('BadRequest'), ...notFound, ...conflict },
  });
  add('DELETE', item, {
    summary: (decl as { trash?: boolean }).trash ? `Move ${one} to the trash` : `Delete ${one}`,
    responses: { '200': json(record, `the ${one} as it was`), ...notFound },
  });
  if (decl.order) {
    add('PUT', `${base}/order`, {
      summary: `Reorder the ${many} of one parent`,
      description: `The complete children of one parent (${decl.order.parent.join(', ')}) in their new order; a partial list answers 400 order_invalid.`,
      requestBody: jsonBody({ type: 'object', properties: { ids: { type: 'array', items: { type: 'string', format: 'uuid' } } }, required: ['ids'] }),
      responses: { '200': json({ type: 'array', items: record }, `the ${many} in their new order`), '400': errorRef('BadRequest'), ...notFound },
    });
  }

  add('GET', `${base}/export.csv`, {
    summary: `Export ${many} as CSV`,
    description: 'The whole filter, streamed; one column per list field, labelled in ?lang=; formula cells neutralised.',
    parameters: [...listParameters(decl).filter((p) => p.name !== 'range'), { name: 'lang', in: 'query', schema: { type: 'string', enum: ['en', 'nl'] } }],
    responses: { '200': { description: 'CSV', content: { 'text/csv': { schema: { type: 'string' } } } }, '400': errorRef('BadRequest') },
  });
  const changes = Object.fromEntries(bulkFields(decl).map(([name, meta]) => [name, fieldSchema(meta)]));
  add('POST', `${base}/bulk`, {
    summary: `Delete or update many ${many} at once`,
    description:
      'Exactly one of ids and filter (filter {} is every row); changes only of the bulk fields; one transaction, each row checked like a single write; refused rows → 400 bulk_refused and nothing changes.',
    requestBody: jsonBody({
      type: 'object',
      properties: {
        action: { type: 'string', enum: ['delete', 'update'] },
        ids: { type: 'array', items: { type: 'string', format: 'uuid' } },
        filter: filterSchemaOf(decl),
        changes: { type: 'object', properties: changes, additionalProperties: false },
      },
      required: ['action'],
    }),
    responses: {
      '200': json({ type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] }, 'how many rows changed'),
      '400': errorRef('BadRequest'),
      ...notFound,
    },
  });

  addHistory(item);
  if ((decl as { trash?: boolean }).trash) {
    add('GET', `${base}/trash`, {
      summary: `The ${many} in the trash`,
      parameters: listParameters(decl),
      responses: { '200': { ...json({ type: 'array', items: record }, `the deleted ${many}`), headers: CONTENT_RANGE }, '400': errorRef('BadRequest') },
    });
    add('POST', `${item}/restore`, {
      summary: `Restore ${one} from the trash`,
      responses: { '200': json(record, `the restored ${one}`), ...notFound, '409': errorRef('Conflict') },
    });
    add('DELETE', `${item}/purge`, { summary: `Delete ${one} from the trash for good`, responses: { '200': json(record, `the ${one} as it was`), ...notFound } });
  }
  return ops;
}

/** The record schemas of the document's components, one per declaration. */
export function recordSchemas(resources: ResourceDeclaration[]): Record<string, JsonSchema> {
  return Object.fromEntries(resources.map((d) => [d.name, recordSchemaOf(d)]));
}
