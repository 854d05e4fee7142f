import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { z } from 'zod';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { MISSING, PASSWORD, startApp, type Signed, type TestApp } from '../helpers/app.js';
import { hashPassword } from '../../api/services/passwords.js';
import { businessDigest, rawSend } from '../helpers/bodies.js';
import { appOf, resourceNamesOf, writeRoutes, type WriteRoute } from '../helpers/routes.js';
import { RESOURCES } from '../../resources/index.js';
import { DEFAULT_PASSWORD_MIN_LENGTH } from '../../resources/users.js';
import { objectKey } from '../../api/storage/keys.js';

/**
 * Property-based fuzzing of every write route of the live app (found from its router stack, so a route added later is
 * fuzzed without editing this file): bodies of wrong types, nulls, 1 MB strings, deep nesting, arrays for objects, NUL
 * bytes, __proto__/constructor keys, invalid JSON, under right, wrong and bogus content types, charsets and
 * Content-Encodings. No answer may be a 5xx; every 4xx is JSON {code, message} and leaves the business tables as they
 * were. FUZZ_RUNS raises the runs per route (a failure prints fast-check's seed and path to replay it).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const MB = 1024 * 1024;
const RESOURCES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../resources');

/** Every field name a zod schema in resources/ knows (exported schemas, schema factories, resource declarations). */
async function schemaFieldNames(): Promise<string[]> {
  const names = new Set<string>();
  const collect = (json: unknown) => {
    if (json === null || typeof json !== 'object') return;
    for (const [k, v] of Object.entries(json)) {
      if (k === 'properties' && v && typeof v === 'object') for (const name of Object.keys(v)) names.add(name);
      collect(v);
    }
  };
  const visit = (value: unknown) => {
    if (value instanceof z.ZodType) collect(z.toJSONSchema(value, { io: 'input', unrepresentable: 'any' }));
    else if (value && typeof value === 'object' && !Array.isArray(value)) for (const v of Object.values(value)) if (v instanceof z.ZodType) visit(v);
  };
  for (const file of fs.readdirSync(RESOURCES_DIR).filter((f) => f.endsWith('.ts'))) {
    const mod = (await import(path.join(RESOURCES_DIR, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      // Schema factories take the password minimum length (userSchemas, resetPasswordSchema).
      if (typeof value === 'function' && /Schemas?$/.test(name)) visit((value as (n: number) => unknown)(DEFAULT_PASSWORD_MIN_LENGTH));
      else visit(value);
    }
  }
  for (const decl of RESOURCES) {
    visit(decl.create);
    visit(decl.update);
  }
  names.add('csv'); // the CSV import's JSON field, which has no schema of its own
  return [...names];
}

interface Fixtures {
  account: string;
  member: string;
  user: string;
  folder: string;
  file: string;
}

/** Fills a route's :params: a real record of the kind the segment before it names, MISSING, a non-id or a bad %-escape. */
type Variant = 'real' | 'missing' | 'not-an-id' | '%E0%A4%A';

function urlFor(route: WriteRoute, ids: Fixtures, variant: Variant): string {
  const segments = route.path.split('/');
  return segments
    .map((seg, i) => {
      if (!seg.startsWith(':')) return seg;
      if (variant !== 'real') return variant === 'missing' ? MISSING : variant;
      const param = seg.slice(1);
      const before = segments[i - 1];
      if (param === 'accountId') return ids.account;
      if (param === 'userId') return ids.user;
      if (before === 'users') return segments.includes(':accountId') ? ids.member : ids.user;
      if (before === 'accounts') return ids.account;
      if (before === 'folders') return ids.folder;
      if (before === 'files') return ids.file;
      return MISSING;
    })
    .join('/');
}

// ---- generators -----------------------------------------------------------------------------------------------

const FORBIDDEN_KEYS = ['__proto__', 'constructor', 'prototype'];
const withNul = fc.string({ maxLength: 10 }).map((s) => `${s}\u0000${s}`);
const deepText = fc
  .constantFrom(33, 1_000, 10_000, 200_000)
  .chain((n) => fc.constantFrom('['.repeat(n) + ']'.repeat(n), '{"a":'.repeat(n) + '1' + '}'.repeat(n), `[${'{"a":['.repeat(n)}${']}'.repeat(n)}]`));

function bodyText(fieldNames: string[], ids: string[]): fc.Arbitrary<string> {
  const key = fc.oneof({ arbitrary: fc.constantFrom(...fieldNames), weight: 6 }, fc.constantFrom(...FORBIDDEN_KEYS), fc.string({ maxLength: 8 }));
  const scalar = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.string({ maxLength: 20 }),
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc.emailAddress(),
    fc.uuid(),
    fc.constantFrom(...ids, MISSING, 'root', '', 'member', 'superadmin', '/files/2026/01', 'a.csv'),
    withNul,
  );
  const value = fc.oneof(
    { arbitrary: scalar, weight: 6 },
    fc.array(scalar, { maxLength: 4 }),
    fc.dictionary(key, scalar, { maxKeys: 3 }),
    fc.jsonValue({ maxDepth: 4 }),
    fc.constantFrom('x'.repeat(MB - 200), 'x'.repeat(MB + 1)),
  );
  // Objects are written as text so a __proto__ key stays a key (an object literal would set the prototype).
  const object = fc.array(fc.tuple(key, value), { maxLength: 6 }).map((pairs) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`);
  const invalid = fc.oneof(
    fc.string({ maxLength: 30 }),
    object.map((s) => s.slice(0, -1)),
    fc.constantFrom('{', '{"a":}', "{'a':1}", 'NaN', '\u0000', '[1,]', '{"a":1}{"b":2}', '\ufeff{}'),
  );
  return fc.oneof(
    { arbitrary: object, weight: 8 },
    { arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)), weight: 2 }, // arrays and scalars for objects
    { arbitrary: deepText, weight: 1 },
    { arbitrary: fc.tuple(fc.constantFrom(...fieldNames), deepText).map(([k, d]) => `{${JSON.stringify(k)}:${d}}`), weight: 1 },
    { arbitrary: invalid, weight: 2 },
  );
}

const contentType = fc.oneof(
  { arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8'), weight: 6 },
  {
    arbitrary: fc.constantFrom(
      'application/json; charset=x-bogus',
      'application/json; charset=utf-16',
      'application/json; charset=utf-bogus',
      'application/json; charset=latin1',
      'application/json; charset',
      'application/json;;;',
      'application/merge-patch+json',
      'text/plain',
      'text/csv',
      'text/csv; charset=x-bogus',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'multipart/form-data; boundary=zz',
      'application/octet-stream',
      'garbage',
      '',
    ),
    weight: 4,
  },
);
const contentEncoding = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 6 },
  { arbitrary: fc.constantFrom('gzip:real', 'identity', 'gzip', 'deflate', 'br', 'x-bogus', 'gzip, br', 'GZIP'), weight: 4 },
);

describeEachDb('fuzz: bad input to any write route gets a 4xx and changes nothing', (kind) => {
  let t: TestApp;
  let routes: WriteRoute[];
  let fieldNames: string[];
  let n = 0;
  let passwordHash: string;

  beforeAll(async () => {
    t = await startApp(kind, { csvMaxBytes: MB });
    passwordHash = await hashPassword(PASSWORD);
    routes = writeRoutes(appOf(t.server));
    fieldNames = await schemaFieldNames();
  });
  afterAll(() => t?.close());

  /** New records for one route's run (a DELETE that succeeds takes its target away). */
  async function fixtures(): Promise<Fixtures> {
    const tag = `fz${++n}`;
    const { a_id } = await t.account(`Fuzz ${tag}`);
    // Users nobody signs in as: inserted with one password hash made once (argon2 per user would be most of a run).
    const [member, user] = await t
      .db('users')
      .insert(
        [`${tag}-member@example.com`, `${tag}-user@example.com`].map((u_email) => ({
          u_email,
          u_password: passwordHash,
          u_role: 'member',
          u_is_verified: true,
          u_is_enabled: true,
        })),
      )
      .returning(['u_id']);
    await t.member(a_id, member.u_id);
    const [folder] = await t
      .db('folders')
      .insert({ fo_title: `Folder ${tag}` })
      .returning('fo_id');
    const fileId = crypto.randomUUID();
    await t.db('files').insert({ fs_id: fileId, fs_filename: `${tag}.png`, fs_type: 'image/png', fs_path: '/files/2026/01', fs_extension: 'png', fs_size: 1 });
    return { account: a_id, member: member.u_id, user: user.u_id, folder: folder.fo_id, file: fileId };
  }

  it('finds the write routes of the live app, among them every declared resource and operation', () => {
    const expected: Array<[string, string]> = [];
    const hasFields = (schema: z.ZodType) => Object.keys((z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: object }).properties ?? {}).length > 0;
    for (const decl of RESOURCES) {
      if (decl.operations.create) expected.push([decl.name, 'post']);
      // An update with no field to change (files: z.object({})) needs no route.
      if (decl.operations.update && hasFields(decl.update)) expected.push([decl.name, 'put|patch']);
      if (decl.operations.delete) expected.push([decl.name, 'delete']);
    }
    const missing = expected.filter(([name, methods]) => !routes.some((r) => methods.split('|').includes(r.method) && resourceNamesOf(r.path).includes(name)));
    expect(missing, `resources with no write route: ${JSON.stringify(missing)}; routes: ${routes.map((r) => `${r.method} ${r.path}`).join(', ')}`).toEqual([]);
    // Routes that are not resources are found too (auth, import, logo).
    expect(routes).toContainEqual({ method: 'post', path: '/api/1/users/import/csv' });
    expect(routes).toContainEqual({ method: 'post', path: '/api/1/auth/web' });
  });

  it('answers every generated body to every write route with < 500; each 4xx is {code, message} and changes nothing', async () => {
    const started = Date.now();
    const seen = new Map<string, number>();
    // One root user; signed in again only when a route's request ended its session (sign-out, password change…).
    const root: Signed = await t.signedIn('root');
    for (const route of routes) {
      const ids = await fixtures();
      if ((await root.get('/api/1/auth/me')).status !== 200) {
        await t.db('users').where('u_id', root.userId).update({ u_password: passwordHash, u_role: 'root', u_is_enabled: true, u_is_verified: true });
        root.cookies.clear();
        const { u_email } = await t.db('users').where('u_id', root.userId).first('u_email');
        expect((await root.login(u_email, PASSWORD)).status, 'root signs in again').toBe(200);
      }
      const variants: Variant[] = route.path.includes('/:') ? ['real', 'real', 'real', 'missing', 'not-an-id', '%E0%A4%A'] : ['real'];
      const property = fc.asyncProperty(
        fc.constantFrom(...variants),
        bodyText(fieldNames, Object.values(ids)),
        contentType,
        contentEncoding,
        async (variant, text, type, encoding) => {
          const url = urlFor(route, ids, variant);
          let bytes: Buffer = Buffer.from(text, 'utf8');
          const headers: Record<string, string> = {};
          if (type) headers['Content-Type'] = type;
          if (encoding === 'gzip:real') {
            bytes = zlib.gzipSync(bytes);
            headers['Content-Encoding'] = 'gzip';
          } else if (encoding) headers['Content-Encoding'] = encoding;

          const before = await businessDigest(t.db);
          const res = await rawSend(root, route.method, url, bytes, headers);
          const where = `${route.method.toUpperCase()} ${url} ${JSON.stringify(headers)} → ${res.status} ${res.text.slice(0, 200)}`;
          expect(res.status, where).toBeLessThan(500);
          const outcome = res.status < 400 ? String(res.status) : String(res.body?.code);
          seen.set(outcome, (seen.get(outcome) ?? 0) + 1);
          if (res.status >= 400) {
            expect(typeof res.body?.code, where).toBe('string');
            expect(typeof res.body?.message, where).toBe('string');
            expect(await businessDigest(t.db), `${where}: a refused request changed stored data`).toBe(before);
          }
        },
      );
      await fc.assert(property, { numRuns: RUNS });
    }
    // Keep the file's cost in view: it should stay near a minute per database on a small machine.
    const outcomes = [...seen]
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    console.info(`fuzz [${kind}]: ${routes.length} write routes × ${RUNS} runs in ${Math.round((Date.now() - started) / 1000)} s; ${outcomes}`);
    // The generators reach every layer: the parser's refusals, the routes' validation, and some successes.
    for (const code of [
      'invalid_json',
      'body_too_deep',
      'forbidden_key',
      'payload_too_large',
      'unsupported_media_type',
      'unsupported_encoding',
      'invalid_encoding',
      'validation_failed',
      'not_found',
    ])
      expect(seen.has(code), `no request was answered ${code}: ${outcomes}`).toBe(true);
    expect(
      [...seen.keys()].some((k) => /^2\d\d$/.test(k)),
      `no request succeeded: ${outcomes}`,
    ).toBe(true);
  }, 600_000);

  it('answers generated bytes and headers on a signed upload PUT with < 500; each 4xx is {code, message} and keeps nothing', async () => {
    const root = await t.signedIn('root');
    const signed = await root.post('/api/1/storage/sign', { ids: [crypto.randomUUID()], destination: null });
    expect(signed.status, signed.text).toBe(200);
    const url = new URL(signed.body[0].url, t.baseUrl);
    const key = objectKey(signed.body[0].path, signed.body[0].id);
    const stored = () => fs.existsSync(path.join(t.dataDir, 'storage', key));
    const property = fc.asyncProperty(
      fc.oneof(
        fc.uint8Array({ maxLength: 64 }),
        fc.string({ maxLength: 64 }).map((s) => Buffer.from(s)),
      ),
      contentType,
      contentEncoding,
      fc.constantFrom('signed', 'tampered', 'no-query'),
      async (body, type, encoding, signature) => {
        const query = signature === 'signed' ? url.search : signature === 'tampered' ? url.search.replace(/signature=./, 'signature=A') : '';
        const headers: Record<string, string> = {};
        if (type) headers['Content-Type'] = type;
        if (encoding) headers['Content-Encoding'] = encoding === 'gzip:real' ? 'gzip' : encoding;
        const before = await businessDigest(t.db);
        const res = await rawSend(t.client(), 'put', url.pathname + query, Buffer.from(encoding === 'gzip:real' ? zlib.gzipSync(body) : body), headers);
        const where = `PUT ${signature} ${JSON.stringify(headers)} ${body.length} bytes → ${res.status} ${res.text.slice(0, 200)}`;
        expect(res.status, where).toBeLessThan(500);
        if (res.status >= 400) {
          expect(typeof res.body?.code, where).toBe('string');
          expect(typeof res.body?.message, where).toBe('string');
          expect(await businessDigest(t.db), where).toBe(before);
          expect(stored(), `${where}: refused bytes were kept`).toBe(false);
        }
        // A PUT that succeeded is undone, so the next run meets the same empty key.
        if (res.status < 300) fs.rmSync(path.join(t.dataDir, 'storage', key), { force: true });
      },
    );
    await fc.assert(property, { numRuns: RUNS * 4 });
  }, 120_000);
});
