import { createRequire } from 'node:module';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import compression from 'compression';
import express from 'express';
import knexFactory from 'knex';
import { afterAll, describe, expect, it } from 'vitest';
import { listenApp, rawRequest } from '../helpers/rawHttp.js';
import { mountedRoutes } from '../../api/openapi/mountedRoutes.js';

/**
 * Modules that patch or bypass a library's internals (README: "Patches of library internals"). Each library is pinned
 * to the version the patch was written against, and what the patch touches is checked here, so an upgrade fails with
 * the name of the patch to re-check instead of misbehaving quietly.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8'));
const pkg = readJson('package.json') as { dependencies: Record<string, string> };
const lock = readJson('package-lock.json') as { packages: Record<string, { version?: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string> }> };

const PATCHES = {
  knex: "api/db/firstRow.ts (a read run on a connection of knex's pool without knex's query runner)",
  compression: 'api/middleware/lazyCompression.ts (compression() put on a response only when it could compress it)',
  express:
    "api/leanJson.ts (res.json without Express's general path), api/middleware/lazyCompression.ts (write/end on the app's response prototype), api/httpServer.ts (requests and responses made with the app's prototypes, which Express's app.handle then leaves alone) and api/openapi/mountedRoutes.ts (the router stack walked for the OpenAPI document)",
  zod: "admin/src/layout/noZodJsonSchema.ts and the noZodJsonSchema plugin in admin/vite.config.ts (zod's JSON Schema generator left out of the admin build)",
} as const;
type Lib = keyof typeof PATCHES;
const recheck = (lib: Lib, what: string) => `${lib}: ${what}. Re-check ${PATCHES[lib]} against this version, then move the pin in package.json and package-lock.json`;

describe('each patched library is pinned to the version installed', () => {
  for (const lib of Object.keys(PATCHES) as Lib[]) {
    it(lib, () => {
      const pinned = pkg.dependencies[lib];
      expect(pinned, recheck(lib, `package.json asks for "${pinned}", not one exact version`)).toMatch(/^\d+\.\d+\.\d+$/);
      expect(lock.packages[''].dependencies?.[lib], recheck(lib, 'package-lock.json does not ask for the version package.json pins')).toBe(pinned);
      expect(lock.packages[`node_modules/${lib}`]?.version, recheck(lib, 'package-lock.json locks another version')).toBe(pinned);
      const installed = readJson(`node_modules/${lib}/package.json`).version;
      expect(installed, recheck(lib, `${installed} is installed, the patch was checked against ${pinned}`)).toBe(pinned);
    });
  }
});

describe("@mui/material: what the admin build's noCssVarsTheme plugin (admin/vite.config.ts) takes from MUI's internals", () => {
  const MUI = '@mui/material';
  const dev = (readJson('package.json') as { devDependencies: Record<string, string> }).devDependencies;
  const mui = (what: string) => `${MUI}: ${what}. Re-check admin/src/layout/noCssVarsTheme.ts and the plugin in admin/vite.config.ts against this version, then move the pin`;

  it('is pinned (a build-time dependency) to the version installed', () => {
    expect(dev[MUI], mui(`package.json asks for "${dev[MUI]}", not one exact version`)).toMatch(/^\d+\.\d+\.\d+$/);
    expect(lock.packages[''].devDependencies?.[MUI], mui('package-lock.json does not ask for the version package.json pins')).toBe(dev[MUI]);
    expect(readJson(`node_modules/${MUI}/package.json`).version, mui('another version is installed')).toBe(dev[MUI]);
  });

  it('createTheme imports createThemeWithVars from ./createThemeWithVars.mjs and calls it only when cssVariables is not false', () => {
    const source = fs.readFileSync(path.join(ROOT, 'node_modules', MUI, 'styles', 'createTheme.mjs'), 'utf8');
    expect(source, mui('createTheme.mjs no longer imports "./createThemeWithVars.mjs" (the plugin would not match)')).toContain(
      'import createThemeWithVars from "./createThemeWithVars.mjs";',
    );
    // Every call of it comes after the `cssVariables === false` branch, which returns without it.
    const falseBranch = source.indexOf('if (cssVariables === false) {');
    expect(falseBranch, mui('createTheme no longer branches on `cssVariables === false`')).toBeGreaterThan(0);
    const calls = [...source.matchAll(/createThemeWithVars\(/g)].map((m) => m.index);
    expect(calls.length, mui('createTheme calls createThemeWithVars in another number of places')).toBe(1);
    expect(calls[0], mui('createThemeWithVars is called before the cssVariables === false branch')).toBeGreaterThan(falseBranch);
    const branch = source.slice(falseBranch, calls[0]);
    expect(branch, mui('the cssVariables === false branch no longer returns the theme itself')).toContain('return theme;');
  });
  it('ThemeProvider imports CssVarsProvider from ./ThemeProviderWithVars.mjs and renders it only for a theme with colorSchemes', () => {
    const source = fs.readFileSync(path.join(ROOT, 'node_modules', MUI, 'styles', 'ThemeProvider.mjs'), 'utf8');
    expect(source, mui('ThemeProvider.mjs no longer imports "./ThemeProviderWithVars.mjs" (the plugin would not match)')).toContain(
      'import { CssVarsProvider } from "./ThemeProviderWithVars.mjs";',
    );
    // the no-vars provider for a theme without colorSchemes, which createTheme gives when its options name none
    expect(source, mui('ThemeProvider no longer picks the no-vars provider for a theme without colorSchemes')).toContain("if (!('colorSchemes' in muiTheme)) {");
    const theme = fs.readFileSync(path.join(ROOT, 'node_modules', MUI, 'styles', 'createTheme.mjs'), 'utf8');
    expect(theme, mui("createTheme no longer returns createThemeNoVars' theme for options without colorSchemes")).toContain("if (!('colorSchemes' in options)) {");
  });
});

describe("zod: what the admin build's noZodJsonSchema plugin (admin/vite.config.ts) stands in for", () => {
  const ZOD = 'node_modules/zod/v4';
  const recheckZod = (what: string) => recheck('zod', what); // pinned by the loop above
  /** The names a module exports (`export const|function|class x`, `export { a as b }`). */
  const exportsOf = (file: string) => {
    const source = fs.readFileSync(path.join(ROOT, file), 'utf8');
    const names = [...source.matchAll(/^export (?:const|let|function\*?|async function|class) (\w+)/gm)].map((m) => m[1]);
    for (const list of source.matchAll(/^export \{([^}]*)\}(?! from)/gm))
      for (const item of list[1].split(','))
        names.push(
          item
            .trim()
            .split(/\s+as\s+/)
            .pop()!,
        );
    return names.filter(Boolean).sort();
  };

  it('the stand-in exports every name of the two modules it replaces, and nothing they lack', () => {
    const real = [...exportsOf(`${ZOD}/core/to-json-schema.js`), ...exportsOf(`${ZOD}/core/json-schema-processors.js`)].sort();
    expect(real.length, recheckZod('the two modules export nothing the test can read')).toBeGreaterThan(40);
    expect(exportsOf('admin/src/layout/noZodJsonSchema.ts'), recheckZod('the JSON Schema modules export other names')).toEqual(real);
  });

  it('the classic schemas reach the generator only through those two modules, by the paths the plugin matches', () => {
    const classic = fs.readFileSync(path.join(ROOT, ZOD, 'classic', 'schemas.js'), 'utf8');
    expect(classic, recheckZod('classic/schemas.js imports the processors from elsewhere')).toContain('import * as processors from "../core/json-schema-processors.js";');
    expect(classic, recheckZod('classic/schemas.js imports the method factories from elsewhere')).toContain(
      'import { createStandardJSONSchemaMethod, createToJSONSchemaMethod } from "../core/to-json-schema.js";',
    );
    // parsing never reaches them: only the JSON Schema methods and getters such as minLength do
    const core = fs.readFileSync(path.join(ROOT, ZOD, 'core', 'schemas.js'), 'utf8');
    expect(core, recheckZod('core/schemas.js (parsing) now imports the JSON Schema code')).not.toMatch(/json-schema|to-json-schema/);
  });
});

describe('node-polyglot: the admin build gives it Object.entries for the object.entries polyfill (admin/src/layout/objectEntries.cjs)', () => {
  const recheckPolyglot = (what: string) => `node-polyglot: ${what}. Re-check the object.entries alias in admin/vite.config.ts`;
  it('calls the polyfill as a function of one object, which is what Object.entries is', async () => {
    const source = fs.readFileSync(path.join(ROOT, 'node_modules', 'node-polyglot', 'index.js'), 'utf8');
    expect(source, recheckPolyglot("it no longer requires 'object.entries' as `entries`")).toContain("var entries = require('object.entries');");
    const calls = [...source.matchAll(/entries\(([^)]*)\)/g)].map((m) => m[1]);
    expect(calls.length, recheckPolyglot('it no longer calls entries()')).toBeGreaterThan(0);
    for (const args of calls) expect(args.split(','), recheckPolyglot(`it calls entries(${args})`)).toHaveLength(1);
    // the polyfill as node-polyglot itself resolves it (a package of its own dependencies, not ours)
    const polyfill = createRequire(path.join(ROOT, 'node_modules', 'node-polyglot', 'index.js'))('object.entries') as (o: object) => unknown;
    const shim = createRequire(import.meta.url)('../../admin/src/layout/objectEntries.cjs') as (o: object) => unknown;
    const sample = Object.assign(Object.create({ inherited: 1 }), { b: 2, a: 'x', [Symbol('s')]: 3 });
    expect(shim).toBe(Object.entries);
    expect(shim(sample)).toEqual(polyfill(sample));
  });
});

describe("knex: what api/db/firstRow.ts takes from knex's internals", () => {
  // A pg client is made without connecting; nothing here reaches a server.
  const db = knexFactory({ client: 'pg', connection: 'postgres://pins.invalid/none', pool: { min: 0, max: 1 } });
  const client = db.client as unknown as Record<string, unknown> & {
    config: { client?: unknown };
    emit(event: string, ...args: unknown[]): boolean;
    processResponse(obj: unknown, runner: unknown): unknown;
    postProcessResponse(response: unknown, queryContext: unknown): unknown;
  };
  afterAll(() => db.destroy());

  it('tells a PostgreSQL client, outside a transaction, by config.client and transacting', () => {
    expect(client.config.client, recheck('knex', 'config.client of a pg knex is no longer "pg" (firstRow would never take its path)')).toBe('pg');
    expect(client.transacting, recheck('knex', 'a client outside a transaction has `transacting` set')).toBeFalsy();
  });

  it("borrows a connection of knex's pool with acquireConnection() and gives it back with releaseConnection(connection)", () => {
    expect(typeof client.acquireConnection, recheck('knex', 'client.acquireConnection is gone')).toBe('function');
    expect((client.acquireConnection as () => unknown).length, recheck('knex', 'client.acquireConnection takes arguments now')).toBe(0);
    expect(typeof client.releaseConnection, recheck('knex', 'client.releaseConnection is gone')).toBe('function');
    expect((client.releaseConnection as (c: unknown) => unknown).length, recheck('knex', 'client.releaseConnection no longer takes (connection)')).toBe(1);
    // firstRow does not wait for the release: knex gives the connection back to the pool at once and answers a
    // promise already resolved.
    const released: unknown[] = [];
    const pool = { release: (c: unknown) => released.push(c) > 0 };
    const answer = (client.releaseConnection as (this: unknown, c: unknown) => unknown).call({ pool }, { __knexUid: 'pins' });
    expect(released, recheck('knex', 'client.releaseConnection no longer gives the connection back synchronously')).toEqual([{ __knexUid: 'pins' }]);
    expect(answer, recheck('knex', 'client.releaseConnection no longer answers a promise')).toBeInstanceOf(Promise);
  });

  it('answers first() with the first row and no post-processing, which is what firstRow returns', () => {
    const rows = [{ u_id: 'a' }, { u_id: 'b' }];
    const processed = client.processResponse({ method: 'first', response: { command: 'SELECT', rows } }, undefined);
    expect(processed, recheck('knex', "the pg client's processResponse no longer answers first() with rows[0]")).toBe(rows[0]);
    expect(client.postProcessResponse(processed, undefined), recheck('knex', 'postProcessResponse changes a row when no hook is configured')).toBe(rows[0]);
  });

  it("passes the client's query and query-error events on to the knex instance, as firstRow emits them", () => {
    const seen: unknown[][] = [];
    db.on('query', (q: unknown) => seen.push(['query', q]));
    db.on('query-error', (e: unknown, q: unknown) => seen.push(['query-error', e, q]));
    const query = { __knexUid: '__knexUid1', method: 'first', sql: 'select 1', bindings: [] };
    const err = new Error('boom');
    client.emit('query', query);
    client.emit('query-error', err, query);
    expect(seen, recheck('knex', "the client's query / query-error events no longer reach knex.on() listeners")).toEqual([
      ['query', query],
      ['query-error', err, query],
    ]);
  });
});

describe('compression: what api/middleware/lazyCompression.ts relies on', () => {
  it('exports its filter, and honours a threshold given in bytes', () => {
    expect(typeof compression.filter, recheck('compression', 'compression.filter is gone')).toBe('function');
    expect(compression.filter.length, recheck('compression', 'compression.filter no longer takes (req, res)')).toBe(2);
    expect(compression({ threshold: 1024 }).length, recheck('compression', 'the middleware is no longer (req, res, next)')).toBe(3);
  });

  it('wraps write, end and on on the response itself, calls next at once, and ends through the end it found there', () => {
    const req = new http.IncomingMessage(new net.Socket());
    const res = new http.ServerResponse(req);
    const ended: unknown[][] = [];
    // Stands for lazyCompression's prototype end: compression must call the end the response had, not its own copy.
    const foundEnd = function (this: http.ServerResponse, ...args: unknown[]) {
      ended.push(args);
      return this;
    };
    res.end = foundEnd as typeof res.end;
    let nextCalled = false;
    compression({ threshold: 1024 })(req as never, res as never, () => {
      nextCalled = true;
    });
    expect(nextCalled, recheck('compression', 'next() is not called synchronously (lazyCompression replays the call right after)')).toBe(true);
    for (const member of ['write', 'end', 'on'] as const) {
      expect(Object.hasOwn(res, member), recheck('compression', `res.${member} is no longer wrapped on the response itself`)).toBe(true);
    }
    expect(res.end, recheck('compression', 'res.end is not wrapped')).not.toBe(foundEnd);
    res.end('tiny', 'utf8');
    expect(ended, recheck('compression', 'an uncompressed end does not go through the end the response had')).toEqual([['tiny', 'utf8']]);
  });
});

describe('express: what api/leanJson.ts and api/middleware/lazyCompression.ts rely on', () => {
  it("gives every response the app's response prototype, over node's ServerResponse with no write or end of its own", async () => {
    expect(Object.getPrototypeOf(express.response), recheck('express', "express.response no longer sits on node's ServerResponse.prototype")).toBe(http.ServerResponse.prototype);
    for (const member of ['write', 'end'] as const) {
      expect(Object.hasOwn(express.response, member), recheck('express', `express.response has its own ${member} (lazyCompression would skip it)`)).toBe(false);
    }
    const app = express();
    expect(Object.getPrototypeOf(app.response), recheck('express', 'app.response no longer inherits express.response')).toBe(express.response);
    let protoOfRes: unknown;
    app.get('/', (_req, res) => {
      protoOfRes = Object.getPrototypeOf(res);
      res.end();
    });
    const { base, server } = await listenApp(app);
    try {
      await rawRequest(base, '/', 'GET');
    } finally {
      server.close();
    }
    expect(protoOfRes, recheck('express', "a response's prototype is not app.response (both patches are installed there)")).toBe(app.response);
  });

  it('reads only the settings leanJson checks in res.json and res.send', () => {
    expect(typeof express.response.json, recheck('express', 'res.json is gone')).toBe('function');
    expect(express.response.json.length, recheck('express', 'res.json no longer takes (body)')).toBe(1);
    const settings = [express.response.json, express.response.send].flatMap((fn) => [...fn.toString().matchAll(/app\.get\('([^']+)'\)/g)].map((m) => m[1]));
    expect([...new Set(settings)].sort(), recheck('express', 'res.json or res.send reads other settings than the ones leanJson checks')).toEqual([
      'etag fn',
      'json escape',
      'json replacer',
      'json spaces',
    ]);
  });
});

describe('express: what api/openapi/mountedRoutes.ts reads of the router stack', () => {
  it('finds routes through app.router.stack, layer.route {path, methods}, a mounted router by layer.handle.stack and layer.rawPath', () => {
    const app = express();
    const inner = express.Router();
    inner.get('/:id', (_req, res) => res.end());
    inner
      .route('/items')
      .post((_req, res) => res.end())
      .delete((_req, res) => res.end());
    const nested = express.Router({ mergeParams: true });
    nested.put('/order', (_req, res) => res.end());
    inner.use('/:parent/children', nested);
    app.use('/api/things', inner);
    app.get(/.*/, (_req, res) => res.end());
    const stack = (app as unknown as { router?: { stack?: { rawPath?: unknown; handle?: { stack?: unknown } }[] } }).router?.stack;
    expect(Array.isArray(stack), recheck('express', 'app.router.stack is gone')).toBe(true);
    expect(stack!.find((l) => Array.isArray(l.handle?.stack))?.rawPath, recheck('express', "a mounted router's layer no longer keeps its mount path in rawPath")).toBe(
      '/api/things',
    );
    const { routes, unnamed } = mountedRoutes(app);
    expect(
      routes.map((r) => `${r.method} ${r.path}`),
      recheck('express', 'the routes found by walking the stack changed'),
    ).toEqual(['get /api/things/:id', 'post /api/things/items', 'delete /api/things/items', 'put /api/things/:parent/children/order']);
    expect(unnamed).toHaveLength(1);
  });
});
