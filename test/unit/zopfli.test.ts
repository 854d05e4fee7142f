import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without types
import { CACHE_DIR, cacheKeyOf, zopfliAll } from '../../admin/scripts/zopfli.mjs';

/**
 * The admin build's zopfli (admin/scripts/zopfli.mjs, on worker threads, with a cache by content): standard gzip that
 * inflates to the input, smaller than zlib's best, in the input's order, and a second build's chunks from the cache.
 */
describe('zopfli for the admin build', () => {
  it('gzips each buffer in order, smaller than zlib level 9, and keeps each result by content', async () => {
    // text that compresses as code does (repeats at a distance), unique to this run so the cache starts without it
    const salt = crypto.randomBytes(8).toString('hex');
    const inputs = [1, 2, 3].map((n) =>
      Buffer.from(Array.from({ length: 400 * n }, (_, i) => `function f${i % 37}_${salt}(a, b) { return a.map((x) => x * ${i % 11}) + b; }\n`).join('')),
    );
    const out = (await zopfliAll(inputs)) as Buffer[];
    expect(out).toHaveLength(3);
    out.forEach((gz, i) => {
      expect(zlib.gunzipSync(gz).equals(inputs[i])).toBe(true);
      expect(gz.length).toBeLessThan(zlib.gzipSync(inputs[i], { level: 9 }).length);
    });
    const cached = fs.readdirSync(CACHE_DIR as string).filter((f) => f.endsWith('.gz'));
    expect(cached.length).toBeGreaterThanOrEqual(3);
    // the same content again: the same bytes, from the cache (a cache file's content stands in for a result)
    const file = path.join(CACHE_DIR as string, `${(cacheKeyOf as (raw: Buffer) => string)(inputs[0])}.gz`);
    expect(fs.readFileSync(file).equals(out[0])).toBe(true);
    fs.writeFileSync(file, zlib.gzipSync(inputs[0], { level: 1 }));
    const again = (await zopfliAll([inputs[0]])) as Buffer[];
    expect(again[0].equals(fs.readFileSync(file))).toBe(true);
    fs.rmSync(file);
  }, 60_000);
});
