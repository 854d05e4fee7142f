import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The form designer's page (test/e2e/formDesigner.test.ts against the real API through `server.proxy`, and
 * bench/designer.ts against the page's fake API, built for production).
 */
const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  plugins: [react()],
  logLevel: 'warn',
  build: { outDir: process.env.DESIGNER_HARNESS_OUT ?? path.join(here, '..', '..', '..', '.test-results', 'designer-harness'), emptyOutDir: true },
});
