import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The public form page (public-form.html → src/publicForm/): the console's preview of a form style and the
 * registration page. Built after the admin into the same admin/dist (the admin's build empties it first) with its own
 * manifest, as a separate build so that it shares no chunk with the admin: plain React, no react-admin or MUI, at most
 * 100 KB gzip of JavaScript (test/unit/publicFormBundle.test.ts; admin/scripts/bundle-report.mjs).
 */
const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  plugins: [react()],
  build: {
    outDir: process.env.PUBLIC_FORM_OUT ?? path.join(here, 'dist'),
    emptyOutDir: Boolean(process.env.PUBLIC_FORM_OUT),
    sourcemap: false,
    manifest: '.vite/public-form-manifest.json',
    rolldownOptions: {
      input: path.join(here, 'public-form.html'),
      treeshake: { moduleSideEffects: (id: string) => !/[\\/]resources[\\/][^\\/]+\.ts$/.test(id) },
    },
  },
});
