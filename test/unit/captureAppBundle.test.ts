import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { importGraph, ROOT } from '../helpers/imports';

/**
 * The capture app (/app) stays small for a phone on a booth's network: plain React, the shared renderer, no
 * react-admin, MUI, emotion, zod, i18next or router; at most 150 KB of gzipped JavaScript in all, the barcode
 * polyfill's lazy chunk included (its .wasm is loaded only where the browser has no BarcodeDetector, and is counted
 * apart). Its production build is made here, as `npm run build:admin` makes it, and measured.
 */
const OUT = path.join(ROOT, '.test-results', `capture-app-bundle-${process.pid}`);
const BUDGET = 150 * 1024;
const FORBIDDEN = [/^react-admin$/, /^ra-/, /^@mui\//, /^@emotion\//, /^zod(\/|$)/, /^i18next/, /^react-router/];
const ALLOWED = [/^react$/, /^react\/jsx-runtime$/, /^react-dom(\/|$)/, /^barcode-detector\/ponyfill$/, /^zxing-wasm\/reader\/zxing_reader\.wasm\?url$/];

describe('the capture app bundle', () => {
  afterAll(() => fs.rmSync(OUT, { recursive: true, force: true }));

  it('imports plain React, the shared renderer and the barcode polyfill only', () => {
    const graph = importGraph(path.join(ROOT, 'admin/src/app/main.tsx'));
    expect(graph.unresolved).toEqual([]);
    expect(graph.files).toEqual(expect.arrayContaining(['admin/src/app/CaptureApp.tsx', 'admin/src/app/queue.ts', 'admin/src/renderer/FormRenderer.tsx']));
    const bad = [...graph.packages].filter(([spec]) => FORBIDDEN.some((re) => re.test(spec)) || !ALLOWED.some((re) => re.test(spec)));
    expect(bad).toEqual([]);
    expect(graph.files.filter((f) => f.startsWith('resources/')).sort()).toEqual([
      'resources/answers.ts',
      'resources/checks.ts',
      'resources/consent.ts',
      'resources/roles.ts',
      'resources/tags.ts',
    ]);
  });

  it(`built for production: at most ${BUDGET / 1024} KB of gzipped JavaScript, the decoder's .wasm a file of our own, a precaching service worker`, () => {
    const run = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'admin/vite.app.config.ts', '--logLevel', 'warn'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'production', CAPTURE_APP_OUT: OUT },
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const assets = fs.readdirSync(path.join(OUT, 'assets'));
    const js = assets.filter((f) => f.endsWith('.js'));
    const sizes = js.map((f) => zlib.gzipSync(fs.readFileSync(path.join(OUT, 'assets', f)), { level: 9 }).length);
    const gzip = sizes.reduce((a, b) => a + b, 0);
    const main = zlib.gzipSync(
      fs.readFileSync(
        path.join(
          OUT,
          'assets',
          js.find((f) => f.startsWith('app-'))!,
        ),
      ),
      { level: 9 },
    ).length;
    const wasm = assets.find((f) => f.endsWith('.wasm'));
    console.log(
      `capture app: ${js.length} JS files, ${(gzip / 1024).toFixed(1)} KB gzip in all (entry ${(main / 1024).toFixed(1)} KB); decoder ${wasm} ${(fs.statSync(path.join(OUT, 'assets', wasm!)).size / 1024).toFixed(0)} KB`,
    );
    expect(gzip).toBeGreaterThan(40 * 1024);
    expect(gzip).toBeLessThanOrEqual(BUDGET);
    const all = js.map((f) => fs.readFileSync(path.join(OUT, 'assets', f), 'utf8')).join('\n');
    expect(/ZodError|MuiButton|RaLayout/.test(all)).toBe(false);
    // the decoder's .wasm is this build's own file (the polyfill's default CDN address is overridden; the page's CSP,
    // connect-src 'self', would refuse a CDN anyway, and the end-to-end scan runs under it)
    expect(all.includes(`/assets/${wasm}`)).toBe(true);
    const html = fs.readFileSync(path.join(OUT, 'app.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
    const sw = fs.readFileSync(path.join(OUT, 'app-sw.js'), 'utf8');
    for (const f of assets) expect(sw).toContain(`"/assets/${f}"`);
    expect(sw).not.toContain('__LS_');
    expect(JSON.parse(fs.readFileSync(path.join(OUT, 'app.webmanifest'), 'utf8')).icons).toHaveLength(3);
  }, 120_000);
});
