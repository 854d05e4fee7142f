import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** MUI's CSS-variable themes (createThemeWithVars) out of the build: see admin/src/layout/noCssVarsTheme.ts. */
const noCssVarsTheme = (): Plugin => ({
  name: 'ls-no-css-vars-theme',
  enforce: 'pre',
  apply: 'build',
  resolveId(source, importer) {
    if (source === './createThemeWithVars.mjs' && importer && /[\\/]@mui[\\/]material[\\/]styles[\\/]createTheme\.mjs$/.test(importer)) {
      return path.join(here, 'src', 'layout', 'noCssVarsTheme.ts');
    }
    return null;
  },
});

export default defineConfig({
  root: here,
  plugins: [react(), publicFormPages(), noCssVarsTheme()],
  resolve: {
    alias: [
      // One react-is (19, MUI's and ra-core's) instead of two: hoist-non-react-statics (under emotion) and prop-types
      // bring react-is 16. They use ForwardRef, Memo and isMemo (same symbols in 19), and isElement and
      // isValidElementType only in development builds; 16's isElement does not even know React 19's elements.
      { find: /^react-is$/, replacement: path.join(here, '..', 'node_modules', 'react-is') },
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
