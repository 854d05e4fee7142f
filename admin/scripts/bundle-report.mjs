#!/usr/bin/env node
// What each route of the built admin loads: the entry's static imports plus the route's lazy chunk and its static
// imports, in minified bytes and gzip (level 9, like the network would see with compression). Also the largest chunk.
//   node admin/scripts/bundle-report.mjs [--json]
// or, from a test: import { bundleReport } from 'admin/scripts/bundle-report.mjs'; bundleReport(distDir).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

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
      const buf = fs.readFileSync(path.join(dist, file));
      sizes.set(file, { min: buf.length, gzip: zlib.gzipSync(buf, { level: 9 }).length });
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
