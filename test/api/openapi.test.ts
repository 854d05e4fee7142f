import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import request from 'supertest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startApp, type TestApp } from '../helpers/app.js';
import { listRoutes } from '../helpers/routes.js';
import { prepareDatabase } from '../../api/db/bootstrap.js';
import { RESOURCES } from '../../resources/index.js';
import { jsonSchemaOf } from '../../api/openapi/schemas.js';
import { resourceOperations } from '../../api/openapi/resourceOperations.js';

/**
 * GET /api/1/openapi.json (platform-and-flows.md section 1): every mounted route is in it, it is a valid OpenAPI 3.1
 * document, and a declaration added to the registry appears in it without code. The registry here is a temporary one
 * with the sponsors (account) and venues (platform) modules of test/fixtures added, as in addResource.test.ts.
 */
vi.mock('../../resources/registry.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../resources/registry.js')>();
  const { sponsors } = await import('../fixtures/sponsors/sponsors.js');
  const { venues } = await import('../fixtures/venues/venues.js');
  return {
    ...real,
    ACCOUNT_RESOURCES: [...real.ACCOUNT_RESOURCES, sponsors],
    ENTRY_RESOURCES: [...real.ENTRY_RESOURCES, venues],
    RESOURCES: [...real.RESOURCES, sponsors, venues],
  };
});

type Operation = {
  summary: string;
  tags: string[];
  operationId: string;
  security: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  parameters?: { name: string; in: string }[];
  responses: Record<string, unknown>;
};
type Schema = { type?: unknown; properties?: Record<string, Schema>; required?: string[]; default?: unknown; format?: string; $ref?: string };
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema>; securitySchemes: Record<string, unknown> } };

const openApiPath = (p: string) => p.replace(/:(\w+)/g, '{$1}');

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: Doc;
  let etag: string;

  beforeAll(async () => {
    t = await startApp('pglite');
    const res = await request(t.server).get('/api/1/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
    etag = res.headers.etag;
  });
  afterAll(() => t?.close());

  it('is served to anyone, as JSON, and a client may keep its copy (ETag, 304)', async () => {
    const res = await request(t.server).get('/api/1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.etag).toBe(etag);
    const again = await request(t.server).get('/api/1/openapi.json').set('If-None-Match', etag);
    expect(again.status).toBe(304);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('validates against the OpenAPI 3.1 schema', async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors, JSON.stringify(result.errors)?.slice(0, 2000)).toBeUndefined();
    expect(result.valid).toBe(true);
    // The validator does catch a broken document (it is not passing everything).
    const broken = structuredClone(doc);
    (broken.paths['/api/1/auth/web'].post as unknown as { parameters: unknown[] }).parameters = [{ name: 'x', in: 'body' }];
    expect((await new Validator().validate(broken as never)).valid).toBe(false);
  });

  it('holds every route mounted below /api/1 (read from the live router), and no route that is not mounted', () => {
    const mounted = listRoutes(t.app)
      .filter((r) => r.path.startsWith('/api/1/'))
      .map((r) => `${r.method} ${openApiPath(r.path)}`);
    expect(mounted.length).toBeGreaterThan(150);
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
    expect(mounted.filter((r) => !documented.includes(r))).toEqual([]);
    expect(documented.filter((r) => !mounted.includes(r))).toEqual([]);
  });

  it('describes every route: none falls back to "not described", each has a tag, a unique operationId and its path parameters', () => {
    const ops = Object.entries(doc.paths).flatMap(([path, byMethod]) => Object.entries(byMethod).map(([method, op]) => ({ path, method, op })));
    expect(ops.filter(({ op }) => /not described/.test(op.summary)).map(({ method, path }) => `${method} ${path}`)).toEqual([]);
    expect(new Set(ops.map(({ op }) => op.operationId)).size).toBe(ops.length);
    for (const { path, op } of ops) {
      expect(op.tags.length, path).toBe(1);
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(op.parameters?.filter((p) => p.in === 'path').map((p) => p.name) ?? [], path).toEqual(inPath);
    }
  });

  it("gives a resource's generic routes their list parameters, bodies from the declaration's schemas and responses", () => {
    const list = doc.paths['/api/1/accounts/{accountId}/events'].get;
    expect(list.parameters?.map((p) => `${p.in}:${p.name}`)).toEqual(['path:accountId', 'query:filter', 'query:sort', 'query:range']);
    expect(list.responses['200']).toMatchObject({ headers: { 'Content-Range': expect.any(Object) } });
    const create = doc.paths['/api/1/accounts/{accountId}/events'].post.requestBody!.content['application/json'].schema;
    expect(create.required).toEqual(expect.arrayContaining(['ev_title', 'ev_name']));
    expect(create.properties!.ev_start_date).toMatchObject({ anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }] });
    const update = doc.paths['/api/1/accounts/{accountId}/events/{id}'].put.requestBody!.content['application/json'].schema;
    expect(update.required).toBeUndefined();
    expect(doc.paths['/api/1/accounts/{accountId}/events/{id}'].get.responses['200']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/events' } } },
    });
    // A secret is never answered: the record says whether it is set.
    expect(doc.components.schemas.integrations.properties).toHaveProperty('in_secret_set');
    expect(doc.components.schemas.integrations.properties).not.toHaveProperty('in_secret');
    // Ordered children and the one-record settings.
    expect(doc.paths['/api/1/accounts/{accountId}/form-elements/order'].put.summary).toMatch(/Reorder/);
    expect(Object.keys(doc.paths['/api/1/accounts/{accountId}/settings']).sort()).toEqual(['get', 'put']);
    // A hand-written route with a zod schema: its body is that schema.
    const login = doc.paths['/api/1/auth/web'].post;
    expect(login.requestBody!.content['application/json'].schema.properties).toHaveProperty('u_email');
    expect(login.security).toEqual([{ csrf: [] }]);
  });

  it('says who may call: a visitor, a session (with the CSRF header on a write), or a bearer token on an account route', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['bearer', 'csrf', 'session']);
    expect(doc.paths['/api/1/openapi.json'].get.security).toEqual([]);
    expect(doc.paths['/api/1/register/{eventId}'].get.security).toEqual([]);
    expect(doc.paths['/api/1/accounts/{accountId}/events'].get.security).toEqual([{ session: [] }, { bearer: [] }]);
    expect(doc.paths['/api/1/accounts/{accountId}/events'].post.security).toEqual([{ session: [], csrf: [] }, { bearer: [] }]);
    expect(doc.paths['/api/1/users'].post.security).toEqual([{ session: [], csrf: [] }]);
    expect(doc.paths['/api/1/play/{code}/events'].post.security).toEqual([]);
    expect(doc.paths['/api/1/accounts/{accountId}/events/{id}'].get.responses['404']).toEqual({ $ref: '#/components/responses/NotFound' });
  });

  it('has a declaration added to the registry without code: an account resource and a platform resource', () => {
    expect(Object.keys(doc.paths['/api/1/accounts/{accountId}/sponsors']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/api/1/accounts/{accountId}/sponsors/{id}']).sort()).toEqual(['delete', 'get', 'put']);
    expect(doc.paths['/api/1/accounts/{accountId}/sponsors'].post.tags).toEqual(['sponsors']);
    const body = doc.paths['/api/1/accounts/{accountId}/sponsors'].post.requestBody!.content['application/json'].schema;
    expect(body.required).toEqual(['sp_title']);
    expect(body.properties!.sp_tier).toMatchObject({ enum: ['gold', 'silver', 'bronze'], default: 'silver' });
    expect(body.properties!.sp_website).toMatchObject({ anyOf: [{ type: 'string', format: 'uri' }, { type: 'null' }] });
    expect(doc.components.schemas.sponsors.properties).toHaveProperty('sp_created_at');
    expect(Object.keys(doc.paths['/api/1/venues']).sort()).toEqual(['get', 'post']);
    expect(doc.paths['/api/1/venues'].post.security).toEqual([{ session: [], csrf: [] }]);
  });

  it('names the fields a create needs as the API does: a body of just the required fields is accepted', async () => {
    await (await import('../fixtures/sponsors/20991231000001_create_sponsors.js')).up(t.db);
    await prepareDatabase(t.db);
    await t.context.permissions.refresh();
    const { a_id } = await t.account('Documented');
    const root = await t.signedIn('root');
    const schema = doc.paths['/api/1/accounts/{accountId}/sponsors'].post.requestBody!.content['application/json'].schema;
    const body = Object.fromEntries(schema.required!.map((f) => [f, 'Acme']));
    const res = await root.post(`/api/1/accounts/${a_id}/sponsors`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // Without one of them the API refuses with that field.
    const refused = await root.post(`/api/1/accounts/${a_id}/sponsors`, {});
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.fields)).toEqual(schema.required);
  });
});

describe('the schemas of every declaration', () => {
  it("converts each declaration's create and update schema (zod's input side: transforms and refinements do not throw)", () => {
    for (const decl of RESOURCES) {
      for (const mode of ['create', 'update'] as const) {
        const schema = jsonSchemaOf(decl[mode]);
        expect(schema.type, `${decl.name} ${mode}`).toBe('object');
      }
    }
  });

  it('describes history, trash and bulk where a declaration switches them on (routes the generic layer mounts)', () => {
    const sponsors = RESOURCES.find((d) => d.name === 'sponsors')!;
    const plain = [...resourceOperations(sponsors).keys()];
    expect(plain).toContain('GET /api/1/accounts/{accountId}/sponsors/export.csv');
    expect(plain).toContain('POST /api/1/accounts/{accountId}/sponsors/bulk');
    expect(plain.some((k) => /history|trash|restore|purge/.test(k))).toBe(false);
    const withBoth = { ...sponsors, history: true, trash: true, fields: { ...sponsors.fields, sp_tier: { ...sponsors.fields!.sp_tier, bulk: true } } };
    const ops = resourceOperations(withBoth);
    expect([...ops.keys()]).toEqual(
      expect.arrayContaining([
        'GET /api/1/accounts/{accountId}/sponsors/{id}/history',
        'POST /api/1/accounts/{accountId}/sponsors/{id}/history/{h_id}/revert',
        'GET /api/1/accounts/{accountId}/sponsors/trash',
        'POST /api/1/accounts/{accountId}/sponsors/{id}/restore',
        'DELETE /api/1/accounts/{accountId}/sponsors/{id}/purge',
      ]),
    );
    const bulk = ops.get('POST /api/1/accounts/{accountId}/sponsors/bulk')!.requestBody as { content: Record<string, { schema: Schema }> };
    expect(Object.keys(bulk.content['application/json'].schema.properties!.changes.properties!)).toEqual(['sp_tier']);
    expect(ops.get('DELETE /api/1/accounts/{accountId}/sponsors/{id}')!.summary).toMatch(/trash/);
  });
});
