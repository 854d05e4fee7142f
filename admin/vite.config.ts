import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { gzipAsync } from '@gfx/zopfli';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The public form pages (api/routes/publicPages.ts serves public-form.html there): the same under `vite` dev. */
const PUBLIC_FORM_PATHS = /^\/preview\/form-styles\//;
const publicFormPages = (): Plugin => ({
  name: 'ls-public-form-pages',
  configureServer(server) {
    server.middlewares.use((req, _res, next) => {
      if (req.url && PUBLIC_FORM_PATHS.test(req.url)) req.url = `/public-form.html${req.url.slice(req.url.indexOf('?') >= 0 ? req.url.indexOf('?') : req.url.length)}`;
      next();
    });
  },
});

/**
 * MUI's CSS-variable themes out of the build: createThemeWithVars (imported by createTheme) and the CssVarsProvider of
 * ThemeProviderWithVars (imported by ThemeProvider). See admin/src/layout/noCssVarsTheme.ts and noCssVarsProvider.ts.
 */
const noCssVarsTheme = (): Plugin => ({
  name: 'ls-no-css-vars-theme',
  enforce: 'pre',
  apply: 'build',
  resolveId(source, importer) {
    const from = (file: string) => !!importer && new RegExp(`[\\\\/]@mui[\\\\/]material[\\\\/]styles[\\\\/]${file}\\.mjs$`).test(importer);
    if (source === './createThemeWithVars.mjs' && from('createTheme')) return path.join(here, 'src', 'layout', 'noCssVarsTheme.ts');
    if (source === './ThemeProviderWithVars.mjs' && from('ThemeProvider')) return path.join(here, 'src', 'layout', 'noCssVarsProvider.ts');
    return null;
  },
});

const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|webmanifest|wasm)$/;

/**
 * Writes `<file>.gz` beside every compressible asset of the build, once, so the server sends it as it is
 * (api/middleware/precompressed.ts): smaller than on-the-fly compression (level 6, and nothing under 1 KiB), with a
 * Content-Length, and no CPU per request. A copy that would not be smaller is not written.
 *
 * The chunks a first visit loads before anyone signs in (the entry with its static imports, and the public pages' own
 * chunks with theirs: `/login`, the password pages, invitations, sign-up) are compressed by zopfli (@gfx/zopfli, Google's
 * deflate encoder: standard gzip, about 3.4% smaller than zlib's level 9 here, `/login` 110.3 -> 106.6 KiB), the rest
 * by zlib at level 9: zopfli takes about a second per 60 KB, so the whole admin (3.7 MB) would add a minute to every
 * build, these chunks (about 330 KB) a few seconds.
 */
function precompressAssets(): Plugin {
  let outDir = '';
  return {
    name: 'ls-precompress-assets',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async writeBundle(_options, bundle) {
      const firstVisit = new Set<string>();
      const add = (fileName: string) => {
        const chunk = bundle[fileName];
        if (firstVisit.has(fileName) || !chunk || chunk.type !== 'chunk') return;
        firstVisit.add(fileName);
        for (const imported of chunk.imports) add(imported);
        for (const css of chunk.viteMetadata?.importedCss ?? []) firstVisit.add(css);
      };
      const publicPages = path.join(here, 'src', 'public') + path.sep;
      for (const [fileName, chunk] of Object.entries(bundle)) if (chunk.type === 'chunk' && (chunk.isEntry || chunk.facadeModuleId?.startsWith(publicPages))) add(fileName);
      for (const fileName of Object.keys(bundle)) {
        if (!fileName.startsWith('assets/') || !COMPRESSIBLE.test(fileName)) continue;
        const file = path.join(outDir, fileName);
        const raw = fs.readFileSync(file);
        const gzip = firstVisit.has(fileName) ? await gzipAsync(raw, { numiterations: 5 }) : zlib.gzipSync(raw, { level: 9 });
        if (gzip.length < raw.length) fs.writeFileSync(`${file}.gz`, gzip);
      }
    },
  };
}

export default defineConfig({
  root: here,
  plugins: [react(), publicFormPages(), noCssVarsTheme(), precompressAssets()],
  resolve: {
    alias: [
      // One react-is (19, MUI's and ra-core's) instead of two: hoist-non-react-statics (under emotion) and prop-types
      // bring react-is 16. They use ForwardRef, Memo and isMemo (same symbols in 19), and isElement and
      // isValidElementType only in development builds; 16's isElement does not even know React 19's elements.
      { find: /^react-is$/, replacement: path.join(here, '..', 'node_modules', 'react-is') },
      // Object.entries instead of its polyfill (node-polyglot's): see admin/src/layout/objectEntries.cjs.
      { find: /^object\.entries$/, replacement: path.join(here, 'src', 'layout', 'objectEntries.cjs') },
    ],
  },
  build: {
    outDir: path.join(here, 'dist'),
    emptyOutDir: true,
    sourcemap: false,
    // Every browser the admin supports has <link rel="modulepreload"> (Chrome 66, Firefox 115, Safari 17): no polyfill.
    modulePreload: { polyfill: false },
    // dist/.vite/manifest.json: admin/scripts/bundle-report.mjs reads it to measure what each route loads.
    manifest: true,
    rolldownOptions: {
      // The admin only: the public form page (public-form.html) is built on its own by vite.public-form.config.ts, so the
      // two share no chunk and neither page's figures move with the other's code.
      input: path.join(here, 'index.html'),
      // resources/ is headless: its modules only declare (no side effects), so an import whose bindings a page does not
      // use costs that page nothing (the sign-in page imports messages.ts, which imports the console's messages).
      treeshake: { moduleSideEffects: (id: string) => !/[\\/]resources[\\/][^\\/]+\.ts$/.test(id) },
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000', '/storage': 'http://localhost:3000' } },
});
