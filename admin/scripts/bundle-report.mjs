#!/usr/bin/env node
// What each route of the built admin loads: the entry's static imports plus the route's lazy chunk and its static
// imports, in minified bytes and in the bytes the server sends (gzip as api/app.ts serves it: SERVED_GZIP). Also the
// largest chunk. test/e2e/bundleBudget.test.ts holds this figure for /login to what Chromium downloads.
//   node admin/scripts/bundle-report.mjs [--json]
// or, from a test: import { bundleReport } from 'admin/scripts/bundle-report.mjs'; bundleReport(distDir).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

/**
 * What the server sends a browser that asks for gzip: the build's `<file>.gz` (zopfli or gzip level 9, admin/vite.config.ts,
 * sent as it is with its Content-Length by api/middleware/precompressed.ts); for a file without one, what the
 * `compression` middleware makes of it (api/middleware/lazyCompression.ts: zlib's default level, and a body under 1 KiB
 * sent as it is). Chromium asks the tests' server (http) for gzip, so these are the bytes it downloads.
 */
export const SERVED_GZIP = { level: zlib.constants.Z_DEFAULT_COMPRESSION, threshold: 1024 };

/** The bytes the server sends for a file of the build (`file`: its path) to a browser that accepts gzip. */
export function servedBytes(file) {
  if (fs.existsSync(`${file}.gz`)) return fs.statSync(`${file}.gz`).size;
  const buf = fs.readFileSync(file);
  return buf.length < SERVED_GZIP.threshold ? buf.length : zlib.gzipSync(buf, { level: SERVED_GZIP.level }).length;
}

export const DEFAULT_DIST = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');

/** The figures of a built admin (dist: `admin/dist` unless told): per route, the largest chunk, the chunk count. */
export function bundleReport(dist = DEFAULT_DIST) {
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
  // The public form page is a build of its own (admin/vite.public-form.config.ts) with its own manifest.
  const publicFormManifestFile = path.join(dist, '.vite', 'public-form-manifest.json');
  const publicForm = fs.existsSync(publicFormManifestFile) ? JSON.parse(fs.readFileSync(publicFormManifestFile, 'utf8')) : undefined;

  const sizes = new Map();
  function size(file) {
    if (!sizes.has(file)) {
      const full = path.join(dist, file);
      sizes.set(file, { min: fs.statSync(full).size, gzip: servedBytes(full) });
    }
    return sizes.get(file);
  }

  function closure(keys, m = manifest, seen = new Set()) {
    for (const key of keys) {
      if (seen.has(key)) continue;
      seen.add(key);
      closure(m[key].imports ?? [], m, seen);
    }
    return seen;
  }

  function route(lazyKeys, m = manifest, entry = entryKey) {
    const keys = closure([entry, ...lazyKeys], m);
    const files = [...keys].map((k) => m[k].file).filter((f) => f.endsWith('.js'));
    const total = files.reduce((acc, f) => ({ min: acc.min + size(f).min, gzip: acc.gzip + size(f).gzip }), { min: 0, gzip: 0 });
    return { files: files.length, ...total, names: files };
  }

  const lazy = (name) => Object.keys(manifest).filter((k) => k.endsWith(name));
  const consoleShell = () => [...lazy('src/AdminApp.tsx'), ...lazy('src/console/ConsoleRoutes.tsx'), ...lazy('src/console/ConsoleMenu.tsx'), ...lazy('src/i18n/console/en.ts')];
  const routes = {
    '/login': route(lazy('src/public/LoginPage.tsx')),
    '/users/verify/:token': route(lazy('src/public/VerifyPage.tsx')),
    '/users/resetpassword': route(lazy('src/public/ResetPasswordPage.tsx')),
    '/accounts/selection': route([...lazy('src/AdminApp.tsx'), ...lazy('src/accounts/AccountSelection.tsx')]),
    '/accounts': route([...lazy('src/AdminApp.tsx'), ...lazy('src/accounts/AccountList.tsx')]),
    '/users': route([...lazy('src/AdminApp.tsx'), ...lazy('src/users/UserList.tsx')]),
    '/users/:id': route([...lazy('src/AdminApp.tsx'), ...lazy('src/users/UserEdit.tsx')]),
    '/media': route([...lazy('src/AdminApp.tsx'), ...lazy('src/media/MediaPage.tsx')]),
    // The account console: its routes, menu and English texts, then the screen.
    '/console/:id': route([...consoleShell(), ...lazy('src/console/ConsoleHome.tsx')]),
    '/console/:id/events': route([...consoleShell(), ...lazy('src/generated/GeneratedList.tsx')]),
    '/console/:id/events/new': route([...consoleShell(), ...lazy('src/generated/GeneratedCreate.tsx')]),
    '/console/:id/events/:eid': route([...consoleShell(), ...lazy('src/events/EventEdit.tsx')]),
    '/console/:id/forms/:fid': route([...consoleShell(), ...lazy('src/forms/FormEdit.tsx')]),
    '/console/:id/lists/:lid': route([...consoleShell(), ...lazy('src/lists/ListEdit.tsx')]),
  };
  if (publicForm) {
    // the console's preview of a form style (and the registration page to come): its entry's static imports
    routes['/preview/form-styles/…'] = route(
      [],
      publicForm,
      Object.keys(publicForm).find((k) => publicForm[k].isEntry),
    );
  }
  const all = fs.readdirSync(path.join(dist, 'assets')).filter((f) => f.endsWith('.js'));
  const largest = all.map((f) => ({ file: f, ...size(`assets/${f}`) })).sort((a, b) => b.min - a.min)[0];
  const totalJs = all.reduce((acc, f) => acc + size(`assets/${f}`).min, 0);
  return { routes, largest, chunks: all.length, totalJs };
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { routes, largest, chunks, totalJs } = bundleReport();
  print(routes, largest, chunks, totalJs);
}

function print(routes, largest, chunks, totalJs) {
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ routes, largest, chunks, totalJs }, (k, v) => (k === 'names' ? undefined : v), 2));
  } else {
    console.log('route                      chunks   minified    gzip');
    for (const [name, r] of Object.entries(routes)) console.log(`${name.padEnd(26)} ${String(r.files).padStart(5)} ${kb(r.min).padStart(10)} ${kb(r.gzip).padStart(10)}`);
    console.log(`largest chunk: ${largest.file} ${kb(largest.min)} minified, ${kb(largest.gzip)} gzip; ${chunks} chunks, ${kb(totalJs)} JS in all`);
  }
}
