import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { importGraph, ROOT } from '../helpers/imports';

/**
 * The public form page (admin/public-form.html: the console's style preview, then the registration page) may load
 * 100 KB of gzipped JavaScript in all, React included (issue: "Built without react-admin: at most 100 KB gzip").
 * Its production build is made here, as `npm run build:admin` makes it, and measured.
 */
const OUT = path.join(ROOT, '.test-results', `public-form-bundle-${process.pid}`);
const BUDGET = 100 * 1024;
const FORBIDDEN_PACKAGES = [/^react-admin$/, /^ra-/, /^@mui\//, /^@emotion\//, /^zod(\/|$)/, /^i18next/, /^react-router/];
const ALLOWED_PACKAGES = [/^react$/, /^react\/jsx-runtime$/, /^react-dom(\/|$)/];

describe('the public form page', () => {
  afterAll(() => fs.rmSync(OUT, { recursive: true, force: true }));

  it('imports plain React only: no react-admin, MUI, emotion, zod, i18next or router', () => {
    const graph = importGraph(path.join(ROOT, 'admin/src/publicForm/main.tsx'));
    expect(graph.unresolved).toEqual([]);
    expect(graph.files).toEqual(expect.arrayContaining(['admin/src/publicForm/PublicFormPage.tsx', 'admin/src/renderer/FormRenderer.tsx', 'admin/src/publicForm/publicForm.css']));
    const bad = [...graph.packages].filter(([spec]) => FORBIDDEN_PACKAGES.some((re) => re.test(spec)) || !ALLOWED_PACKAGES.some((re) => re.test(spec)));
    expect(bad).toEqual([]);
    // from resources/ only the zod-free modules (fields.ts and the declarations build zod schemas when loaded)
    expect(graph.files.filter((f) => f.startsWith('resources/')).sort()).toEqual(['resources/answers.ts', 'resources/checks.ts', 'resources/consent.ts', 'resources/richtext.ts']);
    expect(graph.files.some((f) => f.startsWith('admin/src/i18n/'))).toBe(false); // its own small catalogue
  });

  it(`built for production stays under ${BUDGET / 1024} KB of gzipped JavaScript, with no inline script or style`, () => {
    const run = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'admin/vite.public-form.config.ts', '--logLevel', 'warn'], {
      cwd: ROOT,
      encoding: 'utf8',
      // Vitest sets NODE_ENV=test, which would bundle React's development builds.
      env: { ...process.env, NODE_ENV: 'production', PUBLIC_FORM_OUT: OUT },
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const html = fs.readFileSync(path.join(OUT, 'public-form.html'), 'utf8');
    const assets = path.join(OUT, 'assets');
    const files = fs.readdirSync(assets);
    const js = files.filter((f) => f.endsWith('.js')).map((f) => fs.readFileSync(path.join(assets, f)));
    const gzip = js.reduce((n, buf) => n + zlib.gzipSync(buf, { level: 9 }).length, 0);
    console.log(`public form page: ${js.length} JS file(s), ${(gzip / 1024).toFixed(1)} KB gzip`);
    expect(gzip).toBeGreaterThan(40 * 1024); // React is in it: the build really bundled something
    expect(gzip).toBeLessThanOrEqual(BUDGET);
    expect(js.some((buf) => buf.includes('ZodError'))).toBe(false);
    expect(js.some((buf) => buf.includes('MuiButton') || buf.includes('RaLayout'))).toBe(false);
    // the page's CSP has no 'unsafe-inline': everything it runs and styles with comes as files
    expect(html).toMatch(/<script type="module" crossorigin src="\/assets\/[^"]+\.js"><\/script>/);
    expect(html).toMatch(/<link rel="stylesheet" crossorigin href="\/assets\/[^"]+\.css">/);
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
  }, 120_000);
});
