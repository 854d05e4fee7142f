import fs from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';

/** The encoding the admin build writes beside each asset (admin/vite.config.ts, `precompressAssets`). */
const ENCODINGS = [{ name: 'gzip', ext: '.gz' }] as const;

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
};

/** Whether Accept-Encoding accepts `name` (listed, or `*`, with a q above 0). */
export function accepts(header: string | undefined, name: string): boolean {
  if (!header) return false;
  let star = false;
  for (const part of header.toLowerCase().split(',')) {
    const [token, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const ok = q === undefined || Number(q.slice(2)) > 0;
    if (token === name) return ok;
    if (token === '*') star = ok;
  }
  return star;
}

/**
 * The admin's hashed assets as the build compressed them (`<file>.gz`: zopfli or gzip level 9): sent with their Content-Length,
 * so a browser downloads exactly what the build measured (admin/scripts/bundle-report.mjs, test/e2e/bundleBudget.test.ts),
 * and no request spends CPU compressing. Gzip, as the `compression` middleware chose for browsers before (they list
 * gzip first); brotli would be a further ~12 % but another measure than the budgets' (issue 18: gzip). A file without a
 * compressed copy, a client that does not accept gzip, or anything but GET/HEAD of a flat file name goes on to `next`
 * (express.static, compressed on the fly).
 */
export function precompressedAssets(dir: string, options: { maxAge: string; immutable: boolean }): RequestHandler {
  const known = new Map<string, boolean>();
  const exists = (file: string) => {
    let found = known.get(file);
    if (found === undefined) {
      found = fs.existsSync(file);
      known.set(file, found);
    }
    return found;
  };
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const name = req.path.slice(1);
    const type = TYPES[path.extname(name)];
    if (!type || !/^[\w.-]+$/.test(name) || name.startsWith('.')) return next();
    res.vary('Accept-Encoding');
    const header = req.get('Accept-Encoding');
    const encoding = ENCODINGS.find((e) => accepts(header, e.name) && exists(path.join(dir, name + e.ext)));
    if (!encoding) return next();
    const file = path.join(dir, name + encoding.ext);
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Encoding', encoding.name);
    res.sendFile(file, { maxAge: options.maxAge, immutable: options.immutable }, (err) => {
      if (!err || res.headersSent) return;
      // gone since it was seen (a new build): forget it, and let express.static answer
      known.delete(file);
      res.removeHeader('Content-Type');
      res.removeHeader('Content-Encoding');
      next();
    });
  };
}
