import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import zlib from 'node:zlib';
// @ts-expect-error -- a plain .mjs script without types
import { zopfliAll } from './scripts/zopfli.mjs';

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

/**
 * zod's JSON Schema generator out of the build: see admin/src/layout/noZodJsonSchema.ts. Only imports made inside
 * zod's v4 folder resolve to the stand-in (the API, built by tsc, keeps the real one).
 */
const noZodJsonSchema = (): Plugin => ({
  name: 'ls-no-zod-json-schema',
  enforce: 'pre',
  apply: 'build',
  resolveId(source, importer) {
    if (!importer || !/[\\/]node_modules[\\/]zod[\\/]v4[\\/]/.test(importer)) return null;
    return /(?:^|\/)(?:to-json-schema|json-schema-processors)\.js$/.test(source) ? path.join(here, 'src', 'layout', 'noZodJsonSchema.ts') : null;
  },
});

const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|webmanifest|wasm)$/;

/**
 * Writes `<file>.gz` beside every compressible asset of the build, once, so the server sends it as it is
 * (api/middleware/precompressed.ts): smaller than on-the-fly compression (level 6, and nothing under 1 KiB), with a
 * Content-Length, and no CPU per request. A copy that would not be smaller is not written.
 *
 * Scripts and style sheets are compressed by zopfli (admin/scripts/zopfli.mjs: @gfx/zopfli, Google's deflate encoder,
 * standard gzip that every browser reads, about 3% smaller than zlib's level 9 here: `/login` 110.3 -> 106.6 KiB, the
 * form designer's page 459.0 -> 445.2), other files (the barcode decoder's WebAssembly, icons, the manifest) by zlib at
 * level 9. Zopfli takes about a second per 100 KB, so it runs on a worker per core and keeps its results by content in
 * node_modules/.cache/leadstage-zopfli: a rebuild compresses only the chunks that changed.
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
      const files = Object.keys(bundle).filter((fileName) => fileName.startsWith('assets/') && COMPRESSIBLE.test(fileName));
      const raws = files.map((fileName) => fs.readFileSync(path.join(outDir, fileName)));
      const byZopfli = files.map((fileName) => /\.(?:js|mjs|css)$/.test(fileName));
      const zopflied = await zopfliAll(raws.filter((_, i) => byZopfli[i]));
      let next = 0;
      files.forEach((fileName, i) => {
        const gzip = byZopfli[i] ? zopflied[next++] : zlib.gzipSync(raws[i], { level: 9 });
        if (gzip.length < raws[i].length) fs.writeFileSync(path.join(outDir, `${fileName}.gz`), gzip);
      });
    },
  };
}

export default defineConfig({
  root: here,
  plugins: [react(), publicFormPages(), noCssVarsTheme(), noZodJsonSchema(), precompressAssets()],
  resolve: {
    alias: [
      // One react-is (19, MUI's and ra-core's) instead of two: hoist-non-react-statics (under emotion) and prop-types
      // bring react-is 16. They use ForwardRef, Memo and isMemo (same symbols in 19), and isElement and
      // isValidElementType only in development builds; 16's isElement does not even know React 19's elements.
      { find: /^react-is$/, replacement: path.join(here, '..', 'node_modules', 'react-is') },
      // Object.entries instead of its polyfill (node-polyglot's): see admin/src/layout/objectEntries.cjs.
      { find: /^object\.entries$/, replacement: path.join(here, 'src', 'layout', 'objectEntries.cjs') },
      // react-admin's client-side CSV export, which no list of Leadstage uses: see admin/src/layout/noJsonExport.ts.
      { find: /^jsonexport\/dist\/index\.js$/, replacement: path.join(here, 'src', 'layout', 'noJsonExport.ts') },
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
