#!/usr/bin/env node
// Where the bytes of a route go: builds the admin (admin/vite.config.ts) into a scratch folder with a plugin that
// records, per output chunk, each module's rendered (minified) length, then prints the modules of the chunks a route
// loads, largest first, grouped by package.
//   node admin/scripts/bundle-modules.mjs [route-lazy-suffix ...] [--top N]
// e.g. node admin/scripts/bundle-modules.mjs src/public/LoginPage.tsx
import path from 'node:path';
import os from 'node:os';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const topIdx = args.indexOf('--top');
const top = topIdx >= 0 ? Number(args[topIdx + 1]) : 40;
const lazyNames = args.filter((a, i) => !a.startsWith('--') && (topIdx < 0 || i !== topIdx + 1));
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-bundle-'));

const chunks = new Map();
await build({
  configFile: path.join(here, '..', 'vite.config.ts'),
  logLevel: 'warn',
  build: { outDir, emptyOutDir: true },
  plugins: [
    {
      name: 'ls-bundle-modules',
      generateBundle(_options, bundle) {
        for (const out of Object.values(bundle)) if (out.type === 'chunk') chunks.set(out.fileName, out);
      },
    },
  ],
});

const entry = [...chunks.values()].find((c) => c.isEntry);
const byModule = (suffix) => [...chunks.values()].filter((c) => c.facadeModuleId?.endsWith(suffix));
const seen = new Set();
const visit = (c) => {
  if (!c || seen.has(c.fileName)) return;
  seen.add(c.fileName);
  for (const i of c.imports) visit(chunks.get(i));
};
visit(entry);
for (const name of lazyNames) for (const c of byModule(name)) visit(c);

const rows = [];
for (const file of seen) {
  const c = chunks.get(file);
  for (const [id, m] of Object.entries(c.modules)) rows.push({ id, len: m.renderedLength, file });
}
const pkg = (id) => {
  const m = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(id);
  if (!m)
    return (
      '(app) ' +
      path
        .relative(path.join(here, '..', '..'), id)
        .split(path.sep)
        .slice(0, 3)
        .join('/')
    );
  return m[1];
};
const groups = new Map();
for (const r of rows) groups.set(pkg(r.id), (groups.get(pkg(r.id)) ?? 0) + r.len);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`${seen.size} chunks, ${kb(rows.reduce((a, r) => a + r.len, 0))} rendered`);
console.log('\nby package:');
for (const [p, n] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${kb(n).padStart(10)}  ${p}`);
console.log('\nby module:');
for (const r of rows.sort((a, b) => b.len - a.len).slice(0, top)) console.log(`${kb(r.len).padStart(10)}  ${r.id.replace(/.*node_modules[\\/]/, '~/')}  [${r.file}]`);
fs.rmSync(outDir, { recursive: true, force: true });
