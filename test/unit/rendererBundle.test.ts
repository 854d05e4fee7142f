import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The public registration page may load 100 KB of gzipped JavaScript in all, React included. The renderer's harness
 * (every element type, React, ReactDOM) is built for production here; it must leave the page at least 15 KB.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const OUT = path.join(ROOT, '.test-results', `renderer-bundle-${process.pid}`);
const BUDGET = 85 * 1024;

describe('the form renderer in a production build', () => {
  afterAll(() => fs.rmSync(OUT, { recursive: true, force: true }));

  it(`with React stays under ${BUDGET / 1024} KB of gzipped JavaScript, without zod`, () => {
    const run = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'test/e2e/renderer/vite.config.ts', '--logLevel', 'warn'], {
      cwd: ROOT,
      encoding: 'utf8',
      // Vitest sets NODE_ENV=test, which would bundle React's development builds.
      env: { ...process.env, NODE_ENV: 'production', RENDERER_HARNESS_OUT: OUT },
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const assets = path.join(OUT, 'assets');
    const files = fs.readdirSync(assets);
    const js = files.filter((f) => f.endsWith('.js')).map((f) => fs.readFileSync(path.join(assets, f)));
    const gzip = js.reduce((n, buf) => n + zlib.gzipSync(buf, { level: 9 }).length, 0);
    console.log(`form renderer + React: ${(gzip / 1024).toFixed(1)} KB gzip of JavaScript`);
    expect(gzip).toBeGreaterThan(40 * 1024); // React is in it: the build really bundled something
    expect(gzip).toBeLessThanOrEqual(BUDGET);
    expect(js.some((buf) => buf.includes('ZodError'))).toBe(false);
    expect(files.some((f) => f.endsWith('.css'))).toBe(true); // the stylesheet comes along with the component
  }, 120_000);
});
