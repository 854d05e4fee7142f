import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { importGraph, ROOT } from '../helpers/imports';

/**
 * The totem player (/play/{code}) stays small for a cheap totem: plain TypeScript and the DOM plus the `qrcode`
 * package's core encoder; no React, react-admin, MUI, zod or i18n; at most 120 KB of gzipped JavaScript in all. Its
 * production build is made here, as `npm run build:admin` makes it, and measured.
 */
const OUT = path.join(ROOT, '.test-results', `player-bundle-${process.pid}`);
const BUDGET = 120 * 1024;
const ALLOWED = [/^qrcode\/lib\/core\/qrcode\.js$/];

describe('the player bundle', () => {
  afterAll(() => fs.rmSync(OUT, { recursive: true, force: true }));

  it('imports its own modules and the QR encoder only', () => {
    const graph = importGraph(path.join(ROOT, 'admin/src/player/main.ts'));
    expect(graph.unresolved).toEqual([]);
    expect(graph.files).toEqual(
      expect.arrayContaining(['admin/src/player/player.ts', 'admin/src/player/live.ts', 'admin/src/player/preview.ts', 'admin/src/player/eventQueue.ts', 'admin/src/player/qr.ts']),
    );
    expect(graph.files.filter((f) => !f.startsWith('admin/src/player/'))).toEqual([]);
    expect([...graph.packages.keys()].filter((spec) => !ALLOWED.some((re) => re.test(spec)))).toEqual([]);
  });

  it(`built for production: at most ${BUDGET / 1024} KB of gzipped JavaScript, no inline script or style, a precaching service worker`, () => {
    const run = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'admin/vite.player.config.ts', '--logLevel', 'warn'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'production', PLAYER_OUT: OUT },
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const assets = fs.readdirSync(path.join(OUT, 'assets'));
    const js = assets.filter((f) => f.endsWith('.js'));
    const sizes = js.map((f) => zlib.gzipSync(fs.readFileSync(path.join(OUT, 'assets', f)), { level: 9 }).length);
    const gzip = sizes.reduce((a, b) => a + b, 0);
    const minified = js.reduce((a, f) => a + fs.statSync(path.join(OUT, 'assets', f)).size, 0);
    console.log(`player: ${js.length} JS file(s), ${(minified / 1024).toFixed(1)} KiB minified, ${(gzip / 1024).toFixed(1)} KiB gzip (level 9)`);
    expect(js).toHaveLength(1);
    expect(gzip).toBeGreaterThan(5 * 1024); // it really is the player (and the QR encoder)
    expect(gzip).toBeLessThanOrEqual(BUDGET);
    const all = js.map((f) => fs.readFileSync(path.join(OUT, 'assets', f), 'utf8')).join('\n');
    expect(/react|ZodError|MuiButton|RaLayout|i18next/i.test(all)).toBe(false);
    const html = fs.readFileSync(path.join(OUT, 'player.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
    const sw = fs.readFileSync(path.join(OUT, 'player-sw.js'), 'utf8');
    for (const f of assets) expect(sw).toContain(`"/assets/${f}"`);
    expect(sw).not.toContain('__LS_');
  }, 120_000);
});
