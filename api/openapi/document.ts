import type { Config } from '../config.js';
import { SESSION_COOKIE } from '../middleware/session.js';
import type { ResourceDeclaration } from '../../resources/types.js';
import type { MountedRoute } from './mountedRoutes.js';
import { errorRef, openApiPath, recordSchemas, resourceOperations, type Operation } from './resourceOperations.js';
import { ROUTE_NOTES, type RouteNote } from './routeNotes.js';
import { jsonSchemaOf, type JsonSchema } from './schemas.js';

export const API_PREFIX = '/api/1';

/** A route's key with its parameters unnamed, so a description matches whatever the router calls them. */
const shapeOf = (method: string, path: string) => `${method.toUpperCase()} ${openApiPath(path).replace(/\{\w+\}/g, '{}')}`;

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'Every error: the HTTP status and a stable snake_case code; the console shows the translation of error_<code>.',
  properties: {
    code: { type: 'string', examples: ['validation_failed', 'not_found', 'name_taken'] },
    message: { type: 'string', description: 'English text for a developer' },
    fields: { type: 'object', additionalProperties: { type: 'string' }, description: 'field → message key (error_…)' },
    requestId: { type: 'string', description: 'a 500 only: the id in the server log' },
  },
  required: ['code'],
};
const errorResponse = (description: string): JsonSchema => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

/** Who may call: a visitor, or a signed-in user by cookie (+ the CSRF header on a write) or, on an account's routes, a bearer token. */
function securityOf(method: string, path: string, access: RouteNote['access'], csrf: boolean): Record<string, string[]>[] {
  const write = method !== 'get';
  if (access === 'public') return write && csrf ? [{ csrf: [] }] : [];
  const cookie: Record<string, string[]> = write ? { session: [], csrf: [] } : { session: [] };
  return path.startsWith(`${API_PREFIX}/accounts/:accountId/`) ? [cookie, { bearer: [] }] : [cookie];
}

function fromNote(note: RouteNote, config: Config): Omit<Operation, 'security'> {
  const op: Omit<Operation, 'security'> = { tags: [note.tag], summary: note.summary, responses: {} };
  if (note.body) op.requestBody = { required: true, content: { 'application/json': { schema: jsonSchemaOf(note.body(config)) } } };
  else if (note.rawBody) op.requestBody = { required: true, content: { [note.rawBody]: { schema: { type: 'string', contentMediaType: note.rawBody } } } };
  const success = note.produces
    ? { description: 'OK', content: { [note.produces]: { schema: { type: 'string' } } } }
    : { description: 'OK', content: { 'application/json': { schema: {} } } };
  op.responses[String(note.status ?? 200)] = success;
  if (note.body) op.responses['400'] = errorRef('BadRequest');
  return op;
}

/** The tag of a route nobody described: its first path segment below the account, or below /api/1. */
function tagOf(path: string): string {
  const rest = path.slice(API_PREFIX.length).replace(/^\/accounts\/:accountId\//, '/');
  return rest.split('/').find((s) => s && !s.startsWith(':')) ?? 'api';
}

export interface OpenApiInput {
  /** Every mounted route of the app (mountedRoutes); those below /api/1 are the API. */
  routes: MountedRoute[];
  /** The declarations the app mounts. */
  resources: ResourceDeclaration[];
  config: Config;
  version?: string;
}

/**
 * The OpenAPI 3.1 document of the API: every route mounted below /api/1, described from its declaration (a
 * resource's generic routes and capabilities), from ROUTE_NOTES (hand-written routes), or, when neither knows it,
 * with a summary that says so; its path parameters, bodies from the same zod schemas the API validates with,
 * responses with the one error shape, and who may call it.
 */
export function buildOpenApi({ routes, resources, config, version = '1' }: OpenApiInput): JsonSchema {
  const generic = new Map<string, Operation>();
  for (const decl of resources) for (const [key, op] of resourceOperations(decl)) generic.set(shapeOf(key.split(' ')[0], key.split(' ')[1]), op);
  const notes = new Map(Object.entries(ROUTE_NOTES).map(([key, n]) => [shapeOf(key.split(' ')[0], `${API_PREFIX}${key.split(' ')[1]}`), n]));

  const paths: Record<string, Record<string, JsonSchema>> = {};
  const operationIds = new Set<string>();
  for (const route of routes) {
    if (!route.path.startsWith(`${API_PREFIX}/`)) continue;
    const key = shapeOf(route.method, route.path);
    const note = notes.get(key);
    const described = generic.get(key);
    const op: Operation = described
      ? { ...described }
      : note
        ? fromNote(note, config)
        : {
            tags: [tagOf(route.path)],
            summary: `${route.method.toUpperCase()} ${openApiPath(route.path.slice(API_PREFIX.length))} (not described yet)`,
            responses: { '200': { description: 'OK' } },
          };
    const path = openApiPath(route.path);
    const params = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: /id$/i.test(name) ? { type: 'string', format: 'uuid' } : { type: 'string' },
    }));
    let id = `${route.method}${path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;
    while (operationIds.has(id)) id += '_';
    operationIds.add(id);
    const responses = { ...op.responses };
    const access = described ? 'user' : (note?.access ?? 'user');
    if (access === 'user') {
      responses['401'] ??= errorResponse('not_logged_in (or token_invalid)');
      responses['403'] ??= errorResponse('forbidden: the role lacks the permission; csrf_invalid');
    }
    if (params.length) responses['404'] ??= errorRef('NotFound');
    responses['429'] ??= errorResponse('too_many_attempts');
    paths[path] ??= {};
    paths[path][route.method] = {
      ...op,
      operationId: id,
      ...(params.length || op.parameters ? { parameters: [...params, ...(op.parameters ?? [])] } : {}),
      responses,
      security: securityOf(route.method, route.path, access, !route.path.startsWith(`${API_PREFIX}/play/`)),
    };
  }

  const tags = [...new Set(Object.values(paths).flatMap((p) => Object.values(p).flatMap((o) => (o.tags as string[]) ?? [])))].sort().map((name) => {
    const decl = resources.find((d) => d.name === name);
    return decl?.labels ? { name, description: decl.labels.en.name_other } : { name };
  });

  return {
    openapi: '3.1.0',
    info: {
      title: 'Leadstage API',
      version,
      description:
        'Every route of the API, generated at start from the resource registry and the mounted routes. Lists follow the ra-data-simple-rest conventions; errors are {code, message, fields}.',
    },
    servers: [{ url: config.publicUrl ? config.publicUrl.replace(/\/+$/, '') : '/' }],
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    tags,
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA, ...recordSchemas(resources) },
      responses: {
        BadRequest: errorResponse('Bad input, nothing changed: validation_failed with fields, or a contract code (invalid_filter, order_invalid, …)'),
        NotFound: errorResponse('not_found: no such record, a malformed id, or another account'),
        Conflict: errorResponse('name_taken (or the declared code) with the field'),
      },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The session cookie of POST /api/1/auth/web' },
        csrf: {
          type: 'apiKey',
          in: 'header',
          name: 'X-CSRF-Token',
          description: 'On every write: the value of the readable ls.csrf-token cookie (set on the first answer), bound to the session',
        },
        bearer: { type: 'http', scheme: 'bearer', description: "An API token (/api/1/auth/tokens) on its account's routes: the token's role, no cookie, no CSRF header" },
      },
    },
  };
}
