import fs from 'node:fs';
import path from 'node:path';
import { builtinModules } from 'node:module';
import { expect, it } from 'vitest';
import { ROOT, runtimeImports } from '../helpers/imports.js';

/**
 * package.json says what the production image installs (`npm ci --omit=dev`): exactly the packages the server's
 * code imports. Browser-only packages (charts, QR codes, the barcode polyfill) belong with the build tools, and every
 * package any code imports must be declared (not reached through another package's dependencies).
 */
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : sourceFiles(rel);
    return /\.(ts|tsx|mts|mjs|js)$/.test(e.name) && !/\.d\.ts$/.test(e.name) ? [rel] : [];
  });
}

const builtins = new Set(builtinModules);

/** The packages a set of folders imports (bare specifiers, by package name), with a file that does. */
// Developer scripts that drive a browser (never run by the server or the image): their packages are build tools.
const DEV_SCRIPTS = new Set(['scripts/demo-screenshots.ts']);

function importedPackages(dirs: string[], skip: Set<string> = new Set()): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of dirs.flatMap(sourceFiles).filter((f) => !skip.has(f))) {
    // line comments out: they may quote an import
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/^\s*\/\/.*$/gm, '');
    for (const spec of runtimeImports(text)) {
      if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:') || spec.startsWith('virtual:')) continue;
      const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
      if (builtins.has(name)) continue;
      if (!found.has(name)) found.set(name, file);
    }
  }
  return found;
}

// What the compiled server is made of (tsconfig.build.json's include).
const SERVER = ['api', 'resources', 'migrations', 'seeds', 'scripts'];
// Loaded by name, not imported: knex's PostgreSQL client, and PGlite (knex-pglite's peer; we import only its types).
const LOADED_BY_NAME = ['pg', '@electric-sql/pglite'];

it('the runtime dependencies are exactly what the server imports', () => {
  const server = importedPackages(SERVER, DEV_SCRIPTS);
  const runtime = Object.keys(pkg.dependencies).sort();
  // a server import missing from dependencies would be absent from the production image
  expect([...server.keys()].filter((n) => !(n in pkg.dependencies)).map((n) => `${n} (${server.get(n)})`)).toEqual([]);
  // a dependency no server code imports only makes the image bigger
  expect(runtime.filter((n) => !server.has(n) && !LOADED_BY_NAME.includes(n))).toEqual([]);
});

it('every package any code imports is declared in package.json', () => {
  const all = importedPackages([...SERVER, 'admin', 'test', 'bench']);
  const declared = { ...pkg.dependencies, ...pkg.devDependencies };
  expect([...all.keys()].filter((n) => !(n in declared)).map((n) => `${n} (${all.get(n)})`)).toEqual([]);
});

/**
 * package.json's `engines.node` is this repository's floor (Node 20.19: the first 20 that loads ES modules with
 * require()). A runtime package whose own `engines` leaves that floor out is named here with the reason it is kept;
 * one that starts to (an upgrade) fails this test, so the floor is not given up by accident.
 */
const ABOVE_THE_FLOOR: Record<string, string> = {
  // the maintained PostgreSQL queue; v10 (the last for Node 20) lacks the policies and singleton slots we use. Runs and
  // is tested here on Node 20; the image is Node 24.
  'pg-boss': '>=22.12.0',
  // 2.18 brought prototype-safe option merging; 2.17 declares no engines. Plain CommonJS, runs on Node 20.
  'sanitize-html': '>=22.12.0',
};

it('every runtime dependency declares an engine range that admits our Node floor, or is named with its reason', async () => {
  const semver = await import('semver');
  const floor = semver.minVersion((pkg as unknown as { engines: { node: string } }).engines.node)!.version;
  const outside: Record<string, string> = {};
  for (const name of Object.keys(pkg.dependencies)) {
    const own = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { engines?: { node?: string } };
    const range = own.engines?.node;
    if (range && !semver.satisfies(floor, range)) outside[name] = range;
  }
  expect(outside).toEqual(ABOVE_THE_FLOOR);
  // and the floor is where this suite runs or above
  expect(semver.gte(process.versions.node, floor)).toBe(true);
});
